// SPDX-License-Identifier: MIT
/*
 * test_c2c.c - the c2c calibration probe:
 *
 *  1. in process, for both workloads and 1, 2 and 3 threads: each thread's run(K) returns K
 *     (nobody stops early without a window), and the lines end where K turns of every
 *     thread around the ring leave them: pingpong's word at N * K, rw's line t at
 *     t + (K - 1) * N + 1, so every turn was one hand-off to the next thread;
 *  2. through the binary (PCBENCH): `-s c2c -t 1,2` rows are ok, and the ns per one-way
 *     transfer, duration_s * 1e9 / ops, is positive and finite for both workloads on the
 *     2 PUs here (printed; nothing about its value is asserted).
 *
 * Under a sanitizer (PCBENCH_SANITIZED: make test-asan, test-tsan) part 1 runs a tenth of
 * the turns (K / 10, and 20 at 3 threads): every workload and thread count, the same checks
 * of every line; each turn is the same hand-off, which TSan judges as it happens and ASan
 * checks on its first pass, and at 3 threads on 2 PUs a turn can wait for a time slice.
 * Under ASan the turns' CPU time is their waits (the partner descheduled on a loaded 2-vCPU
 * VM: 11 CPU s for K). make test-all runs K.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "harness.h"
#include "check.h"

#define K 20000

static int sanitized; /* under a sanitizer: see the header */

struct worker {
	const struct scenario *sc;
	void *shared;
	int tid;
	long turns;
	uint64_t done;
	pthread_barrier_t *bar;
};

static void *worker(void *p)
{
	struct worker *w = p;
	void *ts = scenario_thread_setup(w->sc, w->shared, w->tid);

	pthread_barrier_wait(w->bar);
	if (!ts)
		return NULL;
	/* In chunks, as the harness calls it: the turn order survives run() boundaries. */
	for (int i = 0; i < 4; i++)
		w->done += w->sc->run(w->shared, ts, (uint64_t)w->turns / 4);
	scenario_thread_teardown(w->sc, w->shared, ts);
	return NULL;
}

static void test_ring(const char *workload, int n)
{
	const struct scenario *sc = scenario_find("c2c");
	struct bench_object obj[8];
	struct worker w[8];
	pthread_t t[8];
	pthread_barrier_t bar;
	struct bench_cfg *cfg;
	void *shared;
	char err[256];
	/* More threads than the 2 PUs here: a turn may wait for a time slice, so fewer turns;
	 * a tenth of them under a sanitizer (see the header). */
	const long turns = (n > 2 ? 200 : K) / (sanitized ? 10 : 1);
	int nobj;

	cfg = cfg_new(sc, preset_find(sc, "transfer"), workload_find(sc, workload), n, NULL, 0, err,
		      sizeof(err));
	if (!cfg) {
		CHECK(0, "c2c %s x%d: %s", workload, n, err);
		return;
	}
	shared = sc->setup(cfg, err, sizeof(err));
	if (!shared) {
		CHECK(0, "c2c %s x%d: setup: %s", workload, n, err);
		cfg_free(cfg);
		return;
	}
	nobj = scenario_objects(sc, shared, obj, 8);
	CHECK(nobj == (!strcmp(workload, "rw") ? n : 1), "c2c %s x%d: %d objects", workload, n,
	      nobj);
	pthread_barrier_init(&bar, NULL, (unsigned)n);
	for (int i = 0; i < n; i++) {
		w[i] = (struct worker){sc, shared, i, turns, 0, &bar};
		pthread_create(&t[i], NULL, worker, &w[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar);
	for (int i = 0; i < n; i++)
		CHECK((long)w[i].done == turns, "c2c %s x%d: thread %d did %llu turns, want %ld",
		      workload, n, i, (unsigned long long)w[i].done, turns);
	for (int i = 0; i < nobj; i++) {
		long v = atomic_load((pc_word *)obj[i].base);
		long want = !strcmp(workload, "rw") ? i + (turns - 1) * n + 1 : n * turns;

		CHECK(v == want, "c2c %s x%d: %s = %ld, want %ld", workload, n, obj[i].name, v,
		      want);
	}
	printf("c2c %s x%d: %ld turns per thread, lines checked\n", workload, n, turns);
	scenario_teardown(sc, shared);
	cfg_free(cfg);
}

static void test_binary(void)
{
	const char *pcbench = getenv("PCBENCH");
	char dir[] = "/tmp/pcbench-c2c-XXXXXX", cmd[1024], path[600], err[600];
	struct csv_table *tab;
	int c_wl, c_th, c_dur, c_ops, c_status, c_cpus, rows = 0;

	if (!pcbench || !mkdtemp(dir)) {
		CHECK(0, "PCBENCH unset or mkdtemp failed");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "%s -s c2c -t 1,2 --time 0.05 -r 1 -o %s/run >%s/stdout 2>%s/stderr", pcbench, dir,
		 dir, dir);
	CHECK(system(cmd) == 0, "%s: non-zero exit", cmd);
	snprintf(path, sizeof(path), "%s/run/results.csv", dir);
	tab = csv_read_file(path, err, sizeof(err));
	if (!tab) {
		CHECK(0, "%s", err);
		return;
	}
	c_wl = csv_col(tab, "workload");
	c_th = csv_col(tab, "threads");
	c_dur = csv_col(tab, "duration_s");
	c_ops = csv_col(tab, "ops");
	c_status = csv_col(tab, "status");
	c_cpus = csv_col(tab, "cpus");
	CHECK(c_wl >= 0 && c_th >= 0 && c_dur >= 0 && c_ops >= 0 && c_status >= 0 && c_cpus >= 0,
	      "results.csv lacks a column");
	for (int r = 0; r < tab->nrows && !failures; r++) {
		char **row = tab->rows[r];
		double dur = atof(row[c_dur]), ops = atof(row[c_ops]);
		double ns = dur * 1e9 / ops;

		rows++;
		/* --noise-max off (make test): disturbed only when a busy machine starved it */
		if (!strcmp(row[c_status], "disturbed") &&
		    strstr(row[csv_col(tab, "reason")], "(starved)"))
			continue;
		CHECK(!strcmp(row[c_status], "ok"), "c2c row %d: status %s", r + 1, row[c_status]);
		CHECK(ops > 0 && dur > 0 && isfinite(ns) && ns > 0,
		      "c2c %s threads %s: ns per transfer %g (duration %s, ops %s)", row[c_wl],
		      row[c_th], ns, row[c_dur], row[c_ops]);
		printf("c2c %-8s threads %s cpus %-4s: %.1f ns per transfer\n", row[c_wl],
		       row[c_th], row[c_cpus], ns);
	}
	CHECK(rows == 4, "c2c: %d rows, want 4 (2 workloads x threads 1, 2)", rows);
	csv_table_free(tab);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "note: could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
	const char *san = getenv("PCBENCH_SANITIZED");

	(void)argc;
	(void)argv;
	sanitized = san && *san;
	if (!scenario_find("c2c")) {
		fprintf(stderr, "FAIL: scenario c2c not found\n");
		return 1;
	}
	for (int n = 1; n <= 3; n++) {
		test_ring("pingpong", n);
		test_ring("rw", n);
	}
	test_binary();
	if (failures) {
		fprintf(stderr, "test_c2c: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_c2c: all checks passed\n");
	return 0;
}
