// SPDX-License-Identifier: MIT
/* measure.c - the equal-time contention window. */
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "harness.h"
#include "measure.h"
#include "stop.h"
#include "topology.h"
#include "util.h"
#include "window.h"
#include "work.h"

/* A batch of operations is grown until it lasts this long, to keep clock reads cheap. */
#define BATCH_TARGET_S 20e-6
#define BATCH_MAX (1u << 20)

void meas_init(struct measurement *m, const struct scenario *sc, const struct bench_cfg *cfg,
	       const struct topo *topo, int threads, const int *pus, double window_s,
	       double warmup_s, const struct topo_home *home)
{
	memset(m, 0, sizeof(*m));
	m->sc = sc;
	m->cfg = cfg;
	m->topo = topo;
	m->threads = threads;
	m->pus = pus;
	m->window_s = window_s;
	m->warmup_s = warmup_s;
	m->home = *home;
	/* -D work=N: calibrated once per run, on the first measurement that asks for it */
	m->work_ns = bench_long(cfg, "work");
	m->work_iters = m->work_ns > 0 ? work_iters(work_calibration(), m->work_ns) : 0;
	pthread_barrier_init(&m->bar, NULL, (unsigned)threads);
	pthread_mutex_init(&m->lock, NULL);
	m->slots = bench_alloc((size_t)threads * sizeof(*m->slots), BENCH_PAD);
	m->objs = xcalloc(MEAS_OBJECTS_MAX, sizeof(*m->objs));
	m->steal0 = xcalloc((size_t)threads, sizeof(*m->steal0));
	meas_set_noise(m, NOISE_DEFAULT_MAX_PCT / 100, NOISE_DEFAULT_RETRIES);
}

void meas_set_noise(struct measurement *m, double max_frac, int retries)
{
	m->noise_max = max_frac;
	m->noise_retries = retries;
}

void meas_set_counters(struct measurement *m, const struct pmu_set *pmu)
{
	m->pmu = pmu;
	m->nev = pmu_nevents(pmu);
	m->agg = xcalloc((size_t)m->nev + 1, sizeof(*m->agg));
	for (int i = 0; i < m->threads; i++)
		m->slots[i].ev = xcalloc((size_t)m->nev + 1, sizeof(struct pmu_value));
}

void meas_set_profile(struct measurement *m, const struct profile_cfg *c)
{
	m->prof = c;
	m->pt = xcalloc((size_t)m->threads, sizeof(*m->pt));
}

void meas_destroy(struct measurement *m)
{
	for (int i = 0; m->pt && i < m->threads; i++)
		prof_thread_free(&m->pt[i]);
	free(m->pt);
	free(m->pw.ids);
	free(m->pw.cnt);
	for (int i = 0; m->nev && i < m->threads; i++)
		free(m->slots[i].ev);
	free(m->agg);
	pthread_barrier_destroy(&m->bar);
	pthread_mutex_destroy(&m->lock);
	bench_free(m->slots);
	for (int i = 0; i < m->nobjs; i++)
		free(m->objs[i].layout_text);
	free(m->objs);
	free(m->steal0);
}

/* window_reset - ready for the next window of the same repetition (a retry). */
static void window_reset(struct measurement *m)
{
	for (int i = 0; i < m->threads; i++) {
		struct pmu_value *ev = m->slots[i].ev;

		memset(&m->slots[i], 0, sizeof(m->slots[i]));
		m->slots[i].ev = ev;
		if (m->pt)
			prof_thread_reset(&m->pt[i]);
	}
	atomic_store(&m->failed, 0);
	atomic_store(&m->window_over, 0);
	m->reason[0] = '\0';
	m->shared = NULL;
	m->home_nodes = 0;
	m->home_known = 0;
	for (int i = 0; i < m->nobjs; i++)
		free(m->objs[i].layout_text);
	m->nobjs = 0;
	m->disturbed = 0;
	m->noise_reason[0] = '\0';
	m->note[0] = '\0';
}

void meas_reset(struct measurement *m)
{
	window_reset(m);
	m->retries = m->windows = m->disturbed_windows = 0;
}

