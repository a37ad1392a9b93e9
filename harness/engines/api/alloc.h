/* SPDX-License-Identifier: MIT */
/*
 * alloc.h - where bench_alloc() puts memory. While a scenario builds its shared state the
 * harness sets a memory home: allocations are bound to that NUMA policy and first-touched
 * under it, then verified. Per-thread blocks are allocated by their pinned thread, locally.
 */
#ifndef PCBENCH_ALLOC_H
#define PCBENCH_ALLOC_H

#include <stdint.h>

struct topo;
struct topo_home;

/*
 * alloc_set_home - from now on, bench_alloc() on the calling thread binds to @h on @t
 * (NULL: plain local allocations again). Starts a new list of home allocations.
 */
void alloc_set_home(const struct topo *t, const struct topo_home *h);

/*
 * alloc_home_nodes - the NUMA nodes (bit mask by OS index) holding the allocations made
 * since alloc_set_home on this thread. -1 when the OS cannot tell.
 */
int alloc_home_nodes(uint64_t *nodes);

/*
 * alloc_shuffle - @on: from now on, the home allocations made after each alloc_set_home
 * take consecutive pages (downwards, in the order made) from a random page of a 64 MiB
 * arena bound to their home (one per home, mapped on first use; draws from @seed), so
 * that every window's shared state sits at other pages, laid out as before relative to
 * each other (docs/measuring.md, "Memory placement"); off: each maps its own pages.
 */
void alloc_shuffle(int on, uint64_t seed);

#endif
