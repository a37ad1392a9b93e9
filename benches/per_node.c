// SPDX-License-Identifier: MIT
/*
 * per_node.c - the two sides that meet on struct mem_cgroup_per_node (seed 001, May 2024):
 * 70a64b7919cb ("memcg: dynamically allocate lruvec_stats") turned the embedded lruvec_stats
 * into a pointer, and "memcg: rearrange fields of mem_cgroup_per_node" moved the read-mostly
 * pointers to the front. Every thread faults pages into one memcg's per-node struct (the
 * `shared` workload, as will-it-scale page_fault2 in one cgroup) or into its own (`private`).
 * Kernel facts: docs/kernel-facts.md sections 3, 6 and 7.
 *
 * The layouts are computed, not typed in: struct lruvec and struct mem_cgroup_per_node are
 * ordered field lists (size, alignment, array dimensions that depend on the knobs zones =
 * MAX_NR_ZONES and lru_gen = CONFIG_LRU_GEN), laid out by the C rules (each field at its
 * alignment, the struct rounded up to its largest alignment) into layout text that
 * layout_parse() reads, so layout_offset() works for the model and the tests.
 *
 * Invariants, checked after every window once every thread's teardown has run (window_end;
 * a violation makes the row an error naming the counter, the expected and the found value):
 * every thread unmaps and frees all it faulted, so on each per-node struct the LRU list is
 * empty (its head points to itself), lru_zone_size[ZONE_NORMAL][lru] is 0, and the lruvec
 * counters summed over the CPUs (the LRU's size, the mapped pages: added minus freed,
 * tallied by each thread's teardown before its per-CPU block goes) are 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "memcg.h"

#include "per_node_layout.h"
#include "qspinlock.h"

/* computed_layout - the layout of @cfg's preset and knobs, for the layout_fp column. */
static struct layout *computed_layout(const struct bench_cfg *cfg)
{
	struct pn_knobs k;
	char err[256];

	return pn_knobs_from_cfg(cfg, &k, err, sizeof(err)) ? NULL
							    : pn_layout(&k, err, sizeof(err));
}

/* ---- the model ---- */

/* Byte offsets in struct mem_cgroup_per_node, copied into a local by run(). */
struct pn_offs {
	long memcg, pcpu, pgdat; /* hot-read pointers */
	long lock, list;	 /* lruvec.lru_lock, lruvec.lists[lru] */
	long zone_size;		 /* lru_zone_size[ZONE_NORMAL][lru] */
	int lru, mapped_idx;
	int use_list;	  /* LRU_UNEVICTABLE folios are on no list */
	int qspin;	  /* lru_lock is a qspinlock (else a test-and-set lock) */
	long fbatch_add;  /* folios per lru_add drain (one lru_lock hold): PAGEVEC_SIZE */
	long fbatch_free; /* folios per free-side lru_lock hold */
};

#define PN(base, f) ((pc_word *)((base) + o->f))
#define LNEXT(lh) ((pc_word *)(lh))
#define LPREV(lh) ((pc_word *)((lh) + 8))

struct pn_shared {
	struct pn_offs o;
	struct memcg_rstat rstat;
	struct memcg_globals *globals;
	struct qspin_nodes q; /* the per-CPU MCS nodes, one 128-byte block per thread */
	int npn;	      /* 1 (shared) or one per thread (private) */
	char **pn;	      /* the modelled struct mem_cgroup_per_node objects */
	char **memcg;	      /* what pn->memcg points to (its per-CPU stats found from it) */
	char **pcpu;	      /* the per-CPU base pn->lruvec_stats_percpu holds */
	char **stats;	      /* what pn->lruvec_stats points to (70a64b7919cb and later) */
	char *pgdat;	      /* the node, lruvec.pgdat */
	char (*names)[16];
	long (*tally)[2]; /* per pn: the lruvec counters [lru, mapped] summed by teardowns */
	struct layout *layout, *glayout, *qlayout;
	long depth;
};