static void fail(struct measurement *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct measurement *m, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&m->lock);
	if (!atomic_load(&m->failed)) { /* keep the first reason */
		va_start(ap, fmt);
		vsnprintf(m->reason, sizeof(m->reason), fmt, ap);
		va_end(ap);
		atomic_store(&m->failed, 1);
	}
	pthread_mutex_unlock(&m->lock);
}

/*
 * run_ops - @batch operations; with -D work=N one at a time, each followed by the
 * calibrated private work (the same for every scenario: run(…, 1) is part of the API).
 */
static uint64_t run_ops(const struct measurement *m, void *tstate, uint64_t batch)
{
	uint64_t ops = 0;

	if (!m->work_iters)
		return m->sc->run(m->shared, tstate, batch);
	for (uint64_t i = 0; i < batch; i++) {
		uint64_t got = m->sc->run(m->shared, tstate, 1);

		ops += got;
		if (!got)
			break; /* it stopped waiting: the window is over */
		work_spin(m->work_iters);
	}
	return ops;
}

/*
 * run_until - operations in growing batches until @end; returns the operations done.
 * Between batches the thread also samples the CPU it runs on (a vDSO call, nanoseconds).
 */
static uint64_t run_until(struct measurement *m, struct thread_slot *slot, int planned, double end,
			  uint64_t *batch)
{
	void *tstate = slot->tstate;
	uint64_t ops = 0;
	double t = now_s();

	while (t < end && !stop_requested) {
		double t2;
		int cpu;

		ops += run_ops(m, tstate, *batch);
		t2 = now_s();
		cpu = sched_getcpu();
		if (cpu != planned)
			slot->cpu_stray = cpu;
		if (t2 - t < BATCH_TARGET_S && *batch < BATCH_MAX)
			*batch <<= 1;
		t = t2;
	}
	if (end == m->deadline || stop_requested)
		atomic_store_explicit(&m->window_over, 1, memory_order_relaxed);
	return ops;
}

/*
 * objects_capture - the scenario's modelled objects, copied while the shared state lives
 * (after setup, outside the window): where each one is and the layout it follows.
 */
static void objects_capture(struct measurement *m)
{
	struct bench_object o[MEAS_OBJECTS_MAX];
	int n = scenario_objects(m->sc, m->shared, o, MEAS_OBJECTS_MAX);

	for (int i = 0; i < n; i++) {
		struct meas_object *c = &m->objs[i];
		const struct layout_struct *ls =
		    o[i].layout ? layout_find_struct(o[i].layout, o[i].sname) : NULL;

		snprintf(c->name, sizeof(c->name), "%s", o[i].name);
		snprintf(c->sname, sizeof(c->sname), "%s", o[i].sname);
		c->base = (uintptr_t)o[i].base;
		c->size = ls ? ls->size : 0;
		c->layout_fp = o[i].layout ? layout_fingerprint(o[i].layout) : 0;
		snprintf(c->layout_name, sizeof(c->layout_name), "%s",
			 o[i].layout ? o[i].layout->name : "");
		c->layout_text = o[i].layout ? layout_to_text(o[i].layout) : NULL;
	}
	m->nobjs = n;
}

/* home_setup - thread 0 builds the shared state under the memory home, then checks it. */
static void home_setup(struct measurement *m)
{
	char err[256] = "", want[32];

	alloc_set_home(m->topo, &m->home);
	m->shared = m->sc->setup(m->cfg, err, sizeof(err));
	m->home_known = m->shared && !alloc_home_nodes(&m->home_nodes);
	alloc_set_home(NULL, NULL);
	if (!m->shared) {
		fail(m, "setup: %s", err[0] ? err : "failed");
		return;
	}
	objects_capture(m);
	if (m->home_known && m->home_nodes && !m->home.interleave &&
	    m->home_nodes != 1ULL << m->home.node) {
		topo_home_name(&m->home, want, sizeof(want));
		fail(m, "home: planned on NUMA node %s, the pages are on nodes 0x%llx", want,
		     (unsigned long long)m->home_nodes);
	}
}

