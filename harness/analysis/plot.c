// SPDX-License-Identifier: MIT
/*
 * plot.c - `pcbench plot RUN [-o DIR] [--keep-data]`: PNG plots of a run through gnuplot.
 *
 * pcbench reduces the ok repetitions of each measurement to a median and a sample standard
 * deviation, writes them to small data files, and runs the gnuplot scripts in scripts/
 * (scaling.gp, counters.gp, c2c-matrix.gp; forest.gp from forest.c) on them; all drawing
 * is gnuplot's. The rows of several hosts (a merged lab run: their label column) are never
 * pooled: each host has its own lines. Without gnuplot it writes nothing and exits 4
 * (skipped).
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "compare/compare.h"
#include "csv.h"
#include "gnuplot.h"
#include "harness.h"
#include "plot.h"
#include "stats.h"
#include "results.h"
#include "outfile.h"
#include "outpath.h"
#include "stop.h"
#include "strbuf.h"
#include "util.h"

/* Counter columns plotted in counters-<scenario>.png: <stem>..._per_op. */
static const char *const counter_stems[] = {"hitm", "rfo_hitm", "c2c_fill", "llc_miss"};

/* share_workload - lines @a and @b have rows of a common workload. */
static int share_workload(const struct plot *p, int a, int b);

static const char *cellv(const struct plot *p, int row, int col)
{
	return col >= 0 ? p->t->rows[row][col] : "";
}

/* host_of - the host of row @r: its label (--label, the lab's name), else its host. */
static const char *host_of(const struct plot *p, int r)
{
	const char *label = cellv(p, r, p->c_label);

	return label[0] ? label : cellv(p, r, p->c_host);
}

static int distinct_hosts(const struct plot *p, char **out)
{
	int n = 0;

	for (int r = 0; r < p->t->nrows; r++) {
		const char *h = host_of(p, r);
		int dup = 0;

		for (int i = 0; i < n && !dup; i++)
			dup = !strcmp(out[i], h);
		if (!dup)
			out[n++] = (char *)h;
	}
	return n;
}

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
	p->c_host = csv_col(p->t, "host");
	p->c_label = csv_col(p->t, "label");
	p->c_cpu_a = csv_col(p->t, "cpu_a");
	if (!p->host && p->c_host >= 0)
		p->host = xstrdup(p->t->rows[0][p->c_host]);
	p->hosts = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
	p->nhosts = distinct_hosts(p, p->hosts);
	/* without context.json's start, the run_id names the run (one host: one run) */
	if (!p->date && p->nhosts == 1)
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

/* no_quote - gnuplot data strings cannot hold a double quote: make each one a '. */
static char *no_quote(char *s)
{
	for (char *c = s; *c; c++)
		if (*c == '"')
			*c = '\'';
	return s;
}

/*
 * label_line - the title of line @l: its preset [layout], each key column that tells it
 * from another line of its preset, scenario, host and workload ("batch=64"), and with
 * several hosts " on HOST" (the host is never pooled, and never a key=value).
 */
static void label_line(struct plot *p, int l)
{
	struct line *ln = &p->lines[l];
	char *label =
	    ln->layout[0] ? xasprintf("%s [%s]", ln->preset, ln->layout) : xstrdup(ln->preset);

	for (int k = 0; k < p->nkeys; k++) {
		const char *h = p->t->header[p->keycol[k]];
		int varies = 0;

		if (!strcmp(h, "label") || (p->nhosts > 1 && !strcmp(h, "host")))
			continue;
		for (int m = 0; m < p->nlines && !varies; m++)
			varies = m != l && !strcmp(p->lines[m].scenario, ln->scenario) &&
				 !strcmp(p->lines[m].preset, ln->preset) &&
				 !strcmp(p->lines[m].host, ln->host) &&
				 strcmp(p->lines[m].kv[k], ln->kv[k]) && share_workload(p, l, m);
		if (varies) {
			char *more = xasprintf("%s %s=%s", label,
					       strncmp(h, "param_", 6) ? h : h + 6, ln->kv[k]);

			free(label);
			label = more;
		}
	}
	ln->base = no_quote(label);
	ln->label =
	    no_quote(p->nhosts > 1 ? xasprintf("%s on %s", label, ln->host) : xstrdup(label));
}

