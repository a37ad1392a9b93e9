/* SPDX-License-Identifier: MIT */
/*
 * per_node_layout.h - the computed layouts of struct lruvec and struct mem_cgroup_per_node
 * (per_node.c) and their hot-line report: ordered field lists (size, alignment, array
 * dimensions that depend on the knobs zones = MAX_NR_ZONES and lru_gen = CONFIG_LRU_GEN),
 * laid out by the C rules (each field at its alignment, the struct rounded up to its
 * largest alignment) into layout text that layout_parse() reads, so layout_offset() works
 * for the model and the tests. Kernel facts: docs/kernel-facts.md section 6.
 * Included by per_node.c only.
 */
#ifndef PCBENCH_PER_NODE_LAYOUT_H
#define PCBENCH_PER_NODE_LAYOUT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "lbuild.h"

#define NR_LRU_LISTS 5
#define ANON_AND_FILE 2
#define ZONE_NORMAL 2 /* after ZONE_DMA and ZONE_DMA32 (x86_64 default config) */
/*
 * enum node_stat_item at v6.0, x86_64 with CONFIG_SWAP=y, CONFIG_NUMA_BALANCING=y and no
 * CONFIG_SHADOW_CALL_STACK: 41 items (read from include/linux/mmzone.h of a 6.0.1 tree).
 */
#define NR_VM_NODE_STAT_ITEMS 41
#define NR_ANON_MAPPED 17 /* the index in that enum; NR_FILE_MAPPED is the next one */
#define MEMCG_NR_STAT (NR_VM_NODE_STAT_ITEMS + 7) /* + MEMCG_SWAP .. MEMCG_ZSWAPPED */
/* MGLRU constants (CONFIG_LRU_GEN_STATS=n, so NR_HIST_GENS is 1) */
#define MAX_NR_GENS 4
#define MAX_NR_TIERS 4
#define NR_HIST_GENS 1
#define NR_BLOOM_FILTERS 2
#define NR_MM_STATS 6

/* struct page (a folio's head page) as the model uses it: flags, then the lru list_head. */
#define PAGE_STRUCT 64
#define PAGE_LRU 8
#define LIST_POISON1 ((long)0xdead000000000100L)
#define LIST_POISON2 ((long)0xdead000000000122L)

enum pn_version { PN_V60, PN_REGRESSED, PN_FIXED };
static const char *const version_names[] = {"v6.0", "70a64b7919cb", "fix-2024"};
static const char *const lru_names[NR_LRU_LISTS] = {"inactive_anon", "active_anon", "inactive_file",
						    "active_file", "unevictable"};
static const char *const zone_names[] = {"DMA", "DMA32", "NORMAL", "MOVABLE", "DEVICE"};

struct pn_knobs {
	enum pn_version version;
	int zones;    /* MAX_NR_ZONES: 4, or 5 with ZONE_DEVICE */
	int lru_gen;  /* CONFIG_LRU_GEN=y (with LRU_GEN_WALKS_MMU=y, MGLRU off at runtime) */
	int lru;      /* the LRU list the faulted pages go to */
	int zswap;    /* CONFIG_ZSWAP=y: struct zswap_lruvec_state in struct lruvec (v6.8+) */
	int spinlock; /* sizeof(spinlock_t): 4, 24 (DEBUG_SPINLOCK), 64 (+ DEBUG_LOCK_ALLOC) */
};

/*
 * build - struct lruvec and struct mem_cgroup_per_node of one version and config, x86_64
 * (8-byte longs and pointers), CONFIG_MEMCG=y. Field lists: docs/kernel-facts.md section 6; struct
 * lru_gen_folio and struct lru_gen_mm_state as in the v6.8 x86_64 BTF (assumed unchanged at
 * v6.10). spinlock_t (include/linux/spinlock_types_raw.h, lockdep_types.h): the 4-byte
 * arch_spinlock_t; with DEBUG_SPINLOCK also magic, owner_cpu (4 each) and owner (8): 24 B;
 * with DEBUG_LOCK_ALLOC also struct lockdep_map (key, class_cache[2], name, three u8: 40 B
 * without LOCK_STAT): 64 B.
 */
