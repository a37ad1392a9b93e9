/* SPDX-License-Identifier: MIT */
/*
 * scenario_inst.h - the tests' way to drive one scenario instance through its public API
 * alone: a resolved configuration, its shared state, its modelled objects, and optionally
 * thread 0's state. Include check.h first.
 */
#ifndef PCBENCH_SCENARIO_INST_H
#define PCBENCH_SCENARIO_INST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define INST_MAX_OBJECTS 16

struct inst {
	const struct scenario *sc;
	struct bench_cfg *cfg;
	void *shared, *ts;
	struct bench_object obj[INST_MAX_OBJECTS];
	int nobj;
	char label[200]; /* "preset/workload xT params", for messages */
};

/*
 * inst_open - scenario @name with @preset, @workload, @threads and the "name=value" strings
 * @user: cfg_new, setup, objects(), and thread 0's thread_setup when @thread_state.
 * Failures are counted as CHECK failures; returns 0, or -1 (inst_close still cleans up).
 */
static inline int inst_open(struct inst *in, const char *name, const char *preset,
			    const char *workload, int threads, char *const *user, int nuser,
			    int thread_state)
{
	char err[512];
	int n;

	memset(in, 0, sizeof(*in));
	in->sc = scenario_find(name);
	if (!in->sc) {
		CHECK(0, "scenario %s not found", name);
		return -1;
	}
	n = snprintf(in->label, sizeof(in->label), "%s/%s x%d", preset, workload, threads);
	for (int i = 0; i < nuser && n > 0 && (size_t)n < sizeof(in->label); i++)
		n += snprintf(in->label + n, sizeof(in->label) - (size_t)n, " %s", user[i]);
	in->cfg = cfg_new(in->sc, preset_find(in->sc, preset), workload_find(in->sc, workload),
			  threads, user, nuser, err, sizeof(err));
	if (!in->cfg) {
		CHECK(0, "%s: cfg_new: %s", in->label, err);
		return -1;
	}
	in->shared = in->sc->setup(in->cfg, err, sizeof(err));
	if (!in->shared) {
		CHECK(0, "%s: setup: %s", in->label, err);
		return -1;
	}
	in->nobj = scenario_objects(in->sc, in->shared, in->obj, INST_MAX_OBJECTS);
	if (thread_state) {
		in->ts = scenario_thread_setup(in->sc, in->shared, 0);
		CHECK(in->ts, "%s: thread_setup failed", in->label);
		if (!in->ts)
			return -1;
	}
	return 0;
}

/* obj_word - the pc_word at @path ("memory.usage") of modelled object @o; exits when missing. */
static inline pc_word *obj_word(const struct bench_object *o, const char *path)
{
	long off = layout_offset(o->layout, o->sname, path);

	if (off < 0) {
		fprintf(stderr, "FATAL: layout %s has no %s.%s\n", o->layout->name, o->sname, path);
		exit(2);
	}
	return (pc_word *)((char *)o->base + off);
}

static inline long obj_val(const struct bench_object *o, const char *path)
{
	return atomic_load(obj_word(o, path));
}

static inline void inst_close(struct inst *in)
{
	if (in->ts)
		scenario_thread_teardown(in->sc, in->shared, in->ts);
	if (in->shared)
		scenario_teardown(in->sc, in->shared);
	cfg_free(in->cfg);
	memset(in, 0, sizeof(*in));
}

#endif
