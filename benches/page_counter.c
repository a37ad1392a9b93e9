// SPDX-License-Identifier: MIT
/*
 * page_counter.c - the Linux v6.0 memcg charge path and the Aug 2022 series that sped it
 * up: (A) no xchg in propagate_protected_usage when nothing changed, (B) the v6.1
 * struct page_counter layout, (C) MEMCG_CHARGE_BATCH 32 -> 64. Every thread charges the
 * same leaf of a root/L1/L2/L3 hierarchy, as 36 netperf instances in one cgroup do.
 * Kernel facts: ../shared/reference/kernel-memcg.md sections 1-3 and 7.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define NLEVELS 4 /* root, L1, L2, L3 (the leaf): every charge walks 4 counters */
#define PAGE_COUNTER_MAX (LONG_MAX / 4096) /* LONG_MAX / PAGE_SIZE on 64-bit */
#define MIN_PAGES 256			   /* memory.min on L1: 1 MiB worth of 4 KiB pages */
#define LOW_PAGES (2 * MIN_PAGES)	   /* memory.low on L1 */
#define MEMCG_ALIGN 4096		   /* kmalloc-4k/8k objects are naturally aligned */

/*
 * Where the fields are: byte offsets into struct page_counter and struct mem_cgroup, taken
 * from the layout once per measurement and copied into a local in run(), so the hot loop
 * does address arithmetic on registers and never consults a table. Modelled pointers hold
 * what the kernel's do: page_counter.parent the parent page_counter, css.parent the parent
 * mem_cgroup (its css is at offset 0).
 */
struct offs {
	long usage, min, low, high, max, emin, min_usage, children_min_usage, elow, low_usage,
	    children_low_usage, watermark, failcnt, parent; /* in struct page_counter */
	long css_parent, memory, swap;			    /* in struct mem_cgroup */
	long batch;
	int cond_xchg; /* patch A */
};

static const struct {
	const char *name;
	size_t member;
} counter_fields[] = {
#define F(f)                                                                                       \
	{                                                                                          \
#f, offsetof(struct offs, f)                                                       \
	}
    F(usage),
    F(min),
    F(low),
    F(high),
    F(max),
    F(emin),
    F(min_usage),
    F(children_min_usage),
    F(elow),
    F(low_usage),
    F(children_low_usage),
    F(watermark),
    F(failcnt),
    F(parent),
#undef F
};

/* FIELD - the pc_word of field @f of the page_counter (or mem_cgroup) at @base. */
#define FIELD(base, f) ((pc_word *)((base) + o->f))

struct pc_shared {
	struct offs o;
	long nr, burst, charges_per_burst;
	int stocked;
	char *cg[NLEVELS]; /* the modelled mem_cgroup objects; cg[0] is root, the last the leaf */
	const struct layout *layout;
};

/* memcg_stock_pcp: one cached memcg and its pre-charged pages, private to a thread. */
struct pc_thread {
	char *cached;
	long nr_pages;
	long step; /* stocked: position in the burst, [0, 2 * charges_per_burst) */
	long held; /* stocked: pages charged in this burst and not yet uncharged */
};

static inline long min_l(long a, long b)
{
	return a < b ? a : b;
}

/* propagate_protected_usage - keep min_usage/low_usage and the parent's children_* sums. */
static inline void propagate_protected_usage(const struct offs *o, char *c, long usage)
{
	char *parent = pc_load_ptr(FIELD(c, parent));
	long prot, old, delta, m, l;

	if (!parent)
		return; /* the root counter never propagates */

	if (o->cond_xchg) {
		/* Patch A: only a changed protected amount costs an exclusive line. */
		prot = min_l(usage, pc_load(FIELD(c, min)));
		old = pc_load(FIELD(c, min_usage));
		if (prot != old) {
			old = pc_xchg(FIELD(c, min_usage), prot);
			delta = prot - old;
			if (delta)
				pc_add(FIELD(parent, children_min_usage), delta);
		}
		prot = min_l(usage, pc_load(FIELD(c, low)));
		old = pc_load(FIELD(c, low_usage));
		if (prot != old) {
			old = pc_xchg(FIELD(c, low_usage), prot);
			delta = prot - old;
			if (delta)
				pc_add(FIELD(parent, children_low_usage), delta);
		}
		return;
	}

	m = pc_load(FIELD(c, min));
	if (m || pc_load(FIELD(c, min_usage))) {
		prot = min_l(usage, m);
		old = pc_xchg(FIELD(c, min_usage), prot);
		delta = prot - old;
		if (delta)
			pc_add(FIELD(parent, children_min_usage), delta);
	}
	l = pc_load(FIELD(c, low));
	if (l || pc_load(FIELD(c, low_usage))) {
		prot = min_l(usage, l);
		old = pc_xchg(FIELD(c, low_usage), prot);
		delta = prot - old;
		if (delta)
			pc_add(FIELD(parent, children_low_usage), delta);
	}
}

