/* SPDX-License-Identifier: MIT */
/*
 * recipe.h - the probe scenario's recipes: which modelled objects exist, which roles access
 * which of their fields in what order per operation, and how many threads take each role.
 * Parsing is a pure function of the text (for fuzzing); binding checks it against a layout.
 *
 *   recipe    := line*            one statement per line; '#' starts a comment
 *   statement := "object" NAME [STRUCT]
 *              | "role" NAME ":" step { ";" step }
 *              | "threads" ":" share { "," share }
 *   step      := "load" REF | "store" REF [INT] | "rmw" REF [INT] | "add" REF [INT]
 *              | "xchg" REF [INT] | "cmpxchg" REF [INT] | "lock" REF | "unlock" REF
 *              | "spin" INT
 *   share     := ROLE "*" | ROLE INT
 *   REF       := [OBJECT "."] FIELD       FIELD may be a dotted path ("memory.usage")
 *
 * See README.md ("Layouts from outside") for the meaning of each step.
 */
#ifndef PCBENCH_RECIPE_H
#define PCBENCH_RECIPE_H

#include <stddef.h>

#include "layout.h"

#define RECIPE_NAME_MAX 64
#define RECIPE_MAX_OBJECTS 64
#define RECIPE_MAX_ROLES 32
#define RECIPE_MAX_STEPS 4096 /* per role */
#define RECIPE_MAX_SPIN 1000000

enum recipe_op {
	RO_LOAD,    /* pc_load: READ_ONCE */
	RO_STORE,   /* pc_store of VALUE (default 0): WRITE_ONCE */
	RO_RMW,	    /* pc_add_return of VALUE (default 1): atomic_long_add_return */
	RO_ADD,	    /* pc_add of VALUE (default 1): atomic_long_add */
	RO_XCHG,    /* pc_xchg to VALUE (default 0): atomic_long_xchg */
	RO_CMPXCHG, /* one pc_cmpxchg from the value last seen to it + VALUE (default 1) */
	RO_LOCK,    /* pc_spin_lock */
	RO_UNLOCK,  /* pc_spin_unlock */
	RO_SPIN,    /* VALUE times cpu_relax: private work between accesses */
	RO_COUNT
};

/* recipe_op_name - the step keyword of @op ("load", "rmw", ...). */
const char *recipe_op_name(enum recipe_op op);
/* recipe_op_writes - nonzero for steps that need the line exclusive. */
int recipe_op_writes(enum recipe_op op);

struct recipe_step {
	enum recipe_op op;
	char ref[LAYOUT_PATH_MAX]; /* as written: [OBJECT.]FIELD; "" for spin */
	long value;
	int line;
	/* Set by recipe_bind: */
	int obj;       /* index into the recipe's objects */
	size_t offset; /* of the field from the object's start */
};

struct recipe_object {
	char name[RECIPE_NAME_MAX];
	char sname[RECIPE_NAME_MAX]; /* "" until bound: the layout's first struct */
	int line;		     /* 0 for the implicit object of a recipe without any */
};

struct recipe_role {
	char name[RECIPE_NAME_MAX];
	struct recipe_step *steps;
	int nsteps, cap;
	int line;
};

struct recipe_share {
	int role;
	long count; /* -1 for '*': the threads the fixed counts leave */
	int line;
};

struct recipe {
	char source[256];
	struct recipe_object objects[RECIPE_MAX_OBJECTS];
	int nobjects;
	struct recipe_role roles[RECIPE_MAX_ROLES];
	int nroles;
	struct recipe_share shares[RECIPE_MAX_ROLES];
	int nshares;
	int threads_line; /* 0 when there is no threads line */
};

/*
 * recipe_parse - parse @text; @source names it in messages. Returns a new recipe, or NULL
 * with "SOURCE:LINE: problem" in @err.
 */
struct recipe *recipe_parse(const char *text, const char *source, char *err, size_t errlen);
void recipe_free(struct recipe *r);

/*
 * recipe_bind - resolve every object and step against layout @l: each object's struct (the
 * layout's first struct when none is named; a recipe without objects gets one, named after
 * that struct), each reference to an object and a field, and check that each step fits its
 * field: word steps need an 8-byte field at a multiple of 8 (the accessor layer's pc_word),
 * rmw and add an atomic field, xchg and cmpxchg an atomic or ptr field, lock and unlock a
 * lock field; every lock taken is released in the same role, never taken twice, and all
 * roles take locks in one order. Sets each step's obj and offset. Returns 0, or -1 with
 * "SOURCE:LINE: problem" in @err.
 */
int recipe_bind(struct recipe *r, const struct layout *l, char *err, size_t errlen);

/*
 * recipe_assign - the role of each of @threads threads into @role[0..threads): the fixed
 * counts first, the '*' roles share what is left (round-robin, in the order listed), and
 * threads are numbered in the order the roles are listed. Returns 0, or -1 with a message
 * when the fixed counts need more threads than there are, or leave threads without a role.
 */
int recipe_assign(const struct recipe *r, int threads, int *role, char *err, size_t errlen);

#endif
