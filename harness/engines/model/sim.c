// SPDX-License-Identifier: MIT
/*
 * sim.c - one run of the coherence model (see model.h and docs/model.md).
 *
 * Virtual CPUs are coroutines (coro.h) on the calling thread, each looping over
 * run(shared, tstate, 1) of the tracing build. Every traced access enters model_hook(),
 * which first lets the scheduler choose who executes the next access (possibly switching
 * away), and then, when this virtual CPU is chosen, records the access in the MESI
 * simulator right before it really executes. So the simulated order is the execution order.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "window.h"
#include "sim.h"
#include "stop.h"
#include "util.h"

/* The one simulation in progress (the hook is a global). */
static struct sim *cur_sim;

/* ---- MESI ---- */

/*
 * A line's holders are also a bitmap (held_of: s->dwords words), so that finding the
 * nearest sharer or invalidating the others visits the holders only, in domain order, not
 * every domain.
 */
#define HOLDER(w, m) ((w)*64 + __builtin_ctzll(m))

static uint64_t *held_of(const struct sim *s, const struct lstate *ln)
{
	return s->held + (size_t)(ln - s->lines) * (size_t)s->dwords;
}

static void hold(const struct sim *s, const struct lstate *ln, int d)
{
	held_of(s, ln)[d / 64] |= 1ULL << (d % 64);
}

/* nearest - the domain holding a copy of @ln that is nearest to @d (lowest on ties). */
static int nearest(const struct sim *s, const struct lstate *ln, int d)
{
	const uint8_t *pd = s->pair + (size_t)d * (size_t)s->D;
	const uint64_t *held = held_of(s, ln);
	int best = -1;

	for (int w = 0; w < s->dwords; w++)
		for (uint64_t m = held[w]; m; m &= m - 1) {
			int i = HOLDER(w, m);

			if (i != d && (best < 0 || pd[i] < pd[best]))
				best = i;
		}
	return best;
}

static int invalidate_others(const struct sim *s, struct lstate *ln, int d)
{
	uint64_t *held = held_of(s, ln);
	int n = 0;

	for (int w = 0; w < s->dwords; w++) {
		uint64_t m = held[w] & ~(w == d / 64 ? 1ULL << (d % 64) : 0);

		held[w] ^= m;
		for (; m; m &= m - 1, n++)
			ln->st[HOLDER(w, m)] = MESI_I;
	}
	return n;
}

/*
 * fill - where domain @d's copy of @ln comes from, which it does not hold: the event (HITM
 * from a modified owner, local or remote by package; a clean cache-to-cache fill from an
 * exclusive owner or the nearest sharer; else a miss) and the source domain in @src (-1).
 */
static int fill(const struct sim *s, const struct lstate *ln, int d, int *src)
{
	if (ln->owner >= 0) {
		*src = ln->owner;
		if (ln->st[*src] != MESI_M)
			return MEV_CLEAN_C2C;
		return s->dom_pkg[*src] == s->dom_pkg[d] ? MEV_HITM_LOCAL : MEV_HITM_REMOTE;
	}
	*src = ln->nvalid ? nearest(s, ln, d) : -1;
	return ln->nvalid ? MEV_CLEAN_C2C : MEV_MISS;
}

/* access - domain @d reads or writes @ln; charge the events to @a when @counted. */
static void access_line(struct sim *s, struct lstate *ln, int d, int write, struct acc *a,
			int counted)
{
	uint8_t *st = ln->st;
	int src = -1, ev = -1, inval = 0, upgrade = 0;

	if (!write) {
		if (st[d] != MESI_I)
			return;
		ev = fill(s, ln, d, &src);
		if (ln->owner >= 0) { /* the owner keeps a shared copy */
			st[ln->owner] = MESI_S;
			ln->owner = -1;
		}
		st[d] = ln->nvalid ? MESI_S : MESI_E;
		if (!ln->nvalid)
			ln->owner = d;
		ln->nvalid++;
		hold(s, ln, d);
	} else {
		switch (st[d]) {
		case MESI_M:
			return;
		case MESI_E:
			st[d] = MESI_M; /* silent */
			return;
		case MESI_S:
			upgrade = 1;
			break;
		default:
			ev = fill(s, ln, d, &src);
		}
		inval = invalidate_others(s, ln, d);
		st[d] = MESI_M;
		hold(s, ln, d);
		ln->owner = d;
		ln->nvalid = 1;
	}
	if (!counted)
		return;
	if (ev >= 0)
		a->ev[ev]++;
	if (src >= 0)
		a->xfer[s->pair[d * s->D + src]]++;
	a->ev[MEV_INVAL] += (uint64_t)inval;
	a->ev[MEV_UPGRADE] += (uint64_t)upgrade;
}

