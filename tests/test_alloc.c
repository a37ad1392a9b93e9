// SPDX-License-Identifier: MIT
/*
 * test_alloc.c - home allocations under alloc_shuffle (docs/measuring.md, "Memory
 * placement"): they take consecutive pages of one 64 MiB arena downwards from a random
 * page drawn anew per alloc_set_home, zeroed, never overlapping a live one, and a freed and
 * re-made allocation moves; large ones and --home-pages reuse map their own pages; the
 * pages stay at the home.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "bench.h"
#include "check.h"
#include "topology.h"

#define PAGE 4096
#define ARENA (64UL << 20)
#define ROUNDS 50
#define LIVE 32

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* A freed allocation made again ROUNDS times: zeroed each time, at many pages. */
static void moves(void)
{
	uintptr_t seen[ROUNDS];
	int distinct = 0;

	for (int r = 0; r < ROUNDS; r++) {
		unsigned char *p = bench_alloc(2176, 64); /* struct mem_cgroup of v6.1 */
		int k;

		CHECK(((uintptr_t)p & (PAGE - 1)) == 0, "round %d: %p is not page-aligned", r,
		      (void *)p);
		CHECK(all_zero(p, 2176), "round %d: not zeroed", r);
		memset(p, 0xa5, 2176);
		for (k = 0; k < distinct && seen[k] != (uintptr_t)p; k++)
			;
		if (k == distinct)
			seen[distinct++] = (uintptr_t)p;
		bench_free(p);
	}
	/* 50 draws of 16384 pages: a repeat is rare (seeded, so the count is fixed) */
	CHECK(distinct >= ROUNDS - 5, "%d distinct addresses in %d rounds", distinct, ROUNDS);
	for (int k = 1; k < distinct; k++) {
		uintptr_t d = seen[k] > seen[0] ? seen[k] - seen[0] : seen[0] - seen[k];

		CHECK(d < ARENA, "round %d: %#lx from the first, outside one arena", k,
		      (unsigned long)d);
	}
}

/*
 * After alloc_set_home, allocations take consecutive pages downwards (the relative layout
 * of separate mmaps); the next alloc_set_home starts at another random page.
 */
static void consecutive(const struct topo *t, const struct topo_home *home)
{
	unsigned char *p[3], *q;

	alloc_set_home(t, home);
	for (int i = 0; i < 3; i++)
		p[i] = bench_alloc(i ? 100 : PAGE + 100, 64); /* 2 pages, then 1 and 1 */
	CHECK(p[1] == p[0] - PAGE && p[2] == p[1] - PAGE, "not consecutive downwards: %p, %p, %p",
	      (void *)p[0], (void *)p[1], (void *)p[2]);
	for (int i = 0; i < 3; i++)
		bench_free(p[i]);
	alloc_set_home(t, home);
	q = bench_alloc(100, 64);
	CHECK(q != p[2] - PAGE && q != p[0], "a new home started where the last ended (%p)",
	      (void *)q);
	bench_free(q);
}

/* LIVE allocations of 3 pages at once: none overlaps another. */
static void apart(void)
{
	unsigned char *p[LIVE];

	for (int i = 0; i < LIVE; i++) {
		p[i] = bench_alloc(3 * PAGE - 100, 64);
		memset(p[i], i + 1, 3 * PAGE - 100);
	}
	for (int i = 0; i < LIVE; i++) {
		CHECK(p[i][0] == i + 1 && p[i][3 * PAGE - 101] == i + 1,
		      "allocation %d was overwritten by another", i);
		for (int j = 0; j < i; j++)
			CHECK(p[i] + 3 * PAGE <= p[j] || p[j] + 3 * PAGE <= p[i],
			      "allocations %d and %d overlap", i, j);
	}
	for (int i = 0; i < LIVE; i++)
		bench_free(p[i]);
}

int main(void)
{
	struct topo_home home;
	uint64_t nodes;
	unsigned char *big, *p;
	struct topo *t;
	char err[256];

	t = topo_load_host(err, sizeof(err));
	if (!t) {
		fprintf(stderr, "test_alloc: %s\n", err);
		return 1;
	}
	if (topo_home_parse(t, "first", 0, &home, err, sizeof(err))) {
		fprintf(stderr, "test_alloc: %s\n", err);
		return 1;
	}
	alloc_shuffle(1, 42);
	alloc_set_home(t, &home);
	moves();
	apart();
	consecutive(t, &home);

	/* over the arena's limit (4 MiB): its own mapping, zeroed, freed with it */
	big = bench_alloc(8UL << 20, 64);
	CHECK(all_zero(big, 8UL << 20), "an 8 MiB allocation is not zeroed");
	p = bench_alloc(64, 64);
	CHECK(alloc_home_nodes(&nodes) || !nodes || nodes == 1ULL << home.node,
	      "home allocations on nodes %#llx, planned on node %d", (unsigned long long)nodes,
	      home.node);
	bench_free(big);
	bench_free(p);

	/* reuse: each allocation maps its own pages, zeroed */
	alloc_shuffle(0, 0);
	for (int r = 0; r < 4; r++) {
		p = bench_alloc(2176, 64);
		CHECK(all_zero(p, 2176), "reuse, round %d: not zeroed", r);
		memset(p, 0x5a, 2176);
		bench_free(p);
	}
	alloc_set_home(NULL, NULL);
	topo_free(t);
	return failures != 0;
}
