// SPDX-License-Identifier: MIT
/* measure.c - the equal-time contention window. */
#include <errno.h>
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
#include "window_noise.h"
#include "work.h"

/* A batch of operations is grown until it lasts this long, to keep clock reads cheap. */
#define BATCH_TARGET_S 20e-6
#define BATCH_MAX (1u << 20)

/*
 * The transfer probe (docs/measuring.md): batches of XFER_ROUNDS round trips of one line
 * between thread 0 and thread N-1, until XFER_BATCHES batches or XFER_BUDGET of the window
 * (each probe; at least XFER_MIN_S); the median batch, per one-way transfer. Fewer than
 * XFER_MIN_BATCHES batches in that time (the partner thread did not run) give no value.
 */
#define XFER_ROUNDS 8
#define XFER_BATCHES 64
#define XFER_MIN_BATCHES 4
#define XFER_BUDGET 0.01
#define XFER_MIN_S 50e-6
#define XFER_STOP UINT64_MAX

double (*meas_xfer_hook)(int after, double ns);
void (*meas_batch_hook)(int tid, double batch_s);

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
	for (int i = 0; i < threads; i++)
		m->slots[i].gaps = xcalloc(1, sizeof(struct noise_gaps));
	m->xfer = bench_alloc(sizeof(*m->xfer), BENCH_PAD);
	m->symmetric = (workload_find(sc, bench_workload_name(cfg))->flags & BENCH_SYMMETRIC) != 0;
	meas_set_noise(m, NOISE_DEFAULT_MAX_PCT / 100, NOISE_DEFAULT_RETRIES);
	meas_set_imbalance(m, NOISE_DEFAULT_IMBALANCE_MIN);
	m->xfer_ns[0] = m->xfer_ns[1] = NAN;
}

void meas_set_imbalance(struct measurement *m, double min)
{
	m->imbalance_min = min;
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
	for (int i = 0; i < m->threads; i++)
		free(m->slots[i].gaps);
	bench_free(m->slots);
	bench_free(m->xfer);
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
		struct noise_gaps *gaps = m->slots[i].gaps;

		memset(&m->slots[i], 0, sizeof(m->slots[i]));
		memset(gaps, 0, sizeof(*gaps));
		m->slots[i].ev = ev;
		m->slots[i].gaps = gaps;
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
	m->kind = NOISE_NONE;
	m->noise_reason[0] = '\0';
	m->note[0] = '\0';
	m->xfer_ns[0] = m->xfer_ns[1] = NAN;
	m->xfer_note[0] = '\0';
	m->lost_frac = 0;
}

