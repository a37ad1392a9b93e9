// SPDX-License-Identifier: MIT
/*
 * window_noise.c - the judgement of one measured window (window_noise.h): the steal read
 * around it, and whether run delay, steal, gaps, imbalance (opt-in), a remapped host or a
 * starved window disturbed it. measure.c runs the window; this file only reads what the
 * window left in struct measurement and sets its disturbed/kind/noise_reason fields.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "measure.h"
#include "util.h"
#include "window_noise.h"

/* meas_steal_read - each planned PU's steal ticks now into @v (-1ULL where unknown). */
void meas_steal_read(const struct measurement *m, unsigned long long *v)
{
	for (int i = 0; i < m->threads; i++)
		if (noise_steal_reader(m->pus[i], &v[i]))
			v[i] = ~0ULL;
}

/*
 * meas_steal_end - the largest planned PU's steal over warm-up + window, as a fraction, or NaN
 * when that span is shorter than NOISE_STEAL_MIN_TICKS ticks (a 10 ms tick cannot
 * resolve it) or the kernel does not say.
 */
void meas_steal_end(struct measurement *m)
{
	unsigned long long *now;
	double span = m->warmup_s + m->window_s;
	int resolved = span / NOISE_TICK_S >= NOISE_STEAL_MIN_TICKS;

	m->steal_frac = NAN;
	now = xcalloc((size_t)m->threads, sizeof(*now));
	meas_steal_read(m, now);
	for (int i = 0; i < m->threads; i++) {
		double f;

		if (now[i] == ~0ULL || m->steal0[i] == ~0ULL || now[i] < m->steal0[i])
			continue;
		m->steal_seen |= now[i] > m->steal0[i];
		if (!resolved)
			continue;
		f = (double)(now[i] - m->steal0[i]) * NOISE_TICK_S / span;
		if (isnan(m->steal_frac) || f > m->steal_frac)
			m->steal_frac = f;
	}
	free(now);
}

