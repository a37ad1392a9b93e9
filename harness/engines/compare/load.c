// SPDX-License-Identifier: MIT
/* load.c - compare: loading RUNs, the union of their columns, and the string map. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "csv.h"
#include "esc.h"
#include "num.h"

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* map_slot - the slot of @key in @m: where it is, or the empty slot where it would go. */
static size_t map_slot(const struct map *m, const char *key)
{
	size_t i = fnv1a(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

int cmp_map_get(const struct map *m, const char *key)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = map_slot(m, key);
	return m->keys[i] ? m->vals[i] : -1;
}

void cmp_map_put(struct map *m, const char *key, int val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct map bigger = {0};

		bigger.cap = m->cap ? 2 * m->cap : 64;
		bigger.keys = xcalloc(bigger.cap, sizeof(char *));
		bigger.vals = xcalloc(bigger.cap, sizeof(int));
		/* the keys move: the new table owns the old strings */
		for (size_t j = 0; j < m->cap; j++)
			if (m->keys[j]) {
				i = map_slot(&bigger, m->keys[j]);
				bigger.keys[i] = m->keys[j];
				bigger.vals[i] = m->vals[j];
				bigger.n++;
			}
		free(m->keys);
		free(m->vals);
		*m = bigger;
	}
	i = map_slot(m, key);
	if (!m->keys[i]) {
		m->keys[i] = xstrdup(key);
		m->n++;
	}
	m->vals[i] = val;
}

/* cmp_first_seen - the order in which a (dimension, value) first appeared in the input. */
long cmp_first_seen(struct compare *c, const char *dim, const char *value)
{
	char *k = xasprintf("%s\x1f%s", dim, value);
	int v = cmp_map_get(&c->first, k);

	if (v < 0) {
		v = (int)c->first.n;
		cmp_map_put(&c->first, k, v);
	}
	free(k);
	return v;
}

const char *cmp_cell_at(const struct cmp_run *r, int row, int col)
{
	return col >= 0 ? r->t->rows[row][col] : "";
}

/* ---- loading runs ---- */

double cmp_parse_num(const struct cmp_run *r, int row, int col)
{
	const char *s = r->t->rows[row][col];
	double v;

	if (num_double(s, -INFINITY, INFINITY, &v))
		usage_error("RUN", r->csv_path, "line %d: column %s: \"%s\" is not a number",
			    row + 2, r->t->header[col], s);
	return v;
}

void cmp_load_run(struct cmp_run *r, const char *arg)
{
	struct run_file f;
	const char *base, *dir;

	run_file_load(&f, arg);
	memset(r, 0, sizeof(*r));
	r->arg = arg;
	r->csv_path = f.csv_path;
	r->t = f.t;
	r->label = f.run_id;
	r->host = f.label ? f.label : f.host; /* a host is known by its --label */
	if (f.label)
		free(f.host);
	r->cpu_model = f.cpu_model;
	r->machine = f.machine;
	r->start = f.start;
	r->incomplete = f.incomplete;
	r->design = f.design;
	r->layouts = f.layouts;
	r->precision = f.precision;
	dir = f.dir;
	/* Names read from files reach the terminal and the report files: escaped once here. */
	for (int i = 0; i < r->t->nrows; i++)
		for (int k = 0; k < r->t->ncols; k++)
			esc_inplace(&r->t->rows[i][k]);
	for (int k = 0; k < r->t->ncols; k++)
		esc_inplace(&r->t->header[k]);
	esc_inplace(&r->label);
	esc_inplace(&r->host);
	esc_inplace(&r->cpu_model);
	esc_inplace(&r->machine);
	esc_inplace(&r->start);
	for (int i = 0; i < NREQ; i++)
		r->col[i] = results_col(r->t, (enum results_col)i);
	r->c_host = results_col(r->t, COL_HOST);
	/* Where a row has a label (--label), it names the host: rewrite the host cells. */
	for (int i = 0, c_label = results_col(r->t, COL_LABEL); c_label >= 0 && i < r->t->nrows;
	     i++)
		if (r->c_host >= 0 && r->t->rows[i][c_label][0]) {
			free(r->t->rows[i][r->c_host]);
			r->t->rows[i][r->c_host] = xstrdup(r->t->rows[i][c_label]);
		}
	r->c_home = results_col(r->t, COL_HOME);
	r->c_topo = results_col(r->t, COL_TOPOLOGY_FP);
	r->c_krel = results_var_col(r->t, VCOL_KERNEL_RELEASE);
	r->c_kfp = results_var_col(r->t, VCOL_KERNEL_LAYOUT_FP);
	r->c_block = results_col(r->t, COL_BLOCK);
	r->c_omin = results_col(r->t, COL_OPS_MIN_THREAD);
	r->c_omax = results_col(r->t, COL_OPS_MAX_THREAD);
	r->c_dist_by = results_col(r->t, COL_DISTURBED_BY);
	r->c_xb = results_col(r->t, COL_XFER_BEFORE_NS);
	r->c_xa = results_col(r->t, COL_XFER_AFTER_NS);
	if (!r->label) {
		/* One run_id in the whole CSV names the run. */
		const char *id = cmp_cell_at(r, 0, r->col[C_RUN_ID]);
		int same = id[0] != '\0';

		for (int i = 1; i < r->t->nrows && same; i++)
			same = !strcmp(id, cmp_cell_at(r, i, r->col[C_RUN_ID]));
		if (same)
			r->label = xstrdup(id);
	}
	if (!r->label) {
		const char *from = dir ? dir : r->csv_path;
		size_t n = strlen(from);

		while (n > 1 && from[n - 1] == '/')
			n--;
		base = from + n;
		while (base > from && base[-1] != '/')
			base--;
		r->label = xasprintf("%.*s", (int)(from + n - base), base);
		esc_inplace(&r->label); /* the directory's name, as the names read above */
	}
	if (!r->host && r->c_host >= 0)
		r->host = xstrdup(cmp_cell_at(r, 0, r->c_host));
	free(f.dir);
}

