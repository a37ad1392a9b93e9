// SPDX-License-Identifier: MIT
/*
 * bench_overhead.c - the instrument's own cost: pcbench's single-thread ns/op for
 * page_counter +ABC direct (layout table, accessor layer, equal-time window) against the
 * same algorithm on a compiled struct in a plain loop (pc_ref.h). Rounds alternate, and the
 * ratio of the medians is printed. A benchmark, not a test: ctest only runs it briefly.
 *
 * usage: pcbench-overhead [ROUNDS [SECONDS]]   (defaults 11 rounds of 0.3 s each side)
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "measure.h"
#include "pc_ref.h"
#include "stats.h"
#include "topology.h"
#include "util.h"

#define LEVELS 4
#define PRELOAD 65536
/*
 * Memory placement as in the scenario (and the kernel): each level's mem_cgroup is a
 * kmalloc-8k object, 4096-aligned at least, with `memory` at byte 256 in v6.1. Same-offset
 * objects 4 KiB apart alias in the L1 and in store-to-load disambiguation, which costs
 * the kernel too, so the reference must sit the same way for a fair comparison.
 */
#define MEMCG_ALIGN 4096
#define MEMORY_OFFSET_V61 256

static double plain_loop(double seconds)
{
	struct ref_pc *c[LEVELS];
	uint64_t n = 0, chunk = 4096;
	double t0, t;

	for (int i = 0; i < LEVELS; i++)
		c[i] = (struct ref_pc *)((char *)bench_alloc(2 * MEMCG_ALIGN, MEMCG_ALIGN) +
					 MEMORY_OFFSET_V61);
	ref_hierarchy(c, LEVELS, 256, 512, PRELOAD, 1);
	t0 = now_s();
	do {
		for (uint64_t i = 0; i < chunk; i++) {
			if (!ref_try_charge(c[LEVELS - 1], 1, 1))
				ref_uncharge(c[LEVELS - 1], 1, 1);
		}
		n += chunk;
		t = now_s();
	} while (t - t0 < seconds);
	for (int i = 0; i < LEVELS; i++)
		bench_free((char *)c[i] - MEMORY_OFFSET_V61);
	return (t - t0) * 1e9 / (double)n;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 11;
	double seconds = argc > 2 ? atof(argv[2]) : 0.3;
	const struct scenario *sc = scenario_find("page_counter");
	struct bench_cfg *cfg;
	struct measurement m;
	struct meas_result r;
	struct topo *topo;
	double *harness_ns, *plain_ns, mh, mp;
	char err[256];
	int pu;

	if (rounds < 1 || !(seconds > 0) || !sc) {
		fprintf(stderr, "usage: pcbench-overhead [ROUNDS [SECONDS]]\n");
		return 2;
	}
	topo = topo_load_host(err, sizeof(err));
	if (!topo || topo_place(topo, "scatter", 1, &pu, err, sizeof(err))) {
		fprintf(stderr, "pcbench-overhead: %s\n", err);
		return 2;
	}
	cfg = cfg_new(sc, preset_find(sc, "+ABC"), workload_find(sc, "direct"), 1, NULL, 0, err,
		      sizeof(err));
	if (!cfg) {
		fprintf(stderr, "pcbench-overhead: %s\n", err);
		return 2;
	}
	harness_ns = xcalloc((size_t)rounds, sizeof(double));
	plain_ns = xcalloc((size_t)rounds, sizeof(double));
	struct topo_home home;

	topo_home_parse(topo, "first", pu, &home, err, sizeof(err));
	meas_init(&m, sc, cfg, topo, 1, &pu, seconds, seconds / 10, &home);
	for (int i = 0, starved_left = 10; i < rounds; i++) {
		meas_run(&m);
		meas_result(&m, &r);
		if (!r.failed && !r.ops && r.disturbed && starved_left-- > 0) {
			/* a busy machine starved the window (docs/measuring.md): again */
			fprintf(stderr, "pcbench-overhead: round %d: %s\n", i + 1, r.noise_reason);
			meas_reset(&m);
			i--;
			continue;
		}
		if (r.failed || !r.ops) {
			fprintf(stderr, "pcbench-overhead: measurement failed: %s\n",
				r.failed ? r.reason : r.noise_reason);
			return 1;
		}
		harness_ns[i] = r.duration_s * 1e9 / (double)r.ops;
		meas_reset(&m);
		/* The plain loop runs on the same PU, bound the same way. */
		struct topo_binding *b = topo_binding_save(topo);
		topo_bind_self(topo, pu, err, sizeof(err));
		plain_ns[i] = plain_loop(seconds);
		topo_binding_restore(topo, b);
		printf("round %2d: pcbench %.2f ns/op, plain loop %.2f ns/op\n", i + 1,
		       harness_ns[i], plain_ns[i]);
	}
	mh = stats_median(harness_ns, (size_t)rounds);
	mp = stats_median(plain_ns, (size_t)rounds);
	printf("median: pcbench %.2f ns/op, plain loop %.2f ns/op, ratio %.4f (%+.1f%%)\n", mh, mp,
	       mh / mp, 100 * (mh / mp - 1));
	meas_destroy(&m);
	cfg_free(cfg);
	topo_free(topo);
	free(harness_ns);
	free(plain_ns);
	return 0;
}
