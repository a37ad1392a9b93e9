// SPDX-License-Identifier: MIT
/*
 * plot.c - `pcbench plot RUN [-o DIR]`: PNG plots of a run through gnuplot.
 *
 * pcbench reduces the ok repetitions of each measurement to a median and a sample standard
 * deviation, writes them to small data files, and runs the gnuplot scripts in scripts/
 * (scaling.gp, counters.gp) on them; all drawing is gnuplot's. Without gnuplot it writes
 * nothing and exits 4 (skipped).
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "csv.h"
#include "gnuplot.h"
#include "harness.h"
#include "stats.h"
#include "results.h"
#include "outfile.h"
#include "outpath.h"
#include "stop.h"
#include "util.h"

/* Counter columns plotted in counters-<scenario>.png: <stem>..._per_op. */
static const char *const counter_stems[] = {"hitm", "rfo_hitm", "c2c_fill", "llc_miss"};

/*
 * A line of a plot: one preset (and layout, parameters, placement, home, host). A series
 * is every line with the same label: the same preset measured with per-workload parameter
 * defaults (nr=1 for direct, nr=3 for stocked) is one series.
 */
struct line {
	char *scenario, *preset, *layout, *label;
	char **kv; /* value of each key column */
	long rank, first;
};

struct plot {
	const char *arg;
	char *csv_path, *dir, *host, *date;
	struct csv_table *t;
	int c_scenario, c_preset, c_layout, c_workload, c_threads, c_status, c_ops_per_s;
	int *keycol; /* key columns that separate lines: param_*, placement, home, host, ... */
	int nkeys;
	struct line *lines;
	int nlines;
	int *row_line; /* per row: its line */
	char *tmpdir, *scripts, *gnuplot, *outdir;
	char *data; /* the data file being built (data_begin) */
	size_t data_len;
	int written, failed;
};

/* share_workload - lines @a and @b have rows of a common workload. */
static int share_workload(const struct plot *p, int a, int b);

static void load(struct plot *p, const char *arg)
{
	struct run_file f;
	const char *slash;

	run_file_load(&f, arg);
	run_file_note(&f, "plot");
	p->arg = arg;
	p->csv_path = f.csv_path;
	p->t = f.t;
	p->host = f.host;
	p->date = f.start ? xasprintf("%.10s", f.start) : NULL;
	free(f.run_id);
	free(f.label);
	free(f.cpu_model);
	free(f.machine);
	free(f.start);
	free(f.design);
	if (f.dir) {
		p->dir = f.dir;
	} else { /* plots go next to a CSV file */
		slash = strrchr(f.csv_path, '/');
		p->dir =
		    slash ? xasprintf("%.*s", slash == f.csv_path ? 1 : (int)(slash - f.csv_path),
				      f.csv_path)
			  : xstrdup(".");
	}
	p->c_scenario = csv_col(p->t, "scenario");
	p->c_preset = csv_col(p->t, "preset");
	p->c_layout = csv_col(p->t, "layout");
	p->c_workload = csv_col(p->t, "workload");
	p->c_threads = csv_col(p->t, "threads");
	p->c_status = csv_col(p->t, "status");
	p->c_ops_per_s = csv_col(p->t, "ops_per_s");
	if (!p->host && csv_col(p->t, "host") >= 0)
		p->host = xstrdup(p->t->rows[0][csv_col(p->t, "host")]);
	if (!p->date)
		p->date = xstrdup(p->t->rows[0][csv_col(p->t, "run_id")]);
}

static long rank_of(const char *scenario, const char *preset)
{
	const struct scenario *sc = scenario_find(scenario);

	if (sc)
		for (int i = 0; sc->presets[i].name; i++)
			if (!strcmp(sc->presets[i].name, preset))
				return i;
	return 1000000;
}

static const char *cellv(const struct plot *p, int row, int col)
{
	return col >= 0 ? p->t->rows[row][col] : "";
}

