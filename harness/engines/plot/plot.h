/* SPDX-License-Identifier: MIT */
/*
 * plot.h - what the files of `pcbench plot` share: commands/cmd_plot.c (the command: its options,
 * the names it checks, the plots it draws), plot_series.c (the run's lines and series),
 * plot_scaling.c (the scaling and transfer plots), plot_counters.c (the counter plots),
 * plot_matrix.c (the c2c matrix plot), forest.c (the forest plots of compare's tables) and
 * plot_files.c (a plot's data file and numbers, its gnuplot run, its kept script, its
 * title's hosts). A plot is a data file pcbench writes and a gnuplot script of scripts/
 * that draws it.
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
	char *tmpdir, *scripts, *gnuplot;
	const char *outdir;	   /* -o DIR, else the run directory */
	int keep;		   /* --keep-data: NAME.dat and NAME.gp stay beside NAME.png */
	const struct compare *cmp; /* `pcbench compare RUN`'s tables, for the forest plots */
	char *data;		   /* the data file being built (plot_data_begin) */
	size_t data_len;
	int written, failed;
};

/* plot_cell - row @row's cell of column @col ("" when the run has no such column). */
const char *plot_cell(const struct plot *p, int row, int col);
/*
 * plot_load - read the run @arg (a run directory or a results CSV) into @p: its table, its
 * columns, its directory, host, date and distinct hosts (a row's host: its label, else its
 * host column). Bad input exits 2.
 */
void plot_load(struct plot *p, const char *arg);
/*
 * plot_build_lines - the lines of @p: one per distinct (scenario, preset, layout, key
 * columns), each labelled (struct line), and each row's line.
 */
void plot_build_lines(struct plot *p);
/* plot_host_index - the index of @host among p->hosts (first seen: 0). */
int plot_host_index(const struct plot *p, const char *host);
/*
 * plot_series - the series of @scenario into @out, by host (first seen), then in preset
 * order, as one line of each distinct label; returns how many.
 */
int plot_series(const struct plot *p, const char *scenario, int *out);
/*
 * plot_values - the non-empty @col values of the ok rows of the series of line @l (every
 * line of its scenario with its label), workload @wl, @threads; not the rows of a c2c
 * --matrix run (each of its pairs is a cell of c2c-matrix.png). A value that is not a
 * number exits 2.
 */
size_t plot_values(const struct plot *p, int l, const char *wl, long threads, int col, double *out);
/*
 * plot_distinct - the distinct values of column @col among the rows of @scenario (all:
 * NULL), first-seen order; returns how many.
 */
int plot_distinct(const struct plot *p, const char *scenario, int col, char **out);
/*
 * plot_thread_counts - the thread counts of @scenario (and workload @wl; all: NULL),
 * ascending; returns how many.
 */
int plot_thread_counts(const struct plot *p, const char *scenario, const char *wl, long *out);

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
/* plot_num - " @v" as a gnuplot data number (%.10g), " ?" (missing) when @v is NaN. */
void plot_num(FILE *f, double v);
/*
 * plot_gnuplot - gnuplot.c's gnuplot_run of @script on @args (NULL-terminated: the data
 * file, @png, then the script's own), counted: "wrote PNG", or a failure (not one that a
 * signal caused). With --keep-data, also NAME.gp beside @png, which draws it again.
 */
int plot_gnuplot(struct plot *p, const char *script, const char *png, char *const *args);
/* plot_title_suffix - "(host H, DATE)" or "(hosts A, B, DATE)" for titles (new string). */
char *plot_title_suffix(const struct plot *p);

/* plot_scaling_stem - the name that begins @scenario's scaling plots: scaling, transfer. */
const char *plot_scaling_stem(const char *scenario);
/*
 * plot_scaling - STEM-@sc-@wl.png (STEM: plot_scaling_stem): the median over the ok
 * repetitions and their stddev against threads, one line per series of @ls (preset and
 * host): ops/s, or for c2c ns per one-way transfer from 2 threads (plot_scaling.c).
 */
void plot_scaling(struct plot *p, const char *sc, const char *wl, const int *ls, int nls);
/*
 * plot_counters - counters-@sc.png: the counter columns (HITM, c2c-fill, LLC-miss per
 * operation) with values in scenario @sc, the median and stddev of each series of @ls per
 * workload and threads (plot_counters.c); a note when the run has none.
 */
void plot_counters(struct plot *p, const char *sc, const int *ls, int nls);
/*
 * plot_matrix - c2c-matrix.png from the cpu_a, cpu_b and ns_per_transfer columns of a
 * `pcbench -s c2c --matrix` run: the median over ok repetitions of every pair, mirrored
 * (plot_matrix.c); a note when the run has no such columns.
 */
void plot_matrix(struct plot *p);
/*
 * plot_forest - forest-@sc-@wl.png: per table of compare (p->cmp) of scenario @sc and
 * workload @wl, each preset's %change of ops/s against the base with its 95% ci, marked
 * by its verdict (forest.c); a note when no table of it has a comparison.
 */
void plot_forest(struct plot *p, const char *sc, const char *wl);

#endif
