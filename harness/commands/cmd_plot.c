// SPDX-License-Identifier: MIT
/*
 * cmd_plot.c - `pcbench plot RUN [-o DIR] [--keep-data]`: PNG plots of a run through gnuplot.
 *
 * pcbench reduces the ok repetitions of each measurement to a median and a sample standard
 * deviation, writes them to small data files, and runs the gnuplot scripts in scripts/ on
 * them: scaling.gp (plot_scaling.c), counters.gp (plot_counters.c), c2c-matrix.gp
 * (plot_matrix.c) and forest.gp (forest.c); all drawing is gnuplot's. The rows of several
 * hosts (a merged lab run: their label column) are never pooled: each host has its own
 * lines (plot_series.c). This file is the command: its options, the plot files' names
 * checked before anything is made, the temp directory, and the plots of each scenario and
 * workload. Without gnuplot it writes nothing and exits 4 (skipped).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "compare.h"
#include "csv.h"
#include "gnuplot.h"
#include "outfile.h"
#include "outpath.h"
#include "plot.h"
#include "stop.h"
#include "util.h"

/* check_stem - STEM.png (with --keep-data also STEM.dat, STEM.gp) may be made; frees @stem. */
static void check_stem(const struct plot *p, char *stem)
{
	static const char *const ext[] = {"png", "dat", "gp"};
	char err[PATH_MAX + 256];

	for (int k = 0; k < (p->keep ? 3 : 1); k++) {
		char *path = xasprintf("%s/%s.%s", p->outdir, stem, ext[k]);

		if (outpath_check_inside(path, err, sizeof(err)))
			usage_error("-o", p->outdir, "%s", err);
		free(path);
	}
	free(stem);
}

/*
 * check_names - the scenarios and workloads name the PNG files: each must be one plain
 * file name (outpath.h), and each PNG's name in -o DIR (and its data and script's, with
 * --keep-data) must be free or a regular file (a symlink or FIFO there is refused), or the
 * run is refused before anything is made.
 */
static void check_names(const struct plot *p)
{
	char **scs = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
	char **wls = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
	int nsc = plot_distinct(p, NULL, p->c_scenario, scs);
	char err[PATH_MAX + 256];

	for (int s = 0; s < nsc; s++) {
		int nwl = plot_distinct(p, scs[s], p->c_workload, wls);

		if (scs[s][0] && outpath_name_check(scs[s], err, sizeof(err)))
			usage_error("scenario", scs[s], "%s (it names a plot file)", err);
		for (int w = 0; w < nwl; w++) {
			if (wls[w][0] && outpath_name_check(wls[w], err, sizeof(err)))
				usage_error("workload", wls[w], "%s (it names a plot file)", err);
			check_stem(
			    p, xasprintf("%s-%s-%s", plot_scaling_stem(scs[s]), scs[s], wls[w]));
			check_stem(p, xasprintf("forest-%s-%s", scs[s], wls[w]));
		}
		check_stem(p, xasprintf("counters-%s", scs[s]));
	}
	check_stem(p, xstrdup("c2c-matrix"));
	free(scs);
	free(wls);
}

static const struct opt plot_opts[] = {
    OPT_STR("out", 'o', "DIR", struct plot, outdir,
	    "write the plots here (default: the run directory)"),
    OPT_FLAG("keep-data", 0, struct plot, keep,
	     "keep, beside each NAME.png, its data NAME.dat and NAME.gp,\n"
	     "which draws it again (gnuplot NAME.gp, in that directory)"),
    OPT_HELP,
    OPT_END,
};

