// SPDX-License-Identifier: MIT
/*
 * test_compare.c SRCDIR [plot] - `pcbench compare` and `pcbench plot` on the hand-made
 * fixtures in tests/fixtures/compare/ (compare_main and plot_main run in a child process,
 * as the pcbench binary would run them).
 *
 * Without "plot": golden output (table, lkp, markdown, two runs), the join (keys on one
 * side listed, statuses not ok and multiplexed counters flagged), the base preset, --by
 * host, and bad input (exit 2 naming it); plot without gnuplot exits 4.
 * With "plot": PNG files from a fixture (scaling, forest, counters); fails when gnuplot is
 * absent (install-deps --plot).
 *
 * Golden files (tests/golden/compare/) start with one comment line saying what they check;
 * the rest must equal
 * the output byte for byte. PCBENCH_UPDATE_GOLDEN=1 rewrites them from the current output
 * (keeping the comment line): review the diff before committing.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "compare_run.h"
#include "csv.h"
#include "check.h"

static char fixtures[4096], goldens[4096];

static int count_entries(const char *dir);

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = (n + 4096 + 1) * 2;
			buf = realloc(buf, cap);
			if (!buf) {
				fclose(f);
				return NULL;
			}
		}
		size_t k = fread(buf + n, 1, 4096, f);

		n += k;
		if (k < 4096)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

struct result {
	int code;
	char *out, *err;
};

/*
 * run - call @fn (compare_main or plot_main) with the NULL-terminated arguments in a child
 * process, in directory @dir, with @path as $PATH when not NULL; collect stdout, stderr and
 * the exit status.
 */
static struct result run(int (*fn)(int, char **), const char *dir, const char *path, ...)
{
	char out_path[] = "/tmp/test_compare.out.XXXXXX",
	     err_path[] = "/tmp/test_compare.err.XXXXXX";
	int out_fd = mkstemp(out_path), err_fd = mkstemp(err_path), status;
	struct result r = {-1, NULL, NULL};
	char *argv[32];
	int argc = 0;
	va_list ap;
	pid_t pid;

	if (out_fd < 0 || err_fd < 0) {
		perror("mkstemp");
		exit(1);
	}
	va_start(ap, path);
	for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (!pid) {
		if ((dir && chdir(dir)) || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
			_exit(99);
		if (path)
			setenv("PATH", path, 1);
		exit(fn(argc, argv));
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	r.out = slurp(out_path, NULL);
	r.err = slurp(err_path, NULL);
	close(out_fd);
	close(err_fd);
	unlink(out_path);
	unlink(err_path);
	if (!r.out || !r.err) {
		fprintf(stderr, "cannot read the child's output\n");
		exit(1);
	}
	return r;
}

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
}

/* golden - @out must equal tests/golden/compare/@name after its first (comment) line. */
static void golden(const char *name, const char *out)
{
	char path[8192];
	char *text, *body;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", goldens, name);
	text = slurp(path, &len);
	if (!text) {
		fail("%s: cannot read", path);
		return;
	}
	body = strchr(text, '\n');
	body = body ? body + 1 : text + len;
	if (getenv("PCBENCH_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");

		if (!f || fwrite(text, 1, (size_t)(body - text), f) != (size_t)(body - text) ||
		    fputs(out, f) < 0 || fclose(f))
			fail("%s: cannot rewrite", path);
		else
			printf("rewrote %s\n", path);
	} else if (strcmp(body, out)) {
		const char *a = body, *b = out;
		int line = 2;

		while (*a && *a == *b) {
			line += *a == '\n';
			a++;
			b++;
		}
		fail("%s: output differs at line %d of the golden file:\n  want: %.*s\n  got:  "
		     "%.*s",
		     name, line, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
	}
	free(text);
}

static void test_golden(void)
{
	static const struct {
		const char *fmt, *file;
	} g[] = {
	    {"summary", "summary.txt"},
	    {"table", "table.txt"},
	    {"lkp", "lkp.txt"},
	    {"markdown", "markdown.md"},
	};

	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		struct result r =
		    run(compare_main, fixtures, NULL, "compare", "one", "--format", g[i].fmt, NULL);

		CHECK(r.code == 0, "compare one --format %s: exit %d: %s", g[i].fmt, r.code, r.err);
		golden(g[i].file, r.out);
		result_free(&r);
	}
	{
		struct result r =
		    run(compare_main, fixtures, NULL, "compare", "a.csv", "b.csv", NULL);

		CHECK(r.code == 0, "compare a.csv b.csv: exit %d: %s", r.code, r.err);
		golden("two-runs.txt", r.out);
		result_free(&r);
	}
}

/* A parsed `--format csv` report, and lookups in it. */
struct report {
	struct csv_table *t;
};

static struct report csv_report(const char *text)
{
	char err[256];
	struct report rep = {csv_parse(text, strlen(text), "report", err, sizeof(err))};

