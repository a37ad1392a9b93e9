/* SPDX-License-Identifier: MIT */
/*
 * sim.h - the coherence model's insides, shared by its files (not an interface: model.h is):
 * sim.c (the scheduler of virtual CPUs and the MESI simulator, one run), trace.c (an address
 * to its object.field, line and accumulator), result.c (the result and its tables), model.c
 * (the names and options); `pcbench model` is commands/cmd_model.c.
 */
#ifndef PCBENCH_MODEL_SIM_H
#define PCBENCH_MODEL_SIM_H

#include <stdint.h>
#include <ucontext.h>

#include "coro.h"
#include "layout.h"
#include "model.h"

#define STACK_SIZE (256 * 1024)
#define MAX_OBJECTS 64
#define NO_PROGRESS_STEPS (1u << 20) /* steps without a finished operation: a stuck wait */
#define RR_OP_VALVE 1024	     /* rr-op: accesses in one operation before it must yield */

/*
 * HEAP_AS_BEFORE: with --line-size above an allocation's alignment, whether two of a
 * scenario's allocations share a line depends on the addresses malloc gives them, so on
 * every malloc and free the model made before (it runs families one after another on one
 * heap). The pinned numbers of the 128-byte view (docs/seeds.md) came from the model with
 * ucontext_t in struct vcpu and struct sim; the faster switch (coro.h) keeps their room,
 * and the model's later additions (the holders' bitmaps) stay off the heap, so the same
 * options still give the same bytes.
 */

/* MESI states of one line in one private-cache domain (a core). */
enum { MESI_I, MESI_S, MESI_E, MESI_M };

/* ---- simulator state ---- */

struct lstate {
	uintptr_t addr; /* first byte of the line */
	uint8_t *st;	/* state per domain */
	int owner;	/* domain holding the line E or M, or -1 */
	int nvalid;	/* domains holding a copy */
	int object;	/* object of the first access, -1 for private memory */
	int nparked;	/* vCPUs parked on this line */
};

/* One (address, site, op) seen: its field, its line and what it was charged. */
struct acc {
	uintptr_t addr;
	const char *site;
	int op, used;
	int field, line;
	uint64_t accesses, ev[MEV_COUNT], xfer[PAIR_COUNT];
};

struct vcpu {
	union {
		struct coro co;
		ucontext_t heap_room; /* see HEAP_AS_BEFORE */
	};
	void *stack, *ts;
	int dom;
	long ops;	  /* operations completed */
	long op_accesses; /* accesses in the current operation (rr-op) */
	int started, stopped;
	int parked; /* line index this vCPU spins on while parked, or -1 */
};

struct sim {
	const struct scenario *sc;
	void *shared;
	struct model_opts o;
	int T, D;
	unsigned long long watchdog; /* model_watchdog_steps(T) */
	struct vcpu *v;
	int *dom_pkg;  /* package of each domain */
	uint8_t *pair; /* D x D pair classes */
	union {
		struct {
			struct coro main_co; /* model_run's own stack */
			/*
			 * Each line's holders as a bitmap of dwords words, line i's at held +
			 * i * dwords, for room for heldcap lines: mmap'd, not from the heap.
			 */
			uint64_t *held;
			int dwords, heldcap;
		};
		ucontext_t heap_room; /* see HEAP_AS_BEFORE */
	};
	int cur;
	int *active, nactive;
	uint64_t rng;
	uint64_t steps, progress_step;
	int nfinished, all_done, stuck;

	int nobj;
	struct bench_object objs[MAX_OBJECTS];
	size_t objsize[MAX_OBJECTS];
	struct model_field *fields;
	uintptr_t *fstart; /* absolute first byte of each field */
	int nfields, capfields, nstatic, private_field;
	struct layout_leaf *leaves[MAX_OBJECTS];      /* each object's leaves, by offset */
	int nleaves[MAX_OBJECTS], first[MAX_OBJECTS]; /* and the field id of the first */

	struct lstate *lines;
	int nlines, caplines;
	int *lmap; /* open addressing: line index + 1, or 0 */
	size_t lcap;

	struct acc *acc;
	size_t acap, nacc;
};

/* model.c */
uint64_t sim_mix(uint64_t h);
void *sim_grow(void *p, int *cap, int need, size_t elem);

/* trace.c */
void sim_build_fields(struct sim *s);
void sim_free_fields(struct sim *s);
struct acc *sim_acc_get(struct sim *s, uintptr_t a, const char *site, int op, unsigned size);

/* result.c */
void sim_build_result(struct sim *s, struct model_result *r);

#endif
