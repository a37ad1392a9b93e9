// SPDX-License-Identifier: MIT
/*
 * page_counter.c - the Linux v6.0 memcg charge path and the Aug 2022 series that sped it
 * up: (A) no xchg in propagate_protected_usage when nothing changed, (B) the v6.1
 * struct page_counter layout, (C) MEMCG_CHARGE_BATCH 32 -> 64. Every thread charges the
 * same leaf of a root/L1/.../leaf hierarchy (`levels` counters, default 4), as 36 netperf
 * instances in one cgroup do; in `socket` the pages are charged on one CPU and uncharged on
 * another, as netperf/netserver pairs over loopback do.
 * Kernel facts: ../shared/reference/kernel-memcg.md sections 1-3 and 7, docs/scenarios.md.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "memcg.h"

#define MIN_PAGES 256		  /* memory.min on L1: 1 MiB worth of 4 KiB pages */
#define LOW_PAGES (2 * MIN_PAGES) /* memory.low on L1 */
#define SOCK_JIFFIES 1000000L	  /* "now": past every socket_pressure deadline (all 0) */
#define MEMCG_NR_STAT 48	  /* v6.0: 41 node items + 7 memcg items (memcg.h) */

/* struct sock_pages: the pages in flight on one socket pair, shared by its two threads. */
#define SOCK_LAYOUT                                                                                \
	"layout socket\n"                                                                          \
	"desc the pages a sender has charged and its receiver not yet uncharged (one socket)\n"    \
	"struct sock_pages size 64 align 64\n"                                                     \
	"\tpending 0 8 atomic\n"                                                                   \
	"end\n"

enum pc_mode { PC_DIRECT, PC_STOCKED, PC_SOCKET };
enum sock_role { SOCK_SENDER, SOCK_RECEIVER, SOCK_SELF };

/* The algorithm (page_counter, stock, try_charge_memcg) is in memcg.h, shared with kmem.c. */
struct pc_shared {
	struct memcg_offs o;
	struct memcg_rstat rstat;
	long nr, burst, window, walks, mix;
	int mode, levels, nthreads, npairs, uniform;
	unsigned long seed;
	char *cg[MEMCG_MAX_LEVELS]; /* the modelled mem_cgroups; cg[0] is root, the last the leaf */
	const struct layout *layout;
	/* socket: one struct sock_pages per pair, and the global rstat threshold */
	pc_word **sock;
	char (*sock_names)[16];
	struct memcg_globals *globals;
	struct layout *slayout, *glayout;
};

/* One thread = one CPU: its memcg_stock_pcp, its vmstats_percpu, its part in a pair. */
struct pc_thread {
	struct memcg_stock stock;
	unsigned long rng;
	long step;   /* stocked: position in the burst, [0, 2 * k) */
	long k;	     /* stocked: charges in this burst */
	long held;   /* stocked: pages charged in this burst and not yet uncharged */
	int role;    /* socket */
	pc_word *sk; /* socket: the pair's pending pages */
	long own;    /* socket: pages of a message this CPU uncharges itself (mix) */
	long stats_updates;
	long state[MEMCG_NR_STAT];
};