const struct cmd_help plot_help = {
    .name = "plot",
    .synopsis = "usage: pcbench plot RUN [-o DIR] [--keep-data]\n",
    .about = "Writes PNG plots of RUN (a run directory or a results CSV) through gnuplot\n"
	     "(Debian: gnuplot-nox), into DIR (default: the run directory). The rows of several\n"
	     "hosts (a merged lab run: each host's label, else its host name) are never pooled:\n"
	     "each host has its own lines, \"PRESET on HOST\", one colour per preset, one dash\n"
	     "and point type per host.\n"
	     "  scaling-<scenario>-<workload>.png  ops/s against threads, one line per preset\n"
	     "                                     (and host), bars +-1 stddev over the\n"
	     "                                     repetitions, and the linear scaling of the\n"
	     "                                     first preset's 1 thread\n"
	     "  transfer-c2c-<workload>.png        the c2c probe instead: ns per one-way\n"
	     "                                     transfer (1e9 / ops/s) against threads, from 2\n"
	     "  forest-<scenario>-<workload>.png   the forest plot of `pcbench compare RUN`'s\n"
	     "                                     tables: per table (threads, placement, host),\n"
	     "                                     each preset's %change of ops/s against the\n"
	     "                                     base with its 95% ci, marked by its verdict\n"
	     "                                     (improved, regressed, n.s., no verdict)\n"
	     "  counters-<scenario>.png            HITM, c2c-fill and LLC-miss per operation,\n"
	     "                                     bars per preset, where the run has them\n"
	     "  c2c-matrix.png                     from a c2c --matrix run: a heatmap of ns per\n"
	     "                                     transfer (viridis, colour-blind safe)\n",
    .opts = plot_opts,
    .after = "Exit status: 0 plots written, 1 gnuplot failed, 2 bad usage or input,\n"
	     "3 interrupted (the plots written are whole), 4 skipped (gnuplot is not\n"
	     "installed, or nothing to plot).\n"
	     "\n"
	     "Examples:\n"
	     "  pcbench plot results/latest\n"
	     "  pcbench plot lab/merged -o /tmp/png --keep-data\n",
};

/*
 * The state of one plot run. File-scope, so that what it owns stays reachable until the
 * process exits (pcbench plot is a one-shot command; nothing is freed piecemeal).
 */
static struct plot state;

int plot_main(int argc, char **argv)
{
	struct plot *const p = &state;
	char **scs, err[PATH_MAX + 256];
	int nsc, *ls;

	memset(p, 0, sizeof(*p));
	int first = opt_parse(&plot_help, argc, argv, p);
	if (first >= argc)
		usage_error("RUN", "",
			    "missing: give a run directory or a results CSV (see "
			    "pcbench plot --help)");
	if (first + 1 < argc)
		usage_error("argument", argv[first + 1], "unexpected: plot takes one RUN");
	plot_load(p, argv[first]);
	if (!p->outdir)
		p->outdir = p->dir;
	check_names(p);
	if (outpath_check_dir(p->outdir, NULL, err, sizeof(err)))
		usage_error("-o", p->outdir, "%s", err);
	p->gnuplot = gnuplot_find();
	if (!p->gnuplot) {
		fprintf(stderr, "pcbench: plot: gnuplot is not installed (Debian: apt-get install "
				"gnuplot-nox); no plots written\n");
		return 4;
	}
	p->scripts = gnuplot_scripts();
	if (!p->scripts)
		usage_error("plot", "scaling.gp",
			    "gnuplot scripts not found (set PCBENCH_SCRIPTS to pcbench's "
			    "scripts/ directory)");
	/* compare's tables (bad input exits 2 there too); a signal here ends plot at once. */
	p->cmp = compare_one_run(argv[first]);
	/* The temp directory first: a bad TMPDIR is refused before -o DIR is made. */
	if (outfile_tempdir("pcbench-plot", &p->tmpdir))
		usage_error("plot", p->tmpdir, "%s", strerror(errno));
	/* From here on a signal stops at the next plot: the PNGs written stay, whole. */
	stop_install(STOP_FLAG, 0);
	mkdir_p(p->outdir, "-o");

	plot_build_lines(p);
	scs = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
	ls = xrealloc(NULL, (size_t)(p->nlines + 1) * sizeof(int));
	nsc = plot_distinct(p, NULL, p->c_scenario, scs);
	for (int s = 0; s < nsc && !stop_requested; s++) {
		char **wls = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
		int nls = plot_series(p, scs[s], ls);
		int nwl = plot_distinct(p, scs[s], p->c_workload, wls);

		for (int w = 0; w < nwl && !stop_requested; w++) {
			plot_scaling(p, scs[s], wls[w], ls, nls);
			if (!stop_requested)
				plot_forest(p, scs[s], wls[w]);
		}
		if (!stop_requested)
			plot_counters(p, scs[s], ls, nls);
		free(wls);
	}
	if (!stop_requested)
		plot_matrix(p);
	outfile_tempdir_remove(p->tmpdir);
	free(scs);
	free(ls);
	if (stop_requested) {
		warn_msg("plot: interrupted (%s): the plots written are whole",
			 strsignal(stop_requested));
		return 3;
	}
	if (p->failed)
		return 1;
	return p->written ? 0 : 4;
}
