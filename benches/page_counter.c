// SPDX-License-Identifier: MIT
/*
 * page_counter.c - the Linux v6.0 memcg charge path and the Aug 2022 series that sped it
 * up: (A) no xchg in propagate_protected_usage when nothing changed, (B) the v6.1
 * struct page_counter layout, (C) MEMCG_CHARGE_BATCH 32 -> 64. Every thread charges the
 * same leaf of a root/L1/.../leaf hierarchy (`levels` counters, default 4), as 36 netperf
 * instances in one cgroup do; `socket` (sock.h) is netperf TCP_SENDFILE over loopback as
 * v6.0 charges it, `stocked_xcpu` charges on one CPU and uncharges on another.
 * Kernel facts: docs/kernel-facts.md.
 *
 * Invariants, checked after every window once every thread's teardown has run (window_end;
 * a violation makes the row an error naming the counter, the expected and the found value):
 * every level's memory.usage is back at `preload` (each thread's stock is drained in its
 * teardown, so a page left stocked or charged twice shows here), swap.usage at 0; with
 * `socket`, every pair's forward allocations (tx_fwd, rx_fwd), bytes in flight and
 * unprocessed ACKs are 0; with `stocked_xcpu`, no page is left in flight.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "memcg.h"
#include "sock.h"

#define MIN_PAGES 256		  /* memory.min on L1: 1 MiB worth of 4 KiB pages */
#define LOW_PAGES (2 * MIN_PAGES) /* memory.low on L1 */
#define MEMCG_NR_STAT 48	  /* v6.0: 41 node items + 7 memcg items (memcg.h) */

/* struct xcpu_pair: the pages one CPU has charged and its partner not yet uncharged. */
#define XCPU_LAYOUT                                                                                \
	"layout stocked-xcpu\n"                                                                    \
	"desc the pages charged on one CPU and not yet uncharged on its partner\n"                 \
	"struct xcpu_pair size 64 align 64\n"                                                      \
	"\tinflight 0 8 atomic\n"                                                                  \
	"end\n"

enum pc_mode { PC_DIRECT, PC_STOCKED, PC_SOCKET, PC_XCPU };

/* The algorithm (page_counter, stock, try_charge_memcg) is in memcg.h, shared with kmem.c. */
struct pc_shared {
	struct memcg_offs o;
	struct memcg_rstat rstat;
	long nr, unr, burst; /* pages per charge, per uncharge, stocked burst */
	int mode, levels, nthreads, npairs, uniform;
	long preload;
	unsigned long seed;
	char *cg[MEMCG_MAX_LEVELS]; /* the modelled mem_cgroups; cg[0] is root, the last the leaf */
	const struct layout *layout;
	/* socket, stocked_xcpu: one pair object per pair, and the global rstat threshold */
	struct sock_cfg sc;
	void **pair;
	char (*pair_names)[16];
	struct memcg_globals *globals;
	struct layout *slayout, *glayout;
};