/*
 * One thread = one CPU: its per-CPU statistics blocks (node, memcg, lruvec) are its own,
 * found the kernel's way, pointer + this CPU's offset, from the pointers it loads. Its
 * folios are a ring of depth + fbatch_free struct pages: `live` mapped ones (the newest `nadd`
 * of them still in the CPU's lru_add folio batch, not yet on the LRU) and, behind them,
 * `nfree` unmapped ones in the batch being freed, still on the LRU.
 */
struct pn_thread {
	char *pn;
	int cpu;
	long node_off, memcg_off, pcpu_off;
	long stats_updates; /* memcg_rstat_updated's per-CPU counter */
	char *pages;	    /* ring struct pages of 64 bytes: this thread's folios */
	long ring, next, live, nadd, nfree;
	long *node_stats, *memcg_stats, *lruvec_stats;
	char *blocks;
};

/*
 * mod_lruvec_state - __mod_lruvec_state(lruvec, idx, val): the node's per-CPU counter
 * (lruvec->pgdat; the fold into the node's atomics past the per-CPU threshold is not
 * modelled), then __mod_memcg_lruvec_state: read pn->memcg and pn->lruvec_stats_percpu,
 * __this_cpu_add into both per-CPU blocks, memcg_rstat_updated.
 */
static inline void mod_lruvec_state(const struct pn_offs *o, const struct memcg_rstat *r,
				    struct pn_thread *st, char *pn, int idx, long val)
{
	uintptr_t pgdat = (uintptr_t)pc_load_ptr(PN(pn, pgdat));
	uintptr_t memcg, pcpu;

	((long *)(pgdat + (uintptr_t)st->node_off))[idx] += val;
	memcg = (uintptr_t)pc_load_ptr(PN(pn, memcg));
	pcpu = (uintptr_t)pc_load_ptr(PN(pn, pcpu));
	((long *)(memcg + (uintptr_t)st->memcg_off))[idx] += val;
	((long *)(pcpu + (uintptr_t)st->pcpu_off))[idx] += val;
	memcg_rstat_updated(r, &st->stats_updates, val);
}

/*
 * update_lru_size - __update_lru_size (the stat) and mem_cgroup_update_lru_size: a plain
 * read-modify-write of lru_zone_size[zid][lru] under lru_lock (clamped at 0 with a warning).
 */
static inline void update_lru_size(const struct pn_offs *o, const struct memcg_rstat *r,
				   struct pn_thread *st, char *pn, long n)
{
	pc_word *zs = PN(pn, zone_size);
	long size;

	mod_lruvec_state(o, r, st, pn, o->lru, n);
	size = pc_load(zs);
	if (n < 0) {
		size += n;
		pc_store(zs, size);
	}
	if (size < 0)
		pc_store(zs, 0);
	if (n > 0)
		pc_store(zs, size + n);
}

/* lruvec_lock / unlock - folio_lruvec_lock_irqsave on lru_lock: a qspinlock, or test-and-set. */
static inline void lruvec_lock(const struct pn_offs *o, const struct qspin_nodes *q,
			       const struct pn_thread *st, char *pn)
{
	pc_lock *lock = (pc_lock *)(pn + o->lock);

	if (o->qspin)
		queued_spin_lock(lock, q, st->cpu);
	else
		pc_spin_lock(lock);
}

static inline void lruvec_unlock(const struct pn_offs *o, char *pn)
{
	pc_lock *lock = (pc_lock *)(pn + o->lock);

	if (o->qspin)
		queued_spin_unlock(lock);
	else
		pc_spin_unlock(lock);
}

/* lruvec_add_folio - update_lru_size, list_add (lru_lock held). */
static inline void lruvec_add_folio(const struct pn_offs *o, const struct memcg_rstat *r,
				    struct pn_thread *st, char *pn, char *lh)
{
	char *head = pn + o->list, *next;

	update_lru_size(o, r, st, pn, 1);
	if (o->use_list) {
		next = pc_load_ptr(LNEXT(head));
		pc_store_ptr(LPREV(next), lh);
		pc_store_ptr(LNEXT(lh), next);
		pc_store_ptr(LPREV(lh), head);
		pc_store_ptr(LNEXT(head), lh);
	}
}

