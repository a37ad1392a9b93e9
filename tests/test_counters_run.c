// SPDX-License-Identifier: MIT
/*
 * test_counters_run.c - counters end to end through the binary: software events count here
 * (task_clock per op, mux 1, a 0.1 s window's summed task clock within 0.5x..1.5x of
 * threads x window); hardware events this machine cannot count are empty with a note and
 * status=ok; an unknown event exits 2 naming it. No timing assertion beyond that bound.
 * Skipped (77) where perf_event_open is ENOSYS (qemu-user, some containers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "csv.h"
#include "check.h"

static struct csv_table *run(const char *pcbench, const char *dir, const char *name,
			     const char *args, int *rc)
{
	char cmd[2048], path[1024], err[1024];
	struct csv_table *t;

	snprintf(cmd, sizeof(cmd), "%s %s -o %s/%s >%s/%s.out 2>%s/%s.err", pcbench, args, dir,
		 name, dir, name, dir, name);
	*rc = system(cmd);
	*rc = WEXITSTATUS(*rc);
	snprintf(path, sizeof(path), "%s/%s/results.csv", dir, name);
	t = csv_read_file(path, err, sizeof(err));
	return t;
}

static const char *cell(const struct csv_table *t, int r, const char *col)
{
	int c = csv_col(t, col);

	return c < 0 ? NULL : t->rows[r][c];
}

int main(void)
{
	const char *pcbench = getenv("PCBENCH");
	char dir[] = "/tmp/pcbench-counters-XXXXXX", cmd[1200], path[1100];
	struct csv_table *t;
	int rc;

	if (!pcbench)
		return 1;
	{
		struct perf_event_attr a = {.type = PERF_TYPE_SOFTWARE,
					    .size = sizeof(a),
					    .config = PERF_COUNT_SW_TASK_CLOCK,
					    .disabled = 1};
		long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);

		if (fd < 0 && errno == ENOSYS) {
			printf("SKIP: perf_event_open is ENOSYS here (qemu-user, a container): "
			       "no counters\n");
			return 77;
		}
		if (fd >= 0)
			close((int)fd);
	}
	if (!mkdtemp(dir))
		return 1;

	/* software events: counted for real wherever perf_event_open works */
	t = run(pcbench, dir, "sw",
		"-p +ABC -w direct -t 1,max -r 1 --time 0.1 --events task_clock,page_faults", &rc);
	CHECK(rc == 0 && t, "--events task_clock: exit %d", rc);
	for (int r = 0; t && r < t->nrows; r++) {
		double per_op = atof(cell(t, r, "task_clock_per_op"));
		double ops = atof(cell(t, r, "ops")), threads = atof(cell(t, r, "threads"));
		double window = atof(cell(t, r, "duration_s"));
		double total = per_op * ops * 1e-9; /* summed task clock, seconds */

		if (!strcmp(cell(t, r, "status"), "disturbed") &&
		    strstr(cell(t, r, "reason"), "(starved)"))
			continue; /* --noise-max off (make test): a busy machine starved it */

		CHECK(cell(t, r, "task_clock_per_op")[0], "row %d: empty task_clock_per_op", r);
		CHECK(!strcmp(cell(t, r, "task_clock_mux"), "1"), "row %d: task_clock_mux %s", r,
		      cell(t, r, "task_clock_mux"));
		/* on the CPU (task clock) + waiting for it (run delay) is the window: a thread
		 * never sleeps in it, and on a busy machine most of it may be the waiting */
		double waited = atof(cell(t, r, "run_delay_ns")) * 1e-9;

		CHECK((!cell(t, r, "run_delay_ns")[0] || total + waited > 0.5 * threads * window) &&
			  total > 0 && total < 1.5 * threads * window,
		      "row %d: summed task clock %.3f s + run delay %.3f s for %g threads x %.3f s",
		      r, total, waited, threads, window);
		CHECK(cell(t, r, "page_faults_per_op")[0], "row %d: empty page_faults_per_op", r);
		/* not asked for: empty, never zero */
		CHECK(!cell(t, r, "cycles_per_op")[0], "row %d: cycles not asked for but %s", r,
		      cell(t, r, "cycles_per_op"));
	}
	csv_table_free(t);

	/* auto: what this machine cannot count is empty and explained; the row is ok */
	t = run(pcbench, dir, "auto", "-p +ABC -w direct -t 1 -r 1 --time 0.02", &rc);
	CHECK(rc == 0 && t && t->nrows == 1, "--events auto: exit %d", rc);
	if (t && t->nrows == 1) {
		/* --noise-max off (make test): disturbed only when a busy machine starved it */
		CHECK(!strcmp(cell(t, 0, "status"), "ok") ||
			  (!strcmp(cell(t, 0, "status"), "disturbed") &&
			   strstr(cell(t, 0, "reason"), "(starved)")),
		      "auto: status %s", cell(t, 0, "status"));
		for (const char *const *e = (const char *const[]){"hitm_local", "hitm_remote",
								  "cycles", "llc_miss", NULL};
		     *e; e++) {
			char col[64];

			snprintf(col, sizeof(col), "%s_per_op", *e);
			if (cell(t, 0, col)[0])
				continue; /* this machine counts it: nothing to explain */
			CHECK(strstr(cell(t, 0, "counters_note"), *e),
			      "auto: %s empty but not named in counters_note '%s'", *e,
			      cell(t, 0, "counters_note"));
		}
	}
	csv_table_free(t);

	/* an unknown event: exit 2 naming it, nothing measured */
	t = run(pcbench, dir, "bad", "-t 1 -r 1 --time 0.01 --events nosuchevent", &rc);
	snprintf(path, sizeof(path), "grep -q nosuchevent %s/bad.err", dir);
	CHECK(rc == 2 && !t && system(path) == 0, "--events nosuchevent: exit %d", rc);
	csv_table_free(t);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "note: could not remove %s\n", dir);
	if (!failures)
		printf("test_counters_run: ok\n");
	return failures != 0;
}
