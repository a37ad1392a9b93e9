// SPDX-License-Identifier: MIT
/*
 * plot_series.c - the lines and series of `pcbench plot` (plot.h): the run loaded, its hosts
 * (never pooled), one line per preset and key columns, labelled; the series of a scenario
 * in host and preset order, and the values of a series the plots draw.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "harness.h"
#include "plot.h"
#include "results.h"
#include "util.h"

/* share_workload - lines @a and @b have rows of a common workload. */
static int share_workload(const struct plot *p, int a, int b);

const char *plot_cell(const struct plot *p, int row, int col)
{
	return col >= 0 ? p->t->rows[row][col] : "";
}

/* host_of - the host of row @r: its label (--label, the lab's name), else its host. */
static const char *host_of(const struct plot *p, int r)
{
	const char *label = plot_cell(p, r, p->c_label);

	return label[0] ? label : plot_cell(p, r, p->c_host);
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

void plot_load(struct plot *p, const char *arg)
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
	free(f.layouts);
	if (f.dir) {
		p->dir = f.dir;
	} else { /* plots go next to a CSV file */
		slash = strrchr(f.csv_path, '/');
		p->dir =
		    slash ? xasprintf("%.*s", slash == f.csv_path ? 1 : (int)(slash - f.csv_path),
				      f.csv_path)
			  : xstrdup(".");
	}
	p->c_scenario = results_col(p->t, COL_SCENARIO);
	p->c_preset = results_col(p->t, COL_PRESET);
	p->c_layout = results_col(p->t, COL_LAYOUT);
	p->c_workload = results_col(p->t, COL_WORKLOAD);
	p->c_threads = results_col(p->t, COL_THREADS);
	p->c_status = results_col(p->t, COL_STATUS);
	p->c_ops_per_s = results_col(p->t, COL_OPS_PER_S);
	p->c_host = results_col(p->t, COL_HOST);
	p->c_label = results_col(p->t, COL_LABEL);
	p->c_cpu_a = results_var_col(p->t, VCOL_CPU_A);
	if (!p->host && p->c_host >= 0)
		p->host = xstrdup(p->t->rows[0][p->c_host]);
	p->hosts = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
	p->nhosts = distinct_hosts(p, p->hosts);
	/* without context.json's start, the run_id names the run (one host: one run) */
	if (!p->date && p->nhosts == 1)
		p->date = xstrdup(p->t->rows[0][results_col(p->t, COL_RUN_ID)]);
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

		if (!strcmp(h, results_cols[COL_LABEL]) ||
		    (p->nhosts > 1 && !strcmp(h, results_cols[COL_HOST])))
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

void plot_build_lines(struct plot *p)
{
	static const enum results_col extra[] = {COL_PLACEMENT, COL_HOME, COL_HOST, COL_LABEL,
						 COL_TOPOLOGY_FP};
	const int nextra = (int)(sizeof(extra) / sizeof(extra[0]));
	struct csv_table *t = p->t;

	p->keycol = xrealloc(NULL, (size_t)(t->ncols + nextra) * sizeof(int));
	for (int k = 0; k < t->ncols; k++)
		if (!strncmp(t->header[k], "param_", 6))
			p->keycol[p->nkeys++] = k;
	for (int i = 0; i < nextra; i++)
		if (results_col(t, extra[i]) >= 0)
			p->keycol[p->nkeys++] = results_col(t, extra[i]);
	p->row_line = xrealloc(NULL, (size_t)(t->nrows + 1) * sizeof(int));
	for (int r = 0; r < t->nrows; r++) {
		int found = -1;

		for (int l = 0; l < p->nlines && found < 0; l++) {
			const struct line *ln = &p->lines[l];
			int same = !strcmp(ln->scenario, plot_cell(p, r, p->c_scenario)) &&
				   !strcmp(ln->preset, plot_cell(p, r, p->c_preset)) &&
				   !strcmp(ln->layout, plot_cell(p, r, p->c_layout));

			for (int k = 0; k < p->nkeys && same; k++)
				same = !strcmp(ln->kv[k], plot_cell(p, r, p->keycol[k]));
			if (same)
				found = l;
		}
		if (found < 0) {
			struct line *ln;

			p->lines = xrealloc(p->lines, (size_t)(p->nlines + 1) * sizeof(*p->lines));
			ln = &p->lines[p->nlines];
			ln->scenario = xstrdup(plot_cell(p, r, p->c_scenario));
			ln->preset = xstrdup(plot_cell(p, r, p->c_preset));
			ln->layout = xstrdup(plot_cell(p, r, p->c_layout));
			ln->host = xstrdup(host_of(p, r));
			ln->kv = xrealloc(NULL, (size_t)(p->nkeys + 1) * sizeof(char *));
			for (int k = 0; k < p->nkeys; k++)
				ln->kv[k] = xstrdup(plot_cell(p, r, p->keycol[k]));
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
			    !strcmp(plot_cell(p, r, p->c_workload), plot_cell(p, q, p->c_workload)))
				return 1;
	}
	return 0;
}

int plot_host_index(const struct plot *p, const char *host)
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
	int hx = plot_host_index(p, x->host), hy = plot_host_index(p, y->host);

	if (hx != hy)
		return hx < hy ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

int plot_series(const struct plot *p, const char *scenario, int *out)
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

size_t plot_values(const struct plot *p, int l, const char *wl, long threads, int col, double *out)
{
	const struct line *ln = &p->lines[l];
	size_t n = 0;

	for (int r = 0; r < p->t->nrows; r++) {
		const struct line *lr = &p->lines[p->row_line[r]];
		const char *v = p->t->rows[r][col];
		char *end;
		double x;

		if (strcmp(lr->scenario, ln->scenario) || strcmp(lr->label, ln->label) ||
		    strcmp(plot_cell(p, r, p->c_workload), wl) || plot_cell(p, r, p->c_cpu_a)[0] ||
		    strtol(plot_cell(p, r, p->c_threads), NULL, 10) != threads ||
		    strcmp(plot_cell(p, r, p->c_status), "ok") || !v[0])
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

int plot_distinct(const struct plot *p, const char *scenario, int col, char **out)
{
	int n = 0;

	for (int r = 0; r < p->t->nrows; r++) {
		const char *v = plot_cell(p, r, col);
		int dup = 0;

		if (scenario && strcmp(plot_cell(p, r, p->c_scenario), scenario))
			continue;
		for (int i = 0; i < n && !dup; i++)
			dup = !strcmp(out[i], v);
		if (!dup)
			out[n++] = (char *)v;
	}
	return n;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int plot_thread_counts(const struct plot *p, const char *scenario, const char *wl, long *out)
{
	int n = 0;

	for (int r = 0; r < p->t->nrows; r++) {
		long th = strtol(plot_cell(p, r, p->c_threads), NULL, 10);
		int dup = 0;

		if (strcmp(plot_cell(p, r, p->c_scenario), scenario) ||
		    (wl && strcmp(plot_cell(p, r, p->c_workload), wl)))
			continue;
		for (int i = 0; i < n && !dup; i++)
			dup = out[i] == th;
		if (!dup)
			out[n++] = th;
	}
	qsort(out, (size_t)n, sizeof(long), cmp_long);
	return n;
}