	if (!rep.t) {
		fprintf(stderr, "the csv report does not parse: %s\n", err);
		exit(1);
	}
	return rep;
}

static const char *get(const struct report *rep, int row, const char *col)
{
	int c = csv_col(rep->t, col);

	if (c < 0) {
		fail("csv report: no column %s", col);
		return "";
	}
	return rep->t->rows[row][c];
}

/* find - the row whose testcase starts with @tc, threads is @threads and metric @metric. */
static int find(const struct report *rep, const char *tc, const char *threads, const char *metric)
{
	for (int i = 0; i < rep->t->nrows; i++)
		if (!strncmp(get(rep, i, "testcase"), tc, strlen(tc)) &&
		    !strcmp(get(rep, i, "threads"), threads) &&
		    !strcmp(get(rep, i, "metric"), metric))
			return i;
	return -1;
}

static int contains(const struct report *rep, int row, const char *col, const char *what)
{
	return row >= 0 && strstr(get(rep, row, col), what) != NULL;
}

static void test_join_two_runs(void)
{
	struct result r =
	    run(compare_main, fixtures, NULL, "compare", "a.csv", "b.csv", "--format", "csv", NULL);
	struct report rep;
	int row, only_a = 0, only_b = 0;

	CHECK(r.code == 0, "compare a.csv b.csv --format csv: exit %d: %s", r.code, r.err);
	rep = csv_report(r.out);

	/* a.csv has no home column and b.csv an empty one: the keys still match */
	row = find(&rep, "before", "1", "ops_per_s");
	CHECK(row >= 0, "two runs: before/threads=1 not compared");
	CHECK(contains(&rep, row, "flags", "with-patch 1/5 error"),
	      "two runs: the error row of b.csv is not flagged (flags: %s)",
	      row >= 0 ? get(&rep, row, "flags") : "");
	CHECK(row >= 0 && !strcmp(get(&rep, row, "n_with_patch"), "4"),
	      "two runs: the error row is counted as a repetition");
	CHECK(row >= 0 && !strcmp(get(&rep, row, "verdict"), "regressed"),
	      "two runs: before/threads=1 is -9.75%% with p = 0.016, want regressed");
	row = find(&rep, "+fix", "1", "hitm_local_per_op");
	CHECK(contains(&rep, row, "flags", "multiplexed (mux 0.75)"),
	      "two runs: hitm_local_mux 0.75 in b.csv is not flagged");
	CHECK(find(&rep, "+fix", "1", "rfo_hitm_per_op") < 0,
	      "two runs: rfo_hitm_per_op is measured in b.csv only but was compared");

	for (int i = 0; i < rep.t->nrows; i++) {
		if (strcmp(get(&rep, i, "verdict"), "unmatched"))
			continue;
		if (contains(&rep, i, "flags", "only in A") &&
		    !strncmp(get(&rep, i, "testcase"), "+fix [L1] batch=32", 18) &&
		    !strcmp(get(&rep, i, "threads"), "2"))
			only_a++;
		else if (contains(&rep, i, "flags", "only in B") &&
			 (!strcmp(get(&rep, i, "threads"), "4") ||
			  !strncmp(get(&rep, i, "testcase"), "+fix [L1] batch=64", 18)))
			only_b++;
		else
			fail("two runs: unexpected unmatched key %s threads=%s (%s)",
			     get(&rep, i, "testcase"), get(&rep, i, "threads"),
			     get(&rep, i, "flags"));
	}
	CHECK(only_a == 1, "two runs: +fix batch=32 threads=2 (only in a.csv) listed %d times",
	      only_a);
	CHECK(only_b == 2, "two runs: the 2 keys only in b.csv listed %d times", only_b);
	csv_table_free(rep.t);
	result_free(&r);

	r = run(compare_main, fixtures, NULL, "compare", "a.csv", "b.csv", "--by", "host",
		"--format", "csv", NULL);
	CHECK(r.code == 0, "--by host: exit %d: %s", r.code, r.err);
	rep = csv_report(r.out);
	row = find(&rep, "before", "1", "ops_per_s");
	CHECK(row >= 0 && !strcmp(get(&rep, row, "base"), "hostA") &&
		  !strcmp(get(&rep, row, "with_patch"), "hostB#fpB"),
	      "--by host: want hostA against hostB#fpB (host#topology_fp)");
	csv_table_free(rep.t);
	result_free(&r);
}

static void test_one_run(void)
{
	struct result r = run(compare_main, fixtures, NULL, "compare", "one", "-f", "csv", NULL);
	struct report rep;
	int row, no_base = 0;

	CHECK(r.code == 0, "compare one -f csv: exit %d: %s", r.code, r.err);
	rep = csv_report(r.out);
	row = find(&rep, "+fix", "1", "ops_per_s");
	CHECK(row >= 0 && !strcmp(get(&rep, row, "base"), "before [L0]"),
	      "one run: the base is the first preset of the CSV (before)");
	CHECK(row >= 0 && !strcmp(get(&rep, row, "verdict"), "improved") &&
		  !strcmp(get(&rep, row, "p_method"), "exact"),
	      "one run: +fix threads=1 is +50%% with 5 vs 5 separated: want improved (exact)");
	row = find(&rep, "+half", "4", "ops_per_s");
	CHECK(row >= 0 && !strcmp(get(&rep, row, "verdict"), "n/a") &&
		  contains(&rep, row, "flags", "with-patch 3/3 skipped: 4 threads but 2 PUs"),
	      "one run: +half threads=4 (all skipped) not flagged as skipped");
	row = find(&rep, "+half", "2", "ops_per_s");
	CHECK(contains(&rep, row, "flags", "with-patch 1/5 error"),
	      "one run: +half threads=2 error row not flagged");
	row = find(&rep, "+fix", "2", "hitm_local_per_op");
	CHECK(contains(&rep, row, "flags", "with-patch multiplexed (mux 0.50)"),
	      "one run: hitm_local_mux < 1 not flagged");
	CHECK(!contains(&rep, find(&rep, "+fix", "2", "llc_miss_per_op"), "flags", "multiplexed"),
	      "one run: llc_miss flagged although its _mux is 1");
	/* A counter 0 on both sides is not a row; from a zero median, 0 -> x is infinite. */
	CHECK(find(&rep, "+fix", "1", "c2c_fill_local_per_op") < 0,
	      "one run: c2c_fill_local 0 -> 0 (all zero) must not appear");
	row = find(&rep, "+half", "1", "c2c_fill_local_per_op");
	CHECK(row >= 0 && !strcmp(get(&rep, row, "change_pct"), "inf") &&
		  !strcmp(get(&rep, row, "verdict"), "regressed"),
	      "one run: c2c_fill_local 0 -> 0.01 must be +inf %%, regressed");
	row = find(&rep, "+fix", "4", "ops_per_s");
	CHECK(row >= 0 && !strcmp(get(&rep, row, "verdict"), "no verdict") &&
		  contains(&rep, row, "flags", "3 vs 3 ok repetitions: 4 a side needed"),
	      "one run: 3 vs 3 repetitions must give 'no verdict', saying 4 a side are needed");
	CHECK(find(&rep, "+fix", "4", "llc_miss_per_op") < 0,
	      "one run: llc_miss_per_op is empty at threads=4 but was compared");
	for (int i = 0; i < rep.t->nrows; i++)
		no_base += !strcmp(get(&rep, i, "verdict"), "unmatched") &&
			   !strcmp(get(&rep, i, "threads"), "8") &&
			   contains(&rep, i, "flags", "no base before");
	CHECK(no_base == 1, "one run: threads=8 has no base and must be listed once");
	csv_table_free(rep.t);
	result_free(&r);

	r = run(compare_main, fixtures, NULL, "compare", "one", NULL);
	CHECK(strstr(r.out, "smallest possible p is 0.1") != NULL,
	      "one run: the header does not say that 3 vs 3 cannot reach p < 0.05");
	CHECK(strstr(r.out, "p < 0.05") && strstr(r.out, "|%change| >= 1%"),
	      "one run: the header does not print the rule");
	CHECK(strstr(r.out, "lab1 (Example CPU @ 2.00GHz)") != NULL,
	      "one run: the header does not name the machine from context.json");
	result_free(&r);

	r = run(compare_main, fixtures, NULL, "compare", "one", "--base", "+fix", "-f", "csv",
		NULL);
	rep = csv_report(r.out);
	row = find(&rep, "before", "1", "ops_per_s");
	CHECK(r.code == 0 && row >= 0 && !strcmp(get(&rep, row, "base"), "+fix [L1]") &&
		  !strcmp(get(&rep, row, "verdict"), "regressed"),
	      "--base +fix: before must be compared against +fix (and be a regression)");
	csv_table_free(rep.t);
	result_free(&r);

	/* Rows in random order (interleaved repetitions): the registry's first preset wins. */
	r = run(compare_main, fixtures, NULL, "compare", "pc-shuffled.csv", "-f", "csv", NULL);
	rep = csv_report(r.out);
	row = find(&rep, "+A", "1", "ops_per_s");
	CHECK(r.code == 0 && row >= 0 && !strcmp(get(&rep, row, "base"), "v6.0-rc1 [v6.0]"),
	      "page_counter: the base must be v6.0-rc1 even when +A comes first in the CSV");
	csv_table_free(rep.t);
	result_free(&r);
}

/*
 * The correction per family, on endrun/ (threads=1: +a and +b separated from the base, raw
 * p 0.0079 each, +c with one overlap, 0.0159): Holm gives all three 3 x 0.0079 = 0.0238,
 * Benjamini-Hochberg gives +a and +b 3/2 x 0.0079 = 0.0119 and +c its own 0.0159.
 */
static void test_correction(void)
{
	static const struct {
		const char *name, *preset;
		double want;
	} corr[] = {
	    {"holm", "+a", 3 * 2.0 / 252}, {"holm", "+c", 3 * 2.0 / 252},
	    {"bh", "+a", 1.5 * 2.0 / 252}, {"bh", "+c", 4.0 / 252},
	    {"none", "+a", 2.0 / 252},	   {"none", "+c", 4.0 / 252},
	};

	for (size_t i = 0; i < sizeof(corr) / sizeof(corr[0]); i++) {
		struct result r = run(compare_main, fixtures, NULL, "compare", "endrun", "-f",
				      "csv", "--correction", corr[i].name, NULL);
		struct report rep = csv_report(r.out);
		int row = find(&rep, corr[i].preset, "1", "ops_per_s");
		double adj = row >= 0 ? atof(get(&rep, row, "p_adjusted")) : 0;

		CHECK(
		    r.code == 0 && row >= 0 && fabs(adj - corr[i].want) < 1e-12 &&
			!strcmp(get(&rep, row, "correction"), corr[i].name) &&
			!strcmp(get(&rep, row, "family_size"), "3") &&
			!strcmp(get(&rep, row, "verdict"), "improved"),
		    "--correction %s: %s threads=1 adjusted p %g, want %g (family of 3), improved",
		    corr[i].name, corr[i].preset, adj, corr[i].want);
		csv_table_free(rep.t);
		result_free(&r);
	}
}

/*
 * The end-of-run report (compare_run_report, what a measurement prints at its end) of a copy
 * of endrun/ in a scratch directory: the golden summary, the significant changes list, and
 * the full report written next to its results.csv.
 */
static int run_report(int argc, char **argv)
{
	struct run_verdicts v = {-1, 0, 0, 0};
	int status = compare_run_report(argv[1], &v);

	(void)argc;
	return status ? 100 + status : v.no_verdict; /* the child's exit status carries the count */
}

/*
 * The same on blocks/ (a run of the block design, hand-made; docs/compare.md#blocks): two
 * tables, one comparison without a verdict (3 of its 4 blocks disturbed), two host mappings.
 */
static void test_end_report(const char *fixture, const char *golden_file, int want_no_verdict)
{
	char scratch[] = "/tmp/test_compare.end.XXXXXX", cmd[16384];
	struct result r;

	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(cmd, sizeof(cmd), "cp -r '%s/%s' '%s/run'", fixtures, fixture, scratch);
	if (system(cmd)) {
		fail("cannot copy %s/", fixture);
		return;
	}
	r = run(run_report, scratch, NULL, "report", "run", NULL);
	CHECK(r.code == want_no_verdict,
	      "compare_run_report %s: exit %d (100 + status, or the no-verdict count %d): %s",
	      fixture, r.code, want_no_verdict, r.err);
	golden(golden_file, r.out);
	snprintf(cmd, sizeof(cmd), "%s/run", scratch);
	CHECK(count_entries(cmd) == 5,
	      "compare_run_report: want results.csv, context.json and 3 "
	      "report files in the run directory, have %d",
	      count_entries(cmd));
	result_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd))
		fail("cannot remove %s", scratch);
}

