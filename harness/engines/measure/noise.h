/* SPDX-License-Identifier: MIT */
/*
 * noise.h - what disturbed a measurement window (docs/measuring.md, "Noise"): for each
 * measuring thread its involuntary context switches (getrusage RUSAGE_THREAD), its run
 * delay (time runnable but not running, /proc/thread-self/schedstat, ns) and its
 * migrations (/proc/thread-self/sched se.nr_migrations); for the planned CPUs their steal
 * time (/proc/stat, in ticks of 10 ms, so used only for windows of at least
 * NOISE_STEAL_MIN_TICKS ticks).
 */
#ifndef PCBENCH_NOISE_H
#define PCBENCH_NOISE_H

#include <stdint.h>

#include "results.h"

#define NOISE_TICK_S 0.01	   /* USER_HZ 100: one /proc/stat tick */
#define NOISE_STEAL_MIN_TICKS 20   /* steal only over warm-up + window >= 0.2 s */
#define NOISE_DEFAULT_MAX_PCT 10.0 /* --noise-max */
#define NOISE_DEFAULT_RETRIES 2	   /* --noise-retries */
/* A window with no operation is starved when a thread was off its CPU over this fraction. */
#define NOISE_STARVED_OFF_CPU 0.5
/*
 * Gap accounting (docs/measuring.md, "Noise the guest cannot see"): a batch of operations
 * longer than NOISE_GAP_K times its thread's median batch lost its excess over the median.
 */
#define NOISE_GAP_K 10.0
#define NOISE_GAP_MIN_BATCHES 5 /* fewer batches in a window: no median to judge by */
/* Batch times in ns, binned by octave, NOISE_GAP_SUB bins per octave (9% wide). */
#define NOISE_GAP_SUB 8
#define NOISE_GAP_BINS (64 * NOISE_GAP_SUB)
/*
 * --imbalance-min: ops_min_thread / ops_max_thread below it disturbs a window of a symmetric
 * workload, an opt-in (0: off, the default): threads that all made steady progress at
 * different rates (SMT siblings, hybrid cores, a vCPU on a busy host core, unfair
 * arbitration of a contended line) were not preempted; compare reports it as fairness.
 * A preempted thread is caught by the gaps (batches over NOISE_GAP_K times its median).
 */
#define NOISE_DEFAULT_IMBALANCE_MIN 0.0
/*
 * The transfer probe: a window whose probes before and after differ by more than
 * RESULTS_REMAP_RATIO was remapped by the host (results_remapped, results.h: the test
 * compare uses too; compare splits host mappings at the same factor).
 */

/* What disturbed a window (the disturbed_by column); NOISE_NONE: nothing. */
enum noise_kind {
	NOISE_NONE,
	NOISE_RUN_DELAY,
	NOISE_STEAL,
	NOISE_GAPS,
	NOISE_IMBALANCE,
	NOISE_REMAP,
	NOISE_STARVED,
	NOISE_NKINDS
};
/* The disturbed_by names, indexed by enum noise_kind ("" for NOISE_NONE). */
extern const char *const noise_kind_names[NOISE_NKINDS];

/* One thread's batch times over a window, binned (noise_gap_add, noise_gap_lost). */
struct noise_gaps {
	uint64_t count[NOISE_GAP_BINS];
	double sum_ns[NOISE_GAP_BINS];
	uint64_t n;
};

/* noise_gap_add - one batch of @ns nanoseconds. */
static inline void noise_gap_add(struct noise_gaps *g, double ns)
{
	uint64_t v = ns > 0 ? (uint64_t)ns : 0;
	int oct = 63 - __builtin_clzll(v | 1), bin;

	bin =
	    oct < 3 ? (int)v : oct * NOISE_GAP_SUB + (int)((v >> (oct - 3)) & (NOISE_GAP_SUB - 1));
	g->count[bin]++;
	g->sum_ns[bin] += ns;
	g->n++;
}

/*
 * noise_gap_lost - the time lost in gaps, in ns: over the batches whose bin's mean is over
 * NOISE_GAP_K times the median batch, their excess over the median. 0 with fewer than
 * NOISE_GAP_MIN_BATCHES batches. @median_ns gets the median batch (or 0).
 */
double noise_gap_lost(const struct noise_gaps *g, double *median_ns);

/* One thread's counters at one instant; have_* is 0 where the kernel does not say. */
struct noise_thread {
	long nivcsw;
	double cpu_s; /* the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), s */
	unsigned long long delay_ns, migrations;
	int have_delay, have_migrations;
	/* CLOCK_MONOTONIC just before and just after delay_ns was read, s: the run delay
	 * between two readings a, b accrued within b.delay_after - a.delay_before. */
	double delay_before, delay_after;
};

/*
 * noise_delay_frac - the run delay between readings @a and @b as a fraction of the span
 * over which it was read (never of a shorter one: a reading that took long, or a thread
 * preempted between it and the window's clock, made "1785% of the window"); -1 when the
 * kernel does not say.
 */
double noise_delay_frac(const struct noise_thread *a, const struct noise_thread *b);

/* noise_thread_read - the calling thread's counters now. */
void noise_thread_read(struct noise_thread *s);
/* noise_thread_cpu_s - the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), s; 0 unknown. */
double noise_thread_cpu_s(void);

/*
 * noise_steal_reader - the steal ticks of CPU @cpu so far into @ticks; 0, or -1 when
 * unknown. The default reads <procfs>/stat; tests inject a fake source here.
 */
extern int (*noise_steal_reader)(int cpu, unsigned long long *ticks);

/*
 * noise_hypervisor - 1 when this machine runs under a hypervisor (CPUID's hypervisor bit,
 * else a non-empty <sysfs>/hypervisor/type), else 0. Tests inject a fake answer here.
 */
extern int (*noise_hypervisor)(void);

#endif