/* disturb - the window is disturbed by @kind; @fmt says how (noise_reason). */
static void disturb(struct measurement *m, enum noise_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void disturb(struct measurement *m, enum noise_kind kind, const char *fmt, ...)
{
	va_list ap;

	m->disturbed = 1;
	m->kind = kind;
	va_start(ap, fmt);
	vsnprintf(m->noise_reason, sizeof(m->noise_reason), fmt, ap);
	va_end(ap);
}

/*
 * gaps_check - thread 0, after a window: each thread's time lost in gaps (batches over
 * NOISE_GAP_K times its median batch) as a fraction of its window; the largest into
 * m->lost_frac. Returns the thread that lost it (-1: none).
 */
static int gaps_check(struct measurement *m)
{
	int who = -1;

	m->lost_frac = 0;
	for (int i = 0; i < m->threads; i++) {
		const struct thread_slot *s = &m->slots[i];
		double med, span = s->t1 - s->t0, f;

		if (span <= 0)
			continue;
		f = noise_gap_lost(s->gaps, &med) * 1e-9 / span;
		if (f > m->lost_frac)
			m->lost_frac = f, who = i;
	}
	return who;
}

/*
 * meas_noise_check - thread 0, after a window: is it disturbed? The first of run delay, steal,
 * gaps, imbalance and remap that applies says why (noise_reason) and is its kind.
 */
void meas_noise_check(struct measurement *m)
{
	double worst = 0, lo = INFINITY, hi = 0, x0 = m->xfer_ns[0], x1 = m->xfer_ns[1];
	uint64_t omin = 0, omax = 0;
	int who = -1, gap_who = gaps_check(m);

	for (int i = 0; i < m->threads; i++) {
		const struct thread_slot *s = &m->slots[i];
		double f = noise_delay_frac(&s->n0, &s->n1);

		if (i == 0 || s->ops < omin)
			omin = s->ops;
		if (s->ops > omax)
			omax = s->ops;
		if (f > worst)
			worst = f, who = i;
	}
	if (x0 > 0 && x1 > 0)
		lo = x0 < x1 ? x0 : x1, hi = x0 < x1 ? x1 : x0;
	m->disturbed = 0;
	m->kind = NOISE_NONE;
	if (isinf(m->noise_max)) /* --noise-max off: record, judge nothing */
		return;
	if (who >= 0 && worst > m->noise_max)
		disturb(m, NOISE_RUN_DELAY,
			"disturbed: thread %d waited %.1f%% of the window for its CPU (run "
			"delay; limit %.0f%%)",
			who, worst * 100, m->noise_max * 100);
	else if (!isnan(m->steal_frac) && m->steal_frac > m->noise_max)
		disturb(m, NOISE_STEAL,
			"disturbed: %.0f%% steal on a planned CPU (the hypervisor ran something "
			"else; limit %.0f%%)",
			m->steal_frac * 100, m->noise_max * 100);
	else if (gap_who >= 0 && m->lost_frac > m->noise_max)
		disturb(m, NOISE_GAPS,
			"disturbed: thread %d lost %.1f%% of the window in gaps (batches over "
			"%gx its median; the host preempted its vCPU; limit %.0f%%)",
			gap_who, m->lost_frac * 100, NOISE_GAP_K, m->noise_max * 100);
	else if (m->imbalance_min > 0 && m->symmetric && m->threads > 1 && omax &&
		 (double)omin / (double)omax < m->imbalance_min)
		disturb(m, NOISE_IMBALANCE,
			"disturbed: ops_min_thread/ops_max_thread %.2f in a symmetric workload (a "
			"thread was held up; limit %g)",
			(double)omin / (double)omax, m->imbalance_min);
	else if (results_remapped(lo, hi))
		disturb(m, NOISE_REMAP,
			"disturbed: transfer cost %.0f ns before the window, %.0f ns after (the "
			"host moved the vCPUs; limit %gx)",
			x0, x1, RESULTS_REMAP_RATIO);
}

/*
 * meas_starved_check - thread 0, after a window in which no thread completed an operation: was
 * a measuring thread kept off its CPU (other work ran there, or it waited for a lock
 * holder that was) for most of warm-up + window? Then the window measured the machine's
 * load, not the scenario: disturbed (measured again, whatever --noise-max says), not an
 * error. A window with no operation whose threads had their CPUs stays an error. The CPU
 * time counts from the release into the warm-up, as the wall time does: what a thread spent
 * before (spinning in the transfer probe for a partner off its CPU) must not hide it.
 * First: under a hypervisor whose steal stayed 0 on every planned CPU in every window of
 * this measurement (none accounted, as under QEMU TCG), the guest cannot see the host take
 * a vCPU away, and CPU time counts the stolen time as the thread's: starved, whatever the
 * CPU times say.
 */
void meas_starved_check(struct measurement *m)
{
	double start = m->warm_end - m->warmup_s, worst = 0;
	int who = -1;

	for (int i = 0; i < m->threads; i++)
		if (m->slots[i].ops)
			return;
	for (int i = 0; i < m->threads; i++) {
		const struct thread_slot *s = &m->slots[i];
		double span = s->t1 - start, off;

		if (span <= 0)
			continue;
		off = 1 - (s->n1.cpu_s - s->cpu_w) / span;
		if (off > worst)
			worst = off, who = i;
	}
	if (!m->steal_seen && noise_hypervisor())
		disturb(m, NOISE_STARVED,
			"disturbed: no operation completed under a hypervisor whose steal stayed 0 "
			"on every planned CPU: the host may have taken the vCPUs (starved)");
	else if (who >= 0 && worst > NOISE_STARVED_OFF_CPU)
		disturb(m, NOISE_STARVED,
			"disturbed: no operation completed: thread %d was off its CPU %.0f%% of "
			"warm-up and window (starved)",
			who, worst * 100);
}
