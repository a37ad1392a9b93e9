/* SPDX-License-Identifier: MIT */
/*
 * memcg.h - the Linux v6.0 page_counter algorithm and the memcg charge layer on top of it,
 * written once for every scenario that charges a modelled struct mem_cgroup (page_counter.c,
 * kmem.c) and the memcg statistics bookkeeping (kmem.c, per_node.c).
 * Kernel facts: docs/kernel-facts.md sections 1-4.
 *
 * Everything here works on byte offsets taken from a layout (struct memcg_offs, filled once
 * per measurement by memcg_offs_init and copied into a local by the hot loop) and touches
 * modelled memory only through the accessor layer. Per-thread state (the stock, the per-CPU
 * statistics) is plain C: a thread stands for one CPU.
 */
#ifndef PCBENCH_MEMCG_H
#define PCBENCH_MEMCG_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define PAGE_COUNTER_MAX (LONG_MAX / 4096) /* LONG_MAX / PAGE_SIZE on 64-bit */
#define MEMCG_ALIGN 4096		   /* kmalloc-4k/8k objects are naturally aligned */

/*
 * Where the fields are: byte offsets into struct page_counter and struct mem_cgroup, taken
 * from the layout once per measurement and copied into a local in run(), so the hot loop
 * does address arithmetic on registers and never consults a table. Modelled pointers hold
 * what the kernel's do: page_counter.parent the parent page_counter, css.parent the parent
 * mem_cgroup (its css is at offset 0).
 */
struct memcg_offs {
	long usage, min, low, high, max, emin, min_usage, children_min_usage, elow, low_usage,
	    children_low_usage, watermark, failcnt, parent; /* in struct page_counter */
	long css_parent, memory, swap;			    /* in struct mem_cgroup */
	long kmem;	      /* in struct mem_cgroup; -1 when the layout has none */
	long socket_pressure; /* in struct mem_cgroup; -1 when the layout has none */
	long batch;	      /* MEMCG_CHARGE_BATCH */
	int cond_xchg;	      /* propagate_protected_usage after patch 1 (cfdab60bfa66?) */
	/*
	 * do_memsw_account(): cgroup v1 charges memsw (the union member that v2 calls swap,
	 * so at offset o->swap) before memory, with the same stock.
	 */
	int memsw;
};

/* FIELD - the pc_word of field @f of the page_counter (or mem_cgroup) at @base. */
#define FIELD(base, f) ((pc_word *)((base) + o->f))

/*
 * memcg_layout - the scenario's layout (into *@l) and its struct mem_cgroup, or NULL with
 * @err set (check() has already refused a layout without it).
 */
static inline const struct layout_struct *
memcg_layout(const struct bench_cfg *cfg, const struct layout **l, char *err, size_t errlen)
{
	const struct layout_struct *ls;

	*l = bench_layout(cfg);
	ls = layout_find_struct(*l, "mem_cgroup");
	if (!ls)
		bench_error(err, errlen, "layout %s: no struct mem_cgroup", (*l)->name);
	return ls;
}

/*
 * memcg_offs_init - the page_counter field offsets and css.parent, memory, swap and (if the
 * layout has it) kmem of struct mem_cgroup. The caller's check() has validated the layout.
 */
static inline void memcg_offs_init(struct memcg_offs *o, const struct layout *l)
{
	static const struct {
		const char *name;
		size_t member;
	} fields[] = {
#define MEMCG_F(f) {#f, offsetof(struct memcg_offs, f)}
	    MEMCG_F(usage),
	    MEMCG_F(min),
	    MEMCG_F(low),
	    MEMCG_F(high),
	    MEMCG_F(max),
	    MEMCG_F(emin),
	    MEMCG_F(min_usage),
	    MEMCG_F(children_min_usage),
	    MEMCG_F(elow),
	    MEMCG_F(low_usage),
	    MEMCG_F(children_low_usage),
	    MEMCG_F(watermark),
	    MEMCG_F(failcnt),
	    MEMCG_F(parent),
#undef MEMCG_F
	};

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		*(long *)((char *)o + fields[i].member) =
		    layout_offset(l, "page_counter", fields[i].name);
	o->css_parent = layout_offset(l, "mem_cgroup", "css.parent");
	o->memory = layout_offset(l, "mem_cgroup", "memory");
	o->swap = layout_offset(l, "mem_cgroup", "swap");
	o->kmem = layout_offset(l, "mem_cgroup", "kmem");
	o->socket_pressure = layout_offset(l, "mem_cgroup", "socket_pressure");
}