/* steal_read - each planned PU's steal ticks now into @v (-1ULL where unknown). */
static void steal_read(const struct measurement *m, unsigned long long *v)
{
	for (int i = 0; i < m->threads; i++)
		if (noise_steal_reader(m->pus[i], &v[i]))
			v[i] = ~0ULL;
}

/*
 * steal_end - the largest planned PU's steal over warm-up + window, as a fraction, or NaN
 * when that span is shorter than NOISE_STEAL_MIN_TICKS ticks (a 10 ms tick cannot
 * resolve it) or the kernel does not say.
 */
static void steal_end(struct measurement *m)
{
	unsigned long long *now;
	double span = m->warmup_s + m->window_s;

	m->steal_frac = NAN;
	if (span / NOISE_TICK_S < NOISE_STEAL_MIN_TICKS)
		return;
	now = xcalloc((size_t)m->threads, sizeof(*now));
	steal_read(m, now);
	for (int i = 0; i < m->threads; i++) {
		double f;

		if (now[i] == ~0ULL || m->steal0[i] == ~0ULL || now[i] < m->steal0[i])
			continue;
		f = (double)(now[i] - m->steal0[i]) * NOISE_TICK_S / span;
		if (isnan(m->steal_frac) || f > m->steal_frac)
			m->steal_frac = f;
	}
	free(now);
}

/* noise_check - thread 0, after a window: is it disturbed? Says why in noise_reason. */
static void noise_check(struct measurement *m)
{
	double worst = 0;
	int who = -1;

	for (int i = 0; i < m->threads; i++) {
		const struct thread_slot *s = &m->slots[i];
		double span = s->t1 - s->t0, f;

		if (!s->n0.have_delay || !s->n1.have_delay || span <= 0)
			continue;
		f = (double)(s->n1.delay_ns - s->n0.delay_ns) * 1e-9 / span;
		if (f > worst)
			worst = f, who = i;
	}
	m->disturbed = 0;
	if (who >= 0 && worst > m->noise_max) {
		m->disturbed = 1;
		snprintf(m->noise_reason, sizeof(m->noise_reason),
			 "disturbed: thread %d waited %.1f%% of the window for its CPU (run "
			 "delay; limit %.0f%%)",
			 who, worst * 100, m->noise_max * 100);
	} else if (!isnan(m->steal_frac) && m->steal_frac > m->noise_max) {
		m->disturbed = 1;
		snprintf(m->noise_reason, sizeof(m->noise_reason),
			 "disturbed: %.0f%% steal on a planned CPU (the hypervisor ran something "
			 "else; limit %.0f%%)",
			 m->steal_frac * 100, m->noise_max * 100);
	}
}

/*
 * starved_check - thread 0, after a window in which no thread completed an operation: was
 * a measuring thread kept off its CPU (other work ran there, or it waited for a lock
 * holder that was) for most of warm-up + window? Then the window measured the machine's
 * load, not the scenario: disturbed (measured again, whatever --noise-max says), not an
 * error. A window with no operation whose threads had their CPUs stays an error.
 */
static void starved_check(struct measurement *m)
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
		off = 1 - (s->n1.cpu_s - s->nw.cpu_s) / span;
		if (off > worst)
			worst = off, who = i;
	}
	if (who < 0 || worst <= NOISE_STARVED_OFF_CPU)
		return;
	m->disturbed = 1;
	snprintf(m->noise_reason, sizeof(m->noise_reason),
		 "disturbed: no operation completed: thread %d was off its CPU %.0f%% of warm-up "
		 "and window (starved)",
		 who, worst * 100);
}