/* Lines: one per distinct (scenario, preset, layout, key columns), in preset order. */
static void build_lines(struct plot *p)
{
	static const char *const extra[] = {"placement", "home", "host", "label", "topology_fp"};
	const int nextra = (int)(sizeof(extra) / sizeof(extra[0]));
	struct csv_table *t = p->t;

	p->keycol = xrealloc(NULL, (size_t)(t->ncols + nextra) * sizeof(int));
	for (int k = 0; k < t->ncols; k++)
		if (!strncmp(t->header[k], "param_", 6))
			p->keycol[p->nkeys++] = k;
	for (int i = 0; i < nextra; i++)
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
			ln->host = xstrdup(host_of(p, r));
			ln->kv = xrealloc(NULL, (size_t)(p->nkeys + 1) * sizeof(char *));
			for (int k = 0; k < p->nkeys; k++)
				ln->kv[k] = xstrdup(cellv(p, r, p->keycol[k]));
			ln->rank = rank_of(ln->scenario, ln->preset);
			ln->first = p->nlines;
			found = p->nlines++;
		}
		p->row_line[r] = found;
	}
	for (int l = 0; l < p->nlines; l++)
		label_line(p, l);
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

static int host_index(const struct plot *p, const char *host)
{
	for (int i = 0; i < p->nhosts; i++)
		if (!strcmp(p->hosts[i], host))
			return i;
	return 0;
}

/* Series order: by host (first seen), then by preset (the scenario's order). */
static int line_order(const struct plot *p, int a, int b)
{
	const struct line *x = &p->lines[a], *y = &p->lines[b];
	int hx = host_index(p, x->host), hy = host_index(p, y->host);

	if (hx != hy)
		return hx < hy ? -1 : 1;
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
 * its scenario with its label), workload @wl, @threads; not the rows of a c2c --matrix run
 * (each of its pairs is a cell of c2c-matrix.png).
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
		    strcmp(cellv(p, r, p->c_workload), wl) || cellv(p, r, p->c_cpu_a)[0] ||
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
 * How the workloads of a scenario are drawn against threads: ops/s (scaling-*.png); or, for
 * the c2c probe, whose operation is one transfer of a line between threads (a ring above
 * two), ns per transfer from 2 threads on (transfer-*.png): its ops/s against threads, with
 * a line of linear scaling, says nothing.
 */
struct axis {
	const char *stem, *what, *ylabel, *yformat;
	long min_threads;
	int per_transfer; /* y = 1e9 / ops_per_s: ns per transfer */
};

static const struct axis axes[] = {
    {"scaling", "throughput against threads",
     "throughput [operations/s], median of the repetitions, bars: ±1 stddev", "%.1s%c", 1, 0},
    {"transfer", "ns per one-way transfer against threads",
     "ns per one-way cache-line transfer (1e9 / ops/s), median, bars: ±1 stddev", "%g", 2, 1},
};

static const struct axis *axis_of(const char *scenario)
{
	return &axes[!strcmp(scenario, "c2c")];
}

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
	int nsc = distinct(p, NULL, p->c_scenario, scs);
	char err[PATH_MAX + 256];

	for (int s = 0; s < nsc; s++) {
		int nwl = distinct(p, scs[s], p->c_workload, wls);

		if (scs[s][0] && outpath_name_check(scs[s], err, sizeof(err)))
			usage_error("scenario", scs[s], "%s (it names a plot file)", err);
		for (int w = 0; w < nwl; w++) {
			if (wls[w][0] && outpath_name_check(wls[w], err, sizeof(err)))
				usage_error("workload", wls[w], "%s (it names a plot file)", err);
			check_stem(p, xasprintf("%s-%s-%s", axis_of(scs[s])->stem, scs[s], wls[w]));
			check_stem(p, xasprintf("forest-%s-%s", scs[s], wls[w]));
		}
		check_stem(p, xasprintf("counters-%s", scs[s]));
	}
	check_stem(p, xstrdup("c2c-matrix"));
	free(scs);
	free(wls);
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

