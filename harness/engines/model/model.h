/* SPDX-License-Identifier: MIT */
/*
 * model.h - the coherence model: runs the tracing build of a scenario on virtual CPUs
 * (coroutines on one OS thread, interleaved per access by a seeded scheduler), feeds every
 * shared access to a per-line MESI simulator whose private-cache domains come from the
 * topology, and charges every coherence event to the struct field at that address and to
 * the accessing function and operation. Nothing is timed, nothing is bound: any topology
 * source works. Deterministic: the same options give byte-identical results.
 */
#ifndef PCBENCH_MODEL_H
#define PCBENCH_MODEL_H

#include <stdint.h>
#include <stdio.h>

#include "access.h"
#include "harness.h"
#include "topology.h"

/* Who executes the next access. */
enum model_interleave {
	MODEL_RANDOM,	 /* a seeded pseudo-random virtual CPU at every access (default) */
	MODEL_RR_ACCESS, /* lockstep round-robin, one access each */
	MODEL_RR_OP,	 /* whole operations in turn: a lower bound, no steals inside an op */
	MODEL_INTERLEAVE_COUNT
};
extern const char *const model_interleave_names[MODEL_INTERLEAVE_COUNT];

struct model_opts {
	enum model_interleave interleave;
	uint64_t seed; /* of the MODEL_RANDOM scheduler (default 1) */
	long ops;      /* measured operations per virtual CPU (default 2000) */
	long warmup;   /* operations per virtual CPU before them, not counted (default 200) */
	int line_size; /* coherence granule in bytes: 64 (default), 128 for adjacent-line prefetch
			*/
};

/* model_opts_default - the defaults above. */
void model_opts_default(struct model_opts *o);

/*
 * model_opt_set - set one option from its command-line spelling: "seed", "interleave",
 * "ops", "warmup", "line-size". Returns -1 with "why" in @err for a bad value or name.
 */
int model_opt_set(struct model_opts *o, const char *name, const char *value, char *err,
		  size_t errlen);

/* Counted events. transfers = hitm_local + hitm_remote + clean_c2c. */
enum model_ev {
	MEV_HITM_LOCAL,	 /* load or RFO served from a line Modified in a core of the same package */
	MEV_HITM_REMOTE, /* ... Modified in a core of another package */
	MEV_CLEAN_C2C,	 /* load or RFO served from another core's clean (E or S) copy */
	MEV_INVAL,	 /* copies in other cores invalidated by a write */
	MEV_UPGRADE,	 /* a write to a line held Shared: S -> M */
	MEV_MISS,	 /* served from memory: no core held the line */
	MEV_COUNT
};
extern const char *const model_ev_names[MEV_COUNT];

/* A field of a modelled object, flattened: "L1.memory.min_usage". */
struct model_field {
	char name[128]; /* object.path; "(private)" for addresses outside every object */
	char leaf[64];	/* the name in its own struct: "min_usage", "css.parent" */
	int object;	/* index into model_result.objects, -1 for (private) */
	long offset;	/* from the object's base */
	long size;
};

/* One cache line that was accessed in the measured phase. */
struct model_line {
	char name[96]; /* "L1 line 3" (object and line index from its base), "(private) #2" */
	int object;    /* -1 for private memory */
	long offset;   /* of the line's first byte from the object's base */
	int *fields;   /* indexes into model_result.fields of the fields that overlap the line */
	int nfields;
	uint64_t accesses, ev[MEV_COUNT], xfer[PAIR_COUNT];
};

/* Events charged to one (field, line, accessing function, op). */
struct model_attr {
	int field, line;
	char site[64];
	enum pc_op op;
	uint64_t accesses;
	uint64_t ev[MEV_COUNT];
	uint64_t xfer[PAIR_COUNT]; /* transfers by the pair class of requester and source */
};

/* Everything counted in the measured phase (warm-up and the tail excluded). */
struct model_result {
	int ok;		  /* 0: reason says why */
	char reason[256]; /* also notes on an ok result, e.g. virtual CPUs abandoned at the end */
	int threads, domains, line_size;
	uint64_t ops;	/* measured operations over all virtual CPUs: threads * opts.ops */
	uint64_t steps; /* accesses and operation boundaries executed in the whole run */
	uint64_t accesses, ev[MEV_COUNT], xfer[PAIR_COUNT];
	uint64_t load_hitm[2]; /* the HITM events of loads: local, remote (the rest are RFOs) */
	int nobjects;
	char (*objects)[64];
	struct model_field *fields;
	int nfields;
	struct model_line *lines; /* objects in objects() order by offset, then private memory */
	int nlines;
	struct model_attr *attrs; /* by line, field, site, op */
	int nattrs;
};

/*
 * model_run - run @traced (a scenario of the tracing build: all_scenarios_traced[] or
 * scenario_find_traced()) with @cfg on @threads virtual CPUs, CPU i on PU @pus[i] of @t,
 * and fill @out (free with model_result_free). @cfg may have been made for the untraced
 * scenario of the same name. Returns 0, or -1 with out->ok = 0 and the reason (setup
 * failed, no progress). Runs on the calling thread and uses pc_trace_hook: one at a time.
 */
int model_run(const struct scenario *traced, const struct bench_cfg *cfg, const struct topo *t,
	      const int *pus, int threads, const struct model_opts *o, struct model_result *out);
void model_result_free(struct model_result *r);

/*
 * The model's bounds, scaled by the number of virtual CPUs (docs/model.md):
 * model_watchdog_steps - steps without a finished operation after which a run is given up
 * as stuck (a livelock): 2^20 plus 4096 per vCPU, since with T vCPUs taking turns an
 * operation may wait T turns of up to 1024 accesses each;
 * model_memory_bytes - what @threads vCPUs need (a 256 KiB coroutine stack and its state
 * each), and MODEL_MEMORY_MAX the most a run may need: more threads are refused up front
 * (exit 2, naming the memory), never started.
 */
#define MODEL_MEMORY_MAX (4ULL << 30)
unsigned long long model_watchdog_steps(int threads);
unsigned long long model_memory_bytes(int threads);

/* model_per_op - event @e per measured operation; model_transfers_per_op - transfers/op. */
double model_per_op(const struct model_result *r, enum model_ev e);
double model_transfers_per_op(const struct model_result *r);

/*
 * The model's CSV columns, for `pcbench model` and for --with-model on measured rows:
 * model_hitm_local_per_op, model_hitm_remote_per_op, model_clean_c2c_per_op,
 * model_transfers_per_op, model_invalidations_per_op, model_upgrades_per_op,
 * model_misses_to_memory_per_op, model_accesses_per_op; HITM split into loads (what Intel's
 * hitm_local/hitm_remote count) and RFOs (rfo_hitm): model_load_hitm_local_per_op,
 * model_load_hitm_remote_per_op, model_rfo_hitm_local_per_op, model_rfo_hitm_remote_per_op;
 * then transfers per op by pair class: model_transfers_same_l3_per_op, _cross_l3_,
 * _same_package_, _cross_socket_.
 */
#define MODEL_NCOLS 16
extern const char *const model_csv_cols[MODEL_NCOLS];
/* model_csv_values - the cells of those columns (full precision; empty when !r->ok). */
void model_csv_values(const struct model_result *r, char vals[MODEL_NCOLS][40]);

/*
 * model_print_lines - the shared-cache-line view: one block per contended line (a line
 * with transfers, invalidations or upgrades), most transfers first, at most @max blocks
 * (-1: all), each listing the fields on the line and the events charged to each field and
 * to each accessing site:field op. Per operation.
 */
void model_print_lines(FILE *out, const struct model_result *r, int max);

#endif
