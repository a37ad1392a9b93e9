// SPDX-License-Identifier: MIT
/*
 * kmem.c - the cgroup v1 kmem page_counter of a8c49af3be ("memcg: add per-memcg total kernel
 * memory stat", v5.18; seed 002, Apr 2022): obj_cgroup_charge_pages / uncharge_pages, i.e.
 * try_charge_memcg through the thread's stock (v1: memsw, then memory) followed by
 * memcg_account_kmem = mod_memcg_state(MEMCG_KMEM) and, on cgroup v1 only, an unbatched
 * hierarchical page_counter_charge of memcg->kmem (uncharged again on the way back).
 * Small and frequent charges from every thread into one memcg, as hackbench's socket buffers.
 * Kernel facts: docs/kernel-facts.md sections 1, 3 and 8.
 *
 * Invariants, checked after every window once every thread's teardown has run (window_end;
 * a violation makes the row an error naming the counter, the expected and the found value):
 * every level's memory.usage is back at `preload`, and on v1 also memsw (swap.usage) and
 * kmem.usage; every stock is drained in its thread's teardown, so a stocked page would show
 * as usage.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "memcg.h"

#define MEMCG_NR_STAT 48 /* v6.0: 41 node items + 7 memcg items (memcg.h) */

struct km_shared {
	struct memcg_offs o;
	struct memcg_rstat rstat;
	struct memcg_globals *globals;
	long nr;
	int kmem_stat;		    /* mod_memcg_state(MEMCG_KMEM) in memcg_account_kmem */
	int kmem_counter;	    /* v1 only: page_counter_charge/uncharge of memcg->kmem */
	int split;		    /* charge and uncharge through different stocks (CPUs) */
	int v1;			    /* cgroup v1: memsw and kmem charged with the preload too */
	long preload;		    /* pages charged to the leaf at setup */
	int levels;		    /* hierarchy depth, root included (memcg.h) */
	char *cg[MEMCG_MAX_LEVELS]; /* cg[0] the root, cg[levels - 1] the leaf */
	const struct layout *layout;
	struct layout *glayout;
};

/* One thread = one CPU (two in `split`): its memcg_stock_pcp and vmstats_percpu. */
struct km_thread {
	struct memcg_stock stock;  /* the charging CPU's stock (and the uncharging one in pair) */
	struct memcg_stock ustock; /* split: the stock of the CPU that frees */
	long stats_updates;	   /* memcg_rstat_updated's per-CPU counter */
	long *state;		   /* memcg->vmstats_percpu->state[] of this CPU */
};

/* memcg_account_kmem - the helper a8c49af3be added (identical in v6.0). */
static inline void memcg_account_kmem(const struct km_shared *s, const struct memcg_offs *o,
				      const struct memcg_rstat *r, struct km_thread *st,
				      char *memcg, long nr)
{
	if (s->kmem_stat)
		mod_memcg_state(r, st->state, &st->stats_updates, MEMCG_KMEM, nr);
	if (s->kmem_counter) { /* !cgroup_subsys_on_dfl(memory_cgrp_subsys) */
		if (nr > 0)
			page_counter_charge(o, memcg + o->kmem, nr);
		else
			page_counter_uncharge(o, memcg + o->kmem, -nr);
	}
}

/* obj_cgroup_charge_pages - try_charge_memcg, then memcg_account_kmem(+nr). */
static inline int obj_cgroup_charge_pages(const struct km_shared *s, const struct memcg_offs *o,
					  const struct memcg_rstat *r, struct km_thread *st,
					  char *memcg, long nr)
{
	if (try_charge_memcg(o, &st->stock, memcg, nr))
		return -1;
	memcg_account_kmem(s, o, r, st, memcg, nr);
	return 0;
}

/* obj_cgroup_uncharge_pages - memcg_account_kmem(-nr), then refill_stock on @stock. */
static inline void obj_cgroup_uncharge_pages(const struct km_shared *s, const struct memcg_offs *o,
					     const struct memcg_rstat *r, struct km_thread *st,
					     struct memcg_stock *stock, char *memcg, long nr)
{
	memcg_account_kmem(s, o, r, st, memcg, -nr);
	refill_stock(o, stock, memcg, nr);
}

static int min_pages(const struct bench_cfg *cfg)
{
	return (int)bench_long(cfg, "min");
}