static void build(struct builder *b, const struct pn_knobs *k)
{
	const size_t L = sizeof(long), P = sizeof(void *);
	const size_t Z = (size_t)k->zones;
	struct bstruct *s, *lruvec, *pn;

	b->n = 0;
	if (k->lru_gen) {
		s = b_struct(b, "lru_gen_folio");
		b_field(s, "max_seq", L, L, "plain");
		b_field(s, "min_seq", ANON_AND_FILE * L, L, "array");
		b_field(s, "timestamps", MAX_NR_GENS * L, L, "array");
		b_field(s, "folios", MAX_NR_GENS * ANON_AND_FILE * Z * 2 * P, P, "array");
		b_field(s, "nr_pages", MAX_NR_GENS * ANON_AND_FILE * Z * L, L, "array");
		b_field(s, "avg_refaulted", ANON_AND_FILE * MAX_NR_TIERS * L, L, "array");
		b_field(s, "avg_total", ANON_AND_FILE * MAX_NR_TIERS * L, L, "array");
		b_field(s, "protected", NR_HIST_GENS * ANON_AND_FILE * (MAX_NR_TIERS - 1) * L, L,
			"array");
		b_field(s, "evicted", NR_HIST_GENS * ANON_AND_FILE * MAX_NR_TIERS * L, L, "array");
		b_field(s, "refaulted", NR_HIST_GENS * ANON_AND_FILE * MAX_NR_TIERS * L, L,
			"array");
		b_field(s, "enabled", 1, 1, "plain");
		b_field(s, "gen", 1, 1, "plain");
		b_field(s, "seg", 1, 1, "plain");
		b_field(s, "list", 2 * P, P, "array"); /* struct hlist_nulls_node */
		b_end(s);
		s = b_struct(b, "lru_gen_mm_state");
		b_field(s, "seq", L, L, "plain");
		b_field(s, "head", P, P, "ptr");
		b_field(s, "tail", P, P, "ptr");
		b_field(s, "filters", NR_BLOOM_FILTERS * P, P, "array");
		b_field(s, "stats", NR_HIST_GENS * NR_MM_STATS * L, L, "array");
		b_end(s);
	}
	if (k->spinlock > 4) {
		s = b_struct(b, "spinlock");
		b_field(s, "raw_lock", 4, 4, "lock");
		b_field(s, "magic", 4, 4, "plain");
		b_field(s, "owner_cpu", 4, 4, "plain");
		b_field(s, "owner", P, P, "ptr");
		if (k->spinlock > 24)
			b_field(s, "dep_map", 40, 8, "array");
		b_end(s);
	}
	if (k->version != PN_V60 && k->zswap) { /* zswap_lruvec_state arrived in v6.8 */
		s = b_struct(b, "zswap_lruvec_state");
		b_field(s, "nr_zswap_protected", L, L, "atomic");
		b_end(s);
	}
	lruvec = b_struct(b, "lruvec");
	b_field(lruvec, "lists", NR_LRU_LISTS * 2 * P, P, "array"); /* struct list_head[5] */
	if (k->spinlock > 4)
		b_nested(lruvec, "lru_lock", b_find(b, "spinlock"));
	else
		b_field(lruvec, "lru_lock", 4, 4, "lock");
	b_field(lruvec, "anon_cost", L, L, "plain");
	b_field(lruvec, "file_cost", L, L, "plain");
	b_field(lruvec, "nonresident_age", L, L, "atomic");
	b_field(lruvec, "refaults", ANON_AND_FILE * L, L, "array");
	b_field(lruvec, "flags", L, L, "plain");
	if (k->lru_gen) {
		b_nested(lruvec, "lrugen", b_find(b, "lru_gen_folio"));
		b_nested(lruvec, "mm_state", b_find(b, "lru_gen_mm_state"));
	}
	b_field(lruvec, "pgdat", P, P, "ptr");
	if (k->version != PN_V60 && k->zswap)
		b_nested(lruvec, "zswap_lruvec_state", b_find(b, "zswap_lruvec_state"));
	b_end(lruvec);

	if (k->version == PN_V60) {
		s = b_struct(b, "lruvec_stats");
		b_field(s, "state", NR_VM_NODE_STAT_ITEMS * L, L, "array");
		b_field(s, "state_pending", NR_VM_NODE_STAT_ITEMS * L, L, "array");
		b_end(s);
	}
	s = b_struct(b, "mem_cgroup_reclaim_iter");
	b_field(s, "position", P, P, "ptr");
	b_field(s, "generation", 4, 4, "plain");
	b_end(s);
	s = b_struct(b, "rb_node");
	b_field(s, "__rb_parent_color", L, L, "plain");
	b_field(s, "rb_right", P, P, "ptr");
	b_field(s, "rb_left", P, P, "ptr");
	b_end(s);

	pn = b_struct(b, "mem_cgroup_per_node");
	if (k->version == PN_FIXED) {
		/* read-only pointers first, v1-only soft-limit fields as a buffer, hot fields last
		 */
		b_field(pn, "memcg", P, P, "ptr");
		b_field(pn, "lruvec_stats_percpu", P, P, "ptr");
		b_field(pn, "lruvec_stats", P, P, "ptr");
		b_field(pn, "shrinker_info", P, P, "ptr");
		b_nested(pn, "tree_node", b_find(b, "rb_node"));
		b_field(pn, "usage_in_excess", L, L, "plain");
		b_field(pn, "on_tree", 1, 1, "plain");
		b_nested(pn, "lruvec", lruvec);
		b_field(pn, "lru_zone_size", Z * NR_LRU_LISTS * L, L, "array");
		b_nested(pn, "iter", b_find(b, "mem_cgroup_reclaim_iter"));
	} else {
		b_nested(pn, "lruvec", lruvec);
		b_field(pn, "lruvec_stats_percpu", P, P, "ptr");
		if (k->version == PN_V60)
			b_nested(pn, "lruvec_stats", b_find(b, "lruvec_stats"));
		else
			b_field(pn, "lruvec_stats", P, P, "ptr");
		b_field(pn, "lru_zone_size", Z * NR_LRU_LISTS * L, L, "array");
		b_nested(pn, "iter", b_find(b, "mem_cgroup_reclaim_iter"));
		b_field(pn, "shrinker_info", P, P, "ptr");
		b_nested(pn, "tree_node", b_find(b, "rb_node"));
		b_field(pn, "usage_in_excess", L, L, "plain");
		b_field(pn, "on_tree", 1, 1, "plain");
		b_field(pn, "memcg", P, P, "ptr");
	}
	b_end(pn);
}