/* Lines: one per distinct (scenario, preset, layout, key columns), in preset order. */
static void build_lines(struct plot *p)
{
	static const char *const extra[] = {"placement", "home", "host", "topology_fp"};
	struct csv_table *t = p->t;

	p->keycol = xrealloc(NULL, (size_t)(t->ncols + 4) * sizeof(int));
	for (int k = 0; k < t->ncols; k++)
		if (!strncmp(t->header[k], "param_", 6))
			p->keycol[p->nkeys++] = k;
	for (int i = 0; i < 4; i++)
		if (csv_col(t, extra[i]) >= 0)
			p->keycol[p->nkeys++] = csv_col(t, extra[i]);
	p->row_line = xrealloc(NULL, (size_t)(t->nrows + 1) * sizeof(int));
	for (int r = 0; r < t->nrows; r++) {
		int found = -1;

		for (int l = 0; l < p->nlines && found < 0; l++) {
			const struct line *ln = &p->lines[l];
			int same = !strcmp(ln->scenario, cellv(p, r, p->c_scenario)) &&
				   !strcmp(ln->preset, cellv(p, r, p->c_preset)) &&
				   !strcmp(ln->layout, cellv(p, r, p->c_layout));

			for (int k = 0; k < p->nkeys && same; k++)
				same = !strcmp(ln->kv[k], cellv(p, r, p->keycol[k]));
			if (same)
				found = l;
		}
		if (found < 0) {
			struct line *ln;

			p->lines = xrealloc(p->lines, (size_t)(p->nlines + 1) * sizeof(*p->lines));
			ln = &p->lines[p->nlines];
			ln->scenario = xstrdup(cellv(p, r, p->c_scenario));
			ln->preset = xstrdup(cellv(p, r, p->c_preset));
			ln->layout = xstrdup(cellv(p, r, p->c_layout));
			ln->kv = xrealloc(NULL, (size_t)(p->nkeys + 1) * sizeof(char *));
			for (int k = 0; k < p->nkeys; k++)
				ln->kv[k] = xstrdup(cellv(p, r, p->keycol[k]));
			ln->rank = rank_of(ln->scenario, ln->preset);
			ln->first = p->nlines;
			found = p->nlines++;
		}
		p->row_line[r] = found;
	}
	for (int l = 0; l < p->nlines; l++) {
		struct line *ln = &p->lines[l];
		char *label = ln->layout[0] ? xasprintf("%s [%s]", ln->preset, ln->layout)
					    : xstrdup(ln->preset);

		for (int k = 0; k < p->nkeys; k++) {
			int varies = 0;

			for (int m = 0; m < p->nlines && !varies; m++)
				varies = m != l && !strcmp(p->lines[m].scenario, ln->scenario) &&
					 !strcmp(p->lines[m].preset, ln->preset) &&
					 strcmp(p->lines[m].kv[k], ln->kv[k]) &&
					 share_workload(p, l, m);
			if (varies) {
				const char *h = p->t->header[p->keycol[k]];
				char *more =
				    xasprintf("%s %s=%s", label,
					      strncmp(h, "param_", 6) ? h : h + 6, ln->kv[k]);

				free(label);
				label = more;
			}
		}
		/* gnuplot data strings cannot hold a double quote */
		for (char *c = label; *c; c++)
			if (*c == '"')
				*c = '\'';
		ln->label = label;
	}
}

static int share_workload(const struct plot *p, int a, int b)
{
	for (int r = 0; r < p->t->nrows; r++) {
		if (p->row_line[r] != a)
			continue;
		for (int q = 0; q < p->t->nrows; q++)
			if (p->row_line[q] == b &&
			    !strcmp(cellv(p, r, p->c_workload), cellv(p, q, p->c_workload)))
				return 1;
	}
	return 0;
}