static int check(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	static const char *const counters[] = {"memory", "swap", "kmem", NULL};
	const struct layout *l = bench_layout(cfg);

	if (memcg_check_layout(l, counters, "memory, swap (memsw) and kmem", err, errlen))
		return -1;
	if (!strcmp(bench_str(cfg, "cgroup"), "v1") && min_pages(cfg)) {
		bench_error(err, errlen,
			    "min=%d with cgroup=v1: memory.min and memory.low are cgroup v2 files "
			    "(use cgroup=v2, or min=0)",
			    min_pages(cfg));
		return -1;
	}
	if (bench_long(cfg, "preload") <= 4L * min_pages(cfg)) {
		bench_error(err, errlen, "preload=%ld must be well above memory.low (%d pages)",
			    bench_long(cfg, "preload"), 2 * min_pages(cfg));
		return -1;
	}
	return 0;
}

static void *setup(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	const struct layout *l;
	const struct layout_struct *ls = memcg_layout(cfg, &l, err, errlen);
	const int v1 = !strcmp(bench_str(cfg, "cgroup"), "v1");
	const long preload = bench_long(cfg, "preload"), min = min_pages(cfg);
	struct km_shared *s;
	struct memcg_offs *o;
	long ctr[3];
	char *leaf;

	if (!ls)
		return NULL;
	s = bench_alloc(sizeof(*s), BENCH_PAD);
	s->glayout = layout_parse(MEMCG_GLOBALS_LAYOUT, "memcg.h", err, errlen);
	if (!s->glayout) {
		bench_free(s);
		return NULL;
	}
	o = &s->o;
	memcg_offs_init(o, l);
	o->batch = bench_long(cfg, "batch");
	o->cond_xchg = !strcmp(bench_str(cfg, "propagate"), "cond-xchg");
	o->memsw = v1;
	s->globals = bench_alloc(sizeof(*s->globals), BENCH_PAD);
	s->rstat = (struct memcg_rstat){
	    .threshold = &s->globals->stats_flush_threshold,
	    .batch = o->batch,
	    .online_cpus = bench_threads(cfg),
	    .unconditional = !strcmp(bench_str(cfg, "flush"), "unconditional"),
	};
	s->nr = bench_long(cfg, "nr");
	s->kmem_stat = !strcmp(bench_str(cfg, "kmem_stat"), "on");
	s->kmem_counter = v1 && !strcmp(bench_str(cfg, "kmem_counter"), "on");
	s->split = !strcmp(bench_workload_name(cfg), "split");
	s->levels = (int)bench_long(cfg, "levels");
	s->layout = l;
	s->v1 = v1;
	s->preload = preload;

	ctr[0] = o->memory;
	ctr[1] = o->swap; /* memsw on v1 */
	ctr[2] = o->kmem;
	memcg_alloc_levels(o, ls, s->levels, ctr, 3, s->cg);
	/* memory.min/low on L1 as page_counter sets them (cgroup v2 only; 0: none). */
	if (min && s->levels > 1)
		page_counter_set_prot(o, s->cg[1] + o->memory, min, 2 * min);
	leaf = s->cg[s->levels - 1];
	page_counter_charge(o, leaf + o->memory, preload);
	if (v1) {
		page_counter_charge(o, leaf + o->swap, preload);
		page_counter_charge(o, leaf + o->kmem, preload);
	}
	return s;
}

static void teardown(void *shared)
{
	struct km_shared *s = shared;

	for (int i = 0; i < s->levels; i++)
		bench_free(s->cg[i]);
	bench_free(s->globals);
	layout_free(s->glayout);
	bench_free(s);
}

static void *thread_setup(void *shared, int thread)
{
	struct km_thread *st = bench_alloc(sizeof(*st), BENCH_PAD);

	(void)shared;
	(void)thread;
	st->state = bench_alloc(MEMCG_NR_STAT * sizeof(long), BENCH_PAD);
	return st;
}

static void thread_teardown(void *shared, void *tstate)
{
	struct km_shared *s = shared;
	struct km_thread *st = tstate;

	/* Every op is complete when run() returns: only the stocks hold pages. */
	drain_stock(&s->o, &st->stock);
	drain_stock(&s->o, &st->ustock);
	bench_free(st->state);
	bench_free(st);
}

