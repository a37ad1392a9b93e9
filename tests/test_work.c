// SPDX-License-Identifier: MIT
/*
 * test_work.c - `-D work=N`, the harness's private work after every operation:
 *
 *  1. the calibration arithmetic by hand: iterations = round(N / ns_per_iteration), at least
 *     1 for N > 0, 0 for N <= 0 or an unusable calibration; the median of the trials;
 *  2. a real calibration yields a usable value (positive, finite, 5 trials) and the
 *     process-wide one is done once (the same pointer every call);
 *  3. every scenario accepts work (default 0), refuses a negative or non-numeric value,
 *     and a measurement with work > 0 gets exactly work_iters(calibration, N) iterations;
 *  4. through the binary: param_work in every row of results.csv, the calibration in
 *     context.json (null when no family asks for work). ns/op at work 0, 100 and 400 is
 *     printed, never asserted (no timing assertion on a shared VM).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "csv.h"
#include "check.h"
#include "harness.h"
#include "measure.h"
#include "work.h"

static void test_arithmetic(void)
{
	struct work_cal c = {0};
	static const double five[] = {5, 1, 3, 2, 4}, four[] = {4, 1, 3, 2}, one[] = {7};

	c.ns_per_iter = 0.5;
	CHECK_EQ("100 ns at 0.5 ns/iteration", work_iters(&c, 100), 200);
	CHECK_EQ("1 ns at 0.5 ns/iteration", work_iters(&c, 1), 2);
	CHECK_EQ("0 ns", work_iters(&c, 0), 0);
	CHECK_EQ("-5 ns", work_iters(&c, -5), 0);
	c.ns_per_iter = 0.3;
	CHECK_EQ("100 ns at 0.3 ns/iteration (333.33)", work_iters(&c, 100), 333);
	c.ns_per_iter = 0.4;
	CHECK_EQ("1 ns at 0.4 ns/iteration (2.5 rounds up)", work_iters(&c, 1), 3);
	c.ns_per_iter = 5;
	CHECK_EQ("1 ns at 5 ns/iteration (0.2: at least one)", work_iters(&c, 1), 1);
	CHECK_EQ("12 ns at 5 ns/iteration (2.4)", work_iters(&c, 12), 2);
	c.ns_per_iter = 0;
	CHECK_EQ("an unusable calibration", work_iters(&c, 100), 0);
	CHECK_EQ("no calibration", work_iters(NULL, 100), 0);
	CHECK(work_median(five, 5) == 3, "median of 5 1 3 2 4: %g", work_median(five, 5));
	CHECK(work_median(four, 4) == 2.5, "median of 4 1 3 2: %g", work_median(four, 4));
	CHECK(work_median(one, 1) == 7, "median of 7: %g", work_median(one, 1));
}

static void test_calibration(void)
{
	struct work_cal c;

	CHECK(work_calibrated() == NULL, "calibrated before anyone asked");
	CHECK(!work_calibrate(&c), "work_calibrate failed");
	CHECK(c.ns_per_iter > 0 && c.trials == WORK_TRIALS && c.iters >= 1024,
	      "calibration: %g ns/iteration, %d trials of %llu", c.ns_per_iter, c.trials,
	      (unsigned long long)c.iters);
	CHECK(c.ns_per_iter == work_median(c.trial_ns, c.trials), "ns_per_iter is not the median");
	CHECK(work_calibration() == work_calibration() && work_calibrated() == work_calibration(),
	      "the run's calibration is not one");
	printf("calibration: %.4f ns per iteration (%d trials of %llu iterations, %.3f s)\n",
	       c.ns_per_iter, c.trials, (unsigned long long)c.iters, c.seconds);
}

static void test_every_scenario(void)
{
	for (int s = 0; all_scenarios[s]; s++) {
		const struct scenario *sc = all_scenarios[s];
		char *good[] = {"work=250"}, *neg[] = {"work=-1"}, *bad[] = {"work=abc"};
		char err[512];
		struct bench_cfg *cfg;
		struct measurement m;
		struct topo_home home = {0};
		int pu = 0;

		cfg = cfg_new(sc, &sc->presets[0], &sc->workloads[0], 1, NULL, 0, err, sizeof(err));
		CHECK(cfg && bench_long(cfg, "work") == 0, "%s: default work: %s", sc->name,
		      cfg ? bench_str(cfg, "work") : err);
		if (cfg) {
			meas_init(&m, sc, cfg, NULL, 1, &pu, 0.01, 0.001, &home);
			CHECK_EQ("work=0: iterations per op", m.work_iters, 0);
			meas_destroy(&m);
		}
		cfg_free(cfg);
		cfg = cfg_new(sc, &sc->presets[0], &sc->workloads[0], 1, good, 1, err, sizeof(err));
		CHECK(cfg && bench_long(cfg, "work") == 250, "%s: work=250: %s", sc->name,
		      cfg ? bench_str(cfg, "work") : err);
		if (cfg) {
			meas_init(&m, sc, cfg, NULL, 1, &pu, 0.01, 0.001, &home);
			CHECK(m.work_iters == work_iters(work_calibration(), 250) &&
				  m.work_iters > 0,
			      "%s: work=250: %llu iterations per op, calibration says %llu",
			      sc->name, (unsigned long long)m.work_iters,
			      (unsigned long long)work_iters(work_calibration(), 250));
			meas_destroy(&m);
		}
		cfg_free(cfg);
		cfg = cfg_new(sc, &sc->presets[0], &sc->workloads[0], 1, neg, 1, err, sizeof(err));
		CHECK(!cfg && strstr(err, "work: -1"), "%s: work=-1 accepted (%s)", sc->name, err);
		cfg_free(cfg);
		cfg = cfg_new(sc, &sc->presets[0], &sc->workloads[0], 1, bad, 1, err, sizeof(err));
		CHECK(!cfg && strstr(err, "work: abc"), "%s: work=abc accepted (%s)", sc->name,
		      err);
		cfg_free(cfg);
	}
}

/* run - pcbench ARGS -o DIR/NAME; its results.csv (NULL when none) and exit code. */
static struct csv_table *run(const char *pcbench, const char *dir, const char *name,
			     const char *args, int *rc)
{
	char cmd[2048], path[1024], err[1024];

	snprintf(cmd, sizeof(cmd), "%s %s -o %s/%s >%s/%s.out 2>%s/%s.err", pcbench, args, dir,
		 name, dir, name, dir, name);
	*rc = WEXITSTATUS(system(cmd));
	snprintf(path, sizeof(path), "%s/%s/results.csv", dir, name);
	return csv_read_file(path, err, sizeof(err));
}

