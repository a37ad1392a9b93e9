/* SPDX-License-Identifier: MIT */
/*
 * work.h - `-D work=N`: N nanoseconds of private, uncontended work after every operation,
 * so that a measurement can say "the charge path is X% of the caller's operation". The
 * work is a register-only loop (no memory access, so nothing is shared and no cache line
 * moves), timed once per run on the calling CPU and converted to an iteration count.
 */
#ifndef PCBENCH_WORK_H
#define PCBENCH_WORK_H

#include <stdint.h>

struct work_cal {
	double ns_per_iter; /* the median of the trials: robust to a preempted or a short one */
	uint64_t iters;	    /* iterations per timed trial */
	int trials;
	double seconds;	    /* the whole calibration */
	double trial_ns[8]; /* each trial's ns per iteration */
};

#define WORK_TRIALS 5

/* work_median - the median of @n (1..16) values (the mean of the middle two when n is even). */
double work_median(const double *v, int n);

/* work_spin - @iters iterations of the loop (not inlined: one copy, the calibrated one). */
void work_spin(uint64_t iters);

/*
 * work_calibrate - time work_spin: the iteration count doubles until one trial takes at
 * least 5 ms, then WORK_TRIALS trials of that count; ns_per_iter is their median. Returns 0,
 * or -1 when the clock gave nothing usable.
 */
int work_calibrate(struct work_cal *c);

/*
 * work_calibration - the run's calibration, done on the first call (thread-safe) and kept
 * for the process. work_calibrated - it, or NULL when nothing asked for work yet.
 */
const struct work_cal *work_calibration(void);
const struct work_cal *work_calibrated(void);

/* work_iters - the iterations that take @ns nanoseconds by @c: round(ns / ns_per_iter),
 * at least 1 when ns > 0, 0 when ns <= 0 or the calibration is unusable. */
uint64_t work_iters(const struct work_cal *c, long ns);

#endif