/* ---- the scheduler ---- */

/* The runnable vCPUs are s->active: neither stopped nor parked. */
static void deactivate(struct sim *s, int id)
{
	int k = 0;

	for (int i = 0; i < s->nactive; i++)
		if (s->active[i] != id)
			s->active[k++] = s->active[i];
	s->nactive = k;
}

static int pick(struct sim *s)
{
	if (s->o.interleave == MODEL_RANDOM)
		return s->active[(int)(((splitmix64(&s->rng) >> 32) * (uint64_t)s->nactive) >> 32)];
	for (int k = 1; k <= s->T; k++) {
		int n = (s->cur + k) % s->T;

		if (!s->v[n].stopped && s->v[n].parked < 0)
			return n;
	}
	return s->cur;
}

static void switch_to(struct sim *s, int n)
{
	int me = s->cur;

	s->cur = n;
	s->v[n].started = 1;
	coro_switch(&s->v[me].co, &s->v[n].co);
	/* resumed: whoever chose us set s->cur back to us */
}

unsigned long long model_watchdog_steps(int threads)
{
	return NO_PROGRESS_STEPS +
	       (unsigned long long)(threads > 0 ? threads : 1) * 4 * RR_OP_VALVE;
}

unsigned long long model_memory_bytes(int threads)
{
	return (unsigned long long)(threads > 0 ? threads : 0) *
	       (STACK_SIZE + sizeof(struct vcpu) + 2 * sizeof(int));
}

/*
 * tick - count a step; give up on everyone when no operation completes for too long (the
 * bound scales with the vCPUs: model_watchdog_steps), or when the command is asked to
 * stop (lib/stop.h).
 */
static void tick(struct sim *s)
{
	if (++s->steps - s->progress_step > s->watchdog || stop_requested) {
		s->stuck = 1; /* a wait that cannot end here: give up on everyone still running */
		coro_switch(&s->v[s->cur].co, &s->main_co);
	}
}

/* step - one scheduling decision; returns when the calling virtual CPU is chosen again. */
static void step(struct sim *s)
{
	int n;

	if (!s->nactive) { /* everyone waits on a lock: nothing can ever run again */
		s->stuck = 1;
		coro_switch(&s->v[s->cur].co, &s->main_co);
	}
	n = pick(s);
	if (n != s->cur)
		switch_to(s, n);
}

/*
 * park - the calling vCPU spins on a held lock whose line its core holds: every load
 * would hit and change nothing, so it sleeps until someone writes that line.
 *
 * The parking rule: a wait-loop load (PC_OP_WAIT) whose reported bytes are non-zero
 * (lock_busy), by a vCPU whose core holds the line, parks it; any write to the line, by any
 * vCPU on any core (its SMT sibling too), wakes it to look again. The accessor layer reports
 * exactly the bytes a wait loop waits on (access.h: pc_lock_wait makes its mask from them,
 * pc_spin_lock waits on its whole word), so a parked vCPU's loop could not end: the bytes
 * change only by a write to their line, which wakes it, and it then tests the loop's own
 * condition again. Parking only leaves out loads that would have hit and seen the lock held;
 * it cannot keep a vCPU whose wait is over. (Before issue 36, two qspinlock waits reported
 * the whole word while waiting on 1 and 2 bytes of it: the waiter's own pending bit or tail
 * kept it parked, and when the holder was its SMT sibling, whose writes leave the line in
 * their shared core, nothing made it load again.)
 */
static void park(struct sim *s, int line)
{
	s->v[s->cur].parked = line;
	s->lines[line].nparked++;
	deactivate(s, s->cur);
	step(s);
}

/* wake - a write to @line: the vCPUs parked on it look again (in id order). */
static void wake(struct sim *s, int line)
{
	for (int i = 0; i < s->T && s->lines[line].nparked; i++) {
		if (s->v[i].parked == line) {
			s->v[i].parked = -1;
			s->lines[line].nparked--;
			s->active[s->nactive++] = i;
		}
	}
}

/*
 * lock_busy - a lock attempt or a wait-loop load (access.h) whose @size bytes at @addr are
 * non-zero: the lock is held, the wait goes on (exactly the loop's condition: see park).
 */