/* lruvec_del_folio - list_del, update_lru_size (lru_lock held). */
static inline void lruvec_del_folio(const struct pn_offs *o, const struct memcg_rstat *r,
				    struct pn_thread *st, char *pn, char *lh)
{
	if (o->use_list) {
		char *prev = pc_load_ptr(LPREV(lh)), *next = pc_load_ptr(LNEXT(lh));

		pc_store_ptr(LPREV(next), prev);
		pc_store_ptr(LNEXT(prev), next);
		pc_store(LNEXT(lh), LIST_POISON1);
		pc_store(LPREV(lh), LIST_POISON2);
	}
	update_lru_size(o, r, st, pn, -1);
}

/* page_lru - the lru list_head of ring slot @i (mod ring). */
static inline char *page_lru(const struct pn_thread *st, long i)
{
	i %= st->ring;
	if (i < 0)
		i += st->ring;
	return st->pages + i * PAGE_STRUCT + PAGE_LRU;
}

/*
 * lru_add_drain - folio_batch_move_lru of the CPU's lru_add batch: lru_lock once, every
 * folio of the batch added (the newest nadd mapped slots, oldest first), unlock.
 */
static inline void lru_add_drain(const struct pn_offs *o, const struct memcg_rstat *r,
				 const struct qspin_nodes *q, struct pn_thread *st)
{
	if (!st->nadd)
		return;
	lruvec_lock(o, q, st, st->pn);
	for (long i = st->nadd; i > 0; i--)
		lruvec_add_folio(o, r, st, st->pn, page_lru(st, st->next - i));
	lruvec_unlock(o, st->pn);
	st->nadd = 0;
}

/*
 * free_batch - the unmapped batch leaves the LRU under one lru_lock hold (relocked only when
 * the lruvec changes, never here), every folio deleted, unlock; the slots are free. v6.0:
 * tlb_batch_pages_flush -> free_pages_and_swap_cache -> release_pages, which drops the lock
 * every SWAP_CLUSTER_MAX (32) folios; from v6.9 folios_put_refs of a 31-folio batch.
 */
static inline void free_batch(const struct pn_offs *o, const struct memcg_rstat *r,
			      const struct qspin_nodes *q, struct pn_thread *st)
{
	if (!st->nfree)
		return;
	lruvec_lock(o, q, st, st->pn);
	for (long i = st->nfree; i > 0; i--)
		lruvec_del_folio(o, r, st, st->pn, page_lru(st, st->next - st->live - i));
	lruvec_unlock(o, st->pn);
	st->nfree = 0;
}

/*
 * unmap_oldest - zap of the oldest mapped page: its rmap stat goes down, it joins the batch
 * being freed, which goes to the LRU code (and the lock) once it holds fbatch_free folios.
 */
static inline void unmap_oldest(const struct pn_offs *o, const struct memcg_rstat *r,
				const struct qspin_nodes *q, struct pn_thread *st)
{
	mod_lruvec_state(o, r, st, st->pn, o->mapped_idx, -1);
	st->live--;
	if (++st->nfree == o->fbatch_free)
		free_batch(o, r, q, st);
}

/*
 * fault - a new folio in the next slot: its rmap stat goes up and it joins the CPU's
 * lru_add batch (folio_add_lru), which is drained to the LRU once it holds fbatch_add folios.
 */
static inline void fault(const struct pn_offs *o, const struct memcg_rstat *r,
			 const struct qspin_nodes *q, struct pn_thread *st)
{
	mod_lruvec_state(o, r, st, st->pn, o->mapped_idx, 1);
	st->next++;
	st->live++;
	if (++st->nadd == o->fbatch_add)
		lru_add_drain(o, r, q, st);
}

static int check(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	struct pn_knobs k;
	struct layout *l;

	if (bench_long(cfg, "depth") < bench_long(cfg, "fbatch_add")) {
		bench_error(err, errlen,
			    "depth=%ld below fbatch_add=%ld: the oldest mapped page would still be "
			    "in the lru_add batch when it is unmapped",
			    bench_long(cfg, "depth"), bench_long(cfg, "fbatch_add"));
		return -1;
	}
	if (pn_knobs_from_cfg(cfg, &k, err, errlen))
		return -1;
	l = pn_layout(&k, err, errlen);
	if (!l)
		return -1;
	layout_free(l);
	return 0;
}