static void layout_name(const struct pn_knobs *k, char *buf, size_t len)
{
	char sl[16] = "";

	if (k->spinlock > 4)
		snprintf(sl, sizeof(sl), "-sl%d", k->spinlock);
	snprintf(buf, len, "per_node-%s-z%d%s%s%s", version_names[k->version], k->zones,
		 k->lru_gen ? "-lrugen" : "", k->zswap || k->version == PN_V60 ? "" : "-nozswap",
		 sl);
}

/* layout_text - the builder's structs in the layout file format (malloc'd). */
static char *layout_text(const struct builder *b, const struct pn_knobs *k)
{
	char name[LAYOUT_NAME_MAX], desc[256];

	layout_name(k, name, sizeof(name));
	snprintf(desc, sizeof(desc),
		 "struct mem_cgroup_per_node at %s, x86_64, MAX_NR_ZONES=%d, LRU_GEN=%s, ZSWAP=%s, "
		 "spinlock_t %d B (computed by per_node.c)",
		 version_names[k->version], k->zones, k->lru_gen ? "y" : "n", k->zswap ? "y" : "n",
		 k->spinlock);
	return b_text(b, name, desc);
}

static int knobs_from_cfg(const struct bench_cfg *cfg, struct pn_knobs *k, char *err, size_t errlen)
{
	const char *v = bench_str(cfg, "layout");

	memset(k, 0, sizeof(*k));
	for (int i = 0; i < 3; i++)
		if (!strcmp(v, version_names[i]))
			k->version = (enum pn_version)i;
	k->zones = (int)bench_long(cfg, "zones");
	k->lru_gen = !strcmp(bench_str(cfg, "lru_gen"), "on");
	k->zswap = !strcmp(bench_str(cfg, "zswap"), "on");
	k->spinlock = (int)bench_long(cfg, "spinlock");
	for (int i = 0; i < NR_LRU_LISTS; i++)
		if (!strcmp(bench_str(cfg, "lru"), lru_names[i]))
			k->lru = i;
	if (k->version == PN_V60 && k->lru_gen) {
		bench_error(err, errlen,
			    "layout v6.0 with lru_gen=on: CONFIG_LRU_GEN arrived in v6.1 (select "
			    "the presets with -p, e.g. -p regressed,fixed)");
		return -1;
	}
	return 0;
}

/* pn_layout - the computed layout of @k, parsed (layout_free it). */
static struct layout *pn_layout(const struct pn_knobs *k, char *err, size_t errlen)
{
	struct builder *b = calloc(1, sizeof(*b));
	struct layout *l = NULL;
	char *text;