static int lock_busy(enum pc_op op, const volatile void *addr, unsigned size)
{
	if (op != PC_OP_WAIT && op != PC_OP_LOCK)
		return 0;
	switch (size) {
	case 1:
		return atomic_load_explicit((_Atomic unsigned char *)addr, memory_order_relaxed) !=
		       0;
	case 2:
		return atomic_load_explicit((_Atomic unsigned short *)addr, memory_order_relaxed) !=
		       0;
	case 4:
		return atomic_load_explicit((pc_lock *)addr, memory_order_relaxed) != 0;
	default:
		return 0;
	}
}

static void model_hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	struct sim *s = cur_sim;
	struct vcpu *v = &s->v[s->cur];
	struct acc *a;
	int counted, write = pc_op_is_write(op);

	tick(s);
	if (s->o.interleave != MODEL_RR_OP || ++v->op_accesses % RR_OP_VALVE == 0 ||
	    lock_busy(op, addr, size))
		step(s);
	a = sim_acc_get(s, (uintptr_t)addr, site, (int)op, size);
	/* the wait loop of a held lock (access.h reports each retry as a PC_OP_WAIT) */
	while (op == PC_OP_WAIT && lock_busy(op, addr, size) &&
	       s->lines[a->line].st[v->dom] != MESI_I) {
		park(s, a->line);
		a = sim_acc_get(s, (uintptr_t)addr, site, (int)op,
				size); /* others may have grown it */
	}
	/* This virtual CPU executes the access now. */
	counted = v->ops >= s->o.warmup && v->ops < s->o.warmup + s->o.ops;
	if (counted)
		a->accesses++;
	access_line(s, &s->lines[a->line], v->dom, write, a, counted);
	if (write && s->lines[a->line].nparked)
		wake(s, a->line);
}

/* stop - the calling virtual CPU leaves for good, at an operation boundary. */
static void stop(struct sim *s, int id)
{
	s->v[id].stopped = 1;
	deactivate(s, id);
	if (!s->nactive) { /* the last one (or only parked ones are left) */
		coro_switch(&s->v[id].co, &s->main_co);
		return; /* not reached */
	}
	switch_to(s, pick(s));
}

static void vcpu_main(int id)
{
	struct sim *s = cur_sim;
	struct vcpu *v = &s->v[id];
	long total = s->o.warmup + s->o.ops;

	for (;;) {
		if (s->all_done) /* everyone has done its operations: stop between two */
			stop(s, id);
		v->op_accesses = 0;
		s->sc->run(s->shared, v->ts, 1);
		v->ops++;
		/* progress: an operation someone still needed (or, at the end, any) */
		if (v->ops <= total || s->all_done)
			s->progress_step = s->steps;
		if (v->ops == total && ++s->nfinished == s->T) {
			s->all_done = 1;
			atomic_store(&window_all_done, 1); /* waits in run() end now */
		}
		tick(s);
		step(s); /* an operation boundary is a scheduling point too */
	}
}

/* ---- one run ---- */

static void sim_free(struct sim *s)
{
	for (int i = 0; i < s->T; i++)
		free(s->v[i].stack);
	for (int i = 0; i < s->nlines; i++)
		free(s->lines[i].st);
	if (s->held)
		munmap(s->held, (size_t)s->heldcap * (size_t)s->dwords * sizeof(*s->held));
	free(s->v);
	free(s->dom_pkg);
	free(s->pair);
	free(s->active);
	sim_free_fields(s);
	free(s->lines);
	free(s->lmap);
	free(s->acc);
}

/* domains - one private-cache domain per core (SMT siblings share it). */
static int domains(struct sim *s, const struct topo *t, const int *pus, char *err, size_t errlen)
{
	int *core = xcalloc((size_t)s->T, sizeof(int)), *rep = xcalloc((size_t)s->T, sizeof(int));

	s->dom_pkg = xcalloc((size_t)s->T, sizeof(int));
	for (int i = 0; i < s->T; i++) {
		struct topo_pu pu;
		int key, d;

		if (topo_pu_info(t, pus[i], &pu)) {
			set_err(err, errlen, "PU %d is not in topology %s", pus[i], topo_source(t));
			free(core);
			free(rep);
			return -1;
		}
		key = pu.core >= 0 ? pu.core : -1 - pu.os;
		for (d = 0; d < s->D && core[d] != key; d++)
			;
		if (d == s->D) {
			core[d] = key;
			rep[d] = pus[i];
			s->dom_pkg[d] = pu.package;
			s->D++;
		}
		s->v[i].dom = d;
	}
	s->pair = xcalloc((size_t)s->D * (size_t)s->D, 1);
	for (int a = 0; a < s->D; a++)
		for (int b = 0; b < s->D; b++)
			s->pair[a * s->D + b] =
			    a == b ? PAIR_SAME_PU : (uint8_t)topo_pair_class(t, rep[a], rep[b]);
	free(core);
	free(rep);
	return 0;
}

