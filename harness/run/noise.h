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

#define NOISE_TICK_S 0.01	   /* USER_HZ 100: one /proc/stat tick */
#define NOISE_STEAL_MIN_TICKS 20   /* steal only over warm-up + window >= 0.2 s */
#define NOISE_DEFAULT_MAX_PCT 10.0 /* --noise-max */
#define NOISE_DEFAULT_RETRIES 2	   /* --noise-retries */
/* A window with no operation is starved when a thread was off its CPU over this fraction. */
#define NOISE_STARVED_OFF_CPU 0.5

/* One thread's counters at one instant; have_* is 0 where the kernel does not say. */
struct noise_thread {
	long nivcsw;
	double cpu_s; /* the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), s */
	unsigned long long delay_ns, migrations;
	int have_delay, have_migrations;
};

/* noise_thread_read - the calling thread's counters now. */
void noise_thread_read(struct noise_thread *s);

/*
 * noise_steal_reader - the steal ticks of CPU @cpu so far into @ticks; 0, or -1 when
 * unknown. The default reads <procfs>/stat; tests inject a fake source here.
 */
extern int (*noise_steal_reader)(int cpu, unsigned long long *ticks);

#endif