/* rng_next - splitmix64 of the thread's seeded state (deterministic per seed and thread). */
static unsigned long rng_next(unsigned long *x)
{
	unsigned long z = (*x += 0x9e3779b97f4a7c15UL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
	return z ^ (z >> 31);
}

static int check(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	static const char *const counters[] = {"memory", "swap", NULL};
	const struct layout *l = bench_layout(cfg, "layout", err, errlen);
	const char *wl = bench_workload_name(cfg);

	if (!l)
		return -1;
	if (memcg_check_layout(l, counters, "memory and swap", err, errlen))
		return -1;
	if (!strcmp(wl, "stocked") && bench_long(cfg, "burst") % bench_long(cfg, "nr")) {
		bench_error(err, errlen, "burst=%ld is not a multiple of nr=%ld",
			    bench_long(cfg, "burst"), bench_long(cfg, "nr"));
		return -1;
	}
	if (!strcmp(wl, "socket") && layout_offset(l, "mem_cgroup", "socket_pressure") < 0) {
		bench_error(err, errlen,
			    "layout %s: the socket workload needs mem_cgroup.socket_pressure",
			    l->name);
		return -1;
	}
	if (bench_long(cfg, "preload") <= 2 * LOW_PAGES) {
		bench_error(err, errlen, "preload=%ld must be well above memory.low (%d pages)",
			    bench_long(cfg, "preload"), LOW_PAGES);
		return -1;
	}
	return 0;
}

static void teardown(void *shared);

/* sock_setup - the socket workload's pair words and the global rstat threshold. */
static int sock_setup(struct pc_shared *s, const struct bench_cfg *cfg, char *err, size_t errlen)
{
	s->slayout = layout_parse(SOCK_LAYOUT, "page_counter.c", err, errlen);
	s->glayout = layout_parse(MEMCG_GLOBALS_LAYOUT, "memcg.h", err, errlen);
	if (!s->slayout || !s->glayout)
		return -1;
	s->globals = bench_alloc(sizeof(*s->globals), BENCH_PAD);
	s->rstat = (struct memcg_rstat){
	    .threshold = &s->globals->stats_flush_threshold,
	    .batch = s->o.batch,
	    .online_cpus = s->nthreads,
	    .unconditional = 0, /* capped since 873f64b791a2, before v6.0-rc1 */
	};
	s->npairs = (s->nthreads + 1) / 2;
	s->sock = bench_alloc((size_t)s->npairs * sizeof(*s->sock), BENCH_PAD);
	s->sock_names = bench_alloc((size_t)s->npairs * sizeof(*s->sock_names), BENCH_PAD);
	for (int p = 0; p < s->npairs; p++) {
		s->sock[p] =
		    bench_alloc(64, BENCH_PAD); /* a line of its own, no prefetch partner */
		snprintf(s->sock_names[p], sizeof(s->sock_names[p]), "sk%d", p);
	}
	(void)cfg;
	return 0;
}

static void *setup(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	const struct layout *l;
	const struct layout_struct *ls = memcg_layout(cfg, &l, err, errlen);
	const char *wl = bench_workload_name(cfg);
	struct pc_shared *s;
	struct memcg_offs *o;
	long ctr[2];

	if (!ls)
		return NULL;
	s = bench_alloc(sizeof(*s), BENCH_PAD);
	o = &s->o;
	memcg_offs_init(o, l);
	o->batch = bench_long(cfg, "batch");
	o->cond_xchg = !strcmp(bench_str(cfg, "propagate"), "cond-xchg");
	s->nr = bench_long(cfg, "nr");
	s->burst = bench_long(cfg, "burst");
	s->uniform = !strcmp(bench_str(cfg, "burst_dist"), "uniform");
	s->seed = (unsigned long)bench_long(cfg, "seed");
	s->window = bench_long(cfg, "window");
	s->walks = bench_long(cfg, "walks");
	s->mix = bench_long(cfg, "mix");
	s->mode = !strcmp(wl, "socket")	   ? PC_SOCKET
		  : !strcmp(wl, "stocked") ? PC_STOCKED
					   : PC_DIRECT;
	s->levels = (int)bench_long(cfg, "levels");
	s->nthreads = bench_threads(cfg);
	s->layout = l;

	ctr[0] = o->memory;
	ctr[1] = o->swap;
	memcg_alloc_levels(o, ls, s->levels, ctr, 2, s->cg);
	if (s->levels > 1)
		page_counter_set_prot(o, s->cg[1] + o->memory, MIN_PAGES, LOW_PAGES);
	page_counter_charge(o, s->cg[s->levels - 1] + o->memory, bench_long(cfg, "preload"));
	if (s->mode == PC_SOCKET && sock_setup(s, cfg, err, errlen)) {
		teardown(s);
		return NULL;
	}
	return s;
}

static void teardown(void *shared)
{
	struct pc_shared *s = shared;

	for (int i = 0; i < s->levels; i++)
		bench_free(s->cg[i]);
	for (int p = 0; s->sock && p < s->npairs; p++)
		bench_free(s->sock[p]);
	bench_free(s->sock);
	bench_free(s->sock_names);
	bench_free(s->globals);
	layout_free(s->slayout);
	layout_free(s->glayout);
	bench_free(s);
}

/* new_burst - the number of charges of the next stocked burst. */
static long new_burst(const struct pc_shared *s, struct pc_thread *st)
{
	long mean = s->burst / s->nr;

	if (!s->uniform)
		return mean;
	return 1 + (long)(rng_next(&st->rng) % (unsigned long)(2 * mean - 1)); /* mean on average */
}

static void *thread_setup(void *shared, int thread)
{
	struct pc_shared *s = shared;
	struct pc_thread *st = bench_alloc(sizeof(*st), BENCH_PAD);

	st->rng = s->seed * 0x100000001b3UL + (unsigned long)thread;
	if (s->mode == PC_STOCKED)
		st->k = new_burst(s, st);
	if (s->mode == PC_SOCKET) {
		st->sk = s->sock[thread / 2];
		st->role = thread == s->nthreads - 1 && s->nthreads % 2 ? SOCK_SELF
			   : thread % 2					? SOCK_RECEIVER
									: SOCK_SENDER;
	}
	return st;
}

/*
 * sock_uncharge - what freeing @n pages of a socket does on this CPU (v6.0, cgroup v2):
 * __sk_mem_reduce_allocated -> mem_cgroup_uncharge_skmem = mod_memcg_state(MEMCG_SOCK, -n)
 * + refill_stock(n), then sk_under_memory_pressure -> mem_cgroup_under_socket_pressure,
 * @walks times per message.
 */
static void sock_uncharge(const struct pc_shared *s, const struct memcg_offs *o,
			  const struct memcg_rstat *r, struct pc_thread *st, char *leaf, long n)
{
	mod_memcg_state(r, st->state, &st->stats_updates, MEMCG_SOCK, -n);
	refill_stock(o, &st->stock, leaf, n);
	for (long w = 0; w < s->walks; w++)
		mem_cgroup_under_socket_pressure(o, leaf, SOCK_JIFFIES);
}

static void thread_teardown(void *shared, void *tstate)
{
	struct pc_shared *s = shared;
	struct pc_thread *st = tstate;
	const struct memcg_offs *o = &s->o;
	char *leaf = s->cg[s->levels - 1];

	if (s->mode == PC_STOCKED) {
		/* Give back what the unfinished burst still holds, then the stock. */
		for (; st->held >= s->nr; st->held -= s->nr)
			refill_stock(o, &st->stock, leaf, s->nr);
	}
	if (s->mode == PC_SOCKET) {
		/* Every thread has stopped: the receiving side takes what is still in flight. */
		long n = st->role == SOCK_SENDER ? 0 : pc_xchg(st->sk, 0);

		if (st->own)
			sock_uncharge(s, o, &s->rstat, st, leaf, st->own);
		if (n)
			sock_uncharge(s, o, &s->rstat, st, leaf, n);
		st->own = 0;
	}
	drain_stock(o, &st->stock);
	bench_free(st);
}

/* wait_while - spin while *@p compares to @v as @above says; -1 once the window is over. */
static int wait_while(pc_word *p, long v, int above)
{
	unsigned spins = 0;

	while (above ? pc_load(p) > v : pc_load(p) < v)
		if (bench_spin(&spins))
			return -1;
	return 0;
}

/*
 * run_socket - one operation is one charge or one uncharge of a message's `nr` pages, on
 * the thread that does it. A sender (thread 2k) waits while more than `window` pages are in
 * flight, charges through its stock (mem_cgroup_charge_skmem: try_charge_memcg +
 * mod_memcg_state(MEMCG_SOCK, +nr)) and adds the pages to the pair's word; `mix` percent of
 * its messages it uncharges itself instead (its next operation). A receiver (2k + 1) waits
 * for a message, takes it off the word and uncharges it (sock_uncharge). A thread without a
 * partner sends to itself: it alternates the two, and its stock absorbs both.
 */
static uint64_t run_socket(struct pc_shared *s, struct pc_thread *st, uint64_t n)
{
	const struct memcg_offs local = s->o, *o = &local;
	const struct memcg_rstat rstat = s->rstat, *r = &rstat;
	char *leaf = s->cg[s->levels - 1];
	const long nr = s->nr;
	uint64_t i;

	for (i = 0; i < n; i++) {
		int recv =
		    st->role == SOCK_RECEIVER || (st->role == SOCK_SELF && pc_load(st->sk) >= nr);

		if (st->own) { /* an ACK or receive processed on the sender's CPU */
			sock_uncharge(s, o, r, st, leaf, st->own);
			st->own = 0;
		} else if (recv) {
			if (wait_while(st->sk, nr, 0))
				break;
			pc_add(st->sk, -nr);
			sock_uncharge(s, o, r, st, leaf, nr);
		} else {
			if (wait_while(st->sk, s->window, 1))
				break;
			if (try_charge_memcg(o, &st->stock, leaf, nr))
				continue; /* not reached: max is PAGE_COUNTER_MAX */
			mod_memcg_state(r, st->state, &st->stats_updates, MEMCG_SOCK, nr);
			if (s->mix && (long)(rng_next(&st->rng) % 100) < s->mix)
				st->own = nr;
			else
				pc_add(st->sk, nr);
		}
	}
	return i;
}

static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct pc_shared *s = shared;
	struct pc_thread *st = tstate;
	const struct memcg_offs local = s->o, *o = &local;
	char *leaf = s->cg[s->levels - 1], *leaf_memory = leaf + o->memory;
	long nr = s->nr;

	if (s->mode == PC_SOCKET)
		return run_socket(s, st, n);
	if (s->mode == PC_DIRECT) {
		for (uint64_t i = 0; i < n; i++) {
			if (!page_counter_try_charge(o, leaf_memory, nr))
				page_counter_uncharge(o, leaf_memory, nr);
		}
		return n;
	}
	/* One operation = one charge plus (later in the burst) the uncharge of its pages. */
	for (uint64_t i = 0; i < 2 * n; i++) {
		if (st->step < st->k) {
			if (!try_charge_memcg(o, &st->stock, leaf, nr))
				st->held += nr;
		} else if (st->held >= nr) { /* only what was charged is given back */
			refill_stock(o, &st->stock, leaf, nr); /* mem_cgroup_uncharge_skmem on v2 */
			st->held -= nr;
		}
		if (++st->step == 2 * st->k) {
			st->step = 0;
			st->k = new_burst(s, st);
		}
	}
	return n;
}