/*
 * memcg_check_layout - struct mem_cgroup has css.parent and embeds a struct page_counter as
 * each field named in @counters (NULL-terminated; @names says them in words, "memory and
 * swap"), and struct page_counter has every field the algorithm uses.
 */
static inline int memcg_check_layout(const struct layout *l, const char *const *counters,
				     const char *names, char *err, size_t errlen)
{
	static const char *const pc_fields[] = {"usage",
						"min",
						"low",
						"high",
						"max",
						"emin",
						"min_usage",
						"children_min_usage",
						"elow",
						"low_usage",
						"children_low_usage",
						"watermark",
						"failcnt",
						"parent"};
	const struct layout_struct *ls = layout_find_struct(l, "mem_cgroup");
	int ok = ls && layout_offset(l, "mem_cgroup", "css.parent") >= 0;

	for (int c = 0; ok && counters[c]; c++) {
		int is_counter = 0;

		for (int i = 0; i < ls->nfields; i++)
			if (!strcmp(ls->fields[i].name, counters[c]))
				is_counter =
				    ls->fields[i].kind == LK_STRUCT &&
				    !strcmp(l->structs[ls->fields[i].type].name, "page_counter");
		ok = is_counter;
	}
	if (!ok) {
		char why[256] = "";

		/* A struct the import did not follow: say which one to add. */
		if (ls && !layout_why_missing(l, "mem_cgroup", "css.parent", why, sizeof(why)))
			for (int c = 0; counters[c] && !why[0]; c++)
				for (int i = 0; i < ls->nfields; i++)
					if (!strcmp(ls->fields[i].name, counters[c]) &&
					    ls->fields[i].kind != LK_STRUCT &&
					    ls->fields[i].ctype[0])
						snprintf(why, sizeof(why),
							 "%s is %s, not expanded in this layout: "
							 "import it with page_counter added to "
							 "--struct (or with -E, or --btf)",
							 counters[c], ls->fields[i].ctype);
		bench_error(err, errlen,
			    "layout %s: struct mem_cgroup needs css.parent and page_counter fields "
			    "%s%s%s",
			    l->name, names, why[0] ? ": " : "", why);
		return -1;
	}
	for (size_t i = 0; i < sizeof(pc_fields) / sizeof(pc_fields[0]); i++) {
		if (layout_offset(l, "page_counter", pc_fields[i]) < 0) {
			bench_error(err, errlen, "layout %s: struct page_counter has no field %s",
				    l->name, pc_fields[i]);
			return -1;
		}
	}
	/* A newer kernel's page_counter has more fields: accepted, and named. */
	{
		const struct layout_struct *pc = layout_find_struct(l, "page_counter");
		char extra[512] = "";
		size_t n = 0;

		for (int f = 0; pc && f < pc->nfields && n < sizeof(extra); f++) {
			size_t k = 0;

			while (k < sizeof(pc_fields) / sizeof(pc_fields[0]) &&
			       strcmp(pc->fields[f].name, pc_fields[k]))
				k++;
			if (k == sizeof(pc_fields) / sizeof(pc_fields[0]))
				n += (size_t)snprintf(extra + n, sizeof(extra) - n, "%s%s",
						      n ? ", " : "", pc->fields[f].name);
		}
		if (extra[0])
			bench_note(
			    "layout %s: struct page_counter fields the algorithm ignores: %s",
			    l->name, extra);
	}
	return 0;
}

static inline long memcg_min_l(long a, long b)
{
	return a < b ? a : b;
}

/* ---- page_counter (mm/page_counter.c, v6.0) ---- */