/* window - one window: pin, set up, warm up, measure, tear down. */
static void window(struct measurement *m, int tid)
{
	struct thread_slot *slot = &m->slots[tid];
	struct pmu_thread *counters = NULL;
	struct topo_binding *saved = topo_binding_save(m->topo);

	window_bind(&m->window_over);
	char err[256];
	uint64_t batch = 1;

	if (topo_bind_self(m->topo, m->pus[tid], err, sizeof(err)))
		fail(m, "thread %d: %s", tid, err);
	else if (sched_getcpu() != m->pus[tid])
		fail(m, "thread %d: runs on CPU %d after binding to PU %d", tid, sched_getcpu(),
		     m->pus[tid]);
	else {
		counters = pmu_thread_open(m->pmu); /* pinned, before the barrier */
		if (m->prof)
			prof_thread_open(&m->pt[tid], m->prof);
	}
	pthread_barrier_wait(&m->bar);

	/* Interrupted before the setup: no shared state, so no thread may set up either. */
	if (tid == 0 && !atomic_load(&m->failed) && stop_requested)
		fail(m, "interrupted");
	else if (tid == 0 && !atomic_load(&m->failed))
		home_setup(m);
	pthread_barrier_wait(&m->bar);

	if (!atomic_load(&m->failed)) {
		slot->tstate = scenario_thread_setup(m->sc, m->shared, tid);
		if (!slot->tstate)
			fail(m, "thread %d: thread setup failed", tid);
	}
	noise_thread_read(&slot->nw); /* before waiting: the wake-up counts as off the CPU */
	pthread_barrier_wait(&m->bar);

	if (tid == 0) {
		steal_read(m, m->steal0);
		m->warm_end = now_s() + m->warmup_s;
		m->deadline = m->warm_end + m->window_s;
	}
	pthread_barrier_wait(&m->bar);

	if (!atomic_load(&m->failed)) {
		int planned = m->pus[tid];

		run_until(m, slot, planned, m->warm_end, &batch);
		slot->cpu_stray = -1;
		slot->cpu_start = sched_getcpu();
		noise_thread_read(&slot->n0);
		pmu_thread_enable(counters);
		if (m->pt)
			prof_thread_enable(&m->pt[tid]);
		slot->t0 = now_s();
		slot->ops = run_until(m, slot, planned, m->deadline, &batch);
		slot->t1 = now_s();
		if (m->pt)
			prof_thread_disable(&m->pt[tid]);
		pmu_thread_disable(counters);
		noise_thread_read(&slot->n1);
		slot->cpu_end = sched_getcpu();
		if (counters)
			pmu_thread_read(counters, slot->ev);
		if (m->pt)
			prof_thread_collect(&m->pt[tid], m->prof);
		if (slot->cpu_start != planned || slot->cpu_end != planned ||
		    slot->cpu_stray >= 0) {
			char stray[48] = "";

			if (slot->cpu_stray >= 0)
				snprintf(stray, sizeof(stray), ", CPU %d during the window",
					 slot->cpu_stray);
			fail(m,
			     "thread %d: migrated: planned on CPU %d, ran on CPU %d at start, %d "
			     "at end%s",
			     tid, planned, slot->cpu_start, slot->cpu_end, stray);
		}
	}
	pthread_barrier_wait(&m->bar);
	if (tid == 0)
		steal_end(m);

	if (slot->tstate)
		scenario_thread_teardown(m->sc, m->shared, slot->tstate);
	pthread_barrier_wait(&m->bar);

	if (tid == 0 && m->shared) {
		if (m->sc->window_end && m->sc->window_end(m->shared, m->note, sizeof(m->note)))
			fail(m, "%s", m->note);
		scenario_teardown(m->sc, m->shared);
	}
	pmu_thread_close(counters);
	if (m->pt && m->pt[tid].s) /* failed before the window: not collected */
		prof_thread_reset(&m->pt[tid]);
	topo_binding_restore(m->topo, saved);
	window_bind(NULL);
}

void meas_thread(struct measurement *m, int tid)
{
	for (;;) {
		window(m, tid);
		pthread_barrier_wait(&m->bar); /* every thread's slot is final */
		if (tid == 0) {
			m->again = 0;
			if (!atomic_load(&m->failed) && !stop_requested) {
				noise_check(m);
				if (!m->disturbed)
					starved_check(m);
				m->windows++;
				m->disturbed_windows += m->disturbed;
				if (m->disturbed && m->retries < m->noise_retries) {
					m->retries++;
					window_reset(m);
					m->again = 1;
				}
			}
		}
		pthread_barrier_wait(&m->bar);
		if (!m->again)
			break;
	}
}