	if (!b) {
		bench_error(err, errlen, "out of memory");
		return NULL;
	}
	build(b, k);
	text = layout_text(b, k);
	l = layout_parse(text, "per_node.c (computed)", err, errlen);
	free(text);
	b_free(b);
	free(b);
	return l;
}

/* kmalloc_size - the kmalloc size class of @size (power of two, naturally aligned). */
static size_t kmalloc_size(size_t size)
{
	size_t k = 8;

	while (k < size)
		k <<= 1;
	return k;
}

/* ---- the hot-line report (describe) ---- */

struct item {
	char name[160];
	size_t off, size;
};

#define MAX_ITEMS 160

/*
 * flatten - every leaf field of @s at @base, with the arrays the model indexes (lists,
 * lru_zone_size) expanded into their elements.
 */
static int flatten(const struct builder *b, const struct bstruct *s, size_t base,
		   const char *prefix, const struct pn_knobs *k, struct item *out, int n)
{
	for (int i = 0; i < s->n && n < MAX_ITEMS; i++) {
		const struct bfield *f = &s->f[i];
		const struct bstruct *t = b_find(b, f->kind);
		char full[96];

		snprintf(full, sizeof(full), "%s%s", prefix, f->name);
		if (t) {
			char p[100];

			snprintf(p, sizeof(p), "%s.", full);
			n = flatten(b, t, base + f->off, p, k, out, n);
		} else if (!strcmp(f->name, "lists")) {
			for (int l = 0; l < NR_LRU_LISTS && n < MAX_ITEMS; l++, n++) {
				snprintf(out[n].name, sizeof(out[n].name), "%s[%s]", full,
					 lru_names[l]);
				out[n].off = base + f->off + (size_t)l * 16;
				out[n].size = 16;
			}
		} else if (!strcmp(f->name, "lru_zone_size")) {
			for (int z = 0; z < k->zones; z++)
				for (int l = 0; l < NR_LRU_LISTS && n < MAX_ITEMS; l++, n++) {
					snprintf(out[n].name, sizeof(out[n].name), "%s[%s][%s]",
						 full, zone_names[z], lru_names[l]);
					out[n].off = base + f->off +
						     ((size_t)z * NR_LRU_LISTS + (size_t)l) * 8;
					out[n].size = 8;
				}
		} else {
			snprintf(out[n].name, sizeof(out[n].name), "%s", full);
			out[n].off = base + f->off;
			out[n].size = f->size;
			n++;
		}
	}
	return n;
}

static int item_find(const struct item *it, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(it[i].name, name))
			return i;
	return -1;
}

static int on_line(const struct item *it, size_t line, size_t lsz)
{
	return it->off / lsz <= line && line <= (it->off + it->size - 1) / lsz;
}

/* The hot fields (docs/kernel-facts.md section 6) that are in this layout, as item indexes. */
static void hot_sets(const struct item *it, int n, const struct pn_knobs *k, int *hr, int *nhr,
		     int *hw, int *nhw)
{
	char name[96];
	int i;

	*nhr = *nhw = 0;
	/* read on every stat update: __mod_lruvec_state, __mod_memcg_lruvec_state */
	if ((i = item_find(it, n, "memcg")) >= 0)
		hr[(*nhr)++] = i;
	if ((i = item_find(it, n, "lruvec_stats_percpu")) >= 0)
		hr[(*nhr)++] = i;
	if ((i = item_find(it, n, "lruvec_stats")) >= 0) /* a pointer only after 70a64b7919cb */
		hr[(*nhr)++] = i;
	if ((i = item_find(it, n, "lruvec.pgdat")) >= 0)
		hr[(*nhr)++] = i;
	/* written on LRU add/remove, by aging, by reclaim iterators */
	if ((i = item_find(it, n, "lruvec.lru_lock")) >= 0 ||
	    (i = item_find(it, n, "lruvec.lru_lock.raw_lock")) >= 0)
		hw[(*nhw)++] = i;
	/* DEBUG_SPINLOCK: every acquire records the owner */
	if ((i = item_find(it, n, "lruvec.lru_lock.owner_cpu")) >= 0)
		hw[(*nhw)++] = i;
	if ((i = item_find(it, n, "lruvec.lru_lock.owner")) >= 0)
		hw[(*nhw)++] = i;
	snprintf(name, sizeof(name), "lruvec.lists[%s]", lru_names[k->lru]);
	if ((i = item_find(it, n, name)) >= 0)
		hw[(*nhw)++] = i;
	snprintf(name, sizeof(name), "lru_zone_size[%s][%s]", zone_names[ZONE_NORMAL],
		 lru_names[k->lru]);
	if ((i = item_find(it, n, name)) >= 0)
		hw[(*nhw)++] = i;
	if ((i = item_find(it, n, "lruvec.nonresident_age")) >= 0)
		hw[(*nhw)++] = i;
	if ((i = item_find(it, n, "iter.position")) >= 0)
		hw[(*nhw)++] = i;
	if ((i = item_find(it, n, "iter.generation")) >= 0)
		hw[(*nhw)++] = i;
}