static int line_order(const struct plot *p, int a, int b)
{
	const struct line *x = &p->lines[a], *y = &p->lines[b];

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

/*
 * The series of @scenario in preset order, as one line of each distinct label; returns
 * how many.
 */
static int scenario_series(const struct plot *p, const char *scenario, int *out)
{
	int n = 0;

	for (int l = 0; l < p->nlines; l++) {
		int dup = 0;

		if (strcmp(p->lines[l].scenario, scenario))
			continue;
		for (int i = 0; i < n && !dup; i++)
			dup = !strcmp(p->lines[out[i]].label, p->lines[l].label);
		if (!dup)
			out[n++] = l;
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && line_order(p, out[j - 1], out[j]) > 0; j--) {
			int tmp = out[j];

			out[j] = out[j - 1];
			out[j - 1] = tmp;
		}
	return n;
}

/*
 * values - the non-empty @col values of the ok rows of the series of line @l (every line of
 * its scenario with its label), workload @wl, @threads.
 */
static size_t values(const struct plot *p, int l, const char *wl, long threads, int col,
		     double *out)
{
	const struct line *ln = &p->lines[l];
	size_t n = 0;

	for (int r = 0; r < p->t->nrows; r++) {
		const struct line *lr = &p->lines[p->row_line[r]];
		const char *v = p->t->rows[r][col];
		char *end;
		double x;

		if (strcmp(lr->scenario, ln->scenario) || strcmp(lr->label, ln->label) ||
		    strcmp(cellv(p, r, p->c_workload), wl) ||
		    strtol(cellv(p, r, p->c_threads), NULL, 10) != threads ||
		    strcmp(cellv(p, r, p->c_status), "ok") || !v[0])
			continue;
		x = strtod(v, &end);
		if (end == v || *end || isnan(x))
			usage_error("RUN", p->csv_path,
				    "line %d: column %s: \"%s\" is not a number", r + 2,
				    p->t->header[col], v);
		out[n++] = x;
	}
	return n;
}

/* Distinct values of column @col among rows of @scenario (all: NULL), first-seen order. */
static int distinct(const struct plot *p, const char *scenario, int col, char **out)
{
	int n = 0;

	for (int r = 0; r < p->t->nrows; r++) {
		const char *v = cellv(p, r, col);
		int dup = 0;

		if (scenario && strcmp(cellv(p, r, p->c_scenario), scenario))
			continue;
		for (int i = 0; i < n && !dup; i++)
			dup = !strcmp(out[i], v);
		if (!dup)
			out[n++] = (char *)v;
	}
	return n;
}

/*
 * check_names - the scenarios and workloads name the PNG files: each must be one plain
 * file name (outpath.h), and each PNG's name in -o DIR must be free or a regular file (a
 * symlink or FIFO there is refused), or the run is refused before anything is made.
 */
static void check_names(const struct plot *p)
{
	char err[PATH_MAX + 256];

	for (int r = 0; r < p->t->nrows; r++) {
		const char *v[2] = {cellv(p, r, p->c_scenario), cellv(p, r, p->c_workload)};
		char *png[3];

		for (int k = 0; k < 2; k++)
			if (v[k][0] && outpath_name_check(v[k], err, sizeof(err)))
				usage_error(k ? "workload" : "scenario", v[k],
					    "%s (it names a plot file)", err);
		png[0] = xasprintf("%s/scaling-%s-%s.png", p->outdir, v[0], v[1]);
		png[1] = xasprintf("%s/counters-%s.png", p->outdir, v[0]);
		png[2] = xasprintf("%s/c2c-matrix.png", p->outdir);
		for (int k = 0; k < 3; k++) {
			if (outpath_check_inside(png[k], err, sizeof(err)))
				usage_error("-o", p->outdir, "%s", err);
			free(png[k]);
		}
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The thread counts of @scenario, ascending. */
static int thread_counts(const struct plot *p, const char *scenario, const char *wl, long *out)
{
	int n = 0;

	for (int r = 0; r < p->t->nrows; r++) {
		long th = strtol(cellv(p, r, p->c_threads), NULL, 10);
		int dup = 0;

		if (strcmp(cellv(p, r, p->c_scenario), scenario) ||
		    (wl && strcmp(cellv(p, r, p->c_workload), wl)))
			continue;
		for (int i = 0; i < n && !dup; i++)
			dup = out[i] == th;
		if (!dup)
			out[n++] = th;
	}
	qsort(out, (size_t)n, sizeof(long), cmp_long);
	return n;
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static void fmt_num(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " ?");
	else
		fprintf(f, " %.10g", v);
}

/* gnuplot - gnuplot.c's gnuplot_run, counted: "wrote PNG", or a failure (not one that a
 * signal caused). */
static int gnuplot(struct plot *p, const char *script, const char *png, char *const *args)
{
	if (gnuplot_run(p->gnuplot, p->scripts, script, png, args)) {
		p->failed += !stop_requested;
		return -1;
	}
	printf("wrote %s\n", png);
	p->written++;
	return 0;
}

static char *title_suffix(const struct plot *p)
{
	return xasprintf("(host %s, %s)", p->host && p->host[0] ? p->host : "unknown",
			 p->date ? p->date : "date unknown");
}

/*
 * data_begin/data_end - a gnuplot data file is built in memory and written through
 * lib/outfile; on a failed write the plot is skipped and the command exits 1.
 */
static FILE *data_begin(struct plot *p)
{
	FILE *f = open_memstream(&p->data, &p->data_len);

	if (!f)
		die("memory", "plot data", "out of memory");
	return f;
}

static int data_end(struct plot *p, FILE *f, char *path)
{
	int bad = fclose(f) != 0;

	if (bad)
		fprintf(stderr, "pcbench: plot: %s: out of memory\n", path);
	bad = bad || outfile_write_all(path, p->data, p->data_len);
	if (!bad)
		outfile_track(path, 1); /* removed by data_drop, or by a second signal */
	free(p->data);
	p->data = NULL;
	p->failed |= bad;
	return bad ? -1 : 0;
}

/* data_drop - remove the data file @path once gnuplot has read it. */
static void data_drop(char *path)
{
	outfile_track(path, 0);
	unlink(path);
}

static void plot_scaling(struct plot *p, const char *sc, const char *wl, const int *ls, int nls)
{
	char *data = xasprintf("%s/scaling-%s-%s.dat", p->tmpdir, sc, wl);
	char *png = xasprintf("%s/scaling-%s-%s.png", p->outdir, sc, wl);
	long th[1024];
	int nth = thread_counts(p, sc, wl, th), blocks = 0;
	double *v = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(double)), ref = NAN;
	const char *ref_label = "";
	FILE *f = data_begin(p);

	fprintf(f, "# %s %s: per line, threads, median ops/s, stddev\n", sc, wl);
	for (int i = 0; i < nls; i++) {
		int points = 0;

		for (int k = 0; k < nth; k++) {
			size_t n = values(p, ls[i], wl, th[k], p->c_ops_per_s, v);

			if (!n)
				continue;
			if (!points)
				fprintf(f, "%s\"%s\"\n", blocks ? "\n\n" : "",
					p->lines[ls[i]].label);
			fprintf(f, "%ld", th[k]);
			fmt_num(f, stats_median(v, n));
			fmt_num(f, stats_stddev(v, n));
			fprintf(f, "\n");
			if (!blocks && th[k] == 1) {
				ref = stats_median(v, n);
				ref_label = p->lines[ls[i]].label;
			}
			points++;
		}
		blocks += points > 0;
	}
	if (data_end(p, f, data)) {
		/* said why; no plot from a cut data file */
	} else if (blocks) {
		char *suffix = title_suffix(p);
		char *title =
		    xasprintf("%s, workload %s: throughput against threads %s", sc, wl, suffix);
		char refs[64] = "";
		char *reflab = xasprintf("linear scaling of %s at 1 thread", ref_label);
		char *args[] = {data, png, title, refs, reflab, NULL};

		if (!isnan(ref))
			snprintf(refs, sizeof(refs), "%.10g", ref);
		gnuplot(p, "scaling.gp", png, args);
		free(suffix);
		free(title);
		free(reflab);
	} else {
		printf("skipped %s: no ok measurement\n", png);
	}
	data_drop(data);
	free(data);
	free(png);
	free(v);
}

static int is_counter(const char *h)
{
	if (!ends_with(h, "_per_op") || ends_with(h, "_min_thread_per_op") ||
	    ends_with(h, "_max_thread_per_op"))
		return 0;
	for (size_t i = 0; i < sizeof(counter_stems) / sizeof(counter_stems[0]); i++)
		if (!strncmp(h, counter_stems[i], strlen(counter_stems[i])))
			return 1;
	return 0;
}

static void plot_counters(struct plot *p, const char *sc, const int *ls, int nls)
{
	char *data = xasprintf("%s/counters-%s.dat", p->tmpdir, sc);
	char *png = xasprintf("%s/counters-%s.png", p->outdir, sc);
	char **wls = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
	int nwl = distinct(p, sc, p->c_workload, wls), nev = 0;
	double *v = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(double));
	long th[1024];
	struct {
		char *name;
		int col;
	} ev[64];
	FILE *f;

	/* The counter columns with at least one value in this scenario. */
	for (int k = 0; k < p->t->ncols && nev < 64; k++) {
		int any = 0;

		if (!is_counter(p->t->header[k]))
			continue;
		for (int r = 0; r < p->t->nrows && !any; r++)
			any = !strcmp(cellv(p, r, p->c_scenario), sc) &&
			      !strcmp(cellv(p, r, p->c_status), "ok") && p->t->rows[r][k][0];
		if (any) {
			ev[nev].name = p->t->header[k];
			ev[nev++].col = k;
		}
	}
	if (!nev) {
		printf("skipped %s: no HITM, c2c-fill or LLC-miss counter values in this run\n",
		       png);
		goto out;
	}
	f = data_begin(p);
	for (int e = 0; e < nev; e++) {
		fprintf(f, "%s\"%s\"", e ? "\n\n" : "", ev[e].name);
		for (int i = 0; i < nls; i++)
			fprintf(f, " \"%s\" \"stddev\"", p->lines[ls[i]].label);
		fprintf(f, "\n");
		for (int w = 0; w < nwl; w++) {
			int nth = thread_counts(p, sc, wls[w], th);

			for (int k = 0; k < nth; k++) {
				int any = 0;

				for (int i = 0; i < nls && !any; i++)
					any = values(p, ls[i], wls[w], th[k], ev[e].col, v) > 0;
				if (!any)
					continue; /* nothing measured here: no empty cluster */
				fprintf(f, "\"%s t=%ld\"", wls[w], th[k]);
				for (int i = 0; i < nls; i++) {
					size_t n = values(p, ls[i], wls[w], th[k], ev[e].col, v);

					fmt_num(f, n ? stats_median(v, n) : NAN);
					fmt_num(f, n ? stats_stddev(v, n) : NAN);
				}
				fprintf(f, "\n");
			}
		}
	}
	if (!data_end(p, f, data)) {
		char *suffix = title_suffix(p);
		char *title = xasprintf("%s: counters per operation by preset %s", sc, suffix);
		char nseries[16], *events = NULL;
		char *args[] = {data, png, title, NULL, nseries, NULL};

		for (int e = 0; e < nev; e++) {
			char *more =
			    events ? xasprintf("%s %s", events, ev[e].name) : xstrdup(ev[e].name);

			free(events);
			events = more;
		}
		args[3] = events;
		snprintf(nseries, sizeof(nseries), "%d", nls);
		gnuplot(p, "counters.gp", png, args);
		free(suffix);
		free(title);
		free(events);
	}
	data_drop(data);
out:
	free(data);
	free(png);
	free(wls);
	free(v);
}

/*
 * plot_matrix - c2c-matrix.png from the cpu_a, cpu_b and ns_per_transfer columns of a
 * `pcbench -s c2c --matrix` run: the median over ok repetitions of every pair, mirrored.
 */
static void plot_matrix(struct plot *p)
{
	int ca = csv_col(p->t, "cpu_a"), cb = csv_col(p->t, "cpu_b");
	int cn = csv_col(p->t, "ns_per_transfer"), cpus[1024], n = 0;
	char *data, *png, *title, *title_end, ncpus[16];
	double *v;
	FILE *f;

	if (ca < 0 || cb < 0 || cn < 0) {
		printf("skipped %s/c2c-matrix.png: no c2c --matrix data in this run\n", p->outdir);
		return;
	}
	for (int r = 0; r < p->t->nrows; r++)
		for (int k = 0; k < 2; k++) {
			int cpu = atoi(p->t->rows[r][k ? cb : ca]), dup = 0;

			for (int i = 0; i < n; i++)
				dup |= cpus[i] == cpu;
			if (!dup && n < 1024)
				cpus[n++] = cpu;
		}
	qsort(cpus, (size_t)n, sizeof(int), cmp_int);
	data = xasprintf("%s/c2c-matrix.dat", p->tmpdir);
	png = xasprintf("%s/c2c-matrix.png", p->outdir);
	v = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(double));
	f = data_begin(p);
	fprintf(f, "# column row median-ns cpu-of-column cpu-of-row\n");
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			size_t k = 0;

			for (int r = 0; r < p->t->nrows; r++) {
				int a = atoi(p->t->rows[r][ca]), b = atoi(p->t->rows[r][cb]);

				if (strcmp(cellv(p, r, p->c_status), "ok") ||
				    !((a == cpus[i] && b == cpus[j]) ||
				      (a == cpus[j] && b == cpus[i])))
					continue;
				v[k++] = atof(p->t->rows[r][cn]);
			}
			fprintf(f, "%d %d", i, j);
			fmt_num(f, k ? stats_median(v, k) : NAN);
			fprintf(f, " %d %d\n", cpus[i], cpus[j]);
		}
		fprintf(f, "\n");
	}
	title_end = title_suffix(p);
	title = xasprintf("c2c %s: ns per one-way transfer %s",
			  p->t->nrows ? cellv(p, 0, p->c_workload) : "", title_end);
	snprintf(ncpus, sizeof(ncpus), "%d", n);
	if (!data_end(p, f, data))
		gnuplot(p, "c2c-matrix.gp", png, (char *[]){data, png, title, ncpus, NULL});
	data_drop(data);
	free(title_end);
	free(title);
	free(data);
	free(png);
	free(v);
}