void meas_reset(struct measurement *m)
{
	window_reset(m);
	m->retries = m->windows = m->disturbed_windows = 0;
	memset(m->kind_windows, 0, sizeof(m->kind_windows));
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
 * Between batches the thread also samples the CPU it runs on (a vDSO call, nanoseconds)
 * and, with @gaps (the window, not the warm-up), bins the batch's time.
 */
static uint64_t run_until(struct measurement *m, struct thread_slot *slot, int planned, double end,
			  uint64_t *batch, struct noise_gaps *gaps)
{
	void *tstate = slot->tstate;
	uint64_t ops = 0;
	double t = now_s();

	while (t < end && !stop_requested) {
		double t2;
		int cpu;

		ops += run_ops(m, tstate, *batch);
		if (meas_batch_hook)
			meas_batch_hook((int)(slot - m->slots), now_s() - t);
		t2 = now_s();
		cpu = sched_getcpu();
		if (cpu != planned)
			slot->cpu_stray = cpu;
		if (gaps)
			noise_gap_add(gaps, (t2 - t) * 1e9);
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
	char err[256] = "";

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
		fail(m, "home: planned on NUMA node %d, the pages are on nodes 0x%llx",
		     m->home.node, (unsigned long long)m->home_nodes);
	}
}

/*
 * xfer_skip - whether the window gets no transfer probe (m->xfer_off), and why (into
 * m->xfer_note): one thread, or thread 0 and thread N-1 on one PU. Thread 0, before the
 * barrier that precedes the first probe.
 */
static void xfer_skip(struct measurement *m)
{
	int n = m->threads;

	if (n < 2)
		snprintf(m->xfer_note, sizeof(m->xfer_note), "one thread: no pair of PUs to probe");
	else if (m->pus[0] == m->pus[n - 1])
		snprintf(m->xfer_note, sizeof(m->xfer_note),
			 "threads 0 and %d share PU %d: no transfer to probe", n - 1, m->pus[0]);
	m->xfer_off = m->xfer_note[0] != '\0';
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * xfer_probe - the transfer probe (@after: 0 before the window, 1 after), run by every
 * thread right after a barrier: thread 0 bounces a line off thread N-1 (which returns
 * every odd value as the next even one) for batches of XFER_ROUNDS round trips, then
 * records the median batch per one-way transfer; the other threads return at once.
 */
static void xfer_probe(struct measurement *m, int tid, int after)
{
	_Atomic uint64_t *turn = &m->xfer->turn;
	int last = m->threads - 1;
	double ns[XFER_BATCHES], t, end,
	    budget =
		m->window_s * XFER_BUDGET > XFER_MIN_S ? m->window_s * XFER_BUDGET : XFER_MIN_S;
	uint64_t v = 0;
	int nb = 0;

	if (atomic_load(&m->failed) || m->xfer_off || (tid != 0 && tid != last))
		return;
	if (tid == last) {
		for (;;) {
			uint64_t x = atomic_load_explicit(turn, memory_order_acquire);

			if (x == XFER_STOP)
				return;
			if (x & 1)
				atomic_store_explicit(turn, x + 1, memory_order_release);
		}
	}
	t = now_s();
	end = t + budget;
	do {
		double t2;

		for (int i = 0; i < XFER_ROUNDS; i++, v += 2) {
			atomic_store_explicit(turn, v + 1, memory_order_release);
			while (atomic_load_explicit(turn, memory_order_acquire) != v + 2)
				;
		}
		t2 = now_s();
		ns[nb++] = (t2 - t) * 1e9 / (2 * XFER_ROUNDS);
		t = t2;
	} while (nb < XFER_BATCHES && t < end);
	atomic_store_explicit(turn, XFER_STOP, memory_order_release);
	if (nb < XFER_MIN_BATCHES) {
		size_t k = strlen(m->xfer_note);

		snprintf(m->xfer_note + k, sizeof(m->xfer_note) - k,
			 "%sprobe %s: %d of %d batches in its %.0f us (thread %d did not run)",
			 k ? "; " : "", after ? "after" : "before", nb, XFER_MIN_BATCHES,
			 budget * 1e6, last);
	} else {
		qsort(ns, (size_t)nb, sizeof(*ns), cmp_double);
		m->xfer_ns[after] = nb % 2 ? ns[nb / 2] : (ns[nb / 2 - 1] + ns[nb / 2]) / 2;
	}
	if (meas_xfer_hook)
		m->xfer_ns[after] = meas_xfer_hook(after, m->xfer_ns[after]);
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
	if (tid == 0) {
		atomic_store(&m->xfer->turn, 0);
		xfer_skip(m);
	}
	pthread_barrier_wait(&m->bar);

	xfer_probe(m, tid, 0);
	if (tid == 0) {
		meas_steal_read(m, m->steal0);
		m->warm_end = now_s() + m->warmup_s;
		m->deadline = m->warm_end + m->window_s;
	}
	pthread_barrier_wait(&m->bar);
	/* after the wake-up, which counts as off the CPU: only the CPU time from here on */
	slot->cpu_w = noise_thread_cpu_s();

	if (!atomic_load(&m->failed)) {
		int planned = m->pus[tid];

		run_until(m, slot, planned, m->warm_end, &batch, NULL);
		slot->cpu_stray = -1;
		slot->cpu_start = sched_getcpu();
		noise_thread_read(&slot->n0);
		pmu_thread_enable(counters);
		if (m->pt)
			prof_thread_enable(&m->pt[tid]);
		slot->t0 = now_s();
		slot->ops = run_until(m, slot, planned, m->deadline, &batch, slot->gaps);
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
	if (tid == 0)
		atomic_store(&m->xfer->turn, 0);
	pthread_barrier_wait(&m->bar);
	xfer_probe(m, tid, 1);
	if (tid == 0)
		meas_steal_end(m);

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
				meas_noise_check(m);
				if (!m->disturbed)
					meas_starved_check(m);
				m->windows++;
				m->disturbed_windows += m->disturbed;
				m->kind_windows[m->kind] += m->disturbed;
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
	r->disturbed_by = noise_kind_names[m->kind];
	r->kind_windows = m->kind_windows;
	r->lost_pct = m->lost_frac * 100;
	r->xfer_ns[0] = m->xfer_ns[0];
	r->xfer_ns[1] = m->xfer_ns[1];
	r->xfer_note = m->xfer_note;
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

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

static void *probe_main(void *p)
{
	pthread_mutex_lock(&probe_lock); /* held by the prober until every thread exists */
	pthread_mutex_unlock(&probe_lock);
	return p;
}

int meas_threads_probe(int n, char *err, size_t errlen)
{
	pthread_t *tids = calloc((size_t)n + 1, sizeof(*tids));
	int made = 0, ret = 0;

	if (!tids) {
		set_err(err, errlen, "cannot start %d threads: %s", n, strerror(ENOMEM));
		return -1;
	}
	pthread_mutex_lock(&probe_lock);
	while (made < n - 1 && !(ret = pthread_create(&tids[made], NULL, probe_main, NULL)))
		made++;
	pthread_mutex_unlock(&probe_lock);
	for (int i = 0; i < made; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	if (ret)
		set_err(err, errlen, "cannot start %d threads: thread %d: %s (a resource limit?)",
			n, made + 2, strerror(ret));
	return ret ? -1 : 0;
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
