// SPDX-License-Identifier: MIT
/*
 * layout_suggest_measure.c - `layout suggest --measure[=DIR]`: today's layout against the
 * suggestion, measured in blocks by the measure command itself (layout_measure_main, which
 * main.c sets: a library calls no command) with `-D layout=TODAY,SUGGESTED`, one family
 * per layout in each table, at this host's `-t 1,max`; then the ops_per_s rows of the
 * run's compare.csv (today's layout the base: compare takes the first of the list).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "layout_suggest.h"
#include "outfile.h"
#include "outpath.h"
#include "strbuf.h"
#include "util.h"

int (*layout_measure_main)(int argc, char **argv);

/* copy_in - the file @from into @dir/@name (@path); 0, or 1 after a message. */
static int copy_in(const char *from, const char *dir, const char *name, char *path, size_t len)
{
	char err[PATH_MAX + 256];
	FILE *f = fopen(from, "r");
	char *text = f ? layout_read_stream(f, from, err, sizeof(err)) : NULL;
	int rc;

	if (f)
		fclose(f);
	if (!text) {
		warn_msg("layout suggest: %s: %s", from, f ? err : strerror(errno));
		return 1;
	}
	snprintf(path, len, "%s/%s", dir, name);
	rc = outfile_write_all(path, text, strlen(text)) ? 1 : 0;
	free(text);
	return rc;
}

/* print_rows - the ops_per_s rows of @dir/compare.csv, one line each. */
static void print_rows(const char *dir)
{
	char path[PATH_MAX + 32], err[PATH_MAX + 256];
	struct csv_table *t;
	static const char *const want[] = {"threads",	   "base",	"with_patch", "change_pct",
					   "ci_lo_pct",	   "ci_hi_pct", "p_adjusted", "verdict",
					   "n_with_patch", "flags",	"metric"};
	int c[11];

	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	t = csv_read_file(path, err, sizeof(err));
	if (!t) {
		print_esc(stdout, "/* measured: no compare row: %s */", err);
		return;
	}
	for (int k = 0; k < 11; k++)
		c[k] = csv_col(t, want[k]);
	for (int i = 0; i < t->nrows; i++) {
		const char *v[11];

		for (int k = 0; k < 11; k++)
			v[k] = c[k] >= 0 && t->rows[i][c[k]][0] ? t->rows[i][c[k]] : "-";
		if (strcmp(v[10], "ops_per_s"))
			continue;
		print_esc(stdout,
			  "/* compare, threads %s: %s -> %s: ops_per_s %%change %s [%s, %s], p %s, "
			  "%s (%s blocks)%s%s */",
			  v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8],
			  strcmp(v[9], "-") ? "; " : "", strcmp(v[9], "-") ? v[9] : "");
	}
	csv_table_free(t);
}