static int objects(void *shared, struct bench_object *out, int max)
{
	struct pc_shared *s = shared;
	int i = memcg_level_objects(s->cg, s->levels, s->layout, out, max);

	if (s->mode != PC_SOCKET)
		return i;
	if (i < max)
		out[i++] = (struct bench_object){"stats_flush_threshold", "memcg_globals",
						 s->globals, s->glayout};
	for (int p = 0; p < s->npairs && i < max; p++)
		out[i++] =
		    (struct bench_object){s->sock_names[p], "sock_pages", s->sock[p], s->slayout};
	return i;
}

static const struct bench_param params[] = {
    {"layout", "v6.0", "struct page_counter/mem_cgroup layout (patch B: v6.1)", BENCH_LAYOUT, 0, 0},
    {"propagate", "always-xchg",
     "propagate_protected_usage: always-xchg (v6.0) or cond-xchg (patch A)",
     "always-xchg|cond-xchg", 0, 0},
    {"batch", "32", "MEMCG_CHARGE_BATCH in pages (patch C: 64)", NULL, 1, 1 << 20},
    {"nr", "1", "pages per charge", NULL, 1, 1 << 20},
    {"burst", "48", "stocked: pages a thread charges before it uncharges them (the mean)", NULL, 1,
     1 << 24},
    {"burst_dist", "uniform",
     "stocked: each burst's charges fixed, or uniform in [1, 2 * burst / nr - 1] (seeded)",
     "fixed|uniform", 0, 0},
    {"seed", "1", "stocked bursts, socket mix: seed of each thread's generator", NULL, 0, 1L << 40},
    {"window", "32",
     "socket: pages in flight above which a sender waits (tcp_rmem[1] 128 KiB / 4 KiB)", NULL, 1,
     1 << 24},
    {"walks", "2", "socket: mem_cgroup_under_socket_pressure walks per uncharge", NULL, 0, 64},
    {"mix", "0", "socket: percent of messages the sender's own CPU uncharges", NULL, 0, 100},
    MEMCG_LEVELS_PARAM,
    {"preload", "65536", "pages charged to the leaf at setup (usage well above min/low)", NULL, 1,
     1L << 40},
    {NULL},
};

