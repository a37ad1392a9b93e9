/* SPDX-License-Identifier: MIT */
/*
 * measure.h - one equal-time contention window. All threads of a measurement pin
 * themselves, build their state, wait at a barrier, run operations until one shared
 * deadline, and report their own operation counts. Google Benchmark (gbshim.cc) only
 * provides the threads; this code decides what is measured.
 */
#ifndef PCBENCH_MEASURE_H
#define PCBENCH_MEASURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "bench.h"
#include "noise.h"
#include "pmu.h"
#include "profile.h"
#include "topology.h"

/* Per-thread results, each on its own cache lines; written only by their thread. */
struct thread_slot {
	_Alignas(BENCH_PAD) uint64_t ops;
	double t0, t1;
	int cpu_start, cpu_end;
	int cpu_stray; /* a CPU other than the planned one, seen during the window, or -1 */
	void *tstate;
	struct pmu_value *ev;	    /* this thread's counter readings, pmu_nevents of them */
	struct noise_thread n0, n1; /* scheduler counters at the window's start and end */
	double cpu_w;		    /* CPU time when released into the warm-up (starved_check), s */
	struct noise_gaps *gaps;    /* the window's batch times (gap accounting) */
};

/* The line the transfer probe moves between thread 0's and thread N-1's PUs. */
struct xfer_line {
	_Alignas(BENCH_PAD) _Atomic uint64_t turn;
};

/*
 * A modelled object of the shared state as it was in one repetition (copied right after
 * setup: scenarios may free names and computed layouts at teardown), for objects.json.
 */
#define MEAS_OBJECTS_MAX 64
struct meas_object {
	char name[64], sname[64];
	uintptr_t base;
	size_t size;	    /* of struct @sname in the layout, 0 when the layout lacks it */
	uint64_t layout_fp; /* layout_fingerprint */
	char layout_name[64];
	char *layout_text; /* layout_to_text, freed by meas_reset */
};

/* One counter over all threads of a measurement. */
struct meas_event {
	int present; /* counted on every thread; else the cells stay empty */
	int absent_threads;
	double per_op;		       /* sum over threads / total ops */
	double min_per_op, max_per_op; /* over threads, each by its own ops */
	double mux;		       /* the smallest running/enabled of any thread */
};

struct measurement {
	const struct scenario *sc;
	const struct bench_cfg *cfg;
	const struct topo *topo;
	int threads;
	const int *pus; /* OS index of the PU of each thread */
	double window_s, warmup_s;
	long work_ns;	       /* -D work=N */
	uint64_t work_iters;   /* its calibrated iterations after every operation, or 0 */
	struct topo_home home; /* where setup() allocations go */
	uint64_t home_nodes;   /* NUMA nodes that really hold them (bit per OS index) */
	int home_known;	       /* home_nodes could be read from the OS */
	pthread_barrier_t bar;
	void *shared;
	double warm_end, deadline; /* set by thread 0 between two barriers */
	atomic_int failed;
	atomic_int window_over; /* set by the first thread past the deadline */
	char reason[256];
	pthread_mutex_t lock;
	struct thread_slot *slots;
	const struct pmu_set *pmu; /* counters to read, or NULL */
	int nev;
	struct meas_event *agg;	  /* nev aggregated counters, filled by meas_result */
	struct meas_object *objs; /* the scenario's objects() after setup, nobjs of them */
	int nobjs;
	/* Noise (noise.h): a window whose run delay or steal is over noise_max (a fraction
	 * of the window) is measured again, at most noise_retries times. */
	double noise_max;
	int noise_retries;
	unsigned long long *steal0; /* each planned PU's steal ticks before the warm-up */
	double steal_frac;	    /* the largest PU's steal over warm-up + window, or NaN */
	int steal_seen;		    /* a planned PU's steal grew in a window of this measurement */
	/* ops_min_thread / ops_max_thread under this disturbs a window of a workload whose
	 * threads are symmetric by design (BENCH_SYMMETRIC), 0: never (the default). */
	double imbalance_min;
	int symmetric;
	/* The transfer probe before [0] and after [1] the window: ns per one-way transfer of a
	 * line between thread 0's and thread N-1's PUs, or NaN (xfer_note says why). */
	struct xfer_line *xfer;
	double xfer_ns[2];
	char xfer_note[96];
	int xfer_off;	  /* no probe in this window (xfer_note says why) */
	double lost_frac; /* the largest fraction of the window a thread lost in gaps */
	int retries, windows, disturbed_windows, again, disturbed;
	enum noise_kind kind;		/* what disturbed the window (NOISE_NONE: clean) */
	int kind_windows[NOISE_NKINDS]; /* windows disturbed by each kind, retries included */
	char noise_reason[160];
	char note[512];			/* the scenario's window_end() account of the window kept */
	const struct profile_cfg *prof; /* --profile, or NULL */
	struct prof_thread *pt;		/* per thread: its samples of the window */
	struct prof_window pw;		/* theirs together, filled by meas_result */
};