static inline void page_counter_cancel(const struct offs *o, char *c, long n)
{
	long new = pc_sub_return(FIELD(c, usage), n);

	if (new < 0) { /* more uncharges than charges: the kernel warns once and clamps */
		new = 0;
		pc_store(FIELD(c, usage), new);
	}
	propagate_protected_usage(o, c, new);
}

/* page_counter_charge - hierarchical charge without a limit check. */
static void page_counter_charge(const struct offs *o, char *counter, long n)
{
	for (char *c = counter; c; c = pc_load_ptr(FIELD(c, parent))) {
		long new = pc_add_return(FIELD(c, usage), n);

		propagate_protected_usage(o, c, new);
		/* Racy in the kernel too: a lost update only makes the watermark inexact. */
		if (new > pc_load(FIELD(c, watermark)))
			pc_store(FIELD(c, watermark), new);
	}
}

/*
 * page_counter_try_charge - charge @n pages from @counter up to the root.
 * Returns NULL, or the counter whose max was exceeded (lower levels are unwound).
 */
static inline char *page_counter_try_charge(const struct offs *o, char *counter, long n)
{
	char *c, *fail;

	for (c = counter; c; c = pc_load_ptr(FIELD(c, parent))) {
		long new = pc_add_return(FIELD(c, usage), n);

		if (new > pc_load(FIELD(c, max))) {
			pc_add(FIELD(c, usage), -n);
			/* data_race(c->failcnt++) in the kernel: a plain, non-atomic increment */
			pc_store(FIELD(c, failcnt), pc_load(FIELD(c, failcnt)) + 1);
			fail = c;
			goto failed;
		}
		propagate_protected_usage(o, c, new);
		if (new > pc_load(FIELD(c, watermark)))
			pc_store(FIELD(c, watermark), new);
	}
	return NULL;

failed:
	for (c = counter; c != fail; c = pc_load_ptr(FIELD(c, parent)))
		page_counter_cancel(o, c, n);
	return fail;
}

static inline void page_counter_uncharge(const struct offs *o, char *counter, long n)
{
	for (char *c = counter; c; c = pc_load_ptr(FIELD(c, parent)))
		page_counter_cancel(o, c, n);
}

/* page_counter_set_min/low: store the limit, then propagate from there to the root. */
static void page_counter_set_prot(const struct offs *o, char *counter, long min, long low)
{
	pc_store(FIELD(counter, min), min);
	pc_store(FIELD(counter, low), low);
	for (char *c = counter; c; c = pc_load_ptr(FIELD(c, parent)))
		propagate_protected_usage(o, c, pc_load(FIELD(c, usage)));
}

static inline void drain_stock(const struct offs *o, struct pc_thread *st)
{
	if (!st->cached)
		return;
	if (st->nr_pages) {
		page_counter_uncharge(o, st->cached + o->memory, st->nr_pages);
		st->nr_pages = 0;
	}
	st->cached = NULL;
}

/* refill_stock - return @n pages to the stock; over batch, the WHOLE stock goes back. */
static inline void refill_stock(const struct offs *o, struct pc_thread *st, char *memcg, long n)
{
	if (st->cached != memcg) {
		drain_stock(o, st);
		st->cached = memcg;
	}
	st->nr_pages += n;
	if (st->nr_pages > o->batch)
		drain_stock(o, st);
}

static inline int consume_stock(const struct offs *o, struct pc_thread *st, char *memcg, long n)
{
	if (n > o->batch)
		return 0;
	if (st->cached == memcg && st->nr_pages >= n) {
		st->nr_pages -= n;
		return 1;
	}
	return 0;
}