/* aggregate_counters - per event: summed per op if every thread counted it. */
static void aggregate_counters(struct measurement *m, struct meas_result *r)
{
	for (int e = 0; e < m->nev; e++) {
		struct meas_event *a = &m->agg[e];
		double sum = 0;
		int seen = 0;

		memset(a, 0, sizeof(*a));
		a->mux = 1;
		for (int i = 0; i < m->threads; i++) {
			const struct pmu_value *v = &m->slots[i].ev[e];
			double per = m->slots[i].ops ? v->value / (double)m->slots[i].ops : 0;

			if (!v->present) {
				a->absent_threads++;
				continue;
			}
			sum += v->value;
			a->min_per_op = !seen++ || per < a->min_per_op ? per : a->min_per_op;
			a->max_per_op = per > a->max_per_op ? per : a->max_per_op;
			a->mux = v->mux < a->mux ? v->mux : a->mux;
		}
		a->present = !a->absent_threads && r->ops;
		a->per_op = r->ops ? sum / (double)r->ops : 0;
	}
	r->ev = m->agg;
}

/* noise_result - the kept window's noise, summed over threads (-1 where not known). */
static void noise_result(const struct measurement *m, struct meas_result *r)
{
	r->run_delay_ns = r->migrations = 0;
	r->nivcsw = 0;
	for (int i = 0; i < m->threads; i++) {
		const struct thread_slot *s = &m->slots[i];

		r->nivcsw += (double)(s->n1.nivcsw - s->n0.nivcsw);
		if (r->run_delay_ns >= 0)
			r->run_delay_ns =
			    s->n0.have_delay && s->n1.have_delay
				? r->run_delay_ns + (double)(s->n1.delay_ns - s->n0.delay_ns)
				: -1;
		if (r->migrations >= 0)
			r->migrations =
			    s->n0.have_migrations && s->n1.have_migrations
				? r->migrations + (double)(s->n1.migrations - s->n0.migrations)
				: -1;
	}
	r->steal_pct = m->steal_frac * 100;
	r->retries = m->retries;
	r->windows = m->windows;
	r->disturbed_windows = m->disturbed_windows;
	r->disturbed = m->disturbed;
	r->noise_reason = m->noise_reason;
}

void meas_result(struct measurement *m, struct meas_result *r)
{
	double t0 = 0, t1 = 0;

	memset(r, 0, sizeof(*r));
	r->aborted = stop_requested != 0;
	r->failed = atomic_load(&m->failed) || r->aborted;
	r->reason = m->reason;
	r->note = m->note;
	if (r->failed)
		return;
	for (int i = 0; i < m->threads; i++) {
		const struct thread_slot *s = &m->slots[i];

		if (i == 0 || s->t0 < t0)
			t0 = s->t0;
		if (i == 0 || s->t1 > t1)
			t1 = s->t1;
		if (i == 0 || s->ops < r->ops_min)
			r->ops_min = s->ops;
		if (s->ops > r->ops_max)
			r->ops_max = s->ops;
		r->ops += s->ops;
	}
	r->duration_s = t1 - t0;
	r->t0 = t0;
	r->t1 = t1;
	aggregate_counters(m, r);
	noise_result(m, r);
	if (m->prof) {
		prof_window_build(&m->pw, m->prof, m->pt, m->threads);
		r->prof = &m->pw;
	}
}

struct meas_arg {
	struct measurement *m;
	int tid;
};

static void *meas_main(void *p)
{
	struct meas_arg *a = p;

	meas_thread(a->m, a->tid);
	return NULL;
}

void meas_run(struct measurement *m)
{
	pthread_t *tids = xcalloc((size_t)m->threads, sizeof(*tids));
	struct meas_arg *args = xcalloc((size_t)m->threads, sizeof(*args));
	int ret;

	for (int i = 1; i < m->threads; i++) {
		args[i] = (struct meas_arg){m, i};
		ret = pthread_create(&tids[i], NULL, meas_main, &args[i]);
		if (ret)
			die("pthread_create", "", "%s", strerror(ret));
	}
	meas_thread(m, 0);
	for (int i = 1; i < m->threads; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	free(args);
}