static void teardown(void *shared);

static void *setup(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	const size_t stats_size = 3 * NR_VM_NODE_STAT_ITEMS * sizeof(long);
	const int threads = bench_threads(cfg);
	struct pn_shared *s;
	struct pn_offs *o;
	struct pn_knobs k;
	struct layout_leaf lf;
	long lists, size;
	char *qtext;
	int npn, stats_ptr;

	if (pn_knobs_from_cfg(cfg, &k, err, errlen))
		return NULL;
	npn = !strcmp(bench_workload_name(cfg), "private") ? threads : 1;
	s = bench_alloc(sizeof(*s), BENCH_PAD);
	s->layout = pn_layout(&k, err, errlen);
	s->glayout = layout_parse(MEMCG_GLOBALS_LAYOUT, "memcg.h", err, errlen);
	qtext = qspin_layout_text(threads);
	s->qlayout = qtext ? layout_parse(qtext, "qspinlock.h", err, errlen) : NULL;
	free(qtext);
	if (!s->layout || !s->glayout || !s->qlayout) {
		layout_free(s->layout);
		layout_free(s->glayout);
		layout_free(s->qlayout);
		bench_free(s);
		return NULL;
	}
	o = &s->o;
	o->memcg = layout_offset(s->layout, "mem_cgroup_per_node", "memcg");
	o->pcpu = layout_offset(s->layout, "mem_cgroup_per_node", "lruvec_stats_percpu");
	o->pgdat = layout_offset(s->layout, "mem_cgroup_per_node", "lruvec.pgdat");
	o->lock = layout_offset(s->layout, "mem_cgroup_per_node", "lruvec.lru_lock");
	lists = layout_offset(s->layout, "mem_cgroup_per_node", "lruvec.lists");
	o->list = lists + 16L * k.lru;
	o->zone_size = layout_offset(s->layout, "mem_cgroup_per_node", "lru_zone_size") +
		       8L * (ZONE_NORMAL * NR_LRU_LISTS + k.lru);
	o->lru = k.lru;
	o->mapped_idx = k.lru >= 2 ? NR_ANON_MAPPED + 1 : NR_ANON_MAPPED; /* NR_FILE_MAPPED */
	o->use_list = k.lru != NR_LRU_LISTS - 1;
	o->qspin = !strcmp(bench_str(cfg, "lock"), "qspinlock");
	o->fbatch_add = bench_long(cfg, "fbatch_add");
	o->fbatch_free = bench_long(cfg, "fbatch_free");
	size = (long)layout_find_struct(s->layout, "mem_cgroup_per_node")->size;
	/* an embedded struct lruvec_stats (v6.0), or a pointer to it (70a64b7919cb and later) */
	stats_ptr = !layout_find_leaf(s->layout, "mem_cgroup_per_node", "lruvec_stats", &lf) &&
		    lf.field->kind != LK_STRUCT;

	s->globals = bench_alloc(sizeof(*s->globals), BENCH_PAD);
	s->rstat = (struct memcg_rstat){
	    .threshold = &s->globals->stats_flush_threshold,
	    .batch = bench_long(cfg, "batch"),
	    .online_cpus = threads,
	    .unconditional = !strcmp(bench_str(cfg, "flush"), "unconditional"),
	};
	s->q.ncpus = threads;
	s->q.nodes = bench_alloc((size_t)threads * QNODE_STRIDE, QNODE_STRIDE);
	s->depth = bench_long(cfg, "depth");
	s->npn = npn;
	s->pn = calloc((size_t)npn, sizeof(char *));
	s->memcg = calloc((size_t)npn, sizeof(char *));
	s->pcpu = calloc((size_t)npn, sizeof(char *));
	s->stats = calloc((size_t)npn, sizeof(char *));
	s->names = calloc((size_t)npn, sizeof(*s->names));
	s->tally = calloc((size_t)npn, sizeof(*s->tally));
	if (!s->pn || !s->memcg || !s->pcpu || !s->stats || !s->names || !s->tally) {
		bench_error(err, errlen, "out of memory");
		teardown(s);
		return NULL;
	}
	s->pgdat = bench_alloc(4096, 4096); /* struct pglist_data, never written here */
	for (int i = 0; i < npn; i++) {
		size_t ksz = pn_kmalloc_size((size_t)size);
		char *pn = s->pn[i] = bench_alloc(ksz, ksz);

		snprintf(s->names[i], sizeof(s->names[i]), npn > 1 ? "pn%d" : "pn", i);
		s->memcg[i] = bench_alloc(4096, MEMCG_ALIGN); /* the memcg (kmalloc-4k) */
		s->pcpu[i] = bench_alloc(64, BENCH_PAD);      /* the percpu allocation's base */
		if (stats_ptr)
			s->stats[i] = bench_alloc(stats_size, BENCH_PAD);
		/* mem_cgroup_alloc / alloc_mem_cgroup_per_node_info / lruvec_init */
		pc_store_ptr(PN(pn, memcg), s->memcg[i]);
		pc_store_ptr(PN(pn, pcpu), s->pcpu[i]);
		if (s->stats[i])
			pc_store_ptr(
			    (pc_word *)(pn + layout_offset(s->layout, "mem_cgroup_per_node",
							   "lruvec_stats")),
			    s->stats[i]);
		pc_store_ptr(PN(pn, pgdat), s->pgdat);
		for (int l = 0; l < NR_LRU_LISTS; l++) { /* INIT_LIST_HEAD */
			char *head = pn + lists + 16L * l;

			pc_store_ptr(LNEXT(head), head);
			pc_store_ptr(LPREV(head), head);
		}
	}
	return s;
}

