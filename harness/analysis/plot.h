/* SPDX-License-Identifier: MIT */
/*
 * plot.h - what the files of `pcbench plot` share: plot.c (the command, the scaling,
 * transfer, counter and matrix plots), forest.c (the forest plots of compare's tables) and
 * plot_files.c (a plot's data file, its gnuplot run, its kept script, its title's hosts).
 * A plot is a data file pcbench writes and a gnuplot script of scripts/ that draws it.
 */
#ifndef PCBENCH_PLOT_H
#define PCBENCH_PLOT_H

#include <stdio.h>

struct compare;

/*
 * A line of a plot: one preset (and layout, parameters, placement, home, host). A series
 * is every line with the same label: the same preset measured with per-workload parameter
 * defaults (nr=1 for direct, nr=3 for stocked) is one series.
 */
struct line {
	char *scenario, *preset, *layout, *label;
	char *host; /* the host's name: its label column (--label), else its host column */
	char *base; /* the label without " on HOST" (the colour of a series) */
	char **kv;  /* value of each key column */
	long rank, first;
};

struct plot {
	const char *arg;
	char *csv_path, *dir, *host, *date;
	struct csv_table *t;
	int c_scenario, c_preset, c_layout, c_workload, c_threads, c_status, c_ops_per_s;
	int c_host, c_label, c_cpu_a;
	char **hosts; /* the distinct hosts (struct line's host), first-seen order */
	int nhosts;
	int *keycol; /* key columns that separate lines: param_*, placement, home, host, ... */
	int nkeys;
	struct line *lines;
	int nlines;
	int *row_line; /* per row: its line */
	char *tmpdir, *scripts, *gnuplot, *outdir;
	int keep;		   /* --keep-data: NAME.dat and NAME.gp stay beside NAME.png */
	const struct compare *cmp; /* `pcbench compare RUN`'s tables, for the forest plots */
	char *data;		   /* the data file being built (plot_data_begin) */
	size_t data_len;
	int written, failed;
};

/*
 * plot_data_path - where the data of the plot @stem (its PNG is @stem.png) is written:
 * the temp directory, or with --keep-data the output directory (new string).
 */
char *plot_data_path(const struct plot *p, const char *stem);
/*
 * plot_data_begin/plot_data_end - a gnuplot data file is built in memory and written
 * through lib/outfile to @path; on a failed write the plot is skipped and the command
 * exits 1. plot_data_end returns 0 when @path was written.
 */
FILE *plot_data_begin(struct plot *p);
int plot_data_end(struct plot *p, FILE *f, const char *path);
/*
 * plot_data_drop - remove the data file @path once gnuplot has read it; with --keep-data
 * it stays when its PNG was @drawn.
 */
void plot_data_drop(const struct plot *p, const char *path, int drawn);
/* plot_quoted - @s as a gnuplot data string: in double quotes, a double quote made '. */
void plot_quoted(FILE *f, const char *s);
/*
 * plot_gnuplot - gnuplot.c's gnuplot_run of @script on @args (NULL-terminated: the data
 * file, @png, then the script's own), counted: "wrote PNG", or a failure (not one that a
 * signal caused). With --keep-data, also NAME.gp beside @png, which draws it again.
 */
int plot_gnuplot(struct plot *p, const char *script, const char *png, char *const *args);
/* plot_title_suffix - "(host H, DATE)" or "(hosts A, B, DATE)" for titles (new string). */
char *plot_title_suffix(const struct plot *p);

/*
 * plot_forest - forest-@sc-@wl.png: per table of compare (p->cmp) of scenario @sc and
 * workload @wl, each preset's %change of ops/s against the base with its 95% ci, marked
 * by its verdict (forest.c); a note when no table of it has a comparison.
 */
void plot_forest(struct plot *p, const char *sc, const char *wl);

#endif