static const struct opt plot_opts[] = {
    {"out", 'o', "DIR", "write the plots here (default: the run directory)"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};

const struct cmd_help plot_help = {
    .name = "plot",
    .synopsis = "usage: pcbench plot RUN [-o DIR]\n",
    .about = "Writes PNG plots of RUN (a run directory or a results CSV) through gnuplot\n"
	     "(Debian: gnuplot-nox), into DIR (default: the run directory):\n"
	     "  scaling-<scenario>-<workload>.png  ops/s against threads, one line per preset,\n"
	     "                                     bars +-1 stddev over the repetitions, and the\n"
	     "                                     linear scaling of the first preset's 1 thread\n"
	     "  counters-<scenario>.png            HITM, c2c-fill and LLC-miss per operation,\n"
	     "                                     bars per preset, where the run has them\n"
	     "  c2c-matrix.png                     from a c2c --matrix run\n",
    .opts = plot_opts,
    .after = "Exit status: 0 plots written, 1 gnuplot failed, 2 bad usage or input,\n"
	     "3 interrupted (the plots written are whole), 4 skipped (gnuplot is not\n"
	     "installed, or nothing to plot).\n",
};

/*
 * The state of one plot run. File-scope, so that what it owns stays reachable until the
 * process exits (pcbench plot is a one-shot command; nothing is freed piecemeal).
 */
static struct plot state;

int plot_main(int argc, char **argv)
{
	struct plot *const p = &state;
	struct opt_parser op;
	char **scs, err[PATH_MAX + 256];
	int nsc, *ls;

	memset(p, 0, sizeof(*p));
	opt_init(&op, &plot_help);
	while (opt_next(&op, argc, argv) == 'o')
		p->outdir = optarg;
	if (optind >= argc)
		usage_error("RUN", "",
			    "missing: give a run directory or a results CSV (see "
			    "pcbench plot --help)");
	if (optind + 1 < argc)
		usage_error("argument", argv[optind + 1], "unexpected: plot takes one RUN");
	load(p, argv[optind]);
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
	/* The temp directory first: a bad TMPDIR is refused before -o DIR is made. */
	p->tmpdir =
	    xasprintf("%s/pcbench-plot.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(p->tmpdir))
		usage_error("plot", p->tmpdir, "%s", strerror(errno));
	outfile_track(p->tmpdir, 1);
	/* From here on a signal stops at the next plot: the PNGs written stay, whole. */
	stop_install(STOP_FLAG, 0);
	mkdir_p(p->outdir, "-o");

	build_lines(p);
	scs = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
	ls = xrealloc(NULL, (size_t)(p->nlines + 1) * sizeof(int));
	nsc = distinct(p, NULL, p->c_scenario, scs);
	for (int s = 0; s < nsc && !stop_requested; s++) {
		char **wls = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
		int nls = scenario_series(p, scs[s], ls);
		int nwl = distinct(p, scs[s], p->c_workload, wls);

		for (int w = 0; w < nwl && !stop_requested; w++)
			plot_scaling(p, scs[s], wls[w], ls, nls);
		if (!stop_requested)
			plot_counters(p, scs[s], ls, nls);
		free(wls);
	}
	if (!stop_requested)
		plot_matrix(p);
	outfile_track(p->tmpdir, 0);
	rmdir(p->tmpdir);
	free(scs);
	free(ls);
	if (stop_requested) {
		fprintf(stderr, "pcbench: plot: interrupted (%s): the plots written are whole\n",
			strsignal(stop_requested));
		return 3;
	}
	if (p->failed)
		return 1;
	return p->written ? 0 : 4;
}