static const struct bench_preset presets[] = {
    {"v6.0-rc1", "Linux v6.0-rc1: v6.0 layout, always xchg, batch 32",
     "layout=v6.0 propagate=always-xchg batch=32"},
    {"+A", "patch 1/3: no xchg of min_usage/low_usage unless they change",
     "layout=v6.0 propagate=cond-xchg batch=32"},
    {"+B", "patch 2/3: v6.1 layout, usage alone on its cache line",
     "layout=v6.1 propagate=always-xchg batch=32"},
    {"+C", "patch 3/3: MEMCG_CHARGE_BATCH 64", "layout=v6.0 propagate=always-xchg batch=64"},
    {"+ABC", "the whole series (v6.1)", "layout=v6.1 propagate=cond-xchg batch=64"},
    {NULL},
};

static const struct bench_workload workloads[] = {
    {"socket",
     "netperf over loopback: thread 2k charges nr pages per message, thread 2k+1 uncharges "
     "them with socket-pressure walks",
     "nr=3"},
    {"direct", "page_counter_try_charge + page_counter_uncharge of nr pages, no stock", "nr=1"},
    {"stocked",
     "v6.0 memcg charge on one CPU: per-thread stock, batch refills, high-limit walk; "
     "seeded bursts of `burst` pages on average",
     "nr=3"},
    {NULL},
};

const struct scenario page_counter_scenario = {
    .name = "page_counter",
    .desc = "struct page_counter hierarchy charged by every thread (Aug 2022 series A/B/C)",
    .params = params,
    .presets = presets,
    .workloads = workloads,
    .check = check,
    .setup = setup,
    .teardown = teardown,
    .thread_setup = thread_setup,
    .thread_teardown = thread_teardown,
    .run = run,
    .objects = objects,
};
