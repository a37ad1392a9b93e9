// SPDX-License-Identifier: MIT
/*
 * per_node.c - the two sides that meet on struct mem_cgroup_per_node (seed 001, May 2024):
 * 70a64b7919cb ("memcg: dynamically allocate lruvec_stats") turned the embedded lruvec_stats
 * into a pointer, and "memcg: rearrange fields of mem_cgroup_per_node" moved the read-mostly
 * pointers to the front. Every thread faults pages into one memcg's per-node struct (the
 * `shared` workload, as will-it-scale page_fault2 in one cgroup) or into its own (`private`).
 * Kernel facts: ../shared/reference/kernel-memcg.md sections 3.6 and 5.
 *
 * The layouts are computed, not typed in: struct lruvec and struct mem_cgroup_per_node are
 * ordered field lists (size, alignment, array dimensions that depend on the knobs zones =
 * MAX_NR_ZONES and lru_gen = CONFIG_LRU_GEN), laid out by the C rules (each field at its
 * alignment, the struct rounded up to its largest alignment) into layout text that
 * layout_parse() reads, so layout_offset() works for the model and the tests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "memcg.h"

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
	int zones;   /* MAX_NR_ZONES: 4, or 5 with ZONE_DEVICE */
	int lru_gen; /* CONFIG_LRU_GEN=y (with LRU_GEN_WALKS_MMU=y, MGLRU off at runtime) */
	int lru;     /* the LRU list the faulted pages go to */
};

/* ---- the layout builder: C layout rules over ordered field lists ---- */

#define B_MAX_STRUCTS 10
#define B_MAX_FIELDS 24

struct bfield {
	char name[LAYOUT_NAME_MAX];
	size_t off, size;
	char kind[LAYOUT_NAME_MAX]; /* plain, atomic, ptr, lock, array, or a struct name */
};

struct bstruct {
	char name[LAYOUT_NAME_MAX];
	struct bfield f[B_MAX_FIELDS];
	int n;
	size_t size, align;
};

struct builder {
	struct bstruct s[B_MAX_STRUCTS];
	int n;
};

static struct bstruct *b_struct(struct builder *b, const char *name)
{
	struct bstruct *s = &b->s[b->n++];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->align = 1;
	return s;
}

/* b_field - the next field: placed at its alignment after the previous one. */
static void b_field(struct bstruct *s, const char *name, size_t size, size_t align,
		    const char *kind)
{
	struct bfield *f = &s->f[s->n++];

	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->kind, sizeof(f->kind), "%s", kind);
	f->off = (s->size + align - 1) / align * align;
	f->size = size;
	s->size = f->off + size;
	if (align > s->align)
		s->align = align;
}

static void b_nested(struct bstruct *s, const char *name, const struct bstruct *t)
{
	b_field(s, name, t->size, t->align, t->name);
}

/* b_end - round the size up to the struct's alignment (the tail padding). */
static void b_end(struct bstruct *s)
{
	s->size = (s->size + s->align - 1) / s->align * s->align;
}

static const struct bstruct *b_find(const struct builder *b, const char *name)
{
	for (int i = 0; i < b->n; i++)
		if (!strcmp(b->s[i].name, name))
			return &b->s[i];
	return NULL;
}

/*
 * build - struct lruvec and struct mem_cgroup_per_node of one version and config, x86_64
 * (8-byte longs and pointers, 4-byte spinlock_t without lock debugging), CONFIG_MEMCG=y,
 * CONFIG_ZSWAP=y. Field lists: kernel-memcg.md 5.1-5.3; struct lru_gen_folio and struct
 * lru_gen_mm_state as in the v6.8 x86_64 BTF (assumed unchanged at v6.10).
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
	if (k->version != PN_V60) { /* zswap_lruvec_state arrived in v6.8 */
		s = b_struct(b, "zswap_lruvec_state");
		b_field(s, "nr_zswap_protected", L, L, "atomic");
		b_end(s);
	}
	lruvec = b_struct(b, "lruvec");
	b_field(lruvec, "lists", NR_LRU_LISTS * 2 * P, P, "array"); /* struct list_head[5] */
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
	if (k->version != PN_V60)
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
	snprintf(buf, len, "per_node-%s-z%d%s", version_names[k->version], k->zones,
		 k->lru_gen ? "-lrugen" : "");
}