/*
 * series_styles - per series of @ls with points (@has), its colour (one per preset, the
 * same on every host) in @colours and its host (dash and point type) in @hosts, as the
 * space-separated numbers scaling.gp takes.
 */
static void series_styles(const struct plot *p, const int *ls, const int *has, int nls,
			  struct sb *colours, struct sb *hosts)
{
	const char **bases = xcalloc((size_t)nls + 1, sizeof(char *));
	int nb = 0;

	for (int i = 0; i < nls; i++) {
		const struct line *ln = &p->lines[ls[i]];
		int c = 0;

		if (!has[i])
			continue;
		while (c < nb && strcmp(bases[c], ln->base))
			c++;
		if (c == nb)
			bases[nb++] = ln->base;
		sb_printf(colours, "%s%d", colours->n ? " " : "", c + 1);
		sb_printf(hosts, "%s%d", hosts->n ? " " : "", host_index(p, ln->host) + 1);
	}
	free(bases);
}

/*
 * plot_scaling - STEM-@sc-@wl.png (struct axis): the median over the ok repetitions and
 * their stddev against threads, one line per series (preset and host).
 */
static void plot_scaling(struct plot *p, const char *sc, const char *wl, const int *ls, int nls)
{
	const struct axis *ax = axis_of(sc);
	char *stem = xasprintf("%s-%s-%s", ax->stem, sc, wl);
	char *data = plot_data_path(p, stem), *png = xasprintf("%s/%s.png", p->outdir, stem);
	long th[1024];
	int nth = thread_counts(p, sc, wl, th), blocks = 0,
	    *has = xcalloc((size_t)nls + 1, sizeof(int));
	double *v = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(double)), ref = NAN;
	const char *ref_label = "";
	FILE *f = plot_data_begin(p);
	int drawn = 0;

	fprintf(f, "# %s %s: per line, threads, median %s, stddev\n", sc, wl,
		ax->per_transfer ? "ns per transfer" : "ops/s");
	for (int i = 0; i < nls; i++) {
		for (int k = 0; k < nth; k++) {
			size_t n = th[k] < ax->min_threads
				       ? 0
				       : values(p, ls[i], wl, th[k], p->c_ops_per_s, v);

			if (!n)
				continue;
			for (size_t j = 0; ax->per_transfer && j < n; j++)
				v[j] = v[j] > 0 ? 1e9 / v[j] : NAN;
			if (!has[i]++) {
				fprintf(f, "%s", blocks++ ? "\n\n" : "");
				plot_quoted(f, p->lines[ls[i]].label);
				fprintf(f, "\n");
			}
			fprintf(f, "%ld", th[k]);
			fmt_num(f, stats_median(v, n));
			fmt_num(f, stats_stddev(v, n));
			fprintf(f, "\n");
			if (blocks == 1 && th[k] == 1 && !ax->per_transfer) {
				ref = stats_median(v, n);
				ref_label = p->lines[ls[i]].label;
			}
		}
	}
	if (plot_data_end(p, f, data)) {
		/* said why; no plot from a cut data file */
	} else if (blocks) {
		char *suffix = plot_title_suffix(p);
		char *title = xasprintf("%s, workload %s: %s %s", sc, wl, ax->what, suffix);
		char refs[64] = "";
		char *reflab = xasprintf("linear scaling of %s at 1 thread", ref_label);
		struct sb colours = {0}, hosts = {0};
		char *args[] = {
		    data, png,	title, (char *)ax->ylabel, (char *)ax->yformat, refs, reflab,
		    NULL, NULL, NULL};

		series_styles(p, ls, has, nls, &colours, &hosts);
		args[7] = (char *)sb_str(&colours);
		args[8] = (char *)sb_str(&hosts);
		if (!isnan(ref))
			snprintf(refs, sizeof(refs), "%.10g", ref);
		drawn = !plot_gnuplot(p, "scaling.gp", png, args);
		free(suffix);
		free(title);
		free(reflab);
		free(colours.p);
		free(hosts.p);
	} else {
		printf("skipped %s: no ok measurement%s\n", png,
		       ax->min_threads > 1 ? " at 2 or more threads (not --matrix)" : "");
	}
	plot_data_drop(p, data, drawn);
	free(stem);
	free(data);
	free(png);
	free(has);
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
	char *stem = xasprintf("counters-%s", sc);
	char *data = plot_data_path(p, stem), *png = xasprintf("%s/%s.png", p->outdir, stem);
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
	f = plot_data_begin(p);
	for (int e = 0; e < nev; e++) {
		fprintf(f, "%s\"%s\"", e ? "\n\n" : "", ev[e].name);
		for (int i = 0; i < nls; i++) {
			fputc(' ', f);
			plot_quoted(f, p->lines[ls[i]].label);
			fprintf(f, " \"stddev\"");
		}
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
	if (!plot_data_end(p, f, data)) {
		char *suffix = plot_title_suffix(p);
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
		plot_data_drop(p, data, !plot_gnuplot(p, "counters.gp", png, args));
		free(suffix);
		free(title);
		free(events);
	} else {
		plot_data_drop(p, data, 0);
	}
out:
	free(stem);
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
	data = plot_data_path(p, "c2c-matrix");
	png = xasprintf("%s/c2c-matrix.png", p->outdir);
	v = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(double));
	f = plot_data_begin(p);
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
	title_end = plot_title_suffix(p);
	title = xasprintf("c2c %s: ns per one-way transfer %s",
			  p->t->nrows ? cellv(p, 0, p->c_workload) : "", title_end);
	snprintf(ncpus, sizeof(ncpus), "%d", n);
	plot_data_drop(
	    p, data,
	    !plot_data_end(p, f, data) &&
		!plot_gnuplot(p, "c2c-matrix.gp", png, (char *[]){data, png, title, ncpus, NULL}));
	free(title_end);
	free(title);
	free(data);
	free(png);
	free(v);
}

