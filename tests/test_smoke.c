// SPDX-License-Identifier: MIT
/*
 * test_smoke.c - every preset and workload of every scenario runs end to end at
 * --time 0.02, and the CSV it writes parses back with the contract's columns and rows.
 */
#include <math.h>
#include <stdio.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "harness.h"
#include "results.h"
#include "util.h"
#include "check.h"

int main(void)
{
	const char *pcbench = getenv("PCBENCH");
	char dir[] = "/tmp/pcbench-smoke-XXXXXX", cmd[1024], path[600], err[600];
	struct csv_table *t;
	int c[RESULTS_NREQ], nexpected = 0, nok = 0;

	if (!pcbench || !mkdtemp(dir)) {
		fprintf(stderr, "PCBENCH unset or mkdtemp failed\n");
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "%s --time 0.02 -r 1 -t 1,max -o %s/run >%s/stdout 2>%s/stderr",
		 pcbench, dir, dir, dir);
	/* one block cannot give a verdict: exit 5 (measured, not enough clean data) */
	int rc = system(cmd);

	CHECK(rc != -1 && WIFEXITED(rc) && (WEXITSTATUS(rc) == 0 || WEXITSTATUS(rc) == 5),
	      "%s: exit %d, want 0 or 5", cmd, rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
	snprintf(path, sizeof(path), "%s/run/results.csv", dir);
	t = csv_read_file(path, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "FAIL: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < RESULTS_NREQ; i++) {
		c[i] = csv_col(t, results_required[i]);
		CHECK(c[i] == (int)i, "column %s at %d, want %zu", results_required[i], c[i], i);
	}
	/* The header is the column table: every fixed column in order, then the families
	 * (param_*, the four columns of every event, counters_note), nothing else. */
	CHECK(t->ncols > RESULTS_NFIXED, "%d columns, want more than %d", t->ncols, RESULTS_NFIXED);
	for (int i = 0; i < RESULTS_NFIXED && i < t->ncols; i++)
		CHECK(!strcmp(t->header[i], results_cols[i]), "column %d is %s, want %s", i,
		      t->header[i], results_cols[i]);
	for (int i = RESULTS_NFIXED, fam = 0; i < t->ncols; i++) {
		const char *h = t->header[i];
		int f = !strncmp(h, "param_", 6) ? 0 : !strcmp(h, "counters_note") ? 2 : 1;

		CHECK(f >= fam, "column %d (%s) out of its family's order", i, h);
		CHECK(f != 1 || ends_with(h, "_per_op") || ends_with(h, "_mux"),
		      "column %d (%s) belongs to no family", i, h);
		fam = f;
	}
	CHECK(!strcmp(t->header[t->ncols - 1], "counters_note"), "last column %s",
	      t->header[t->ncols - 1]);
	/* one row per (scenario, preset, workload, threads) with threads 1 and max */
	for (int s = 0; all_scenarios[s]; s++) {
		const struct scenario *sc = all_scenarios[s];

		if (sc->flags & BENCH_KERNEL) /* not in the default suite: test_kernel, kernel.sh */
			continue;
		for (int p = 0; sc->presets[p].name; p++) {
			for (int w = 0; sc->workloads[w].name; w++) {
				int found = 0;

				for (int r = 0; r < t->nrows; r++)
					found += !strcmp(t->rows[r][1], sc->name) &&
						 !strcmp(t->rows[r][2], sc->presets[p].name) &&
						 !strcmp(t->rows[r][4], sc->workloads[w].name);
				CHECK(found >= 1, "no row for %s %s %s", sc->name,
				      sc->presets[p].name, sc->workloads[w].name);
				nexpected++;
			}
		}
	}
	CHECK(t->nrows >= nexpected, "%d rows, want at least %d", t->nrows, nexpected);
	for (int r = 0; r < t->nrows && !failures; r++) {
		char **row = t->rows[r];
		double threads = atof(row[5]), ops = atof(row[10]), ops_s = atof(row[11]);
		double ns = atof(row[12]), dur = atof(row[9]);
		double lo = atof(row[13]), hi = atof(row[14]);

		/* make test runs with --noise-max off: a row is ok, or disturbed only because a
		 * busy machine starved its windows (docs/measuring.md), which says nothing */
		if (!strcmp(row[15], "disturbed") && strstr(row[16], "(starved)"))
			continue;
		CHECK(!strcmp(row[15], "ok"), "row %d: status %s (%s)", r + 1, row[15], row[16]);
		nok++;
		CHECK(ops > 0, "row %d: ops %s", r + 1, row[10]);
		CHECK(dur > 0, "row %d: duration_s %s", r + 1, row[9]);
		CHECK(fabs(ops_s * dur / ops - 1) < 1e-9, "row %d: ops_per_s != ops/duration",
		      r + 1);
		CHECK(fabs(ns * ops_s / 1e9 / threads - 1) < 1e-9,
		      "row %d: ns_per_op != threads/ops_per_s", r + 1);
		CHECK(lo <= ops / threads && ops / threads <= hi, "row %d: min/max thread ops",
		      r + 1);
		CHECK(strlen(row[7]) > 0, "row %d: empty cpus", r + 1);
		/* a layout named in the row is fingerprinted, built-in, file or computed */
		CHECK(!row[3][0] || strlen(row[csv_col(t, "layout_fp")]) == 16,
		      "row %d: layout %s without a layout_fp", r + 1, row[3]);
	}
	CHECK(failures || nok > 0, "no ok row");
	csv_table_free(t);
	snprintf(path, sizeof(path), "%s/run/context.json", dir);
	CHECK(access(path, R_OK) == 0, "no %s", path);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "note: could not remove %s\n", dir);
	if (!failures)
		printf("test_smoke: %d rows ok\n", nexpected);
	return failures != 0;
}