/* run - one operation: obj_cgroup_charge_pages(nr), then obj_cgroup_uncharge_pages(nr). */
static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct km_shared *s = shared;
	struct km_thread *st = tstate;
	const struct memcg_offs local = s->o, *o = &local;
	const struct memcg_rstat rstat = s->rstat, *r = &rstat;
	struct memcg_stock *ustock = s->split ? &st->ustock : &st->stock;
	char *leaf = s->cg[s->levels - 1];
	long nr = s->nr;

	for (uint64_t i = 0; i < n; i++) {
		if (!obj_cgroup_charge_pages(s, o, r, st, leaf, nr))
			obj_cgroup_uncharge_pages(s, o, r, st, ustock, leaf, nr);
	}
	return n;
}

static int objects(void *shared, struct bench_object *out, int max)
{
	struct km_shared *s = shared;
	int i = memcg_level_objects(s->cg, s->levels, s->layout, out, max);

	if (i < max)
		out[i++] = (struct bench_object){"stats_flush_threshold", "memcg_globals",
						 s->globals, s->glayout};
	return i;
}

/* line_fields - "a, b, c": every field of struct mem_cgroup (nested ones flattened) on @line. */
static void line_fields(const struct layout *l, long line, const char *skip, char *buf, size_t len)
{
	const struct layout_struct *ls = layout_find_struct(l, "mem_cgroup");
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; ls && i < ls->nfields; i++) {
		const struct layout_field *f = &ls->fields[i];
		const struct layout_struct *t = f->kind == LK_STRUCT ? &l->structs[f->type] : NULL;

		for (int j = 0; j < (t ? t->nfields : 1) && n < len; j++) {
			char name[2 * LAYOUT_NAME_MAX];
			size_t off = f->offset + (t ? t->fields[j].offset : 0);
			size_t size = t ? t->fields[j].size : f->size;

			if (!size || (long)(off / 64) > line ||
			    (long)((off + size - 1) / 64) < line)
				continue;
			snprintf(name, sizeof(name), "%s%s%s", f->name, t ? "." : "",
				 t ? t->fields[j].name : "");
			if (!strcmp(name, skip))
				continue;
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
		}
	}
}

/*
 * describe - the usage words the charge path writes on every walk, and what else of struct
 * mem_cgroup shares each one's 64-byte line (the objects are 4096-aligned).
 */
static void describe(const struct bench_cfg *cfg, void (*out)(void *arg, const char *line),
		     void *arg)
{
	const int v1 = !strcmp(bench_str(cfg, "cgroup"), "v1");
	const int counter = v1 && !strcmp(bench_str(cfg, "kmem_counter"), "on");
	const char *const written[] = {"memory.usage", v1 ? "swap.usage" : NULL,
				       counter ? "kmem.usage" : NULL};
	char others[1024], line[1400], walk[64];
	const struct layout *l = bench_layout(cfg);

	snprintf(walk, sizeof(walk), "%ld levels charged and uncharged", bench_long(cfg, "levels"));
	snprintf(line, sizeof(line),
		 "per op: %s stock charge (memory%s, batch %ld)%s%s; kmem counter walk: %s; "
		 "stats_flush_threshold add: %s",
		 v1 ? "cgroup v1" : "cgroup v2", v1 ? " and memsw = swap" : "",
		 bench_long(cfg, "batch"),
		 strcmp(bench_str(cfg, "kmem_stat"), "on") ? "" : ", MEMCG_KMEM stat",
		 strcmp(bench_str(cfg, "kmem_stat"), "on") ? ", no stat" : "",
		 counter ? walk : "none", bench_str(cfg, "flush"));
	out(arg, line);
	for (size_t i = 0; i < sizeof(written) / sizeof(written[0]); i++) {
		long off = written[i] ? layout_offset(l, "mem_cgroup", written[i]) : -1;

		if (off < 0)
			continue;
		line_fields(l, off / 64, written[i], others, sizeof(others));
		snprintf(line, sizeof(line), "%s %ld (line %ld) shares its line with: %s",
			 written[i], off, off / 64, others[0] ? others : "nothing");
		out(arg, line);
	}
}