static json_t *calibration_of(const char *dir, const char *name)
{
	char path[1024];
	json_error_t e;
	json_t *j, *w = NULL;

	snprintf(path, sizeof(path), "%s/%s/context.json", dir, name);
	j = json_load_file(path, 0, &e);
	CHECK(j, "%s: %s", path, e.text);
	if (j) {
		w = json_object_get(json_object_get(j, "options"), "work_calibration");
		CHECK(w, "%s: no options.work_calibration", path);
		w = json_incref(w);
		json_decref(j);
	}
	return w;
}

static void test_binary(void)
{
	const char *pcbench = getenv("PCBENCH");
	char dir[] = "/tmp/pcbench-work-XXXXXX", cmd[1200];
	static const long works[] = {0, 100, 400};

	if (!pcbench || !mkdtemp(dir)) {
		CHECK(0, "PCBENCH not set or no temporary directory");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(works); i++) {
		char name[32], args[300], want[32];
		struct csv_table *t;
		json_t *w;
		int rc;

		snprintf(name, sizeof(name), "w%ld", works[i]);
		snprintf(args, sizeof(args),
			 "-s kmem -p a8c49af3be,no-kmem-counter -w pair -t 1 -r 1 --time 0.05 "
			 "-D work=%ld",
			 works[i]);
		snprintf(want, sizeof(want), "%ld", works[i]);
		t = run(pcbench, dir, name, args, &rc);
		/* one block cannot give a verdict: exit 5 */
		CHECK((rc == 0 || rc == 5) && t && t->nrows == 2, "%s: exit %d, %d rows", args, rc,
		      t ? t->nrows : -1);
		for (int r = 0; t && r < t->nrows; r++) {
			int c = csv_col(t, "param_work"), cp = csv_col(t, "preset");
			int cd = csv_col(t, "duration_s"), co = csv_col(t, "ops");

			CHECK(c >= 0 && !strcmp(t->rows[r][c], want), "%s row %d: param_work %s",
			      args, r, c >= 0 ? t->rows[r][c] : "(no column)");
			if (cp >= 0 && cd >= 0 && co >= 0 && atof(t->rows[r][co]) > 0)
				printf("work=%ld %s: %.1f ns/op (printed, not asserted)\n",
				       works[i], t->rows[r][cp],
				       atof(t->rows[r][cd]) * 1e9 / atof(t->rows[r][co]));
		}
		csv_table_free(t);
		w = calibration_of(dir, name);
		if (works[i] == 0)
			CHECK(json_is_null(w), "work=0: context.json has a calibration");
		else
			CHECK(json_is_object(w) &&
				  json_real_value(json_object_get(w, "ns_per_iteration")) > 0 &&
				  json_array_size(json_object_get(w, "trial_ns_per_iteration")) ==
				      WORK_TRIALS,
			      "work=%ld: context.json work_calibration incomplete", works[i]);
		json_decref(w);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

int main(void)
{
	test_arithmetic();
	test_calibration();
	test_every_scenario();
	test_binary();
	if (failures) {
		fprintf(stderr, "test_work: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_work: all checks passed\n");
	return 0;
}
