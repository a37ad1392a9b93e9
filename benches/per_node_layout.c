// SPDX-License-Identifier: MIT
/*
 * per_node_layout.c - the computed layouts of struct lruvec and struct mem_cgroup_per_node
 * (per_node.c) and their hot-line report: ordered field lists (size, alignment, array
 * dimensions that depend on the knobs zones = MAX_NR_ZONES and lru_gen = CONFIG_LRU_GEN),
 * laid out by the C rules (each field at its alignment, the struct rounded up to its
 * largest alignment) into layout text that layout_parse() reads, so layout_offset() works
 * for the model and the tests; or a layout file of struct mem_cgroup_per_node
 * (-D layout=FILE). Kernel facts: docs/kernel-facts.md section 6. Setup-time code only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbuild.h"
#include "per_node_layout.h"

static const char *const version_names[] = {"v6.0", "70a64b7919cb", "fix-2024"};
const char *const pn_lru_names[NR_LRU_LISTS] = {"inactive_anon", "active_anon", "inactive_file",
						"active_file", "unevictable"};
static const char *const zone_names[] = {"DMA", "DMA32", "NORMAL", "MOVABLE", "DEVICE"};

/*
 * pn_build - struct lruvec and struct mem_cgroup_per_node of one version and config, x86_64
 * (8-byte longs and pointers), CONFIG_MEMCG=y. Field lists: docs/kernel-facts.md section 6; struct
 * lru_gen_folio and struct lru_gen_mm_state as in the v6.8 x86_64 BTF (assumed unchanged at
 * v6.10). spinlock_t (include/linux/spinlock_types_raw.h, lockdep_types.h): the 4-byte
 * arch_spinlock_t; with DEBUG_SPINLOCK also magic, owner_cpu (4 each) and owner (8): 24 B;
 * with DEBUG_LOCK_ALLOC also struct lockdep_map (key, class_cache[2], name, three u8: 40 B
 * without LOCK_STAT): 64 B.
 */
static void pn_build(struct builder *b, const struct pn_knobs *k)
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

static void pn_layout_name(const struct pn_knobs *k, char *buf, size_t len)
{
	char sl[16] = "";

	if (k->spinlock > 4)
		snprintf(sl, sizeof(sl), "-sl%d", k->spinlock);
	snprintf(buf, len, "per_node-%s-z%d%s%s%s", version_names[k->version], k->zones,
		 k->lru_gen ? "-lrugen" : "", k->zswap || k->version == PN_V60 ? "" : "-nozswap",
		 sl);
}

/* pn_layout_text - the builder's structs in the layout file format (malloc'd). */
static char *pn_layout_text(const struct builder *b, const struct pn_knobs *k)
{
	char name[LAYOUT_NAME_MAX], desc[256];

	pn_layout_name(k, name, sizeof(name));
	snprintf(desc, sizeof(desc),
		 "struct mem_cgroup_per_node at %s, x86_64, MAX_NR_ZONES=%d, LRU_GEN=%s, ZSWAP=%s, "
		 "spinlock_t %d B (computed by per_node.c)",
		 version_names[k->version], k->zones, k->lru_gen ? "y" : "n", k->zswap ? "y" : "n",
		 k->spinlock);
	return b_text(b, name, desc);
}

int pn_knobs_from_cfg(const struct bench_cfg *cfg, struct pn_knobs *k, char *err, size_t errlen)
{
	const char *v = bench_str(cfg, "layout");

	memset(k, 0, sizeof(*k));
	k->version = PN_FILE;
	k->file = v;
	for (int i = 0; i < PN_FILE; i++)
		if (!strcmp(v, version_names[i])) {
			k->version = (enum pn_version)i;
			k->file = NULL;
		}
	k->zones = (int)bench_long(cfg, "zones");
	k->lru_gen = !strcmp(bench_str(cfg, "lru_gen"), "on");
	k->zswap = !strcmp(bench_str(cfg, "zswap"), "on");
	k->spinlock = (int)bench_long(cfg, "spinlock");
	for (int i = 0; i < NR_LRU_LISTS; i++)
		if (!strcmp(bench_str(cfg, "lru"), pn_lru_names[i]))
			k->lru = i;
	if (k->version == PN_V60 && k->lru_gen) {
		bench_error(err, errlen,
			    "layout v6.0 with lru_gen=on: CONFIG_LRU_GEN arrived in v6.1 (select "
			    "the presets with -p, e.g. -p regressed,fixed)");
		return -1;
	}
	return 0;
}