/* propagate_protected_usage - keep min_usage/low_usage and the parent's children_* sums. */
static inline void propagate_protected_usage(const struct memcg_offs *o, char *c, long usage)
{
	char *parent = pc_load_ptr(FIELD(c, parent));
	long prot, old, delta, m, l;

	if (!parent)
		return; /* the root counter never propagates */

	if (o->cond_xchg) {
		/* Patch A: only a changed protected amount costs an exclusive line. */
		prot = memcg_min_l(usage, pc_load(FIELD(c, min)));
		old = pc_load(FIELD(c, min_usage));
		if (prot != old) {
			old = pc_xchg(FIELD(c, min_usage), prot);
			delta = prot - old;
			if (delta)
				pc_add(FIELD(parent, children_min_usage), delta);
		}
		prot = memcg_min_l(usage, pc_load(FIELD(c, low)));
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
		prot = memcg_min_l(usage, m);
		old = pc_xchg(FIELD(c, min_usage), prot);
		delta = prot - old;
		if (delta)
			pc_add(FIELD(parent, children_min_usage), delta);
	}
	l = pc_load(FIELD(c, low));
	if (l || pc_load(FIELD(c, low_usage))) {
		prot = memcg_min_l(usage, l);
		old = pc_xchg(FIELD(c, low_usage), prot);
		delta = prot - old;
		if (delta)
			pc_add(FIELD(parent, children_low_usage), delta);
	}
}

static inline void page_counter_cancel(const struct memcg_offs *o, char *c, long n)
{
	long new = pc_sub_return(FIELD(c, usage), n);

	if (new < 0) { /* more uncharges than charges: the kernel warns once and clamps */
		new = 0;
		pc_store(FIELD(c, usage), new);
	}
	propagate_protected_usage(o, c, new);
}

/* page_counter_charge - hierarchical charge without a limit check. */
static inline void page_counter_charge(const struct memcg_offs *o, char *counter, long n)
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
static inline char *page_counter_try_charge(const struct memcg_offs *o, char *counter, long n)
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

static inline void page_counter_uncharge(const struct memcg_offs *o, char *counter, long n)
{
	for (char *c = counter; c; c = pc_load_ptr(FIELD(c, parent)))
		page_counter_cancel(o, c, n);
}

/* page_counter_set_min/low: store the limit, then propagate from there to the root. */
static inline void page_counter_set_prot(const struct memcg_offs *o, char *counter, long min,
					 long low)
{
	pc_store(FIELD(counter, min), min);
	pc_store(FIELD(counter, low), low);
	for (char *c = counter; c; c = pc_load_ptr(FIELD(c, parent)))
		propagate_protected_usage(o, c, pc_load(FIELD(c, usage)));
}

/*
 * memcg_init_counter - what mem_cgroup_css_alloc leaves in one embedded page_counter of
 * @memcg at @off: max (page_counter_init) and high (page_counter_set_high of memory and
 * swap, the union's storage for memsw too) PAGE_COUNTER_MAX, parent = the parent's counter.
 */
static inline void memcg_init_counter(const struct memcg_offs *o, char *memcg, char *parent,
				      long off)
{
	char *c = memcg + off;

	pc_store(FIELD(c, max), PAGE_COUNTER_MAX);
	pc_store(FIELD(c, high), PAGE_COUNTER_MAX);
	pc_store_ptr(FIELD(c, parent), parent ? parent + off : NULL);
}

/* ---- the hierarchy: `levels` mem_cgroups, root first ---- */

/*
 * The number of page_counters a charge walks, root included (the `levels` parameter of
 * page_counter and kmem): the seed's netperf ran three levels below root, so 4
 * (docs/kernel-facts.md section 8). With 1 the only memcg is the root-most counter itself.
 */
#define MEMCG_MAX_LEVELS 8
#define MEMCG_LEVELS_PARAM                                                                         \
	{                                                                                          \
		"levels", "4",                                                                     \
		    "page_counters a charge walks, root included (root, L1, ..., leaf)", NULL, 1,  \
		    MEMCG_MAX_LEVELS                                                               \
	}

/* The objects' names: cg[0] is "root", cg[i] is "L<i>", the last one the leaf. */
static const char *const memcg_level_names[MEMCG_MAX_LEVELS] = {"root", "L1", "L2", "L3",
								"L4",	"L5", "L6", "L7"};

/*
 * memcg_alloc_levels - @levels zeroed struct mem_cgroup objects of layout struct @ls into
 * @cg (cg[0] the root), each with css.parent set and every page_counter at the offsets
 * @counters (@ncounters of them) initialised as mem_cgroup_css_alloc leaves it.
 */
