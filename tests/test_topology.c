// SPDX-License-Identifier: MIT
/*
 * test_topology.c - compact and scatter placements on synthetic machines (hwloc parses the
 * description), placements that do not fit, and binding refused on a foreign topology.
 */
#include <stdio.h>
#include <string.h>

#include "topology.h"

static int failures;

static void expect_place(const char *desc, const char *policy, int n, const int *want)
{
	char err[256];
	int got[64];
	struct topo *t = topo_load_synthetic(desc, err, sizeof(err));

	if (!t) {
		fprintf(stderr, "FAIL: %s: %s\n", desc, err);
		failures++;
		return;
	}
	if (topo_place(t, policy, n, got, err, sizeof(err)) != TOPO_OK) {
		fprintf(stderr, "FAIL: %s %s %d: %s\n", desc, policy, n, err);
		failures++;
	} else if (memcmp(got, want, (size_t)n * sizeof(int))) {
		fprintf(stderr, "FAIL: %s %s %d:\n  got ", desc, policy, n);
		for (int i = 0; i < n; i++)
			fprintf(stderr, " %d", got[i]);
		fprintf(stderr, "\n  want");
		for (int i = 0; i < n; i++)
			fprintf(stderr, " %d", want[i]);
		fprintf(stderr, "\n");
		failures++;
	}
	topo_free(t);
}

int main(void)
{
	/* 2 packages x 2 L3 x 2 cores x 2 PUs, PUs numbered in tree order (P#0,P#1 siblings) */
	const char *tree = "pack:2 l3:2 core:2 pu:2";
	/* the same with Linux-style numbering: sibling of P#n is P#n+8 */
	const char *linux = "pack:2 l3:2 core:2 pu:2(indexes=core:package)";
	const int compact_tree[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	/* packages first (P#0 / P#8), then L3s (P#4 / P#12), then cores, then SMT siblings */
	const int scatter_tree[] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
	const int compact_linux[] = {0, 8, 1, 9, 2, 10, 3, 11};
	const int scatter_linux[] = {0, 4, 2, 6, 1, 5, 3, 7, 8, 12, 10, 14, 9, 13, 11, 15};
	char err[256];
	int pus[4];
	struct topo *t;

	expect_place(tree, "compact", 16, compact_tree);
	expect_place(tree, "scatter", 16, scatter_tree);
	expect_place(linux, "compact", 8, compact_linux);
	expect_place(linux, "scatter", 16, scatter_linux);
	expect_place("pack:1 l3:2 core:1 pu:1", "scatter", 2, (const int[]){0, 1});

	t = topo_load_synthetic(tree, err, sizeof(err));
	if (!t || topo_npus(t) != 16 || topo_is_host(t)) {
		fprintf(stderr, "FAIL: synthetic topology: npus/is_host\n");
		failures++;
	}
	if (t && topo_place(t, "scatter", 17, pus, err, sizeof(err)) != TOPO_NOFIT) {
		fprintf(stderr, "FAIL: 17 threads on 16 PUs placed\n");
		failures++;
	}
	if (t && (topo_place(t, "everywhere", 1, pus, err, sizeof(err)) != TOPO_UNKNOWN ||
		  !strstr(err, "unknown placement"))) {
		fprintf(stderr, "FAIL: unknown placement accepted: %s\n", err);
		failures++;
	}
	/* binding on a synthetic topology would be a silent no-op in hwloc: refused */
	if (t &&
	    (topo_bind_self(t, 0, err, sizeof(err)) == 0 || !strstr(err, "not this machine"))) {
		fprintf(stderr, "FAIL: binding on a synthetic topology was not refused\n");
		failures++;
	}
	topo_free(t);
	if (!topo_load_synthetic("pack:2 nonsense:3", err, sizeof(err)) && strstr(err, "nonsense"))
		;
	else {
		fprintf(stderr, "FAIL: bad synthetic string: %s\n", err);
		failures++;
	}
	if (!failures)
		printf("test_topology: ok\n");
	return failures != 0;
}