/* The union of the param_* and metric columns over all runs, in first-seen order. */
void cmp_collect_columns(struct compare *c)
{
	static const enum results_col fixed[] = {COL_OPS_PER_S, COL_NS_PER_OP};

	c->metrics = xcalloc(2, sizeof(char *));
	for (int i = 0; i < 2; i++)
		c->metrics[c->nmetrics++] = xstrdup(results_cols[fixed[i]]);
	for (int ri = 0; ri < c->nruns; ri++) {
		struct csv_table *t = c->runs[ri].t;

		for (int k = 0; k < t->ncols; k++) {
			const char *h = t->header[k];
			int dup = 0;

			if (!strncmp(h, "param_", 6) && h[6]) {
				for (int i = 0; i < c->nparams; i++)
					dup |= !strcmp(c->params[i], h + 6);
				if (!dup) {
					c->params = xrealloc(c->params, (size_t)(c->nparams + 1) *
									    sizeof(char *));
					c->params[c->nparams++] = xstrdup(h + 6);
				}
			} else if (ends_with(h, "_per_op") && !ends_with(h, "_min_thread_per_op") &&
				   !ends_with(h, "_max_thread_per_op")) {
				for (int i = 0; i < c->nmetrics; i++)
					dup |= !strcmp(c->metrics[i], h);
				if (!dup) {
					c->metrics = xrealloc(
					    c->metrics, (size_t)(c->nmetrics + 1) * sizeof(char *));
					c->metrics[c->nmetrics++] = xstrdup(h);
				}
			}
		}
	}
	if (c->o.metrics) {
		char *list = xstrdup(c->o.metrics), *save = NULL;
		char **keep = xcalloc((size_t)c->nmetrics, sizeof(char *));
		int nkeep = 0;
		char *m;

		for (m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
			int found = -1;

			for (int i = 0; i < c->nmetrics; i++)
				if (!strcmp(c->metrics[i], m))
					found = i;
			if (found < 0)
				break;
			for (int i = 0; i < nkeep; i++)
				if (keep[i] == c->metrics[found])
					found = -1;
			if (found >= 0)
				keep[nkeep++] = c->metrics[found];
		}
		/* An unknown name, or none at all (-m '' or -m ,): the same refusal. */
		if (m || !nkeep)
			usage_error("--metric", m ? m : c->o.metrics,
				    "no such metric column (ops_per_s, ns_per_op or a *_per_op "
				    "column of RUN)");
		free(list);
		for (int i = 0; i < c->nmetrics; i++) { /* the names not kept */
			int kept = 0;

			for (int k = 0; k < nkeep; k++)
				kept |= keep[k] == c->metrics[i];
			if (!kept)
				free(c->metrics[i]);
		}
		free(c->metrics);
		c->metrics = keep;
		c->nmetrics = nkeep;
	}
	for (int ri = 0; ri < c->nruns; ri++) {
		struct cmp_run *r = &c->runs[ri];

		r->param_col = xcalloc((size_t)c->nparams + 1, sizeof(int));
		for (int i = 0; i < c->nparams; i++) {
			char *name = xasprintf("param_%s", c->params[i]);

			r->param_col[i] = csv_col(r->t, name);
			free(name);
		}
		r->metric_col = xcalloc((size_t)c->nmetrics + 1, sizeof(int));
		r->mux_col = xcalloc((size_t)c->nmetrics + 1, sizeof(int));
		for (int i = 0; i < c->nmetrics; i++) {
			const char *m = c->metrics[i];
			char *mux = xasprintf("%.*s_mux", (int)(strlen(m) - 7), m);

			r->metric_col[i] = csv_col(r->t, m);
			r->mux_col[i] = csv_col(r->t, mux);
			free(mux);
		}
	}
}
