// SPDX-License-Identifier: MIT
/*
 * page_counter.c - the Linux v6.0 memcg charge path and the Aug 2022 series that sped it
 * up: (A) no xchg in propagate_protected_usage when nothing changed, (B) the v6.1
 * struct page_counter layout, (C) MEMCG_CHARGE_BATCH 32 -> 64. Every thread charges the
 * same leaf of a root/L1/L2/L3 hierarchy, as 36 netperf instances in one cgroup do.
 * Kernel facts: ../shared/reference/kernel-memcg.md sections 1-3 and 7.
 */
#include <stddef.h>
#include <string.h>

#include "bench.h"
#include "memcg.h"

#define NLEVELS 4		  /* root, L1, L2, L3 (the leaf): every charge walks 4 counters */
#define MIN_PAGES 256		  /* memory.min on L1: 1 MiB worth of 4 KiB pages */
#define LOW_PAGES (2 * MIN_PAGES) /* memory.low on L1 */

/* The algorithm (page_counter, stock, try_charge_memcg) is in memcg.h, shared with kmem.c. */
struct pc_shared {
	struct memcg_offs o;
	long nr, burst, charges_per_burst;
	int stocked;
	char *cg[NLEVELS]; /* the modelled mem_cgroup objects; cg[0] is root, the last the leaf */
	const struct layout *layout;
};

/* memcg_stock_pcp: one cached memcg and its pre-charged pages, private to a thread. */
struct pc_thread {
	struct memcg_stock stock;
	long step; /* stocked: position in the burst, [0, 2 * charges_per_burst) */
	long held; /* stocked: pages charged in this burst and not yet uncharged */
};

static int check(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	static const char *const counters[] = {"memory", "swap", NULL};
	const struct layout *l = bench_layout(cfg, "layout", err, errlen);

	if (!l)
		return -1;
	if (memcg_check_layout(l, counters, "memory and swap", err, errlen))
		return -1;
	if (!strcmp(bench_workload_name(cfg), "stocked") &&
	    bench_long(cfg, "burst") % bench_long(cfg, "nr")) {
		bench_error(err, errlen, "burst=%ld is not a multiple of nr=%ld",
			    bench_long(cfg, "burst"), bench_long(cfg, "nr"));
		return -1;
	}
	if (bench_long(cfg, "preload") <= 2 * LOW_PAGES) {
		bench_error(err, errlen, "preload=%ld must be well above memory.low (%d pages)",
			    bench_long(cfg, "preload"), LOW_PAGES);
		return -1;
	}
	return 0;
}

static void *setup(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	const struct layout *l = bench_layout(cfg, "layout", err, errlen);
	const struct layout_struct *ls = l ? layout_find_struct(l, "mem_cgroup") : NULL;
	struct pc_shared *s;
	struct memcg_offs *o;

	if (!ls)
		return NULL;
	s = bench_alloc(sizeof(*s), BENCH_PAD);
	o = &s->o;
	memcg_offs_init(o, l);
	o->batch = bench_long(cfg, "batch");
	o->cond_xchg = !strcmp(bench_str(cfg, "propagate"), "cond-xchg");
	s->nr = bench_long(cfg, "nr");
	s->burst = bench_long(cfg, "burst");
	s->charges_per_burst = s->burst / s->nr;
	s->stocked = !strcmp(bench_workload_name(cfg), "stocked");
	s->layout = l;

	for (int i = 0; i < NLEVELS; i++) {
		char *cg, *parent = i ? s->cg[i - 1] : NULL;

		cg = s->cg[i] =
		    bench_alloc(ls->size, ls->align > MEMCG_ALIGN ? ls->align : MEMCG_ALIGN);
		memcg_init_counter(o, cg, parent, o->memory);
		memcg_init_counter(o, cg, parent, o->swap);
		pc_store_ptr(FIELD(cg, css_parent), parent);
	}
	page_counter_set_prot(o, s->cg[1] + o->memory, MIN_PAGES, LOW_PAGES);
	page_counter_charge(o, s->cg[NLEVELS - 1] + o->memory, bench_long(cfg, "preload"));
	return s;
}

static void teardown(void *shared)
{
	struct pc_shared *s = shared;

	for (int i = 0; i < NLEVELS; i++)
		bench_free(s->cg[i]);
	bench_free(s);
}

static void *thread_setup(void *shared, int thread)
{
	(void)shared;
	(void)thread;
	return bench_alloc(sizeof(struct pc_thread), BENCH_PAD);
}

static void thread_teardown(void *shared, void *tstate)
{
	struct pc_shared *s = shared;
	struct pc_thread *st = tstate;
	const struct memcg_offs *o = &s->o;

	if (s->stocked) {
		/* Give back what the unfinished burst still holds, then the stock. */
		for (; st->held >= s->nr; st->held -= s->nr)
			refill_stock(o, &st->stock, s->cg[NLEVELS - 1], s->nr);
		drain_stock(o, &st->stock);
	}
	bench_free(st);
}

static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct pc_shared *s = shared;
	struct pc_thread *st = tstate;
	const struct memcg_offs local = s->o, *o = &local;
	char *leaf = s->cg[NLEVELS - 1], *leaf_memory = leaf + o->memory;
	long nr = s->nr, k = s->charges_per_burst;

	if (!s->stocked) {
		for (uint64_t i = 0; i < n; i++) {
			if (!page_counter_try_charge(o, leaf_memory, nr))
				page_counter_uncharge(o, leaf_memory, nr);
		}
		return n;
	}
	/* One operation = one charge plus (later in the burst) the uncharge of its pages. */
	for (uint64_t i = 0; i < 2 * n; i++) {
		if (st->step < k) {
			if (!try_charge_memcg(o, &st->stock, leaf, nr))
				st->held += nr;
		} else if (st->held >= nr) { /* only what was charged is given back */
			refill_stock(o, &st->stock, leaf, nr); /* mem_cgroup_uncharge_skmem on v2 */
			st->held -= nr;
		}
		if (++st->step == 2 * k)
			st->step = 0;
	}
	return n;
}

static int objects(void *shared, struct bench_object *out, int max)
{
	static const char *const names[NLEVELS] = {"root", "L1", "L2", "L3"};
	struct pc_shared *s = shared;
	int i;

	for (i = 0; i < NLEVELS && i < max; i++)
		out[i] = (struct bench_object){names[i], "mem_cgroup", s->cg[i], s->layout};
	return i;
}

static const struct bench_param params[] = {
    {"layout", "v6.0", "struct page_counter/mem_cgroup layout (patch B: v6.1)", BENCH_LAYOUT, 0, 0},
    {"propagate", "always-xchg",
     "propagate_protected_usage: always-xchg (v6.0) or cond-xchg (patch A)",
     "always-xchg|cond-xchg", 0, 0},
    {"batch", "32", "MEMCG_CHARGE_BATCH in pages (patch C: 64)", NULL, 1, 1 << 20},
    {"nr", "1", "pages per charge", NULL, 1, 1 << 20},
    {"burst", "48", "stocked: pages a thread charges before it uncharges them", NULL, 1, 1 << 24},
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
    {"direct", "page_counter_try_charge + page_counter_uncharge of nr pages, no stock", "nr=1"},
    {"stocked",
     "v6.0 memcg charge: per-thread stock, batch refills, high-limit walk; bursts of "
     "`burst` pages",
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
