// SPDX-License-Identifier: MIT
/*
 * merge.c - pcbench merge RUN... -o DIR: several runs (of several hosts, or of different
 * scenario selections) into one results.csv and results.jsonl with the union of their
 * columns, and each run's context.json under DIR/contexts/.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "infile.h"
#include "outfile.h"
#include "results.h"
#include "util.h"

static const struct opt merge_opts[] = {
    {"out", 'o', "DIR", "the merged run directory (required; must not hold results)"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};

const struct cmd_help merge_help = {
    .name = "merge",
    .synopsis = "usage: pcbench merge RUN... -o DIR\n",
    .about = "Merges run directories (or results CSVs) into DIR: results.csv with the union of\n"
	     "their columns (the fixed columns in table order, then the others as first seen;\n"
	     "a cell is empty where its run has no such column), results.jsonl (the same rows,\n"
	     "each with only its own run's columns), and each run's context.json as\n"
	     "DIR/contexts/RUN_ID[-LABEL].json. Two runs holding rows of the same run_id and\n"
	     "label are refused (the same run given twice). `pcbench compare DIR --by host`\n"
	     "then puts the hosts (their --label) side by side.\n",
    .opts = merge_opts,
    .after = "Exit status: 0 merged, 1 a write failed, 2 bad usage or input (nothing\n"
	     "written).\n"
	     "\n"
	     "Example:\n"
	     "  pcbench merge results/lab-*/lab1/* results/lab-*/lab2/* -o results/merged\n",
};

/* The distinct (run_id, label) keys of one run's rows. */
struct keys {
	char **k;
	int n;
};

static void run_keys(const struct run_file *r, struct keys *ks)
{
	int c_id = csv_col(r->t, "run_id"), c_label = csv_col(r->t, "label");

	for (int i = 0; i < r->t->nrows; i++) {
		char *k = xasprintf("%s\x1f%s", r->t->rows[i][c_id],
				    c_label >= 0 ? r->t->rows[i][c_label] : "");
		int seen = 0;

		for (int j = 0; j < ks->n && !seen; j++)
			seen = !strcmp(ks->k[j], k);
		if (seen) {
			free(k);
			continue;
		}
		ks->k = xrealloc(ks->k, (size_t)(ks->n + 1) * sizeof(*ks->k));
		ks->k[ks->n++] = k;
	}
}

/* refuse_duplicates - exit 2 when two runs hold rows of the same (run_id, label). */
static void refuse_duplicates(const struct run_file *runs, struct keys *ks, int n)
{
	for (int a = 0; a < n; a++)
		run_keys(&runs[a], &ks[a]);
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			for (int i = 0; i < ks[a].n; i++)
				for (int j = 0; j < ks[b].n; j++) {
					const char *k = ks[a].k[i], *sep = strchr(k, '\x1f');

					if (strcmp(k, ks[b].k[j]))
						continue;
					usage_error(
					    "RUN", runs[b].arg,
					    "holds rows of run_id %.*s%s%s, as %s does: the "
					    "same run twice (refused)",
					    (int)(sep - k), k, sep[1] ? " label " : "", sep + 1,
					    runs[a].arg);
				}
}

/* union_columns - the fixed columns any run has, in table order, then the others. */
static int union_columns(const struct run_file *runs, int n, const char ***out)
{
	const char **cols = NULL;
	int ncols = 0;

	for (int i = 0; i < RESULTS_NFIXED; i++)
		for (int r = 0; r < n; r++)
			if (csv_col(runs[r].t, results_cols[i]) >= 0) {
				cols = xrealloc(cols, (size_t)(ncols + 1) * sizeof(*cols));
				cols[ncols++] = results_cols[i];
				break;
			}
	for (int r = 0; r < n; r++)
		for (int c = 0; c < runs[r].t->ncols; c++) {
			const char *name = runs[r].t->header[c];
			int seen = 0;

			for (int i = 0; i < ncols && !seen; i++)
				seen = !strcmp(cols[i], name);
			if (seen)
				continue;
			cols = xrealloc(cols, (size_t)(ncols + 1) * sizeof(*cols));
			cols[ncols++] = name;
		}
	*out = cols;
	return ncols;
}

/* copy_context - @from (a context.json) to @to through the checked output path. */
static int copy_context(const char *from, const char *to)
{
	char err[1024];
	json_t *j = infile_json(from, err, sizeof(err));
	char *text;
	int rc;

	if (!j) {
		fprintf(stderr, "pcbench: merge: %s\n", err);
		return -1;
	}
	text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(j);
	rc = text ? outfile_write_all(to, text, strlen(text)) : -1;
	free(text);
	return rc;
}

