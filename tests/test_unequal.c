// SPDX-License-Identifier: MIT
/*
 * test_unequal.c - threads at unequal speeds are a result, not noise (issue 33): through
 * measure.c's windows with a real symmetric workload (page_counter direct, 2 threads), the
 * test-only meas_batch_hook gives thread 1 extra private work of SLOW times each batch, so
 * that it completes about 1 / (1 + SLOW) of thread 0's operations (about 0.3) with steady
 * progress. With the defaults no window gets the imbalance kind; only with the opt-in
 * --imbalance-min (meas_set_imbalance 0.9) are such windows judged by the ratio. Run delay
 * and steal are unknown here (PCBENCH_PROCFS_ROOT an empty directory) and the noise limit is
 * the whole window, so this machine's load decides nothing. Nothing asserts a time or a
 * ratio: the ratio is printed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "measure.h"
#include "noise.h"
#include "topology.h"
#include "util.h"

#define WINDOW_S 0.05
#define SLOW 2.3

static volatile unsigned long sink;

/* Thread 1: private work for SLOW times the batch's time so far. */
static void slow_hook(int tid, double batch_s)
{
	double end;

	if (tid != 1)
		return;
	end = now_s() + SLOW * batch_s;
	while (now_s() < end)
		sink++;
}

/* measure - one row of page_counter direct at 2 threads on @pus, imbalance limit @imb. */
static void measure(struct topo *t, const int *pus, double imb, int retries, const char *what,
		    struct meas_result *r, struct measurement *m)
{
	const struct scenario *sc = scenario_find("page_counter");
	struct bench_cfg *cfg;
	struct topo_home home;
	char err[256];

	cfg =
	    cfg_new(sc, &sc->presets[0], workload_find(sc, "direct"), 2, NULL, 0, err, sizeof(err));
	CHECK(cfg != NULL, "%s: cfg: %s", what, err);
	if (!cfg)
		exit(1);
	topo_home_parse(t, "first", pus[0], &home, err, sizeof(err));
	meas_init(m, sc, cfg, t, 2, pus, WINDOW_S, WINDOW_S / 10, &home);
	meas_set_noise(m, 1.0, retries); /* the whole window: gaps never decide here */
	if (imb >= 0)
		meas_set_imbalance(m, imb);
	meas_run(m);
	meas_result(m, r);
	CHECK(!r->failed, "%s: failed: %s", what, r->reason);
	printf("%s: %d window(s), ops_min/ops_max %.2f, imbalance windows %d: %s\n", what,
	       r->windows, r->ops_max ? (double)r->ops_min / (double)r->ops_max : NAN,
	       r->kind_windows[NOISE_IMBALANCE], r->disturbed ? r->noise_reason : "clean");
	cfg_free(cfg);
}

int main(void)
{
	char dir[] = "/tmp/test_unequal.XXXXXX", err[256];
	struct measurement m;
	struct meas_result r;
	struct topo *t;
	int pus[2];

	if (!mkdtemp(dir) || setenv("PCBENCH_PROCFS_ROOT", dir, 1)) {
		perror("test_unequal: mkdtemp");
		return 1;
	}
	t = topo_load_host(err, sizeof(err));
	CHECK(t != NULL, "topology: %s", err);
	if (!t)
		return 1;
	if (topo_npus(t) < 2 || topo_place(t, "scatter", 2, pus, err, sizeof(err))) {
		printf("test_unequal: fewer than 2 PUs: skipped\n");
		topo_free(t);
		rmdir(dir);
		return 77;
	}
	CHECK(NOISE_DEFAULT_IMBALANCE_MIN == 0, "--imbalance-min is on by default (%g)",
	      NOISE_DEFAULT_IMBALANCE_MIN);
	meas_batch_hook = slow_hook;
	/* The defaults (meas_init): 3 windows (2 retries if disturbed), none by imbalance. */
	measure(t, pus, -1, 2, "unequal, defaults", &r, &m);
	CHECK(r.kind_windows[NOISE_IMBALANCE] == 0 && strcmp(r.disturbed_by, "imbalance"),
	      "unequal, defaults: %d window(s) disturbed by imbalance",
	      r.kind_windows[NOISE_IMBALANCE]);
	CHECK(r.ops_min > 0, "unequal, defaults: the slow thread completed nothing");
	meas_destroy(&m);
	/* 0 given explicitly: off as well. */
	measure(t, pus, 0, 2, "unequal, --imbalance-min 0", &r, &m);
	CHECK(r.kind_windows[NOISE_IMBALANCE] == 0,
	      "unequal, 0: %d window(s) disturbed by imbalance", r.kind_windows[NOISE_IMBALANCE]);
	meas_destroy(&m);
	/* The opt-in: a window under the limit is imbalance (a ratio of 1 can't be under 1.0,
	 * so this only checks that the kind is judged when asked, whatever the ratio). */
	measure(t, pus, 1.0, 0, "unequal, --imbalance-min 1", &r, &m);
	CHECK(r.ops_min == r.ops_max || !strcmp(r.disturbed_by, "imbalance"),
	      "unequal, 1: ops %llu..%llu not judged imbalance", (unsigned long long)r.ops_min,
	      (unsigned long long)r.ops_max);
	meas_destroy(&m);
	meas_batch_hook = NULL;
	topo_free(t);
	rmdir(dir);
	if (!failures)
		printf("ok: unequal speeds are not noise\n");
	return failures != 0;
}