/* count_entries - the names in directory @dir, "." and ".." aside. */
static int count_entries(const char *dir)
{
	char cmd[8192];
	FILE *p;
	int n = 0, ch;

	snprintf(cmd, sizeof(cmd), "ls -A '%s'", dir);
	p = popen(cmd, "r");
	while (p && (ch = fgetc(p)) != EOF)
		n += ch == '\n';
	if (p)
		pclose(p);
	return n;
}

/* compare writes no file without -o; with -o DIR its full report, the table as compare.txt. */
static void test_out_dir(void)
{
	char scratch[] = "/tmp/test_compare.out.XXXXXX", one[8192], path[8192 + 64];
	struct result r, t;
	static const char *const files[] = {"compare.txt", "compare-lkp.txt", "compare.csv"};

	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(one, sizeof(one), "%s/one", fixtures);
	r = run(compare_main, scratch, NULL, "compare", one, NULL);
	CHECK(r.code == 0 && count_entries(scratch) == 0,
	      "compare without -o: exit %d, %d files left in the working directory", r.code,
	      count_entries(scratch));
	result_free(&r);
	r = run(compare_main, scratch, NULL, "compare", one, "-o", "rep", NULL);
	CHECK(r.code == 0 && strstr(r.out, "full report (every metric) in rep:"),
	      "compare -o rep: exit %d, stdout does not say where the report is", r.code);
	snprintf(path, sizeof(path), "%s/rep", scratch);
	CHECK(count_entries(scratch) == 1 && count_entries(path) == 3,
	      "compare -o rep: want only rep/ with 3 files");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/rep/%s", scratch, files[i]);
		CHECK(access(path, R_OK) == 0, "compare -o: no %s", files[i]);
	}
	t = run(compare_main, scratch, NULL, "compare", one, "-f", "table", NULL);
	snprintf(path, sizeof(path), "%s/rep/compare.txt", scratch);
	{
		char *txt = slurp(path, NULL);

		CHECK(txt && !strcmp(txt, t.out), "compare.txt is not the table format's output");
		free(txt);
	}
	result_free(&t);
	result_free(&r);
	snprintf(path, sizeof(path), "rm -rf '%s'", scratch);
	if (system(path))
		fail("cannot remove %s", scratch);
}

