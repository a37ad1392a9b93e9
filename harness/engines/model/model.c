// SPDX-License-Identifier: MIT
/*
 * model.c - the coherence model (see model.h and docs/model.md): the names of its modes,
 * events and columns, its options, and two helpers of its files (sim.h).
 *
 * Virtual CPUs are coroutines (coro.h) on the calling thread, each looping over
 * run(shared, tstate, 1) of the tracing build. Every traced access enters model_hook(),
 * which first lets the scheduler choose who executes the next access (possibly switching
 * away), and then, when this virtual CPU is chosen, records the access in the MESI
 * simulator right before it really executes. So the simulated order is the execution order.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "sim.h"
#include "num.h"
#include "util.h"

const char *const model_interleave_names[MODEL_INTERLEAVE_COUNT] = {"random", "rr-access", "rr-op"};
const char *const model_ev_names[MEV_COUNT] = {"hitm_local",	"hitm_remote", "clean_c2c",
					       "invalidations", "upgrades",    "misses_to_memory"};
const char *const model_csv_cols[MODEL_NCOLS] = {
    "model_hitm_local_per_op",
    "model_hitm_remote_per_op",
    "model_clean_c2c_per_op",
    "model_transfers_per_op",
    "model_invalidations_per_op",
    "model_upgrades_per_op",
    "model_misses_to_memory_per_op",
    "model_accesses_per_op",
    "model_load_hitm_local_per_op",
    "model_load_hitm_remote_per_op",
    "model_rfo_hitm_local_per_op",
    "model_rfo_hitm_remote_per_op",
    "model_transfers_same_l3_per_op",
    "model_transfers_cross_l3_per_op",
    "model_transfers_same_package_per_op",
    "model_transfers_cross_socket_per_op",
};

/* ---- helpers of the model's files (sim.h) ---- */

uint64_t sim_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

void *sim_grow(void *p, int *cap, int need, size_t elem)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	if (*cap < need)
		*cap = need;
	p = realloc(p, (size_t)*cap * elem);
	if (!p)
		die("memory", "model", "out of memory");
	return p;
}

void model_opts_default(struct model_opts *o)
{
	*o = (struct model_opts){MODEL_RANDOM, 1, 2000, 200, 64};
}

int model_opt_set(struct model_opts *o, const char *name, const char *value, char *err,
		  size_t errlen)
{
	long v;

	if (!strcmp(name, "interleave")) {
		for (int i = 0; i < MODEL_INTERLEAVE_COUNT; i++) {
			if (!strcmp(value, model_interleave_names[i])) {
				o->interleave = (enum model_interleave)i;
				return 0;
			}
		}
		set_err(err, errlen, "expected random, rr-access or rr-op");
		return -1;
	}
	if (!strcmp(name, "seed")) {
		uint64_t s;

		if (num_u64(value, &s)) {
			set_err(err, errlen, "expected an unsigned 64-bit integer");
			return -1;
		}
		o->seed = s;
		return 0;
	}
	if (!strcmp(name, "ops") || !strcmp(name, "warmup")) {
		int ops = name[0] == 'o';

		if (num_long(value, 10, ops, 100000000, &v)) {
			set_err(err, errlen, "expected an integer in [%d, 100000000]", ops);
			return -1;
		}
		*(ops ? &o->ops : &o->warmup) = v;
		return 0;
	}
	if (!strcmp(name, "line-size")) {
		if (num_long(value, 10, 8, 4096, &v) || (v & (v - 1))) {
			set_err(err, errlen, "expected a power of two in [8, 4096]");
			return -1;
		}
		o->line_size = (int)v;
		return 0;
	}
	set_err(err, errlen, "no such model option");
	return -1;
}