static inline void memcg_alloc_levels(const struct memcg_offs *o, const struct layout_struct *ls,
				      int levels, const long *counters, int ncounters, char **cg)
{
	for (int i = 0; i < levels; i++) {
		char *parent = i ? cg[i - 1] : NULL;

		cg[i] = bench_alloc(ls->size, ls->align > MEMCG_ALIGN ? ls->align : MEMCG_ALIGN);
		for (int c = 0; c < ncounters; c++)
			memcg_init_counter(o, cg[i], parent, counters[c]);
		pc_store_ptr(FIELD(cg[i], css_parent), parent);
	}
}

/* memcg_level_objects - the @levels mem_cgroups as objects (at most @max); returns how many. */
static inline int memcg_level_objects(char *const *cg, int levels, const struct layout *l,
				      struct bench_object *out, int max)
{
	int i;

	for (i = 0; i < levels && i < max; i++)
		out[i] = (struct bench_object){memcg_level_names[i], "mem_cgroup", cg[i], l};
	return i;
}

/*
 * memcg_check_usage - a window_end invariant: the usage of the page_counter at offset
 * @counter of every one of the @levels mem_cgroups is @want (after every thread's teardown:
 * its stock drained, so a page still stocked would show as usage). Returns 0, or -1 with
 * "LEVEL NAME.usage: expected W, found F" in @note.
 */
static inline int memcg_check_usage(const struct memcg_offs *o, char *const *cg, int levels,
				    long counter, const char *name, long want, char *note,
				    size_t len)
{
	for (int i = 0; i < levels; i++) {
		long u = pc_load((pc_word *)(cg[i] + counter + o->usage));

		if (u != want) {
			snprintf(note, len, "%s %s.usage: expected %ld, found %ld",
				 memcg_level_names[i], name, want, u);
			return -1;
		}
	}
	return 0;
}

/*
 * mem_cgroup_under_socket_pressure (include/linux/memcontrol.h, v6.0), cgroup v2: from
 * @memcg to the root, READ_ONCE(memcg->socket_pressure) against jiffies, then
 * parent_mem_cgroup() = css.parent. The v1 `tcpmem_pressure` check is not modelled, nor the
 * read of jiffies (written only by the timer tick: read-mostly). socket_pressure keeps its
 * creation value (mem_cgroup_alloc stores the jiffies of then; here 0, long past "now")
 * and no reclaim (vmpressure) moves it, so the walk always reaches the root: per level one
 * load of socket_pressure and one of css.parent.
 */
static inline int mem_cgroup_under_socket_pressure(const struct memcg_offs *o, char *memcg,
						   long jiffies)
{
	do {
		if (jiffies - pc_load(FIELD(memcg, socket_pressure)) < 0) /* time_before */
			return 1;
	} while ((memcg = pc_load_ptr(FIELD(memcg, css_parent))));
	return 0;
}

/* ---- the per-CPU stock (memcg_stock_pcp, v6.0): one per thread ---- */

struct memcg_stock {
	char *cached; /* the cached memcg, never root */
	long nr_pages;
};

static inline void drain_stock(const struct memcg_offs *o, struct memcg_stock *st)
{
	if (!st->cached)
		return;
	if (st->nr_pages) {
		page_counter_uncharge(o, st->cached + o->memory, st->nr_pages);
		if (o->memsw)
			page_counter_uncharge(o, st->cached + o->swap, st->nr_pages);
		st->nr_pages = 0;
	}
	st->cached = NULL;
}

/* refill_stock - return @n pages to the stock; over batch, the WHOLE stock goes back. */
static inline void refill_stock(const struct memcg_offs *o, struct memcg_stock *st, char *memcg,
				long n)
{
	if (st->cached != memcg) {
		drain_stock(o, st);
		st->cached = memcg;
	}
	st->nr_pages += n;
	if (st->nr_pages > o->batch)
		drain_stock(o, st);
}

static inline int consume_stock(const struct memcg_offs *o, struct memcg_stock *st, char *memcg,
				long n)
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
 * try_charge_memcg - the charge of v6.0: stock first, else a hierarchical charge of
 * max(batch, n) (cgroup v1: memsw, then memory; memsw is given back when memory fails) with
 * the surplus stocked, then the memory.high/swap.high check of the memcg and every
 * ancestor (on v1 "swap" is memsw). Limits are PAGE_COUNTER_MAX, so no reclaim path is
 * modelled. Returns 0, or -1 when even an exact-size charge failed.
 */