enum { O_KEEP = OPT_LONG };

static const struct opt plot_opts[] = {
    {"out", 'o', "DIR", "write the plots here (default: the run directory)"},
    {"keep-data", O_KEEP, NULL,
     "keep, beside each NAME.png, its data NAME.dat and NAME.gp,\n"
     "which draws it again (gnuplot NAME.gp, in that directory)"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
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
	struct opt_parser op;
	char **scs, err[PATH_MAX + 256];
	int nsc, *ls, ch;
	sigset_t sigs, old;

	memset(p, 0, sizeof(*p));
	opt_init(&op, &plot_help);
	while ((ch = opt_next(&op, argc, argv)) != -1)
		if (ch == 'o')
			p->outdir = optarg;
		else
			p->keep = 1;
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
	/* compare's tables (bad input exits 2 there too); a signal here ends plot at once. */
	p->cmp = compare_one_run(argv[optind]);
	/*
	 * The temp directory first: a bad TMPDIR is refused before -o DIR is made. A signal
	 * waits until it is registered (else one just after mkdtemp left it behind).
	 */
	p->tmpdir =
	    xasprintf("%s/pcbench-plot.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	if (!mkdtemp(p->tmpdir))
		usage_error("plot", p->tmpdir, "%s", strerror(errno));
	outfile_track(p->tmpdir, 1);
	sigprocmask(SIG_SETMASK, &old, NULL);
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