/*
 * try_charge_memcg - the cgroup v2 charge of v6.0: stock first, else a hierarchical charge
 * of max(batch, n) with the surplus stocked, then the memory.high/swap.high check of the
 * memcg and every ancestor. Limits are PAGE_COUNTER_MAX, so no reclaim path is modelled.
 */
static inline int try_charge_memcg(const struct offs *o, struct pc_thread *st, char *memcg, long n)
{
	long batch = o->batch > n ? o->batch : n;
	char *m;

retry:
	if (consume_stock(o, st, memcg, n))
		return 0;
	if (page_counter_try_charge(o, memcg + o->memory, batch)) {
		if (batch > n) {
			batch = n;
			goto retry;
		}
		return -1;
	}
	if (batch > n)
		refill_stock(o, st, memcg, batch - n);

	m = memcg;
	do {
		char *mem = m + o->memory, *swap = m + o->swap;
		int mem_high = pc_load(FIELD(mem, usage)) > pc_load(FIELD(mem, high));
		int swap_high = pc_load(FIELD(swap, usage)) > pc_load(FIELD(swap, high));

		if (mem_high || swap_high)
			break; /* the over-high work is never reached: high is PAGE_COUNTER_MAX */
	} while ((m = pc_load_ptr(FIELD(m, css_parent))));
	return 0;
}

/* field_is_counter - struct mem_cgroup's field @name embeds a struct page_counter. */
static int field_is_counter(const struct layout *l, const char *name)
{
	const struct layout_struct *ls = layout_find_struct(l, "mem_cgroup");

	for (int i = 0; ls && i < ls->nfields; i++)
		if (!strcmp(ls->fields[i].name, name))
			return ls->fields[i].kind == LK_STRUCT &&
			       !strcmp(l->structs[ls->fields[i].type].name, "page_counter");
	return 0;
}

static int check(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	const struct layout *l = bench_layout(cfg, "layout", err, errlen);

	if (!l)
		return -1;
	if (layout_offset(l, "mem_cgroup", "css.parent") < 0 || !field_is_counter(l, "memory") ||
	    !field_is_counter(l, "swap")) {
		bench_error(err, errlen,
			    "layout %s: struct mem_cgroup needs css.parent and page_counter fields "
			    "memory and swap",
			    l->name);
		return -1;
	}
	for (size_t i = 0; i < sizeof(counter_fields) / sizeof(counter_fields[0]); i++) {
		if (layout_offset(l, "page_counter", counter_fields[i].name) < 0) {
			bench_error(err, errlen, "layout %s: struct page_counter has no field %s",
				    l->name, counter_fields[i].name);
			return -1;
		}
	}
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
	struct offs *o;

	if (!ls)
		return NULL;
	s = bench_alloc(sizeof(*s), BENCH_PAD);
	o = &s->o;
	for (size_t i = 0; i < sizeof(counter_fields) / sizeof(counter_fields[0]); i++)
		*(long *)((char *)o + counter_fields[i].member) =
		    layout_offset(l, "page_counter", counter_fields[i].name);
	o->css_parent = layout_offset(l, "mem_cgroup", "css.parent");
	o->memory = layout_offset(l, "mem_cgroup", "memory");
	o->swap = layout_offset(l, "mem_cgroup", "swap");
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
		for (int k = 0; k < 2; k++) {
			long off = k ? o->swap : o->memory;
			char *c = cg + off;

			pc_store(FIELD(c, max), PAGE_COUNTER_MAX);
			/* memory.high and swap.high are PAGE_COUNTER_MAX from css_alloc */
			pc_store(FIELD(c, high), PAGE_COUNTER_MAX);
			pc_store_ptr(FIELD(c, parent), parent ? parent + off : NULL);
		}
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
	const struct offs *o = &s->o;

	if (s->stocked) {
		/* Give back what the unfinished burst still holds, then the stock. */
		for (; st->held >= s->nr; st->held -= s->nr)
			refill_stock(o, st, s->cg[NLEVELS - 1], s->nr);
		drain_stock(o, st);
	}
	bench_free(st);
}

static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct pc_shared *s = shared;
	struct pc_thread *st = tstate;
	const struct offs local = s->o, *o = &local;
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
			if (!try_charge_memcg(o, st, leaf, nr))
				st->held += nr;
		} else if (st->held >= nr) {	       /* only what was charged is given back */
			refill_stock(o, st, leaf, nr); /* mem_cgroup_uncharge_skmem on v2 */
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