static inline int try_charge_memcg(const struct memcg_offs *o, struct memcg_stock *st, char *memcg,
				   long n)
{
	long batch = o->batch > n ? o->batch : n;
	char *m;

retry:
	if (consume_stock(o, st, memcg, n))
		return 0;
	if (!o->memsw || !page_counter_try_charge(o, memcg + o->swap, batch)) {
		if (!page_counter_try_charge(o, memcg + o->memory, batch))
			goto done_restock;
		if (o->memsw)
			page_counter_uncharge(o, memcg + o->swap, batch);
	}
	if (batch > n) {
		batch = n;
		goto retry;
	}
	return -1;

done_restock:
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

/* ---- statistics: mod_memcg_state and the rstat bookkeeping (section 3.6) ---- */

/*
 * enum memcg_stat_item (v6.0): MEMCG_SWAP = NR_VM_NODE_STAT_ITEMS (41), MEMCG_SOCK,
 * MEMCG_PERCPU_B, MEMCG_VMALLOC, MEMCG_KMEM, MEMCG_ZSWAP_B, MEMCG_ZSWAPPED, MEMCG_NR_STAT.
 * Private memory: the index only picks which word of the thread's own block is written.
 */
#define MEMCG_SOCK 42
#define MEMCG_KMEM 45

/*
 * The global `stats_flush_threshold` atomic of mm/memcontrol.c, alone in its own 64-byte
 * block (in the kernel a static atomic_t among other .data; modelled as a pc_word).
 */
struct memcg_globals {
	pc_word stats_flush_threshold;
};

/* The layout text of struct memcg_globals, for objects(). */
#define MEMCG_GLOBALS_LAYOUT                                                                       \
	"layout memcg-globals\n"                                                                   \
	"desc the global atomic of the memcg rstat bookkeeping (mm/memcontrol.c)\n"                \
	"struct memcg_globals size 64 align 64\n"                                                  \
	"\tstats_flush_threshold 0 8 atomic\n"                                                     \
	"end\n"

/*
 * What memcg_rstat_updated does with stats_flush_threshold once a CPU's update count
 * exceeds MEMCG_CHARGE_BATCH: v6.0 (docs/kernel-facts.md section 3) adds only while the global is
 * <= num_online_cpus (an atomic read first); before "mm: Remove the redundant updating of
 * stats_flush_threshold" (Jiebin Sun, July 2022) the add was unconditional.
 */
enum memcg_flush { MEMCG_FLUSH_CAPPED, MEMCG_FLUSH_UNCONDITIONAL };

struct memcg_rstat {
	pc_word *threshold; /* &globals->stats_flush_threshold */
	long batch;	    /* MEMCG_CHARGE_BATCH */
	long online_cpus;   /* num_online_cpus(): the measurement's thread count */
	int unconditional;
};

/*
 * memcg_rstat_updated - the per-CPU update counter @stats_updates (private to the thread)
 * grows by |val|; when it exceeds the batch, the global threshold is read and (while it is
 * <= num_online_cpus, or always before July 2022) atomically increased by x / batch, and
 * the per-CPU counter restarts. Nothing flushes in the model (the kernel's periodic flush
 * runs every 2 s and resets the global to 0), so once the global passes the CPU count only
 * the read remains. cgroup_rstat_updated() (per-CPU, returns early once the cgroup is on
 * this CPU's updated list) is not modelled.
 */
static inline void memcg_rstat_updated(const struct memcg_rstat *r, long *stats_updates, long val)
{
	long x = *stats_updates += val < 0 ? -val : val;

	if (x > r->batch) {
		if (r->unconditional || pc_load(r->threshold) <= r->online_cpus)
			pc_add(r->threshold, x / r->batch);
		*stats_updates = 0;
	}
}

/*
 * mod_memcg_state - __this_cpu_add(memcg->vmstats_percpu->state[idx], val) into the
 * calling CPU's own block @pcpu_state, then the rstat bookkeeping.
 */
static inline void mod_memcg_state(const struct memcg_rstat *r, long *pcpu_state,
				   long *stats_updates, int idx, long val)
{
	pcpu_state[idx] += val;
	memcg_rstat_updated(r, stats_updates, val);
}

#endif
