/* SPDX-License-Identifier: MIT */
/*
 * layout_suggest.h - what the files of `pcbench layout suggest` share: the command
 * (layout_suggest.c: options, access sources, output), the search (layout_suggest_search.c:
 * units, signatures, placement, candidate layouts) and the model's verdicts
 * (layout_suggest_model.c: transfers/op of a layout on the chosen threads and topology) and
 * the hitm access source (layout_suggest_hitm.c: a hitm run's samples as a probe recipe).
 * The method and where it can miss: docs/layouts.md, "Suggesting a layout".
 */
#ifndef PCBENCH_LAYOUT_SUGGEST_H
#define PCBENCH_LAYOUT_SUGGEST_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "layout_cmd.h"
#include "model.h"

/* The built-in topology: tests/topologies/spr-2s56c-snc4.synthetic. */
#define SG_TOPO_NAME "spr-2s56c-snc4"
#define SG_TOPO_SPEC "synthetic:pack:2 l3:1 group:4 [numa] l2:14 core:1 pu:2(indexes=core:package)"

#define SG_MAX_KEEP 64

/* The bounds and pins of a search. */
struct sg_limits {
	size_t line;		     /* cache-line size */
	long max_size, max_growth;   /* bytes, lines; -1: not given */
	char *keep[SG_MAX_KEEP + 1]; /* --keep: top-level field names */
	int nkeep;
};

/*
 * What the trace says of one leaf of the target struct, over every traced object of that
 * struct: per object, the threads that write it and the threads that use it at all.
 */
struct sg_leaf {
	uint64_t *w, *a; /* [object] */
	double per_op;	 /* accesses per operation, all threads and objects */
};

/* The access profile of the target struct (leaves in layout_leaves order). */
struct sg_prof {
	const struct layout *l;
	const struct layout_struct *s;
	struct layout_leaf *lv;
	int n, nobj, threads;
	struct sg_leaf *leaf;
	struct ann *ann; /* per leaf, summed as layout show annotates one object (object 0) */
};

/* A field that moved, and why (for the view). */
struct sg_move {
	char path[LAYOUT_PATH_MAX]; /* "memory" or, inside a reordered type, "page_counter.usage" */
	size_t from, to;
	char why[256];
};

/* One candidate layout and what the search did to make it. */
struct sg_cand {
	struct layout *l; /* NULL: the candidate could not be built (why in note) */
	char name[32];	  /* "groups", "split", "inner", "separated" */
	char note[512];	  /* align raised, types reordered: one line each */
	struct sg_move *mv;
	int nmv;
	size_t limit; /* the bounds' size */
	int fits;     /* built, and within the bounds (the separated reference may not be) */
};

/*
 * sg_candidates - the candidate layouts for @p under @lim, into @out (at most @max): the
 * (writers, readers) signature groups, each written field split, the nested types only;
 * plus, at out[0], the separated reference (every field on a line of its own, no bounds).
 * Returns how many were stored (including those that could not be built).
 */
int sg_candidates(const struct sg_prof *p, const struct sg_limits *lim, struct sg_cand *out,
		  int max);
void sg_cand_free(struct sg_cand *c);

/* sg_lines_touched - lines of struct @sname in @l holding a leaf @p saw accessed, x objects. */
int sg_lines_touched(const struct sg_prof *p, const struct layout *l, size_t line);

/* The model side: the selection, its placement on the topology, and the options. */
struct sg_model {
	const struct scenario *sc; /* traced */
	const struct bench_preset *preset;
	const struct bench_workload *wl;
	char *user[TRACE_MAX_PARAMS + 2];
	int nuser;
	int computed;	 /* the scenario computes its layout: candidates go in as -D layout=FILE */
	const char *tmp; /* a directory for those files */
	int threads;
	const char *placement, *topo_name;
	struct topo *topo;
	int *pus;
	char *cpus;
	struct model_opts mo;
	int nfiles;
	char file[4096]; /* the candidate file of the run under way */
};

/* sg_model_init - place @m's threads on its topology; 0, or 2 with why on stderr. */
int sg_model_init(struct sg_model *m);
void sg_model_free(struct sg_model *m);
/* sg_model_eval - the model's transfers/op with layout @l; 0, or -1 with why in @err. */
int sg_model_eval(struct sg_model *m, const struct layout *l, double *xfer, char *err,
		  size_t errlen);

/* ---- --hitm RUN (layout_suggest_hitm.c) ---- */

struct sg_hitm_req {
	const char *run, *script; /* the run directory; --script FILE, or NULL: its perf.data */
	const char *sname;	  /* --struct, or NULL: the struct with the most HITM loads */
	const char *layout;	  /* the LAYOUT given, or NULL: the run's own (written to @tmp) */
	const char *tmp;	  /* a directory for the recipe and layout files */
};

struct sg_hitm_out {
	char recipe[4200], layout[4200]; /* the files written ("" layout: the one given) */
	char sname[64];
	int nroles;	 /* one thread each: the virtual CPUs */
	char note[4096]; /* for the header: the samples and the roles */
};

/*
 * sg_hitm_recipe - the loads and stores per CPU that `hitm report` maps from run @rq->run, as
 * a probe recipe (and, without a LAYOUT, the run's layout) in @rq->tmp: one role per CPU,
 * the sampled fields of the target struct in proportion to their samples (docs/layouts.md,
 * "Accesses from a hitm run"). Returns 0, 1 (a file could not be written) or 2 (bad input),
 * after a message.
 */
int sg_hitm_recipe(const struct sg_hitm_req *rq, struct sg_hitm_out *out);

#endif