/* expect_error - exit 2 and a stderr line naming @what. */
static void expect_error(int (*fn)(int, char **), const char *what, const char *a1, const char *a2,
			 const char *a3, const char *a4)
{
	struct result r =
	    run(fn, fixtures, NULL, fn == plot_main ? "plot" : "compare", a1, a2, a3, a4, NULL);

	CHECK(r.code == 2 && strstr(r.err, what) && strncmp(r.err, "pcbench: ", 9) == 0,
	      "%s %s %s %s: exit %d (want 2), stderr %s(want a message naming \"%s\")",
	      fn == plot_main ? "plot" : "compare", a1, a2 ? a2 : "", a3 ? a3 : "", r.code, r.err,
	      what);
	result_free(&r);
}

static void test_bad_input(void)
{
	expect_error(compare_main, "no/such/run", "no/such/run", NULL, NULL, NULL);
	expect_error(compare_main, "no/such/run", "one", "no/such/run", NULL, NULL);
	expect_error(compare_main,
		     "no-ops-per-s.csv: not a pcbench results CSV: no column "
		     "\"ops_per_s\"",
		     "no-ops-per-s.csv", NULL, NULL, NULL);
	expect_error(compare_main, "--base: +nope", "one", "--base", "+nope", NULL);
	expect_error(compare_main, "--format: xml", "one", "--format", "xml", NULL);
	expect_error(compare_main, "--alpha: 2", "one", "--alpha", "2", NULL);
	expect_error(compare_main, "--correction: bonferroni", "one", "--correction", "bonferroni",
		     NULL);
	expect_error(compare_main, "--metric: bogus_per_op", "one", "--metric", "bogus_per_op",
		     NULL);
	expect_error(compare_main, "RUN", NULL, NULL, NULL, NULL);
	expect_error(plot_main, "no/such/run", "no/such/run", NULL, NULL, NULL);
	expect_error(plot_main, "no-ops-per-s.csv", "no-ops-per-s.csv", NULL, NULL, NULL);
}