/* One thread = one CPU: its memcg_stock_pcp, its vmstats_percpu, its part in a pair. */
struct pc_thread {
	struct memcg_stock stock;
	unsigned long rng;
	long step;		 /* stocked: position in the burst, [0, 2 * k) */
	long k;			 /* stocked: charges in this burst */
	long held;		 /* stocked: pages charged and not yet uncharged */
	struct sock_thread sock; /* socket, stocked_xcpu: the thread's part in its pair */
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

/* check_socket - the socket workload's message, skb and window fit together. */
static int check_socket(const struct bench_cfg *cfg, const struct layout *l, char *err,
			size_t errlen)
{
	long msg = bench_long(cfg, "msg"), skb = bench_long(cfg, "skb_msgs") * msg;

	if (layout_offset(l, "mem_cgroup", "socket_pressure") < 0) {
		bench_error(err, errlen,
			    "layout %s: the socket workload needs mem_cgroup.socket_pressure",
			    l->name);
		return -1;
	}
	if (skb + msg > bench_long(cfg, "window") * SK_PAGE) {
		bench_error(
		    err, errlen,
		    "window=%ld pages (%ld bytes) must hold an skb of skb_msgs=%ld x msg=%ld "
		    "bytes plus one more message",
		    bench_long(cfg, "window"), bench_long(cfg, "window") * SK_PAGE,
		    bench_long(cfg, "skb_msgs"), msg);
		return -1;
	}
	return 0;
}

static int check(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	static const char *const counters[] = {"memory", "swap", NULL};
	const struct layout *l = bench_layout(cfg);
	const char *wl = bench_workload_name(cfg);

	if (memcg_check_layout(l, counters, "memory and swap", err, errlen))
		return -1;
	if (!strcmp(wl, "stocked") && bench_long(cfg, "burst") % bench_long(cfg, "nr")) {
		bench_error(err, errlen, "burst=%ld is not a multiple of nr=%ld",
			    bench_long(cfg, "burst"), bench_long(cfg, "nr"));
		return -1;
	}
	if (!strcmp(wl, "socket") && check_socket(cfg, l, err, errlen))
		return -1;
	if (bench_long(cfg, "preload") <= 2 * LOW_PAGES) {
		bench_error(err, errlen, "preload=%ld must be well above memory.low (%d pages)",
			    bench_long(cfg, "preload"), LOW_PAGES);
		return -1;
	}
	return 0;
}

static void teardown(void *shared);

/* pair_setup - socket, stocked_xcpu: one pair object per pair and the global threshold. */
static int pair_setup(struct pc_shared *s, const struct bench_cfg *cfg, char *err, size_t errlen)
{
	const int sock = s->mode == PC_SOCKET;
	const size_t size = sock ? sizeof(struct sock_pair) : 64;

	s->slayout = layout_parse(sock ? SOCK_LAYOUT : XCPU_LAYOUT, "page_counter.c", err, errlen);
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
	if (sock)
		s->sc = (struct sock_cfg){
		    .msg = bench_long(cfg, "msg"),
		    .folio = bench_long(cfg, "folio"),
		    .skb_head = bench_long(cfg, "skb_head"),
		    .skb_msgs = bench_long(cfg, "skb_msgs"),
		    .window = bench_long(cfg, "window") * SK_PAGE,
		    .rx_root = !strcmp(bench_str(cfg, "receiver"), "root"),
		    .ack = !strcmp(bench_str(cfg, "ack"), "sender")	? ACK_SENDER
			   : !strcmp(bench_str(cfg, "ack"), "receiver") ? ACK_RECEIVER
									: ACK_WINDOW,
		    .walk = !strcmp(bench_str(cfg, "reclaim_walk"), "on"),
		};
	s->npairs = (s->nthreads + 1) / 2;
	s->pair = bench_alloc((size_t)s->npairs * sizeof(*s->pair), BENCH_PAD);
	s->pair_names = bench_alloc((size_t)s->npairs * sizeof(*s->pair_names), BENCH_PAD);
	for (int p = 0; p < s->npairs; p++) {
		s->pair[p] = bench_alloc(size, BENCH_PAD); /* lines of its own */
		snprintf(s->pair_names[p], sizeof(s->pair_names[p]), "sk%d", p);
	}
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
	s->unr = bench_long(cfg, "uncharge_nr") ? bench_long(cfg, "uncharge_nr") : s->nr;
	s->burst = bench_long(cfg, "burst");
	s->uniform = !strcmp(bench_str(cfg, "burst_dist"), "uniform");
	s->seed = (unsigned long)bench_long(cfg, "seed");
	s->mode = !strcmp(wl, "socket")		? PC_SOCKET
		  : !strcmp(wl, "stocked")	? PC_STOCKED
		  : !strcmp(wl, "stocked_xcpu") ? PC_XCPU
						: PC_DIRECT;
	s->levels = (int)bench_long(cfg, "levels");
	s->nthreads = bench_threads(cfg);
	s->layout = l;

	ctr[0] = o->memory;
	ctr[1] = o->swap;
	memcg_alloc_levels(o, ls, s->levels, ctr, 2, s->cg);
	if (s->levels > 1)
		page_counter_set_prot(o, s->cg[1] + o->memory, MIN_PAGES, LOW_PAGES);
	s->preload = bench_long(cfg, "preload");
	page_counter_charge(o, s->cg[s->levels - 1] + o->memory, s->preload);
	if ((s->mode == PC_SOCKET || s->mode == PC_XCPU) && pair_setup(s, cfg, err, errlen)) {
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
	for (int p = 0; s->pair && p < s->npairs; p++)
		bench_free(s->pair[p]);
	bench_free(s->pair);
	bench_free(s->pair_names);
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
	if (s->mode == PC_SOCKET || s->mode == PC_XCPU) {
		st->sock.sk = s->pair[thread / 2];
		st->sock.role = thread == s->nthreads - 1 && s->nthreads % 2 ? SOCK_SELF
				: thread % 2				     ? SOCK_RECEIVER
									     : SOCK_SENDER;
	}
	return st;
}

/* cpu_of - what the socket model charges through on this thread. */
static struct sock_cpu cpu_of(struct pc_shared *s, struct pc_thread *st, const struct memcg_offs *o,
			      const struct memcg_rstat *r)
{
	return (struct sock_cpu){
	    o, r, &s->sc, &st->stock, st->state, &st->stats_updates, s->cg[s->levels - 1]};
}

static void thread_teardown(void *shared, void *tstate)
{
	struct pc_shared *s = shared;
	struct pc_thread *st = tstate;
	const struct memcg_offs *o = &s->o;
	char *leaf = s->cg[s->levels - 1];

	if (s->mode == PC_STOCKED && st->held) /* what the unfinished burst still holds */
		refill_stock(o, &st->stock, leaf, st->held);
	if (s->mode == PC_SOCKET) {
		struct sock_cpu k = cpu_of(s, st, o, &s->rstat);

		sock_close(&k, &st->sock); /* every thread has stopped */
	}
	if (s->mode == PC_XCPU && st->sock.role != SOCK_SENDER) {
		long n = pc_xchg((pc_word *)st->sock.sk, 0) + st->held;

		if (n)
			refill_stock(o, &st->stock, leaf, n);
	}
	drain_stock(o, &st->stock);
	bench_free(st);
}

/*
 * run_xcpu - stocked_xcpu: thread 2k charges `nr` pages per operation through its stock and
 * hands them to thread 2k+1 (waiting while more than `burst` pages are in flight), which
 * uncharges them `uncharge_nr` at a time through its own stock (as a socket's sender and
 * receiver CPUs do). A thread without a partner does both, in turn.
 */
static uint64_t run_xcpu(struct pc_shared *s, struct pc_thread *st, uint64_t n)
{
	const struct memcg_offs local = s->o, *o = &local;
	pc_word *w = (pc_word *)st->sock.sk;
	char *leaf = s->cg[s->levels - 1];
	uint64_t i;

	for (i = 0; i < n; i++) {
		int un = st->sock.role == SOCK_RECEIVER ||
			 (st->sock.role == SOCK_SELF && pc_load(w) >= s->unr);

		if (un) {
			if (sock_wait_while(w, s->unr, 0))
				break;
			pc_add(w, -s->unr);
			refill_stock(o, &st->stock, leaf, s->unr);
		} else {
			if (sock_wait_while(w, s->burst, 1))
				break;
			try_charge_memcg(o, &st->stock, leaf, s->nr);
			pc_add(w, s->nr);
		}
	}
	return i;
}

static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct pc_shared *s = shared;
	struct pc_thread *st = tstate;
	const struct memcg_offs local = s->o, *o = &local;
	const struct memcg_rstat rstat = s->rstat;
	char *leaf = s->cg[s->levels - 1], *leaf_memory = leaf + o->memory;
	long nr = s->nr;

	if (s->mode == PC_SOCKET) {
		struct sock_cpu k = cpu_of(s, st, o, &rstat);
		uint64_t i;

		for (i = 0; i < n && !sock_op(&k, &st->sock); i++)
			;
		return i;
	}
	if (s->mode == PC_XCPU)
		return run_xcpu(s, st, n);
	if (s->mode == PC_DIRECT) {
		for (uint64_t i = 0; i < n; i++) {
			if (!page_counter_try_charge(o, leaf_memory, nr))
				page_counter_uncharge(o, leaf_memory, nr);
		}
		return n;
	}
	/*
	 * One operation = one charge plus (later in the burst) its share of the uncharges,
	 * `uncharge_nr` pages at a time (mem_cgroup_uncharge_skmem on v2 is refill_stock;
	 * its MEMCG_SOCK stat update is left out here, as in the charge).
	 */
	for (uint64_t i = 0; i < 2 * n; i++) {
		if (st->step < st->k) {
			if (!try_charge_memcg(o, &st->stock, leaf, nr))
				st->held += nr;
		} else if (st->held >= s->unr) { /* only what was charged is given back */
			refill_stock(o, &st->stock, leaf, s->unr);
			st->held -= s->unr;
		}
		if (++st->step == 2 * st->k) {
			st->step = 0;
			st->k = new_burst(s, st);
		}
	}
	return n;
}

/* window_end - the invariants of the header comment, after every thread's teardown. */
static int window_end(void *shared, char *note, size_t len)
{
	struct pc_shared *s = shared;
	const struct memcg_offs *o = &s->o;

	note[0] = '\0';
	if (memcg_check_usage(o, s->cg, s->levels, o->memory, "memory", s->preload, note, len) ||
	    memcg_check_usage(o, s->cg, s->levels, o->swap, "swap", 0, note, len))
		return -1;
	for (int p = 0; s->pair && p < s->npairs; p++) {
		long inflight;

		if (s->mode == PC_SOCKET) {
			if (sock_check_closed(s->pair[p], s->pair_names[p], note, len))
				return -1;
		} else if ((inflight = pc_load((pc_word *)s->pair[p]))) {
			snprintf(note, len, "%s.inflight after teardown: expected 0, found %ld",
				 s->pair_names[p], inflight);
			return -1;
		}
	}
	return 0;
}

static int objects(void *shared, struct bench_object *out, int max)
{
	struct pc_shared *s = shared;
	int i = memcg_level_objects(s->cg, s->levels, s->layout, out, max);

	if (s->mode != PC_SOCKET && s->mode != PC_XCPU)
		return i;
	if (i < max)
		out[i++] = (struct bench_object){"stats_flush_threshold", "memcg_globals",
						 s->globals, s->glayout};
	for (int p = 0; p < s->npairs && i < max; p++)
		out[i++] = (struct bench_object){s->pair_names[p],
						 s->mode == PC_SOCKET ? "sock_pair" : "xcpu_pair",
						 s->pair[p], s->slayout};
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
    {"seed", "1", "stocked bursts: seed of each thread's generator", NULL, 0, 1L << 40},
    {"uncharge_nr", "0",
     "stocked, stocked_xcpu: pages per uncharge (0: nr; sk_mem_reclaim gives back all whole "
     "pages at once)",
     NULL, 0, 1 << 20},
    {"window", "32",
     "socket: pages in flight above which a sender waits (tcp_rmem[1] 128 KiB / 4 KiB)", NULL, 1,
     1 << 24},
    {"msg", "10240", "socket: bytes per sendfile() call (netperf -m 10K)", NULL, 1, 1 << 24},
    {"folio", "4096", "socket: page-cache folio bytes, the largest pipe buffer (order-0)", NULL,
     512, 1 << 21},
    {"skb_head", "1280",
     "socket: truesize of a new skb before data (kmalloc-1k head + struct sk_buff)", NULL, 0,
     1 << 16},
    {"skb_msgs", "1", "socket: messages per skb (1: each sendfile's push sends its skb)", NULL, 1,
     64},
    {"receiver", "same", "socket: the receiver's memcg: same (the sender's leaf) or root",
     "same|root", 0, 0},
    {"ack", "window",
     "socket: where the sender's skbs are freed: window (the receiver's CPU while the sender "
     "sleeps for room, else the sender's), sender, receiver",
     "window|sender|receiver", 0, 0},
    {"reclaim_walk", "on",
     "socket: __sk_mem_reduce_allocated walks socket pressure (off: 2d0c88e84e48, v6.5)", "on|off",
     0, 0},
    MEMCG_LEVELS_PARAM,
    {"preload", "65536", "pages charged to the leaf at setup (usage well above min/low)", NULL, 1,
     1L << 40},
    {0},
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
    {0},
};

static const struct bench_workload workloads[] = {
    {"socket",
     "netperf TCP_SENDFILE over loopback: thread 2k sends 10 KiB messages (tx and rx charges "
     "on its CPU), thread 2k+1 reads and frees them (sock.h)",
     "", 0},
    {"direct", "page_counter_try_charge + page_counter_uncharge of nr pages, no stock", "nr=1",
     BENCH_SYMMETRIC},
    {"stocked",
     "v6.0 memcg charge on one CPU: per-thread stock, batch refills, high-limit walk; "
     "seeded bursts of `burst` pages on average",
     "nr=3", BENCH_SYMMETRIC},
    {"stocked_xcpu",
     "charge nr pages through one CPU's stock, uncharge them through its partner's "
     "(thread 2k -> 2k+1, at most `burst` pages in flight)",
     "nr=1", 0},
    {0},
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
    .window_end = window_end,
};
