// SPDX-License-Identifier: MIT
/*
 * cmd_layout.c - `pcbench layout`: its help and the dispatch to import, show and suggest;
 * and suggest --measure[=DIR]: the layout engine's suggestion measured against today's
 * layout by the measure command, `-D layout=TODAY,SUGGESTED` (one family per layout in each
 * table: blocks) at this host's `-t 1,max`, then the ops_per_s rows of the run's compare.csv
 * (today's layout the base: compare takes the first of the list).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btf.h"
#include "commands.h"
#include "compare.h"
#include "csv.h"
#include "layout_cmd.h"
#include "outfile.h"
#include "outpath.h"
#include "strbuf.h"
#include "util.h"

const struct cmd_help layout_help = {
    .name = "layout",
    .synopsis =
	"usage: pcbench layout import [--struct NAME[,NAME...]] [--name LAYOUT] [--desc TEXT]\n"
	"                             [-o FILE] FILE|-\n"
	"       pcbench layout import --from-object OBJ --struct NAME[,NAME...] [-E]\n"
	"                             [--name LAYOUT] [--desc TEXT] [-o FILE]\n"
	"       pcbench layout import --btf [FILE] --struct NAME[,NAME...] [...]\n"
	"       pcbench layout show NAME|FILE [--format view|layout] [--line-size N]\n"
	"                           [--scenario S --preset P [--workload W] [--threads N]\n"
	"                            [--ops N] [--warmup N] [-D NAME=VALUE]... [--all]]\n"
	"       pcbench layout suggest [LAYOUT] [--struct NAME] --scenario S --preset P\n"
	"                              [--workload W] [-D NAME=VALUE]... [options]\n"
	"       pcbench layout suggest LAYOUT [--struct NAME] --recipe FILE [options]\n"
	"       pcbench layout suggest [LAYOUT] [--struct NAME] --hitm RUN [--script FILE]\n"
	"                              [options]\n",
    .about = "import converts `pahole -C NAME` output (FILE, or - for stdin) into the layout-file\n"
	     "format; --from-object runs pahole itself (-E: expand nested structs) on a DWARF or\n"
	     "BTF object such as vmlinux or a .o built with -g. --btf reads BTF itself (libbpf):\n"
	     "by default the running kernel's, " BTF_VMLINUX ".\n"
	     "show prints a pahole-like view of a built-in layout or a layout file, with\n"
	     "cache-line boundaries; --format layout prints it in the layout-file format.\n"
	     "With --scenario, the scenario's tracing build runs N virtual threads (default 2)\n"
	     "in turn on one OS thread: every field is annotated with its accesses per\n"
	     "operation, and every cache line where a field written by one thread shares the\n"
	     "line with a field used by another is flagged. --all also lists untouched lines.\n"
	     "suggest rearranges a struct so that the lines its threads write hold no field\n"
	     "other threads use, from the accesses of a scenario, a probe recipe or a hitm run,\n"
	     "judged by the coherence model (today, the suggestion, every field on its own line);\n"
	     "--measure then measures it against today's layout in blocks.\n",
    .after =
	"Exit status: 0 done, 1 the output could not be written, 2 bad usage or input,\n"
	"3 interrupted; suggest --measure: the measurement's (pcbench help measure).\n"
	"\n"
	"Examples:\n"
	"  pahole -C page_counter vmlinux | pcbench layout import --name mine - > mine.layout\n"
	"  pcbench layout import --from-object vmlinux -E --struct mem_cgroup -o memcg.layout\n"
	"  pcbench layout import --btf --struct mem_cgroup,page_counter -o running.layout\n"
	"  pcbench layout show v6.1\n"
	"  pcbench layout show v6.0 --scenario page_counter --preset v6.0-rc1 --workload "
	"stocked\n"
	"  pcbench layout show mine.layout --scenario probe --preset v6.1 -D "
	"recipe=my.recipe\n"
	"  pcbench layout suggest v6.0 --scenario page_counter --preset v6.0-rc1 --workload "
	"direct -o mine.layout\n"
	"  pcbench layout suggest --scenario per_node --preset regressed --workload shared "
	"--line-size 128\n"
	"  pcbench layout suggest --hitm RUN --measure=suggest-run --budget 60\n",
    .subs = (const struct cmd_help *const[]){&layout_import_help, &layout_show_help,
					     &layout_suggest_help, NULL},
};

/* num - the number @s as @fmt into @buf ("-" and other non-numbers as they are). */
static const char *num(const char *s, const char *fmt, char *buf, size_t len)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || *end)
		return s;
	snprintf(buf, len, fmt, d);
	return buf;
}