/* copy_contexts - each run's context.json as DIR/contexts/RUN_ID[-LABEL].json. */
static int copy_contexts(const struct run_file *runs, int n, const char *dir, int *copied)
{
	char *cdir = xasprintf("%s/contexts", dir);
	int bad = 0;
	struct stat st;

	*copied = 0;
	for (int r = 0; r < n; r++) {
		char *from, *to;
		const char *id = runs[r].run_id;

		if (!runs[r].dir)
			continue;
		from = xasprintf("%s/context.json", runs[r].dir);
		if (stat(from, &st)) {
			free(from);
			continue;
		}
		if (!*copied)
			mkdir_p(cdir, "--out");
		if (!id) /* no run_id in it: the first row's */
			id = runs[r].t->rows[0][csv_col(runs[r].t, "run_id")];
		to = xasprintf("%s/%s%s%s.json", cdir, id, runs[r].label ? "-" : "",
			       runs[r].label ? runs[r].label : "");
		for (int k = 2; !stat(to, &st); k++) { /* two CSVs of one run: keep both */
			free(to);
			to = xasprintf("%s/%s%s%s.%d.json", cdir, id, runs[r].label ? "-" : "",
				       runs[r].label ? runs[r].label : "", k);
		}
		if (copy_context(from, to))
			bad = 1;
		else
			++*copied;
		free(from);
		free(to);
	}
	free(cdir);
	return bad;
}

/* The state of one merge: file-scope so that it stays reachable until exit. */
static struct {
	struct run_file *runs;
	struct keys *keys;
	const char **cols, **vals;
	int *map;
} M;

int merge_main(int argc, char **argv)
{
	struct opt_parser op;
	const char *dir = NULL;
	char err[PATH_MAX + 256];
	struct csv_writer *w;
	struct stat st;
	struct outfile jl;
	char *csv_path, *jl_path;
	int n, ncols, nrows = 0, bad = 0, copied;

	opt_init(&op, &merge_help);
	while (opt_next(&op, argc, argv) == 'o')
		dir = optarg;
	if (!dir)
		usage_error("--out", "", "missing: merge needs -o DIR (see pcbench merge --help)");
	n = argc - optind;
	if (n < 1)
		usage_error("RUN", "", "missing: give the run directories to merge");
	M.runs = xcalloc((size_t)n, sizeof(*M.runs));
	M.keys = xcalloc((size_t)n, sizeof(*M.keys));
	for (int r = 0; r < n; r++)
		run_file_load(&M.runs[r], argv[optind + r]);
	refuse_duplicates(M.runs, M.keys, n);
	ncols = union_columns(M.runs, n, &M.cols);

	/* Everything is checked before anything is created: a refusal leaves no trace. */
	csv_path = xasprintf("%s/results.csv", dir);
	jl_path = xasprintf("%s/results.jsonl", dir);
	if (!stat(csv_path, &st) && st.st_size > 0)
		usage_error("--out", dir, "%s exists (choose a new directory)", csv_path);
	if (!stat(jl_path, &st) && st.st_size > 0)
		usage_error("--out", dir, "%s exists (choose a new directory)", jl_path);
	mkdir_p(dir, "--out");
	w = csv_create(csv_path, M.cols, ncols, 0, err, sizeof(err));
	if (!w)
		usage_error("--out", dir, "%s", err);
	if (outfile_open(&jl, jl_path))
		return 1;

	M.vals = xcalloc((size_t)ncols, sizeof(*M.vals));
	M.map = xcalloc((size_t)ncols, sizeof(*M.map));
	for (int r = 0; r < n && !bad; r++) {
		const struct csv_table *t = M.runs[r].t;

		for (int c = 0; c < ncols; c++)
			M.map[c] = csv_col(t, M.cols[c]);
		for (int i = 0; i < t->nrows && !bad; i++, nrows++) {
			for (int c = 0; c < ncols; c++)
				M.vals[c] = M.map[c] >= 0 ? t->rows[i][M.map[c]] : NULL;
			if (results_jsonl_row(jl.f, M.cols, M.vals, ncols)) {
				fprintf(stderr, "pcbench: merge: %s: %s\n", jl_path,
					strerror(errno));
				bad = 1;
			}
			if (!bad && csv_write_row(w, M.vals)) {
				fprintf(stderr, "pcbench: merge: %s: %s\n", csv_path,
					strerror(errno));
				bad = 1;
			}
		}
	}
	if (csv_close(w)) {
		fprintf(stderr, "pcbench: merge: %s: %s\n", csv_path, strerror(errno));
		bad = 1;
	}
	if (bad)
		outfile_abort(&jl);
	else if (outfile_close(&jl))
		bad = 1;
	bad |= copy_contexts(M.runs, n, dir, &copied);
	if (bad) {
		fprintf(stderr, "pcbench: merge: %s is incomplete (a write failed)\n", dir);
		return 1;
	}
	printf("merged %d run%s (%d rows, %d columns) into %s; %d context%s in %s/contexts\n", n,
	       n == 1 ? "" : "s", nrows, ncols, csv_path, copied, copied == 1 ? "" : "s", dir);
	free(csv_path);
	free(jl_path);
	return 0;
}