struct meas_result {
	double duration_s;
	double t0, t1; /* the window: first thread's start, last thread's end (CLOCK_MONOTONIC s) */
	uint64_t ops, ops_min, ops_max;
	int failed;
	int aborted; /* a stop request (lib/stop) interrupted it: write no row */
	const char *reason;
	const struct meas_event *ev; /* pmu_nevents(m->pmu) counters */
	/* Noise of the window kept: sums over threads (-1: the kernel does not say), the
	 * largest steal of the planned PUs in percent (NaN: window too short for ticks). */
	double nivcsw, run_delay_ns, migrations, steal_pct;
	int retries;		  /* windows measured again before this one */
	int windows;		  /* windows measured for this row (retries + 1) */
	int disturbed_windows;	  /* of those, how many were over the threshold */
	int disturbed;		  /* this last one too: not a clean window */
	const char *noise_reason; /* why it was disturbed */
	const char *disturbed_by; /* its kind (noise_kind_names), "" when clean */
	const int *kind_windows;  /* windows of this row disturbed by each enum noise_kind */
	double lost_pct;	  /* the largest % of the window a thread lost in gaps */
	double xfer_ns[2];	  /* the transfer probe before and after it, ns, or NaN */
	const char *xfer_note;	  /* why a probe is NaN, or "" */
	const char *note;	  /* the scenario's account of the window (window_end), or "" */
	const struct prof_window *prof; /* --profile: the window's samples, else NULL */
};

/*
 * meas_init - prepare a measurement of @threads threads on PUs @pus, with a window of
 * @window_s seconds preceded by @warmup_s seconds of unmeasured operations, and the shared
 * state homed at @home.
 */
void meas_init(struct measurement *m, const struct scenario *sc, const struct bench_cfg *cfg,
	       const struct topo *topo, int threads, const int *pus, double window_s,
	       double warmup_s, const struct topo_home *home);
/*
 * meas_set_noise - re-measure a window whose run delay or steal is over @max_frac of it, at
 * most @retries times (meas_init: NOISE_DEFAULT_MAX_PCT / 100, NOISE_DEFAULT_RETRIES).
 */
void meas_set_noise(struct measurement *m, double max_frac, int retries);
/*
 * meas_set_imbalance - with noise judged (meas_set_noise below infinity), a window of a
 * symmetric workload (BENCH_SYMMETRIC) whose ops_min_thread / ops_max_thread is under
 * @min is disturbed (0: never; meas_init: NOISE_DEFAULT_IMBALANCE_MIN).
 */
void meas_set_imbalance(struct measurement *m, double min);
/*
 * meas_xfer_hook - when set (tests), thread 0 passes each probe's result through it:
 * @after 0 before the window, 1 after; returns the value to record.
 */
extern double (*meas_xfer_hook)(int after, double ns);
/*
 * meas_batch_hook - when set (tests), thread @tid calls it after each batch of operations
 * (warm-up and window), inside the batch's time: @batch_s, the batch so far. Extra private
 * work there makes a thread slower by a steady factor (unequal CPUs), not preempted.
 */
extern void (*meas_batch_hook)(int tid, double batch_s);
/* meas_set_counters - count @pmu's events per thread around the window (before running). */
void meas_set_counters(struct measurement *m, const struct pmu_set *pmu);
/* meas_set_profile - sample the threads during the window (--profile; before running). */
void meas_set_profile(struct measurement *m, const struct profile_cfg *c);
void meas_destroy(struct measurement *m);

/*
 * meas_thread - the body of thread @tid; all @threads threads must call it concurrently.
 * Failures (binding, setup, a thread that ran on the wrong CPU) mark the measurement
 * failed with a reason; every thread still passes every barrier. A disturbed window is
 * measured again (meas_set_noise) before it returns.
 */
void meas_thread(struct measurement *m, int tid);

/* meas_result - aggregate once all threads returned. Valid until meas_reset. */
void meas_result(struct measurement *m, struct meas_result *r);
/* meas_reset - make @m ready for another repetition. */
void meas_reset(struct measurement *m);

/*
 * meas_threads_probe - @n - 1 threads (a measurement's helpers; the caller is the first)
 * can exist at once here: created with the default attributes, as Google Benchmark's are,
 * then joined. 0, or -1 with why in @err (a resource limit: ulimit -v, -u).
 */
int meas_threads_probe(int n, char *err, size_t errlen);

/* meas_run - run one measurement with plain pthreads (tests, the overhead benchmark). */
void meas_run(struct measurement *m);

#endif