/* print_rows - the ops_per_s rows of @dir/compare.csv, one line each, as compare prints. */
static void print_rows(const char *dir)
{
	char path[PATH_MAX + 32], err[PATH_MAX + 256];
	struct csv_table *t;
	/* after threads (a key column, results.csv's), compare.csv's own, in print order */
	static const enum cmp_csv_col want[] = {
	    CCSV_BASE,	     CCSV_WITH_PATCH, CCSV_CHANGE_PCT,	 CCSV_CI_LO_PCT, CCSV_CI_HI_PCT,
	    CCSV_P_ADJUSTED, CCSV_VERDICT,    CCSV_N_WITH_PATCH, CCSV_FLAGS,	 CCSV_METRIC};
	const char *ops = results_cols[COL_OPS_PER_S];
	int c[11];

	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	t = csv_read_file(path, err, sizeof(err));
	if (!t) {
		print_esc(stdout, "/* measured: no compare row: %s */", err);
		return;
	}
	c[0] = results_col(t, COL_THREADS);
	for (int k = 1; k < 11; k++)
		c[k] = cmp_csv_col(t, want[k - 1]);
	for (int i = 0; i < t->nrows; i++) {
		const char *v[11];
		char chg[32], lo[32], hi[32], p[32];

		for (int k = 0; k < 11; k++)
			v[k] = c[k] >= 0 && t->rows[i][c[k]][0] ? t->rows[i][c[k]] : "-";
		if (strcmp(v[10], ops))
			continue;
		print_esc(stdout,
			  "/* compare, threads %s: %s -> %s: %s %s [%s, %s], p %s, "
			  "%s (%s blocks)%s%s */",
			  v[0], v[1], v[2], ops, num(v[3], "%+.1f%%", chg, sizeof(chg)),
			  num(v[4], "%+.1f%%", lo, sizeof(lo)),
			  num(v[5], "%+.1f%%", hi, sizeof(hi)), num(v[6], "%.2g", p, sizeof(p)),
			  v[7], v[8], strcmp(v[9], "-") ? "; " : "", strcmp(v[9], "-") ? v[9] : "");
	}
	csv_table_free(t);
}

/* put - @text into @dir/@name (@path), tracked as a refusal's leftover; 0, or 1. */
static int put(const char *dir, const char *name, const char *text, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	if (outfile_write_all(path, text, strlen(text)))
		return 1;
	outfile_track(path, 1);
	return 0;
}

/*
 * suggest_measure - request @rq measured: DIR made (default results/<UTC time>-suggest), the
 * suggestion (and what lived in a temporary directory) written into it, the measure command
 * run there, the compare rows printed. The measurement's exit status (2: refused, nothing
 * left behind).
 */
static int suggest_measure(const struct sg_measure_req *rq)
{
	static const char *const mine[] = {"suggested.layout", "today.layout", "hitm.recipe", NULL};
	char dir[PATH_MAX], stamp[32], sug[PATH_MAX + 32], today[PATH_MAX + 32],
	    recipe[PATH_MAX + 32], budget[32], err[PATH_MAX + 256];
	char *argv[2 * 64 + 32], *files[3];
	int argc = 0, st, made = 0, made_results = 0, nfiles = 0, measured = 0;
	struct stat sb;

	if (rq->dir) {
		snprintf(dir, sizeof(dir), "%s", rq->dir);
	} else {
		utc_now(stamp, sizeof(stamp));
		for (char *p = stamp; *p; p++)
			*p = *p == ':' ? '-' : *p;
		snprintf(dir, sizeof(dir), "results/%s-suggest", stamp);
	}
	/* the files written here before measure checks its own (outpath.h) */
	if (outpath_check_dir(dir, mine, err, sizeof(err)))
		return layout_usage_error("suggest: --measure: %s", err);
	snprintf(sug, sizeof(sug), "%s/results.csv", dir);
	if (!stat(sug, &sb)) /* before a file is written there: measure would refuse it */
		return layout_usage_error(
		    "suggest: --measure=%s: %s exists (choose a new run directory)", dir, sug);
	if (!rq->dir && stat("results", &sb)) {
		if (mkdir("results", 0777))
			return layout_usage_error("suggest: --measure: results: %s",
						  strerror(errno));
		made_results = 1;
		outfile_track((char *)"results", 1);
	}
	if (stat(dir, &sb)) {
		if (mkdir(dir, 0777)) {
			st = layout_usage_error("suggest: --measure=%s: %s", dir, strerror(errno));
			goto out;
		}
		made = 1;
		outfile_track(dir, 1); /* a refused measurement leaves nothing */
	}
	st = put(dir, "suggested.layout", rq->suggested_text, sug, sizeof(sug));
	if (!st)
		files[nfiles++] = sug;
	snprintf(today, sizeof(today), "%s", rq->today);
	if (!st && rq->today_text &&
	    !(st = put(dir, "today.layout", rq->today_text, today, sizeof(today))))
		files[nfiles++] = today;
	snprintf(recipe, sizeof(recipe), "%s", rq->recipe ? rq->recipe : "");
	if (!st && rq->recipe_text &&
	    !(st = put(dir, "hitm.recipe", rq->recipe_text, recipe, sizeof(recipe))))
		files[nfiles++] = recipe;
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
	for (int i = 0; i < rq->nparams && i < 64; i++) {
		argv[argc++] = "-D";
		argv[argc++] = rq->params[i];
	}
	if (rq->recipe) {
		argv[argc++] = "-D";
		argv[argc++] = xasprintf("recipe=%s", recipe);
	}
	argv[argc++] = "-D";
	argv[argc++] = xasprintf("%s=%s,%s", rq->layout_param, today, sug);
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
	st = measure_main(argc, argv);
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

int layout_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		opt_usage(argc < 2 ? stderr : stdout, &layout_help);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "import"))
		return layout_import_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return layout_show_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "suggest")) {
		struct sg_measure_req *rq;
		int rc = layout_suggest_cmd(argc - 1, argv + 1, &rq);

		if (!rc && rq)
			rc = suggest_measure(rq);
		sg_measure_req_free(rq);
		return rc;
	}
	return layout_usage_error(
	    "%s: unknown subcommand (want import, show or suggest; see pcbench layout "
	    "--help)",
	    argv[1]);
}