static void test_plot_without_gnuplot(void)
{
	char out[] = "/tmp/test_compare.plot.XXXXXX";
	struct result r;

	if (!mkdtemp(out)) {
		perror("mkdtemp");
		exit(1);
	}
	r = run(plot_main, fixtures, "/nonexistent", "plot", "one", "-o", out, NULL);
	CHECK(r.code == 4 && strstr(r.err, "gnuplot"),
	      "plot without gnuplot: exit %d (want 4, skipped), stderr: %s", r.code, r.err);
	result_free(&r);
	rmdir(out);
}

/* check_png - @dir/@name exists, starts with the PNG signature and is over 1 KiB. */
static void check_png(const char *dir, const char *name)
{
	static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	char path[8192];
	size_t len = 0;
	char *data;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	data = slurp(path, &len);
	CHECK(data != NULL, "plot: %s was not written", path);
	if (!data)
		return;
	CHECK(len > 1024 && !memcmp(data, sig, 8), "plot: %s is not a PNG over 1 KiB (%zu bytes)",
	      path, len);
	free(data);
	unlink(path);
}

static int test_plot(void)
{
	char out[] = "/tmp/test_compare.plot.XXXXXX";
	const char *path = getenv("PATH");
	int found = 0;
	struct result r;

	/* gnuplot on $PATH? Otherwise this test is skipped. */
	for (const char *p = path ? path : ""; *p && !found;) {
		size_t n = strcspn(p, ":");
		char exe[4096];

		snprintf(exe, sizeof(exe), "%.*s/gnuplot", (int)n, p);
		found = access(exe, X_OK) == 0;
		p += n + (p[n] == ':');
	}
	if (!found) {
		printf("FAIL: gnuplot is not installed (Debian package gnuplot-nox, "
		       "scripts/install-deps --plot)\n");
		return 1;
	}
	if (!mkdtemp(out)) {
		perror("mkdtemp");
		exit(1);
	}
	r = run(plot_main, fixtures, NULL, "plot", "one", "-o", out, NULL);
	CHECK(r.code == 0, "plot one -o %s: exit %d, stderr: %s", out, r.code, r.err);
	CHECK(strstr(r.out, "c2c-matrix.png: no c2c --matrix data"),
	      "plot: no note that c2c-matrix.png was skipped");
	check_png(out, "scaling-fixture-w1.png");
	check_png(out, "forest-fixture-w1.png");
	check_png(out, "counters-fixture.png");
	result_free(&r);
	CHECK(rmdir(out) == 0, "plot: %s holds more files than expected", out);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: test_compare SRCDIR [plot]\n");
		return 2;
	}
	snprintf(fixtures, sizeof(fixtures), "%s/tests/fixtures/compare", argv[1]);
	snprintf(goldens, sizeof(goldens), "%s/tests/golden/compare", argv[1]);
	if (argc > 2 && !strcmp(argv[2], "plot")) {
		rc = test_plot();
	} else {
		test_golden();
		test_join_two_runs();
		test_one_run();
		test_correction();
		test_out_dir();
		test_end_report("endrun", "end.txt", 1);
		test_end_report("blocks", "blocks.txt", 1);
		test_bad_input();
		test_plot_without_gnuplot();
	}
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	if (!rc)
		printf("ok\n");
	return rc;
}