static void teardown(void *shared)
{
	struct pn_shared *s = shared;

	for (int i = 0; i < s->npn; i++) {
		bench_free(s->pn ? s->pn[i] : NULL);
		bench_free(s->memcg ? s->memcg[i] : NULL);
		bench_free(s->pcpu ? s->pcpu[i] : NULL);
		bench_free(s->stats ? s->stats[i] : NULL);
	}
	free(s->pn);
	free(s->memcg);
	free(s->pcpu);
	free(s->stats);
	free(s->names);
	free(s->tally);
	bench_free(s->pgdat);
	bench_free(s->globals);
	bench_free(s->q.nodes);
	layout_free(s->layout);
	layout_free(s->glayout);
	layout_free(s->qlayout);
	bench_free(s);
}

static void *thread_setup(void *shared, int thread)
{
	struct pn_shared *s = shared;
	const size_t block = (MEMCG_NR_STAT * sizeof(long) + BENCH_PAD - 1) / BENCH_PAD * BENCH_PAD;
	struct pn_thread *st = bench_alloc(sizeof(*st), BENCH_PAD);
	int i = s->npn > 1 ? thread : 0;

	if (thread >= s->npn && s->npn > 1) {
		bench_free(st);
		return NULL;
	}
	st->pn = s->pn[i];
	st->cpu = thread;
	st->blocks = bench_alloc(3 * block, BENCH_PAD);
	st->node_stats = (long *)st->blocks;
	st->memcg_stats = (long *)(st->blocks + block);
	st->lruvec_stats = (long *)(st->blocks + 2 * block);
	/* this CPU's per-CPU offset from each base, as per_cpu_ptr() adds __per_cpu_offset[cpu] */
	st->node_off = (long)((uintptr_t)st->node_stats - (uintptr_t)s->pgdat);
	st->memcg_off = (long)((uintptr_t)st->memcg_stats - (uintptr_t)s->memcg[i]);
	st->pcpu_off = (long)((uintptr_t)st->lruvec_stats - (uintptr_t)s->pcpu[i]);
	st->ring = s->depth + s->o.fbatch_free;
	st->pages = bench_alloc((size_t)st->ring * PAGE_STRUCT, 64);
	return st;
}

