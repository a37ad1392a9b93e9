// SPDX-License-Identifier: MIT
/*
 * cmd_merge.c - pcbench merge RUN... -o DIR: several runs (of several hosts, or of different
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
#include <unistd.h>

#include "commands.h"
#include "infile.h"
#include "outfile.h"
#include "outpath.h"
#include "results.h"
#include "util.h"

struct merge_args {
	const char *dir;
};

static const struct opt merge_opts[] = {
    OPT_STR("out", 'o', "DIR", struct merge_args, dir,
	    "the merged run directory (required; must not hold results)"),
    OPT_HELP,
    OPT_END,
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
	     "written), 3 interrupted (no half-written file is left).\n"
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
	int c_id = results_col(r->t, COL_RUN_ID), c_label = results_col(r->t, COL_LABEL);

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

/* A run's context.json, read and checked before anything is created. */
struct ctx_copy {
	char *name; /* its file name under DIR/contexts/ */
	char *text; /* its JSON, as written there */
};

/* rows_have_run_id - some row of @t has run_id @id. */
static int rows_have_run_id(const struct csv_table *t, const char *id)
{
	int c = results_col(t, COL_RUN_ID);

	for (int i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i][c], id))
			return 1;
	return 0;
}

/*
 * read_contexts - each run's context.json, parsed, and its name RUN_ID[-LABEL][.K].json
 * (K for a second CSV of one run): a context.json that cannot be read, or a run_id or label
 * that cannot be a plain file name (outpath_name_check: no '/', no leading '.', bounded),
 * is refused (exit 2) before anything is created. Returns how many runs have one.
 */
static int read_contexts(const struct run_file *runs, int n, struct ctx_copy *cc)
{
	char err[PATH_MAX + 256];
	int count = 0;
	struct stat st;

	for (int r = 0; r < n; r++) {
		const char *id = runs[r].run_id, *label = runs[r].label;
		char *from, *base;
		json_t *j;

		if (!runs[r].dir)
			continue;
		from = xasprintf("%s/context.json", runs[r].dir);
		if (lstat(from, &st) && errno == ENOENT) {
			free(from);
			continue;
		}
		j = infile_json(from, err, sizeof(err));
		if (!j)
			usage_error("RUN", runs[r].arg, "%s", err);
		if (!id) /* no run_id in it: the first row's */
			id = runs[r].t->rows[0][results_col(runs[r].t, COL_RUN_ID)];
		base = xasprintf("%s%s%s", id, label ? "-" : "", label ? label : "");
		if (outpath_name_check(id, err, sizeof(err)) ||
		    (label && outpath_name_check(label, err, sizeof(err))) ||
		    outpath_name_check(base, err, sizeof(err)))
			usage_error("RUN", runs[r].arg,
				    "run_id%s %s cannot name its file in DIR/contexts: %s",
				    label ? " and label" : "", base, err);
		if (!rows_have_run_id(runs[r].t, id))
			usage_error("RUN", runs[r].arg,
				    "context.json's run_id %s is none of its rows' run_id (the "
				    "first row's: %s): not this run's context",
				    id, runs[r].t->rows[0][results_col(runs[r].t, COL_RUN_ID)]);
		cc[r].name = xasprintf("%s.json", base);
		for (int k = 2, dup = 1; dup; k++) { /* two CSVs of one run: keep both */
			dup = 0;
			for (int q = 0; q < r && !dup; q++)
				dup = cc[q].name && !strcmp(cc[q].name, cc[r].name);
			if (dup) {
				free(cc[r].name);
				cc[r].name = xasprintf("%s.%d.json", base, k);
			}
		}
		cc[r].text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (!cc[r].text)
			usage_error("RUN", from, "%s", strerror(ENOMEM));
		json_decref(j);
		free(base);
		free(from);
		count++;
	}
	return count;
}

/*
 * check_cells - every cell becomes a JSON string in results.jsonl: one that is not UTF-8
 * is refused (exit 2, naming the file, row and column) before anything is created.
 */
static void check_cells(const struct run_file *runs, int n)
{
	for (int r = 0; r < n; r++) {
		const struct csv_table *t = runs[r].t;

		for (int i = 0; i < t->nrows; i++)
			for (int c = 0; c < t->ncols; c++) {
				json_t *v = json_string(t->rows[i][c]);

				if (!v)
					usage_error("RUN", runs[r].csv_path,
						    "row %d, column %s: not valid UTF-8 text",
						    i + 2, t->header[c]);
				json_decref(v);
			}
	}
}

