/* SPDX-License-Identifier: MIT */
/*
 * window_noise.h - a window's noise judgement (window_noise.c), called by measure.c's
 * window: meas_steal_read before warm-up, meas_steal_end after the window, then thread 0's
 * meas_noise_check and, for a window where no operation completed, meas_starved_check.
 */
#ifndef PCBENCH_WINDOW_NOISE_H
#define PCBENCH_WINDOW_NOISE_H

struct measurement;

/* meas_steal_read - each planned PU's steal ticks now into @v (-1ULL where unknown). */
void meas_steal_read(const struct measurement *m, unsigned long long *v);
/* meas_steal_end - the largest planned PU's steal over warm-up + window (m->steal_frac). */
void meas_steal_end(struct measurement *m);
/* meas_noise_check - thread 0, after a window: whether it was disturbed, and why. */
void meas_noise_check(struct measurement *m);
/* meas_starved_check - a window where no operation completed: disturbed when the host may
 * have taken the vCPUs or a thread was off its CPU, else left to be an error. */
void meas_starved_check(struct measurement *m);

#endif