static void thread_teardown(void *shared, void *tstate)
{
	struct pn_shared *s = shared;
	struct pn_thread *st = tstate;

	/* Drain the lru_add batch, then unmap and free everything still mapped. */
	lru_add_drain(&s->o, &s->rstat, &s->q, st);
	while (st->live)
		unmap_oldest(&s->o, &s->rstat, &s->q, st);
	free_batch(&s->o, &s->rstat, &s->q, st);
	st->next = 0;
	for (int i = 0; i < s->npn; i++) /* this CPU's lruvec counters, for window_end */
		if (s->pn[i] == st->pn) {
			__atomic_add_fetch(&s->tally[i][0], st->lruvec_stats[s->o.lru],
					   __ATOMIC_RELAXED);
			__atomic_add_fetch(&s->tally[i][1], st->lruvec_stats[s->o.mapped_idx],
					   __ATOMIC_RELAXED);
		}
	bench_free(st->pages);
	bench_free(st->blocks);
	bench_free(st);
}

/*
 * run - one operation is one page's worth of page_fault2: once `depth` pages are mapped,
 * first unmap the oldest (its stat; every fbatch_free of them leave the LRU under one
 * lru_lock hold), then fault a new one (its stat; every fbatch_add of them join the LRU
 * under one hold).
 */
static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct pn_shared *s = shared;
	struct pn_thread *st = tstate;
	const struct pn_offs local = s->o, *o = &local;
	const struct memcg_rstat rstat = s->rstat, *r = &rstat;
	const long depth = s->depth;

	for (uint64_t i = 0; i < n; i++) {
		if (st->live == depth)
			unmap_oldest(o, r, &s->q, st);
		fault(o, r, &s->q, st);
	}
	return n;
}

/* window_end - the invariants of the header comment, after every thread's teardown. */
static int window_end(void *shared, char *note, size_t len)
{
	struct pn_shared *s = shared;
	const struct pn_offs *o = &s->o;
	const char *lru = pn_lru_names[o->lru];

	note[0] = '\0';
	for (int i = 0; i < s->npn; i++) {
		char *pn = s->pn[i], *head = pn + o->list;
		long zs = pc_load(PN(pn, zone_size)),
		     nl = __atomic_load_n(&s->tally[i][0], __ATOMIC_RELAXED),
		     nm = __atomic_load_n(&s->tally[i][1], __ATOMIC_RELAXED);

		if (o->use_list &&
		    (pc_load_ptr(LNEXT(head)) != head || pc_load_ptr(LPREV(head)) != head)) {
			snprintf(note, len,
				 "%s lruvec.lists[%s] after teardown: expected empty, found folios",
				 s->names[i], lru);
			return -1;
		}
		if (zs || nl || nm) {
			snprintf(note, len, "%s %s after teardown: expected 0, found %ld",
				 s->names[i],
				 zs   ? "lru_zone_size[ZONE_NORMAL]"
				 : nl ? "lruvec counter of the LRU (summed over CPUs)"
				      : "lruvec counter of mapped pages (summed over CPUs)",
				 zs   ? zs
				 : nl ? nl
				      : nm);
			return -1;
		}
	}
	return 0;
}

static int objects(void *shared, struct bench_object *out, int max)
{
	struct pn_shared *s = shared;
	int n = 0;

	for (int i = 0; i < s->npn && n < max; i++)
		out[n++] =
		    (struct bench_object){s->names[i], "mem_cgroup_per_node", s->pn[i], s->layout};
	if (n < max)
		out[n++] = (struct bench_object){"stats_flush_threshold", "memcg_globals",
						 s->globals, s->glayout};
	if (n < max && s->o.qspin)
		out[n++] = (struct bench_object){"qnodes", "qnodes", s->q.nodes, s->qlayout};
	return n;
}

