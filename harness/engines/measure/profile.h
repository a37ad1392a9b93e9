/* SPDX-License-Identifier: MIT */
/*
 * profile.h - --profile: where the measuring threads spend their time during the window,
 * sampled (pmu_sample_*), named from kallsyms (ksyms.h), and the share of the memcg charge
 * path. Each row gets its profile cells; profile.csv (rows.c) every window's symbols,
 * which `pcbench profile RUN` reads.
 */
#ifndef PCBENCH_PROFILE_H
#define PCBENCH_PROFILE_H

#include <stdint.h>

#include "ksyms.h"
#include "pmu.h"
#include "results.h"

/* What a run samples, decided once before measuring. */
struct profile_cfg {
	struct pmu_sample_plan plan;
	int ok;		  /* an event can sample here; else plan.note says why */
	struct ksyms *ks; /* NULL: ks_why says why kernel addresses stay unnamed */
	char ks_why[256];
};

/* profile_cfg_init - choose the event and read kallsyms (a window of @window_s). */
void profile_cfg_init(struct profile_cfg *c, double window_s);

/* One measuring thread's samples of one window. */
struct prof_thread {
	struct pmu_sampler *s;
	uint32_t *ids; /* per sample: its symbol id, with PROF_MEMCG when it counts as memcg */
	size_t n, cap;
	uint64_t lost;
	char why[160]; /* why this thread has no sampler, or "" */
};
#define PROF_MEMCG 0x80000000u
/* profile.csv's columns (results_profile_cols): the row's family and repetition, event,
 * symbol, samples, memcg. */
#define PROF_NCOLS RESULTS_PROFILE_NCOLS

/* prof_thread_open - the calling thread's sampler (pinned, before the barrier). */
void prof_thread_open(struct prof_thread *t, const struct profile_cfg *c);
void prof_thread_enable(struct prof_thread *t);
void prof_thread_disable(struct prof_thread *t);
/* prof_thread_collect - read its samples into t->ids, then close the sampler. */
void prof_thread_collect(struct prof_thread *t, const struct profile_cfg *c);
/* prof_thread_reset - ready for the next window (keeps the buffer). */
void prof_thread_reset(struct prof_thread *t);
void prof_thread_free(struct prof_thread *t);

/* A window's profile over all its threads. */
struct prof_window {
	int present; /* every thread sampled */
	uint64_t samples, memcg, lost;
	const char *why; /* why the cells are empty, or NULL */
	uint32_t *ids;	 /* distinct ids (with PROF_MEMCG), most samples first */
	uint64_t *cnt;
	size_t n;
};

/* prof_window_build - @threads threads' samples into @w (its arrays replaced). */
void prof_window_build(struct prof_window *w, const struct profile_cfg *c,
		       const struct prof_thread *t, int threads);

/* prof_symbol - the name of @w's @i-th symbol; *@memcg: its samples count as memcg. */
const char *prof_symbol(const struct profile_cfg *c, const struct prof_window *w, size_t i,
			int *memcg);

#endif