int sg_measure(const struct sg_measure_req *rq, const struct layout *suggested)
{
	char dir[PATH_MAX], stamp[32], sug[PATH_MAX + 32], today[PATH_MAX + 32],
	    recipe[PATH_MAX + 32], budget[32], *text;
	char *argv[TRACE_MAX_PARAMS + 32], *lay;
	int argc = 0, st, made = 0, made_results = 0, nfiles = 0, measured = 0;
	char *files[3];
	struct stat sb;

	if (!layout_measure_main)
		return err2("suggest: --measure: no measure command in this program");
	if (rq->dir) {
		snprintf(dir, sizeof(dir), "%s", rq->dir);
	} else {
		utc_now(stamp, sizeof(stamp));
		for (char *p = stamp; *p; p++)
			*p = *p == ':' ? '-' : *p;
		snprintf(dir, sizeof(dir), "results/%s-suggest", stamp);
		if (stat("results", &sb)) {
			if (mkdir("results", 0777))
				return err2("suggest: --measure: results: %s", strerror(errno));
			made_results = 1;
			outfile_track((char *)"results", 1);
		}
	}
	{ /* the files written here before measure checks its own (outpath.h) */
		static const char *const mine[] = {"suggested.layout", "today.layout",
						   "hitm.recipe", NULL};
		char err[PATH_MAX + 256];

		if (outpath_check_dir(dir, mine, err, sizeof(err)))
			return err2("suggest: --measure: %s", err);
	}
	snprintf(sug, sizeof(sug), "%s/results.csv", dir);
	if (!stat(sug, &sb)) /* before a file is written there: measure would refuse it */
		return err2("suggest: --measure=%s: %s exists (choose a new run directory)", dir,
			    sug);
	if (stat(dir, &sb)) {
		if (mkdir(dir, 0777)) {
			int e = errno;

			if (made_results)
				rmdir("results");
			return err2("suggest: --measure=%s: %s", dir, strerror(e));
		}
		made = 1;
		outfile_track(dir, 1); /* a refused measurement leaves nothing */
	}
	/* the suggestion (and what lived in a temporary directory) in the run directory */
	text = layout_to_text(suggested);
	snprintf(sug, sizeof(sug), "%s/suggested.layout", dir);
	st = text ? outfile_write_all(sug, text, strlen(text)) ? 1 : 0
		  : err2("suggest: out of memory");
	free(text);
	if (!st)
		files[nfiles++] = sug;
	snprintf(today, sizeof(today), "%s", rq->today);
	if (!st && rq->today_copy &&
	    !(st = copy_in(rq->today, dir, "today.layout", today, sizeof(today))))
		files[nfiles++] = today;
	recipe[0] = '\0';
	if (!st && rq->recipe && rq->recipe_copy &&
	    !(st = copy_in(rq->recipe, dir, "hitm.recipe", recipe, sizeof(recipe))))
		files[nfiles++] = recipe;
	for (int i = 0; i < nfiles; i++)
		outfile_track(files[i], 1);
	if (st)
		goto out;

	argv[argc++] = "measure";
	argv[argc++] = "-s";
	argv[argc++] = (char *)rq->scenario;
	argv[argc++] = "-p";
	argv[argc++] = (char *)rq->preset;
	argv[argc++] = "-w";
	argv[argc++] = (char *)rq->workload;
	argv[argc++] = "-t";
	argv[argc++] = "1,max";
	for (int i = 0; i < rq->nparams && i < TRACE_MAX_PARAMS; i++) {
		argv[argc++] = "-D";
		argv[argc++] = rq->params[i];
	}
	if (rq->recipe) {
		argv[argc++] = "-D";
		argv[argc++] = xasprintf("recipe=%s", recipe[0] ? recipe : rq->recipe);
	}
	lay = xasprintf("%s=%s,%s", rq->layout_param, today, sug);
	argv[argc++] = "-D";
	argv[argc++] = lay;
	if (rq->budget > 0) {
		snprintf(budget, sizeof(budget), "%g", rq->budget);
		argv[argc++] = "--budget";
		argv[argc++] = budget;
	}
	argv[argc++] = "-o";
	/* a run directory named like an option (-dash) is still one */
	argv[argc++] = dir[0] == '-' ? xasprintf("./%s", dir) : dir;
	argv[argc] = NULL;
	{ /* the command it runs, on stderr */
		struct sb cmd = {0};

		for (int i = 0; i < argc; i++)
			sb_printf(&cmd, " %s", argv[i]);
		warn_msg("layout suggest --measure: pcbench%s", sb_str(&cmd));
		free(cmd.p);
	}
	fflush(NULL);
	st = layout_measure_main(argc, argv);
	measured = st != 2; /* 2: refused, nothing of its own left */
	if (!measured)
		goto out;
	printf("\n");
	print_esc(stdout,
		  "/* measured: %s (today's layout %s against the suggestion %s, blocks, -t "
		  "1,max) */",
		  dir, today, sug);
	print_rows(dir);
out:
	/* kept with the run it measured; removed with a refused or unstarted one */
	for (int i = 0; i < nfiles; i++) {
		outfile_track(files[i], 0);
		if (!measured)
			unlink(files[i]);
	}
	if (made) {
		outfile_track(dir, 0);
		if (!measured)
			rmdir(dir);
	}
	if (made_results) {
		outfile_track((char *)"results", 0);
		if (!measured)
			rmdir("results");
	}
	return st;
}