static const struct bench_param params[] = {
    {"layout", "70a64b7919cb",
     "struct mem_cgroup_per_node field order: 70a64b7919cb (regressed), fix-2024, v6.0 (layouts "
     "computed from field lists), or a layout file of struct mem_cgroup_per_node (the knobs "
     "zones, lru_gen, zswap and spinlock then come from the file)",
     BENCH_FILE, 0, 0},
    {"zones", "5", "MAX_NR_ZONES (5 with ZONE_DEVICE): sizes lru_zone_size and lrugen", "4|5", 0,
     0},
    {"lru_gen", "off",
     "CONFIG_LRU_GEN: a large lrugen block inside struct lruvec (MGLRU built "
     "in, off at runtime)",
     "off|on", 0, 0},
    {"zswap", "on",
     "CONFIG_ZSWAP: struct zswap_lruvec_state (8 B) at the end of struct lruvec (v6.8+)", "on|off",
     0, 0},
    {"spinlock", "4",
     "sizeof(spinlock_t): 4 (no lock debugging), 24 (DEBUG_SPINLOCK), 64 (DEBUG_SPINLOCK + "
     "DEBUG_LOCK_ALLOC)",
     "4|24|64", 0, 0},
    {"lru", "inactive_anon", "the LRU list the faulted pages go to",
     "inactive_anon|active_anon|inactive_file|active_file", 0, 0},
    {"depth", "64", "pages each thread keeps on the LRU before it frees its oldest", NULL, 1,
     1 << 16},
    {"batch", "64", "MEMCG_CHARGE_BATCH, the rstat update batch (32 up to v6.0)", NULL, 1, 1 << 20},
    {"fbatch_add", "31",
     "folios per lru_add drain, one lru_lock hold (PAGEVEC_SIZE: 15, 31 from v6.9-rc2, "
     "9cecde80aae0)",
     NULL, 1, 1024},
    {"fbatch_free", "31",
     "folios freed per lru_lock hold (v6.0 release_pages: SWAP_CLUSTER_MAX 32; from v6.9 "
     "folios_put_refs of a 31-folio batch)",
     NULL, 1, 1024},
    {"lock", "qspinlock",
     "lru_lock: qspinlock (the kernel's: waiters past the first queue on their own MCS node) "
     "or tas (every waiter spins on the lock word)",
     "qspinlock|tas", 0, 0},
    {"flush", "capped",
     "stats_flush_threshold add: capped (at num_online_cpus, v6.0+) or unconditional (before Jul "
     "2022)",
     "capped|unconditional", 0, 0},
    {0},
};

static const struct bench_preset presets[] = {
    {"regressed", "70a64b7919cb: lruvec_stats became a pointer next to lru_zone_size",
     "layout=70a64b7919cb zones=5 lru_gen=off batch=64 fbatch_add=31 fbatch_free=31"},
    {"fixed", "the 2024 rearrangement: read-mostly pointers first, hot fields last",
     "layout=fix-2024 zones=5 lru_gen=off batch=64 fbatch_add=31 fbatch_free=31"},
    {"regressed-lrugen", "70a64b7919cb with CONFIG_LRU_GEN=y (lrugen inside lruvec)",
     "layout=70a64b7919cb zones=5 lru_gen=on batch=64 fbatch_add=31 fbatch_free=31"},
    {"fixed-lrugen", "the fix with CONFIG_LRU_GEN=y",
     "layout=fix-2024 zones=5 lru_gen=on batch=64 fbatch_add=31 fbatch_free=31"},
    {"v6.0", "v6.0: the embedded lruvec_stats array between the pointers and lru_zone_size",
     "layout=v6.0 zones=5 lru_gen=off batch=32 fbatch_add=15 fbatch_free=32"},
    {0},
};

static const struct bench_workload workloads[] = {
    {"shared", "every thread faults into one memcg's per-node struct (page_fault2, one cgroup)", "",
     BENCH_SYMMETRIC},
    {"private", "one per-node struct (and memcg) per thread: the control", "", BENCH_SYMMETRIC},
    {0},
};

const struct scenario per_node_scenario = {
    .name = "per_node",
    .desc = "struct mem_cgroup_per_node: stat readers vs LRU writers (May 2024, 70a64b7919cb)",
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
    .describe = pn_describe,
    .computed_layout = computed_layout,
    .layout_param = &params[0], /* "layout": names the computed layout */
    .window_end = window_end,
};