/* vcpu_init - the coroutine of virtual CPU @i. */
static void vcpu_init(struct sim *s, int i)
{
	struct vcpu *v = &s->v[i];

	v->stack = xmalloc(STACK_SIZE);
	coro_make(&v->co, v->stack, STACK_SIZE, vcpu_main, i);
	v->parked = -1;
	s->active[s->nactive++] = i;
}

int model_run(const struct scenario *traced, const struct bench_cfg *cfg, const struct topo *t,
	      const int *pus, int threads, const struct model_opts *o, struct model_result *out)
{
	void (*saved_hook)(enum pc_op, const volatile void *, unsigned, const char *) =
	    pc_trace_hook;
	struct sim *s = xcalloc(1, sizeof(*s));
	char err[256] = "";
	int abandoned = 0;

	memset(out, 0, sizeof(*out));
	out->threads = threads;
	out->line_size = o->line_size;
	s->sc = traced;
	s->o = *o;
	s->T = threads;
	s->watchdog = model_watchdog_steps(threads);
	s->rng = o->seed;
	s->v = xcalloc((size_t)threads, sizeof(*s->v));
	s->active = xcalloc((size_t)threads, sizeof(int));
	if (threads < 1 || domains(s, t, pus, err, sizeof(err)))
		goto fail;
	out->domains = s->D;
	s->dwords = (s->D + 63) / 64;

	/* Un-instrumented: setup, per-thread setup, the object table. */
	pc_trace_hook = NULL;
	s->shared = traced->setup(cfg, err, sizeof(err));
	if (!s->shared)
		goto fail;
	for (int i = 0; i < threads; i++) {
		s->v[i].ts = scenario_thread_setup(traced, s->shared, i);
		if (!s->v[i].ts) {
			set_err(err, sizeof(err), "thread %d: thread setup failed", i);
			goto teardown;
		}
	}
	s->nobj = scenario_objects(traced, s->shared, s->objs, MAX_OBJECTS);
	sim_build_fields(s);

	for (int i = 0; i < threads; i++)
		vcpu_init(s, i);
	cur_sim = s;
	s->cur = threads - 1;
	s->cur = pick(s);
	s->v[s->cur].started = 1;
	pc_trace_hook = model_hook;
	atomic_store(&window_all_done, 0);
	coro_switch(&s->main_co, &s->v[s->cur].co);
	atomic_store(&window_all_done, 0);
	pc_trace_hook = NULL;
	cur_sim = NULL;

	for (int i = 0; i < threads; i++)
		abandoned += s->v[i].started && !s->v[i].stopped;
	if (!s->all_done && stop_requested) {
		set_err(err, sizeof(err), "interrupted");
		goto teardown;
	}
	if (!s->all_done) {
		set_err(err, sizeof(err),
			"no virtual CPU short of its operations completed one in %u steps (a "
			"wait that cannot end in the model?)",
			NO_PROGRESS_STEPS);
		goto teardown;
	}
	out->ok = 1;
	out->ops = (uint64_t)threads * (uint64_t)o->ops;
	out->steps = s->steps;
	if (abandoned)
		snprintf(out->reason, sizeof(out->reason),
			 "%d virtual CPUs waited forever after the measured operations and were "
			 "abandoned",
			 abandoned);
	sim_build_result(s, out);

teardown:
	/*
	 * An abandoned vCPU may be inside an operation: its thread_teardown (which may touch
	 * shared state) is not run, only its block (bench_alloc'd, as every scenario's) freed.
	 */
	for (int i = 0; i < threads; i++) {
		if (!s->v[i].ts)
			continue;
		if (!s->v[i].started || s->v[i].stopped)
			scenario_thread_teardown(traced, s->shared, s->v[i].ts);
		else
			bench_free(s->v[i].ts);
	}
	scenario_teardown(traced, s->shared);
fail:
	if (!out->ok)
		snprintf(out->reason, sizeof(out->reason), "%s", err[0] ? err : "failed");
	pc_trace_hook = saved_hook;
	sim_free(s);
	free(s);
	return out->ok ? 0 : -1;
}