/*
 * pn_file_check - 0 if layout file @l has every field of struct mem_cgroup_per_node the
 * model reaches, with the sizes its indexes need; else -1 with "FILE: why" in @err.
 */
static int pn_file_check(const struct layout *l, const struct pn_knobs *k, char *err, size_t errlen)
{
	static const char *const need[] = {
	    "memcg",	       "lruvec_stats_percpu", "lruvec_stats",  "lruvec.pgdat",
	    "lruvec.lru_lock", "lruvec.lists",	      "lru_zone_size", NULL};
	const size_t least[] = {8,
				8,
				8,
				8,
				4,
				16 * NR_LRU_LISTS,
				8 * (size_t)(ZONE_NORMAL * NR_LRU_LISTS + k->lru + 1)};
	struct layout_leaf lf;

	if (!layout_find_struct(l, "mem_cgroup_per_node")) {
		bench_error(err, errlen, "layout=%s: no struct mem_cgroup_per_node", l->source);
		return -1;
	}
	for (int i = 0; need[i]; i++) {
		if (layout_find_leaf(l, "mem_cgroup_per_node", need[i], &lf)) {
			bench_error(
			    err, errlen,
			    "layout=%s: struct mem_cgroup_per_node has no field %s (the model "
			    "uses it)",
			    l->source, need[i]);
			return -1;
		}
		if (lf.size < least[i]) {
			bench_error(
			    err, errlen,
			    "layout=%s: field %s of struct mem_cgroup_per_node is %zu B, the "
			    "model needs %zu",
			    l->source, need[i], lf.size, least[i]);
			return -1;
		}
	}
	return 0;
}

struct layout *pn_layout(const struct pn_knobs *k, char *err, size_t errlen)
{
	struct builder *b;
	struct layout *l = NULL;
	char *text;

	if (k->version == PN_FILE) {
		l = layout_load(k->file, err, errlen);
		if (l && pn_file_check(l, k, err, errlen)) {
			layout_free(l);
			l = NULL;
		}
		return l;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		bench_error(err, errlen, "out of memory");
		return NULL;
	}
	pn_build(b, k);
	text = pn_layout_text(b, k);
	l = layout_parse(text, "per_node.c (computed)", err, errlen);
	free(text);
	b_free(b);
	free(b);
	return l;
}

size_t pn_kmalloc_size(size_t size)
{
	size_t k = 8;

	while (k < size)
		k <<= 1;
	return k;
}

/* ---- the hot-line report (describe) ---- */

struct item {
	char name[LAYOUT_PATH_MAX + 48]; /* the leaf path and an index suffix */
	size_t off, size;
};

#define MAX_ITEMS 160

/*
 * pn_items - every leaf field of struct mem_cgroup_per_node in @l, with the arrays the
 * model indexes (lists, lru_zone_size) expanded into their elements.
 */