/* layout_text - the builder's structs in the layout file format (malloc'd). */
static char *layout_text(const struct builder *b, const struct pn_knobs *k)
{
	size_t cap = 16384, len = 0;
	char *t = malloc(cap), name[LAYOUT_NAME_MAX];

	if (!t)
		return NULL;
	layout_name(k, name, sizeof(name));
	len += (size_t)snprintf(t + len, cap - len,
				"layout %s\ndesc struct mem_cgroup_per_node at %s, x86_64, "
				"MAX_NR_ZONES=%d, LRU_GEN=%s, ZSWAP=y (computed by per_node.c)\n",
				name, version_names[k->version], k->zones, k->lru_gen ? "y" : "n");
	for (int i = 0; i < b->n && len < cap; i++) {
		const struct bstruct *s = &b->s[i];

		len += (size_t)snprintf(t + len, cap - len, "struct %s size %zu align %zu\n",
					s->name, s->size, s->align);
		for (int j = 0; j < s->n && len < cap; j++)
			len +=
			    (size_t)snprintf(t + len, cap - len, "\t%s %zu %zu %s\n", s->f[j].name,
					     s->f[j].off, s->f[j].size, s->f[j].kind);
		if (len < cap)
			len += (size_t)snprintf(t + len, cap - len, "end\n");
	}
	if (len >= cap) {
		free(t);
		return NULL;
	}
	return t;
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
	if (text)
		l = layout_parse(text, "per_node.c (computed)", err, errlen);
	else
		bench_error(err, errlen, "layout text too long");
	free(text);
	free(b);
	return l;
}

/* computed_layout - the layout of @cfg's preset and knobs, for the layout_fp column. */
static struct layout *computed_layout(const struct bench_cfg *cfg)
{
	struct pn_knobs k;
	char err[256];

	return knobs_from_cfg(cfg, &k, err, sizeof(err)) ? NULL : pn_layout(&k, err, sizeof(err));
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

/* The hot fields of kernel-memcg.md 5.4 that are in this layout, as item indexes. */
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
	if ((i = item_find(it, n, "lruvec.lru_lock")) >= 0)
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
	int hr[8], hw[8], nhr, nhw, n;
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
	free(b);
	free(it);
}

/* ---- the model ---- */

/* Byte offsets in struct mem_cgroup_per_node, copied into a local by run(). */
struct pn_offs {
	long memcg, pcpu, pgdat; /* hot-read pointers */
	long lock, list;	 /* lruvec.lru_lock, lruvec.lists[lru] */
	long zone_size;		 /* lru_zone_size[ZONE_NORMAL][lru] */
	int lru, mapped_idx;
	int use_list; /* LRU_UNEVICTABLE folios are on no list */
};

#define PN(base, f) ((pc_word *)((base) + o->f))
#define LNEXT(lh) ((pc_word *)(lh))
#define LPREV(lh) ((pc_word *)((lh) + 8))

struct pn_shared {
	struct pn_offs o;
	struct memcg_rstat rstat;
	struct memcg_globals *globals;
	int npn;      /* 1 (shared) or one per thread (private) */
	char **pn;    /* the modelled struct mem_cgroup_per_node objects */
	char **memcg; /* what pn->memcg points to (its per-CPU stats found from it) */
	char **pcpu;  /* the per-CPU base pn->lruvec_stats_percpu holds */
	char **stats; /* what pn->lruvec_stats points to (70a64b7919cb and later) */
	char *pgdat;  /* the node, lruvec.pgdat */
	char (*names)[16];
	struct layout *layout, *glayout;
	long depth;
};

/*
 * One thread = one CPU: its per-CPU statistics blocks (node, memcg, lruvec) are its own,
 * found the kernel's way, pointer + this CPU's offset, from the pointers it loads.
 */
struct pn_thread {
	char *pn;
	long node_off, memcg_off, pcpu_off;
	long stats_updates; /* memcg_rstat_updated's per-CPU counter */
	char *pages;	    /* depth struct pages of 64 bytes: this thread's folios */
	long depth, next, filled;
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

/* lru_add - folio_lruvec_lock, lruvec_add_folio (update_lru_size, list_add), unlock. */
static inline void lru_add(const struct pn_offs *o, const struct memcg_rstat *r,
			   struct pn_thread *st, char *pn, char *lh)
{
	pc_lock *lock = (pc_lock *)(pn + o->lock);
	char *head = pn + o->list, *next;

	pc_spin_lock(lock);
	update_lru_size(o, r, st, pn, 1);
	if (o->use_list) {
		next = pc_load_ptr(LNEXT(head));
		pc_store_ptr(LPREV(next), lh);
		pc_store_ptr(LNEXT(lh), next);
		pc_store_ptr(LPREV(lh), head);
		pc_store_ptr(LNEXT(head), lh);
	}
	pc_spin_unlock(lock);
}

/* lru_del - folio_lruvec_lock, lruvec_del_folio (list_del, update_lru_size), unlock. */
static inline void lru_del(const struct pn_offs *o, const struct memcg_rstat *r,
			   struct pn_thread *st, char *pn, char *lh)
{
	pc_lock *lock = (pc_lock *)(pn + o->lock);