/* write_contexts - the checked contexts into DIR/contexts/ (whole files, temp+rename). */
static int write_contexts(const struct ctx_copy *cc, int n, const char *dir)
{
	char *cdir = xasprintf("%s/contexts", dir);
	struct stat st;
	int bad = 0;

	/* A directory of its own: what check_out found, and not a link planted since. */
	errno = 0;
	if ((mkdir(cdir, 0755) && errno != EEXIST) || lstat(cdir, &st) || !S_ISDIR(st.st_mode)) {
		warn_msg("merge: %s: %s", cdir,
			 errno && errno != EEXIST ? strerror(errno) : "not a directory of its own");
		bad = 1;
	}
	for (int r = 0; r < n && !bad; r++) {
		char *to;

		if (!cc[r].name)
			continue;
		to = xasprintf("%s/%s", cdir, cc[r].name);
		bad = outfile_write_all(to, cc[r].text, strlen(cc[r].text)) != 0;
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
	struct ctx_copy *cc;
} M;

/*
 * check_out - -o DIR takes results.csv, results.jsonl and the contexts/ files (exit 2 with
 * nothing created otherwise); their paths into @csv_path and @jl_path.
 */
static void check_out(const char *dir, int n, int copied, char **csv_path, char **jl_path)
{
	char err[PATH_MAX + 256], *cdir = xasprintf("%s/contexts", dir);
	struct stat st;

	if (outpath_check_dir(dir, (const char *const[]){"results.csv", "results.jsonl", NULL}, err,
			      sizeof(err)))
		usage_error("--out", dir, "%s", err);
	*csv_path = xasprintf("%s/results.csv", dir);
	*jl_path = xasprintf("%s/results.jsonl", dir);
	if (!stat(*csv_path, &st) && st.st_size > 0)
		usage_error("--out", dir, "%s exists (choose a new directory)", *csv_path);
	if (!stat(*jl_path, &st) && st.st_size > 0)
		usage_error("--out", dir, "%s exists (choose a new directory)", *jl_path);
	/* contexts/ is merge's own: absent, or a directory (not a link, FIFO or file). */
	if (!lstat(cdir, &st) && !S_ISDIR(st.st_mode))
		usage_error("--out", dir, "%s: %s", cdir,
			    S_ISLNK(st.st_mode) ? "a symbolic link, not a directory of its own"
						: strerror(ENOTDIR));
	if (copied) {
		const char **names = xcalloc((size_t)n + 1, sizeof(*names));
		int k = 0;

		for (int r = 0; r < n; r++)
			if (M.cc[r].name)
				names[k++] = M.cc[r].name;
		if (outpath_check_dir(cdir, names, err, sizeof(err)))
			usage_error("--out", dir, "%s", err);
		free(names);
	}
	free(cdir);
}

/* write_rows - every run's rows into @w and @jl, in the union's columns; 1 on a failed write. */
static int write_rows(struct csv_writer *w, FILE *jl, int n, int ncols, const char *csv_path,
		      const char *jl_path, int *nrows)
{
	int bad = 0;

	M.vals = xcalloc((size_t)ncols, sizeof(*M.vals));
	M.map = xcalloc((size_t)ncols, sizeof(*M.map));
	for (int r = 0; r < n && !bad; r++) {
		const struct csv_table *t = M.runs[r].t;

		for (int c = 0; c < ncols; c++)
			M.map[c] = csv_col(t, M.cols[c]);
		for (int i = 0; i < t->nrows && !bad; i++, (*nrows)++) {
			for (int c = 0; c < ncols; c++)
				M.vals[c] = M.map[c] >= 0 ? t->rows[i][M.map[c]] : NULL;
			if (results_jsonl_row(jl, M.cols, M.vals, ncols)) {
				warn_msg("merge: %s: %s", jl_path, strerror(errno));
				bad = 1;
			}
			if (!bad && csv_write_row(w, M.vals)) {
				warn_msg("merge: %s: %s", csv_path, strerror(errno));
				bad = 1;
			}
		}
	}
	return bad;
}

/* remove_partial - what a failed merge wrote, and DIR when it made it (@made). */
static void remove_partial(const char *dir, int n, const char *csv_tmp, const char *jl_path,
			   int made)
{
	unlink(csv_tmp);
	unlink(jl_path);
	for (int r = 0; r < n; r++)
		if (M.cc[r].name) {
			char *p = xasprintf("%s/contexts/%s", dir, M.cc[r].name);

			unlink(p);
			free(p);
		}
	if (made) {
		char *cdir = xasprintf("%s/contexts", dir);

		rmdir(cdir);
		rmdir(dir);
		free(cdir);
	}
	warn_msg("merge: a write failed: nothing merged into %s", dir);
}

int merge_main(int argc, char **argv)
{
	const char *dir = NULL;
	char err[PATH_MAX + 256];
	struct csv_writer *w;
	struct stat st;
	struct outfile jl;
	char *csv_path, *jl_path, *csv_tmp;
	int n, ncols, nrows = 0, bad = 0, copied, fd, made;

	int first = opt_parse(&merge_help, argc, argv, &dir);
	if (!dir)
		usage_error("--out", "", "missing: merge needs -o DIR (see pcbench merge --help)");
	n = argc - first;
	if (n < 1)
		usage_error("RUN", "", "missing: give the run directories to merge");
	M.runs = xcalloc((size_t)n, sizeof(*M.runs));
	M.keys = xcalloc((size_t)n, sizeof(*M.keys));
	for (int r = 0; r < n; r++) {
		run_file_load(&M.runs[r], argv[first + r]);
		run_file_note(&M.runs[r], "merge");
	}
	refuse_duplicates(M.runs, M.keys, n);
	ncols = union_columns(M.runs, n, &M.cols);

	/* Everything is checked before anything is created: a refusal leaves no trace. */
	M.cc = xcalloc((size_t)n, sizeof(*M.cc));
	copied = read_contexts(M.runs, n, M.cc);
	check_cells(M.runs, n);
	check_out(dir, n, copied, &csv_path, &jl_path);
	/*
	 * Written whole or not at all: results.csv and results.jsonl go to temp files, renamed
	 * into place only when every row is written (results.csv last); a signal or a failed
	 * write removes them, and the directory when this merge made it.
	 */
	made = stat(dir, &st) != 0;
	mkdir_p(dir, "--out");
	if (made)
		outfile_track((char *)dir, 1); /* removed when empty */
	csv_tmp = xasprintf("%s.XXXXXX", csv_path);
	fd = outfile_mkstemp(csv_tmp);
	if (fd < 0)
		usage_error("--out", dir, "%s: %s", csv_path, strerror(errno));
	fchmod(fd, outfile_mode()); /* results.jsonl's mode, not mkstemp's 0600 */
	close(fd);
	w = csv_create(csv_tmp, M.cols, ncols, CSV_INSIDE, err, sizeof(err));
	if (!w || outfile_open(&jl, jl_path)) { /* created: a failure now is exit 1 */
		if (!w)
			warn_msg("merge: %s", err);
		csv_close(w);
		unlink(csv_tmp);
		outfile_track(csv_tmp, 0);
		if (made) {
			outfile_track((char *)dir, 0);
			rmdir(dir);
		}
		free(csv_tmp);
		free(csv_path);
		free(jl_path);
		return 1;
	}

	bad = write_rows(w, jl.f, n, ncols, csv_path, jl_path, &nrows);
	if (csv_close(w)) {
		warn_msg("merge: %s: %s", csv_path, strerror(errno));
		bad = 1;
	}
	if (bad)
		outfile_abort(&jl);
	else if (outfile_close(&jl))
		bad = 1;
	bad = bad || write_contexts(M.cc, n, dir);
	if (!bad && rename(csv_tmp, csv_path)) {
		warn_msg("merge: %s: %s", csv_path, strerror(errno));
		bad = 1;
	}
	outfile_track(csv_tmp, 0);
	if (made)
		outfile_track((char *)dir, 0);
	if (bad) {
		remove_partial(dir, n, csv_tmp, jl_path, made);
		free(csv_tmp);
		free(csv_path);
		free(jl_path);
		return 1;
	}
	free(csv_tmp);
	print_esc(stdout,
		  "merged %d run%s (%d rows, %d columns) into %s; %d context%s in %s/contexts", n,
		  n == 1 ? "" : "s", nrows, ncols, csv_path, copied, copied == 1 ? "" : "s", dir);
	free(csv_path);
	free(jl_path);
	return 0;
}