static int pn_items(const struct layout *l, struct item *out)
{
	struct layout_leaf *lv;
	int nl = layout_leaves(l, "mem_cgroup_per_node", &lv), n = 0;

	for (int i = 0; i < nl && n < MAX_ITEMS; i++) {
		const char *name = lv[i].field->name, *full = lv[i].path;
		size_t off = lv[i].offset;

		if (!strcmp(name, "lists")) {
			for (int j = 0; j < NR_LRU_LISTS && n < MAX_ITEMS; j++, n++) {
				snprintf(out[n].name, sizeof(out[n].name), "%s[%s]", full,
					 pn_lru_names[j]);
				out[n].off = off + (size_t)j * 16;
				out[n].size = 16;
			}
		} else if (!strcmp(name, "lru_zone_size")) {
			size_t zones = lv[i].size / (NR_LRU_LISTS * 8);

			for (size_t z = 0;
			     z < zones && z < sizeof(zone_names) / sizeof(zone_names[0]); z++)
				for (int j = 0; j < NR_LRU_LISTS && n < MAX_ITEMS; j++, n++) {
					snprintf(out[n].name, sizeof(out[n].name), "%s[%s][%s]",
						 full, zone_names[z], pn_lru_names[j]);
					out[n].off = off + (z * NR_LRU_LISTS + (size_t)j) * 8;
					out[n].size = 8;
				}
		} else {
			snprintf(out[n].name, sizeof(out[n].name), "%s", full);
			out[n].off = off;
			out[n].size = lv[i].size;
			n++;
		}
	}
	free(nl > 0 ? lv : NULL);
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
	snprintf(name, sizeof(name), "lruvec.lists[%s]", pn_lru_names[k->lru]);
	if ((i = item_find(it, n, name)) >= 0)
		hw[(*nhw)++] = i;
	snprintf(name, sizeof(name), "lru_zone_size[%s][%s]", zone_names[ZONE_NORMAL],
		 pn_lru_names[k->lru]);
	if ((i = item_find(it, n, name)) >= 0)
		hw[(*nhw)++] = i;
	if ((i = item_find(it, n, "lruvec.nonresident_age")) >= 0)
		hw[(*nhw)++] = i;
	if ((i = item_find(it, n, "iter.position")) >= 0)
		hw[(*nhw)++] = i;
	if ((i = item_find(it, n, "iter.generation")) >= 0)
		hw[(*nhw)++] = i;
}

/* pn_append - "a, b, c" lists into a fixed buffer. */
static void pn_append(char *buf, size_t len, const char *s)
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
				pn_append(r, sizeof(r), it[hr[i]].name);
		for (int i = 0; i < nhw; i++)
			if (on_line(&it[hw[i]], ln, lsz))
				pn_append(w, sizeof(w), it[hw[i]].name);
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

void pn_describe(const struct bench_cfg *cfg, void (*out)(void *arg, const char *line), void *arg)
{
	struct item *it = calloc(MAX_ITEMS, sizeof(*it));
	int hr[12], hw[12], nhr, nhw, n;
	const struct layout_struct *pn;
	char line[1024], err[256];
	struct layout *l = NULL;
	struct pn_knobs k;

	if (!it || pn_knobs_from_cfg(cfg, &k, err, sizeof(err)) ||
	    !(l = pn_layout(&k, err, sizeof(err)))) {
		free(it);
		return;
	}
	pn = layout_find_struct(l, "mem_cgroup_per_node");
	n = pn_items(l, it);
	hot_sets(it, n, &k, hr, &nhr, hw, &nhw);
	snprintf(line, sizeof(line), "layout %s: struct mem_cgroup_per_node %zu B in kmalloc-%zu",
		 l->name, pn->size, pn_kmalloc_size(pn->size));
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
			char f[sizeof(it->name) + 48];

			snprintf(f, sizeof(f), "%s %zu (line %zu)", it[set[i]].name, it[set[i]].off,
				 it[set[i]].off / 64);
			pn_append(list, sizeof(list), f);
		}
		snprintf(line, sizeof(line), "%s: %s", pass ? "hot-written" : "hot-read", list);
		out(arg, line);
	}
	sharing(it, hr, nhr, hw, nhw, pn->size, 64, "64-byte lines shared by hot-read/hot-written",
		out, arg);
	sharing(it, hr, nhr, hw, nhw, pn->size, 128,
		"128-byte pairs (adjacent-line prefetch) shared", out, arg);
	layout_free(l);
	free(it);
}
