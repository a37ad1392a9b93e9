// SPDX-License-Identifier: MIT
/* alloc.c - bench_alloc/bench_free: local memory, or memory bound to the run's home. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bench.h"
#include "topology.h"
#include "util.h"

#define PAGE 4096

/*
 * Shuffled placement (alloc_shuffle): a window's home allocations take consecutive pages,
 * downwards as consecutive mmaps do, from a random page of an arena bound to that home and
 * mapped once per process, so that each window's shared state sits at other pages while
 * keeping the layout relative to each other the scenario's allocation order gives. Mapping
 * each allocation anew gave the same relative layout but one run-long draw of the rest
 * (docs/measuring.md, "Memory placement"). ARENA_PAGES of 4 KiB: 64 MiB; allocations over
 * ARENA_MAX_PAGES map their own.
 */
#define ARENA_PAGES 16384
#define ARENA_MAX_PAGES (ARENA_PAGES / 16)
#define ARENA_TRIES 64

struct arena {
	const struct topo *topo;
	struct topo_home home;
	char *base;	   /* NULL: could not be mapped, so this home maps each allocation */
	unsigned long gen; /* the home_gen whose allocations end at page @end */
	size_t end;
};

/* Home allocations, so that bench_free() can give them back with their length. */
struct region {
	void *base, *user;
	size_t len;
	const struct topo *topo;
	unsigned long gen;
	int in_arena; /* a slice of an arena, which stays mapped */
};

static struct region *regions;
static size_t nregions, cap;
static unsigned long next_gen = 1;
static struct arena *arenas;
static size_t narenas;
static int shuffle;
static uint64_t shuffle_state;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static _Thread_local const struct topo *home_topo;
static _Thread_local struct topo_home home;
static _Thread_local unsigned long home_gen;

void alloc_set_home(const struct topo *t, const struct topo_home *h)
{
	home_topo = t;
	if (h)
		home = *h;
	pthread_mutex_lock(&lock);
	home_gen = next_gen++;
	pthread_mutex_unlock(&lock);
}

void alloc_shuffle(int on, uint64_t seed)
{
	pthread_mutex_lock(&lock);
	shuffle = on;
	shuffle_state = seed;
	pthread_mutex_unlock(&lock);
}

/* arena_for - the arena of @t and @h, mapped on first use (lock held). */
static struct arena *arena_for(const struct topo *t, const struct topo_home *h)
{
	struct arena *a;

	for (size_t i = 0; i < narenas; i++)
		if (arenas[i].topo == t && arenas[i].home.interleave == h->interleave &&
		    (h->interleave || arenas[i].home.node == h->node))
			return &arenas[i];
	a = realloc(arenas, (narenas + 1) * sizeof(*arenas));
	if (!a)
		die("memory", "bench_alloc", "out of memory");
	arenas = a;
	a = &arenas[narenas++];
	*a = (struct arena){t, *h, topo_try_alloc_home(t, ARENA_PAGES * (size_t)PAGE, h), 0, 0};
	return a;
}

/*
 * arena_take - @len bytes of the arena, zeroed: the first allocation since alloc_set_home
 * ends at a random page, each next one ends where the one before starts (downwards, as
 * consecutive mmaps are placed), a fresh random end when the run would overlap a live
 * allocation or leave the arena; NULL when there is no arena or ARENA_TRIES draws failed
 * (lock held).
 */
static char *arena_take(const struct topo *t, const struct topo_home *h, size_t len)
{
	size_t pages = len / PAGE;
	struct arena *a;

	if (!shuffle || pages > ARENA_MAX_PAGES)
		return NULL;
	a = arena_for(t, h);
	if (!a->base)
		return NULL;
	for (int k = 0; k < ARENA_TRIES; k++) {
		char *p;
		size_t i;

		if (a->gen != home_gen || a->end < pages) {
			a->gen = home_gen;
			a->end = pages +
				 (size_t)(splitmix64(&shuffle_state) % (ARENA_PAGES - pages + 1));
		}
		p = a->base + (a->end - pages) * PAGE;
		for (i = 0; i < nregions; i++)
			if (regions[i].in_arena && (char *)regions[i].base < p + len &&
			    p < (char *)regions[i].base + regions[i].len)
				break;
		if (i == nregions) {
			a->end -= pages;
			return memset(p, 0, len);
		}
		a->end = 0; /* overlaps: draw another end */
	}
	return NULL;
}

void *bench_alloc(size_t size, size_t align)
{
	size_t a = 64, len;
	struct region r;
	char *p;

	while (a < align)
		a <<= 1;
	size = (size + a - 1) / a * a;
	if (!size)
		size = a;
	if (!home_topo) {
		p = aligned_alloc(a, size);
		if (!p)
			die("memory", "bench_alloc", "out of memory");
		return memset(p, 0, size);
	}
	len = (size + (a > PAGE ? a : 0) + PAGE - 1) / PAGE * PAGE;
	pthread_mutex_lock(&lock);
	r.base = arena_take(home_topo, &home, len);
	r.in_arena = r.base != NULL;
	if (!r.base)
		r.base = topo_alloc_home(home_topo, len, &home);
	r.user = (void *)(((uintptr_t)r.base + a - 1) & ~(uintptr_t)(a - 1));
	r.len = len;
	r.topo = home_topo;
	r.gen = home_gen;
	if (nregions == cap) {
		cap = cap ? 2 * cap : 32;
		regions = realloc(regions, cap * sizeof(*regions));
		if (!regions)
			die("memory", "bench_alloc", "out of memory");
	}
	regions[nregions++] = r;
	pthread_mutex_unlock(&lock);
	return r.user;
}

void bench_free(void *p)
{
	struct region r = {0};

	if (!p)
		return;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nregions; i++) {
		if (regions[i].user == p) {
			r = regions[i];
			regions[i] = regions[--nregions];
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	if (!r.user)
		free(p);
	else if (!r.in_arena) /* an arena's pages stay mapped for the next window */
		topo_free_home(r.topo, r.base, r.len);
}

int alloc_home_nodes(uint64_t *nodes)
{
	int ret = 0;

	*nodes = 0;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nregions; i++)
		if (regions[i].gen == home_gen &&
		    topo_memlocation(regions[i].topo, regions[i].base, regions[i].len, nodes))
			ret = -1;
	pthread_mutex_unlock(&lock);
	return ret;
}
