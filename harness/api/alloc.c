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

/* Home allocations, so that bench_free() can give them back with their length. */
struct region {
	void *base, *user;
	size_t len;
	const struct topo *topo;
	unsigned long gen;
};

static struct region *regions;
static size_t nregions, cap;
static unsigned long next_gen = 1;
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
	r.base = topo_alloc_home(home_topo, len, &home);
	r.user = (void *)(((uintptr_t)r.base + a - 1) & ~(uintptr_t)(a - 1));
	r.len = len;
	r.topo = home_topo;
	r.gen = home_gen;
	pthread_mutex_lock(&lock);
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
	if (r.user)
		topo_free_home(r.topo, r.base, r.len);
	else
		free(p);
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