	pc_spin_lock(lock);
	if (o->use_list) {
		char *prev = pc_load_ptr(LPREV(lh)), *next = pc_load_ptr(LNEXT(lh));

		pc_store_ptr(LPREV(next), prev);
		pc_store_ptr(LNEXT(prev), next);
		pc_store(LNEXT(lh), LIST_POISON1);
		pc_store(LPREV(lh), LIST_POISON2);
	}
	update_lru_size(o, r, st, pn, -1);
	pc_spin_unlock(lock);
}

/* unmap_free - the page's rmap stat goes down (munmap), then it leaves the LRU (free). */
static inline void unmap_free(const struct pn_offs *o, const struct memcg_rstat *r,
			      struct pn_thread *st, char *lh)
{
	mod_lruvec_state(o, r, st, st->pn, o->mapped_idx, -1);
	lru_del(o, r, st, st->pn, lh);
}

/* fault - the new anon folio's rmap stat goes up, then it is added to the LRU. */
static inline void fault(const struct pn_offs *o, const struct memcg_rstat *r, struct pn_thread *st,
			 char *lh)
{
	mod_lruvec_state(o, r, st, st->pn, o->mapped_idx, 1);
	lru_add(o, r, st, st->pn, lh);
}

static int check(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	struct pn_knobs k;
	struct layout *l;

	if (knobs_from_cfg(cfg, &k, err, errlen))
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
	struct pn_shared *s;
	struct pn_offs *o;
	struct pn_knobs k;
	long lists, size;
	int npn;

	if (knobs_from_cfg(cfg, &k, err, errlen))
		return NULL;
	npn = !strcmp(bench_workload_name(cfg), "private") ? bench_threads(cfg) : 1;
	s = bench_alloc(sizeof(*s), BENCH_PAD);
	s->layout = pn_layout(&k, err, errlen);
	s->glayout = layout_parse(MEMCG_GLOBALS_LAYOUT, "memcg.h", err, errlen);
	if (!s->layout || !s->glayout) {
		layout_free(s->layout);
		layout_free(s->glayout);
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
	size = (long)layout_find_struct(s->layout, "mem_cgroup_per_node")->size;

	s->globals = bench_alloc(sizeof(*s->globals), BENCH_PAD);
	s->rstat = (struct memcg_rstat){
	    .threshold = &s->globals->stats_flush_threshold,
	    .batch = bench_long(cfg, "batch"),
	    .online_cpus = bench_threads(cfg),
	    .unconditional = !strcmp(bench_str(cfg, "flush"), "unconditional"),
	};
	s->depth = bench_long(cfg, "depth");
	s->npn = npn;
	s->pn = calloc((size_t)npn, sizeof(char *));
	s->memcg = calloc((size_t)npn, sizeof(char *));
	s->pcpu = calloc((size_t)npn, sizeof(char *));
	s->stats = calloc((size_t)npn, sizeof(char *));
	s->names = calloc((size_t)npn, sizeof(*s->names));
	if (!s->pn || !s->memcg || !s->pcpu || !s->stats || !s->names) {
		bench_error(err, errlen, "out of memory");
		teardown(s);
		return NULL;
	}
	s->pgdat = bench_alloc(4096, 4096); /* struct pglist_data, never written here */
	for (int i = 0; i < npn; i++) {
		size_t ksz = kmalloc_size((size_t)size);
		char *pn = s->pn[i] = bench_alloc(ksz, ksz);

		snprintf(s->names[i], sizeof(s->names[i]), npn > 1 ? "pn%d" : "pn", i);
		s->memcg[i] = bench_alloc(4096, MEMCG_ALIGN); /* the memcg (kmalloc-4k) */
		s->pcpu[i] = bench_alloc(64, BENCH_PAD);      /* the percpu allocation's base */
		if (k.version != PN_V60)
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
	bench_free(s->pgdat);
	bench_free(s->globals);
	layout_free(s->layout);
	layout_free(s->glayout);
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
	st->blocks = bench_alloc(3 * block, BENCH_PAD);
	st->node_stats = (long *)st->blocks;
	st->memcg_stats = (long *)(st->blocks + block);
	st->lruvec_stats = (long *)(st->blocks + 2 * block);
	/* this CPU's per-CPU offset from each base, as per_cpu_ptr() adds __per_cpu_offset[cpu] */
	st->node_off = (long)((uintptr_t)st->node_stats - (uintptr_t)s->pgdat);
	st->memcg_off = (long)((uintptr_t)st->memcg_stats - (uintptr_t)s->memcg[i]);
	st->pcpu_off = (long)((uintptr_t)st->lruvec_stats - (uintptr_t)s->pcpu[i]);
	st->depth = s->depth;
	st->pages = bench_alloc((size_t)st->depth * PAGE_STRUCT, 64);
	return st;
}

static void thread_teardown(void *shared, void *tstate)
{
	struct pn_shared *s = shared;
	struct pn_thread *st = tstate;

	/* Unmap and free what this thread still has on the LRU. */
	for (long i = 0; i < st->filled; i++)
		unmap_free(&s->o, &s->rstat, st, st->pages + i * PAGE_STRUCT + PAGE_LRU);
	st->filled = st->next = 0;
	bench_free(st->pages);
	bench_free(st->blocks);
	bench_free(st);
}

/*
 * run - one operation is one page's worth of page_fault2: fault it in (rmap stat + LRU add
 * under lru_lock) and, once the thread has `depth` pages on the LRU, first unmap and free
 * the oldest (rmap stat + LRU delete under lru_lock), whose struct page is then reused.
 */
static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct pn_shared *s = shared;
	struct pn_thread *st = tstate;
	const struct pn_offs local = s->o, *o = &local;
	const struct memcg_rstat rstat = s->rstat, *r = &rstat;

	for (uint64_t i = 0; i < n; i++) {
		char *lh = st->pages + st->next * PAGE_STRUCT + PAGE_LRU;

		if (st->filled == st->depth)
			unmap_free(o, r, st, lh);
		else
			st->filled++;
		fault(o, r, st, lh);
		if (++st->next == st->depth)
			st->next = 0;
	}
	return n;
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
	return n;
}

static const struct bench_param params[] = {
    {"layout", "70a64b7919cb",
     "struct mem_cgroup_per_node field order: 70a64b7919cb (regressed), fix-2024, v6.0 (layouts "
     "computed from field lists)",
     "70a64b7919cb|fix-2024|v6.0", 0, 0},
    {"zones", "5", "MAX_NR_ZONES (5 with ZONE_DEVICE): sizes lru_zone_size and lrugen", "4|5", 0,
     0},
    {"lru_gen", "off",
     "CONFIG_LRU_GEN: a large lrugen block inside struct lruvec (MGLRU built "
     "in, off at runtime)",
     "off|on", 0, 0},
    {"lru", "inactive_anon", "the LRU list the faulted pages go to",
     "inactive_anon|active_anon|inactive_file|active_file", 0, 0},
    {"depth", "64", "pages each thread keeps on the LRU before it frees its oldest", NULL, 1,
     1 << 16},
    {"batch", "64", "MEMCG_CHARGE_BATCH, the rstat update batch (32 up to v6.0)", NULL, 1, 1 << 20},
    {"flush", "capped",
     "stats_flush_threshold add: capped (at num_online_cpus, v6.0+) or unconditional (before Jul "
     "2022)",
     "capped|unconditional", 0, 0},
    {NULL},
};

static const struct bench_preset presets[] = {
    {"regressed", "70a64b7919cb: lruvec_stats became a pointer next to lru_zone_size",
     "layout=70a64b7919cb zones=5 lru_gen=off batch=64"},
    {"fixed", "the 2024 rearrangement: read-mostly pointers first, hot fields last",
     "layout=fix-2024 zones=5 lru_gen=off batch=64"},
    {"regressed-lrugen", "70a64b7919cb with CONFIG_LRU_GEN=y (lrugen inside lruvec)",
     "layout=70a64b7919cb zones=5 lru_gen=on batch=64"},
    {"fixed-lrugen", "the fix with CONFIG_LRU_GEN=y",
     "layout=fix-2024 zones=5 lru_gen=on batch=64"},
    {"v6.0", "v6.0: the embedded lruvec_stats array between the pointers and lru_zone_size",
     "layout=v6.0 zones=5 lru_gen=off batch=32"},
    {NULL},
};

static const struct bench_workload workloads[] = {
    {"shared", "every thread faults into one memcg's per-node struct (page_fault2, one cgroup)",
     ""},
    {"private", "one per-node struct (and memcg) per thread: the control", ""},
    {NULL},
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
    .describe = describe,
    .computed_layout = computed_layout,
};
