/* SPDX-License-Identifier: MIT */
/*
 * per_node_layout.h - the computed layouts of struct lruvec and struct mem_cgroup_per_node
 * (per_node.c), or a layout file of struct mem_cgroup_per_node (-D layout=FILE), and their
 * hot-line report (per_node_layout.c). Kernel facts: docs/kernel-facts.md section 6.
 */
#ifndef PCBENCH_PER_NODE_LAYOUT_H
#define PCBENCH_PER_NODE_LAYOUT_H

#include <stddef.h>

#include "bench.h"

#define NR_LRU_LISTS 5
#define ANON_AND_FILE 2
#define ZONE_NORMAL 2 /* after ZONE_DMA and ZONE_DMA32 (x86_64 default config) */

/* The LRU lists' names, as -D lru= takes them and the kernel's enum orders them. */
extern const char *const pn_lru_names[NR_LRU_LISTS];

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

enum pn_version { PN_V60, PN_REGRESSED, PN_FIXED, PN_FILE };

struct pn_knobs {
	enum pn_version version;
	const char *file; /* PN_FILE: the layout file -D layout= names */
	int zones;	  /* MAX_NR_ZONES: 4, or 5 with ZONE_DEVICE */
	int lru_gen;	  /* CONFIG_LRU_GEN=y (with LRU_GEN_WALKS_MMU=y, MGLRU off at runtime) */
	int lru;	  /* the LRU list the faulted pages go to */
	int zswap;	  /* CONFIG_ZSWAP=y: struct zswap_lruvec_state in struct lruvec (v6.8+) */
	int spinlock;	  /* sizeof(spinlock_t): 4, 24 (DEBUG_SPINLOCK), 64 (+ DEBUG_LOCK_ALLOC) */
};

/*
 * pn_knobs_from_cfg - the knobs of @cfg: the layout parameter names a built-in order
 * (70a64b7919cb, fix-2024, v6.0) or a layout file (PN_FILE). 0, or -1 with @err.
 */
int pn_knobs_from_cfg(const struct bench_cfg *cfg, struct pn_knobs *k, char *err, size_t errlen);

/*
 * pn_layout - the layout of @k, parsed (layout_free it): computed from the field lists, or
 * read from the file, which must define struct mem_cgroup_per_node with every field the
 * model uses. NULL with @err.
 */
struct layout *pn_layout(const struct pn_knobs *k, char *err, size_t errlen);

/* pn_kmalloc_size - the kmalloc size class of @size (power of two, naturally aligned). */
size_t pn_kmalloc_size(size_t size);

/* pn_describe - the hot-line report (the scenario's describe). */
void pn_describe(const struct bench_cfg *cfg, void (*out)(void *arg, const char *line), void *arg);

#endif