/* append - "a, b, c" lists into a fixed buffer. */
static void append(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", s);
}

/*
 * sharing - one output line per @lsz-byte line of the struct that holds a hot-read and a
 * hot-written field ("none" when there is no such line). Returns how many lines shared.
 */
static int sharing(const struct item *it, const int *hr, int nhr, const int *hw, int nhw,
		   size_t size, size_t lsz, const char *what,
		   void (*out)(void *arg, const char *line), void *arg)
{
	char line[1024];
	int found = 0;

	for (size_t ln = 0; ln * lsz < size; ln++) {
		char r[512] = "", w[512] = "";

		for (int i = 0; i < nhr; i++)
			if (on_line(&it[hr[i]], ln, lsz))
				append(r, sizeof(r), it[hr[i]].name);
		for (int i = 0; i < nhw; i++)
			if (on_line(&it[hw[i]], ln, lsz))
				append(w, sizeof(w), it[hw[i]].name);
		if (!r[0] || !w[0])
			continue;
		snprintf(line, sizeof(line), "%s: bytes %zu-%zu: %s / %s", what, ln * lsz,
			 (ln + 1) * lsz - 1, r, w);
		out(arg, line);
		found++;
	}
	if (!found) {
		snprintf(line, sizeof(line), "%s: none", what);
		out(arg, line);
	}
	return found;
}

static void describe(const struct bench_cfg *cfg, void (*out)(void *arg, const char *line),
		     void *arg)
{
	struct builder *b = calloc(1, sizeof(*b));
	struct item *it = calloc(MAX_ITEMS, sizeof(*it));
	int hr[12], hw[12], nhr, nhw, n;
	const struct bstruct *pn;
	char line[1024], err[256], name[LAYOUT_NAME_MAX];
	struct pn_knobs k;

	if (!b || !it || knobs_from_cfg(cfg, &k, err, sizeof(err))) {
		free(b);
		free(it);
		return;
	}
	build(b, &k);
	pn = b_find(b, "mem_cgroup_per_node");
	n = flatten(b, pn, 0, "", &k, it, 0);
	hot_sets(it, n, &k, hr, &nhr, hw, &nhw);
	layout_name(&k, name, sizeof(name));
	snprintf(line, sizeof(line), "layout %s: struct mem_cgroup_per_node %zu B in kmalloc-%zu",
		 name, pn->size, kmalloc_size(pn->size));
	out(arg, line);
	snprintf(line, sizeof(line),
		 "lru_lock: %s, taken once per lru_add batch of %ld and once per %ld folios "
		 "freed (1/%ld + 1/%ld holds per op)",
		 strcmp(bench_str(cfg, "lock"), "qspinlock")
		     ? "test-and-set (every waiter spins on the lock word)"
		     : "qspinlock (holder, pending waiter and queue head on the lock word, "
		       "further waiters on their own MCS node)",
		 bench_long(cfg, "fbatch_add"), bench_long(cfg, "fbatch_free"),
		 bench_long(cfg, "fbatch_add"), bench_long(cfg, "fbatch_free"));
	out(arg, line);
	for (int pass = 0; pass < 2; pass++) {
		const int *set = pass ? hw : hr, nset = pass ? nhw : nhr;
		char list[900] = "";

		for (int i = 0; i < nset; i++) {
			char f[200];

			snprintf(f, sizeof(f), "%s %zu (line %zu)", it[set[i]].name, it[set[i]].off,
				 it[set[i]].off / 64);
			append(list, sizeof(list), f);
		}
		snprintf(line, sizeof(line), "%s: %s", pass ? "hot-written" : "hot-read", list);
		out(arg, line);
	}
	sharing(it, hr, nhr, hw, nhw, pn->size, 64, "64-byte lines shared by hot-read/hot-written",
		out, arg);
	sharing(it, hr, nhr, hw, nhw, pn->size, 128,
		"128-byte pairs (adjacent-line prefetch) shared", out, arg);
	b_free(b);
	free(b);
	free(it);
}

#endif