static const struct bench_param params[] = {
    {"layout", "v6.0",
     "struct page_counter/mem_cgroup layout (kmem and tcpmem share line 8 in v6.0)", BENCH_LAYOUT,
     0, 0},
    {"cgroup", "v1", "v1: memsw before memory and the kmem counter; v2: memory only", "v1|v2", 0,
     0},
    {"kmem_stat", "on", "mod_memcg_state(MEMCG_KMEM) in memcg_account_kmem", "on|off", 0, 0},
    {"kmem_counter", "on", "v1 only: the unbatched hierarchical charge of memcg->kmem", "on|off", 0,
     0},
    {"propagate", "always-xchg",
     "propagate_protected_usage: always-xchg (v5.18/v6.0) or cond-xchg (v6.1)",
     "always-xchg|cond-xchg", 0, 0},
    {"batch", "32", "MEMCG_CHARGE_BATCH in pages (64 from v6.1)", NULL, 1, 1 << 20},
    {"nr", "1", "pages per charge", NULL, 1, 1 << 20},
    {"min", "0",
     "memory.min of L1 in pages, memory.low = 2 x min (0: none; cgroup v2 only, v1 has no such "
     "files)",
     NULL, 0, 1 << 30},
    {"preload", "65536", "pages charged to the leaf's memory (v1: memsw and kmem too) at setup",
     NULL, 1, 1L << 40},
    MEMCG_LEVELS_PARAM,
    {"flush", "unconditional",
     "memcg_rstat_updated's add to stats_flush_threshold: unconditional (a8c49af3be, v5.18 to "
     "v5.19) or capped at num_online_cpus (873f64b791a2, v6.0)",
     "capped|unconditional", 0, 0},
    {0},
};

/*
 * The seed's kernels (a8c49af3be and Yin's two experiments on it, Apr 2022) predate
 * 873f64b791a2 (July 2022, in v6.0), so their stats_flush_threshold add is unconditional;
 * `v6.0` is the same code with the cap. cgroup v1 has no memory.min/low: min=0 (the default).
 */
static const struct bench_preset presets[] = {
    {"a8c49af3be", "memcg_account_kmem: MEMCG_KMEM stat and the v1 kmem page_counter",
     "layout=v6.0 cgroup=v1 kmem_stat=on kmem_counter=on batch=32 flush=unconditional min=0"},
    {"no-kmem-counter", "Yin's experiment 2: the kmem page_counter block commented out",
     "layout=v6.0 cgroup=v1 kmem_stat=on kmem_counter=off batch=32 flush=unconditional min=0"},
    {"no-kmem-stat", "Yin's experiment 1: mod_memcg_state(MEMCG_KMEM) commented out",
     "layout=v6.0 cgroup=v1 kmem_stat=off kmem_counter=on batch=32 flush=unconditional min=0"},
    {"v2", "cgroup v2: memory only (no memsw), no kmem page_counter",
     "layout=v6.0 cgroup=v2 kmem_stat=on kmem_counter=off batch=32 flush=unconditional min=0"},
    {"v6.0", "a8c49af3be's code with 873f64b791a2's capped stats_flush_threshold add (v6.0)",
     "layout=v6.0 cgroup=v1 kmem_stat=on kmem_counter=on batch=32 flush=capped min=0"},
    {0},
};

static const struct bench_workload workloads[] = {
    {"pair", "charge nr pages, then uncharge them on the same CPU (the stock stays warm)", "nr=1",
     BENCH_SYMMETRIC},
    {"split",
     "charge on one CPU's stock, uncharge on another's, as a sender and a receiver: the "
     "stocks run dry and overflow every batch pages",
     "nr=1", 0},
    {0},
};

/* window_end - the invariants of the header comment, after every thread's teardown. */
static int window_end(void *shared, char *note, size_t len)
{
	struct km_shared *s = shared;
	const struct memcg_offs *o = &s->o;

	note[0] = '\0';
	if (memcg_check_usage(o, s->cg, s->levels, o->memory, "memory", s->preload, note, len))
		return -1;
	if (s->v1 &&
	    (memcg_check_usage(o, s->cg, s->levels, o->swap, "memsw", s->preload, note, len) ||
	     memcg_check_usage(o, s->cg, s->levels, o->kmem, "kmem", s->preload, note, len)))
		return -1;
	return 0;
}

const struct scenario kmem_scenario = {
    .name = "kmem",
    .desc = "obj_cgroup_charge_pages with the cgroup v1 kmem page_counter (Apr 2022, a8c49af3be)",
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
    .describe = describe,
    .window_end = window_end,
};
