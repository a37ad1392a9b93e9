// SPDX-License-Identifier: MIT
/*
 * compare.c - `pcbench compare RUN [RUN...]`: medians, spread and a Mann-Whitney U test per
 * metric, between presets of one run or between the same keys of several runs (or hosts).
 *
 * The data model: every CSV row belongs to a side (one-run mode: the only one; several
 * RUNs: its RUN; --by host: its host and topology_fp), a group (scenario, workload,
 * placement, threads, home) and an entry (scenario, preset, layout, every param_* value).
 * A cell is the rows of one (side, group, entry): the repetitions of one measurement.
 * A block is what one table shows together: one-run mode, a group with one column per
 * entry (the base entry first); several runs, a (group, entry) with one column per side
 * (the first side is the base). Every non-base column is compared with the base column,
 * metric by metric, and rendered as the seeds' table, the 0-day lkp table, markdown or CSV.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "csv.h"
#include "harness.h"
#include "results.h"
#include "stats.h"
#include "util.h"

/* Indexes into results_cols[]: the column table (results.h). */
enum {
	C_RUN_ID = COL_RUN_ID,
	C_SCENARIO = COL_SCENARIO,
	C_PRESET = COL_PRESET,
	C_LAYOUT = COL_LAYOUT,
	C_WORKLOAD = COL_WORKLOAD,
	C_THREADS = COL_THREADS,
	C_PLACEMENT = COL_PLACEMENT,
	C_NS_PER_OP = COL_NS_PER_OP,
	C_STATUS = COL_STATUS,
	C_REASON = COL_REASON,
	NREQ = RESULTS_NREQ
};

#define CI_ITERS 10000
#define CI_SEED 1
#define LKP_SD_MIN 2.0 /* lkp shows "± NN%" only above this relative stddev */

enum format { FMT_TABLE, FMT_LKP, FMT_MARKDOWN, FMT_CSV };

struct options {
	const char *base, *metrics;
	enum format fmt;
	double alpha, min_change;
	int ci, by_host;
};

/* One RUN argument: a results CSV and what its context.json says. */
struct run {
	const char *arg;
	char *csv_path;
	char *label;			/* run_id from context.json, else the directory name */
	char *host, *cpu_model, *start; /* from context.json, or NULL */
	struct csv_table *t;
	int col[NREQ];
	int c_host, c_home, c_topo;
	int *param_col;	 /* per global parameter: column, or -1 */
	int *metric_col; /* per global metric: column, or -1 */
	int *mux_col;	 /* per global metric: its <stem>_mux column, or -1 */
};

struct side {
	char *name;   /* "A", "B", ... or the host (--by host) */
	char *runs;   /* run labels, ';'-separated */
	char *host;   /* for the header: machine */
	char *cpu;    /* may be NULL */
	int last_run; /* 1 + the last run appended to runs */
};

struct group {
	char *scenario, *workload, *placement, *threads, *home, *host;
	long nthreads;
	long sc_rank, wl_rank, pl_rank, home_rank, host_rank;
};

struct entry {
	char *scenario, *preset, *layout;
	char **pv; /* value of every global parameter ("" when absent) */
	long sc_rank, preset_rank, first;
	char *label;
};

struct rowref {
	int run, row;
};

struct cell {
	int side, group, entry;
	struct rowref *rows;
	int nrows, cap;
	int nok, nerr, nskip;
	const char *err_reason, *skip_reason;
};

struct summary {
	size_t n;
	double median, mean, sd, cv, mux; /* mux: smallest <stem>_mux, 1 when none */
};

struct result {
	int block, col, metric;
	struct summary b, o;
	double change, min_p, ci_lo, ci_hi;
	int have_p;
	struct stats_mwu mwu;
	const char *verdict;
	char *flags;
};

struct block {
	int group, entry; /* entry: several-runs mode only, else -1 */
	int ncols;
	int *cell; /* per column: cell index or -1; column 0 is the base */
	char **label;
	int *res; /* [col * nmetrics + metric]: result index or -1 */
};

struct unmatched {
	int group, entry;
	char *what;
};

/* A string -> int hash map (open addressing, FNV-1a). */
struct map {
	char **keys;
	int *vals;
	size_t cap, n;
};

struct compare {
	struct options o;
	struct run *runs;
	int nruns, one_run;
	char **params; /* parameter names (the part after "param_") */
	int nparams;
	char **metrics;
	int nmetrics, nhosts;
	int has_home; /* some row has a non-empty home */
	struct side *sides;
	int nsides;
	struct group *groups;
	int ngroups;
	struct entry *entries;
	int nentries;
	struct cell *cells;
	int ncells;
	struct block *blocks;
	int nblocks;
	struct result *res;
	int nres;
	struct unmatched *um;
	int num;
	struct map gmap, emap, cmap, smap, first;
	long nrows_seen;
	char *base_desc;
	char **sc_base; /* per entry's scenario: the base preset; parallel to sc_names */
	char **sc_names;
	int nsc;
};

/* ---- small helpers ---- */

#define GROW(arr, n, cap)                                                                          \
	do {                                                                                       \
		if ((n) == (cap)) {                                                                \
			(cap) = (cap) ? 2 * (cap) : 16;                                            \
			(arr) = xrealloc((arr), (size_t)(cap) * sizeof(*(arr)));                   \
		}                                                                                  \
	} while (0)

/* A growing string. */
struct sb {
	char *p;
	size_t n, cap;
};

static void sb_add(struct sb *b, const char *s, size_t len)
{
	if (b->n + len + 1 > b->cap) {
		b->cap = (b->n + len + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, len);
	b->n += len;
	b->p[b->n] = '\0';
}

static void sb_printf(struct sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		usage_error("memory", "asprintf", "out of memory");
	sb_add(b, s, (size_t)n);
	free(s);
}

static const char *sb_str(struct sb *b)
{
	if (!b->p)
		sb_add(b, "", 0);
	return b->p;
}

/* Display width of UTF-8 text (code points; "±" is one). */
static int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* pad - @s left- or right-aligned in @width columns. */
static void pad(struct sb *b, const char *s, int width, int right)
{
	int fill = width - text_width(s);

	if (right)
		for (int i = 0; i < fill; i++)
			sb_add(b, " ", 1);
	sb_add(b, s, strlen(s));
	if (!right)
		for (int i = 0; i < fill; i++)
			sb_add(b, " ", 1);
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static int map_get(const struct map *m, const char *key)
{
	if (!m->cap)
		return -1;
	for (size_t i = fnv1a(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (!m->keys[i])
			return -1;
		if (!strcmp(m->keys[i], key))
			return m->vals[i];
	}
}

static void map_put(struct map *m, const char *key, int val)
{
	if (2 * (m->n + 1) > m->cap) {
		struct map bigger = {0};

		bigger.cap = m->cap ? 2 * m->cap : 64;
		bigger.keys = xcalloc(bigger.cap, sizeof(char *));
		bigger.vals = xcalloc(bigger.cap, sizeof(int));
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i])
				map_put(&bigger, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		*m = bigger;
	}
	for (size_t i = fnv1a(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (!m->keys[i]) {
			m->keys[i] = xstrdup(key);
			m->vals[i] = val;
			m->n++;
			return;
		}
		if (!strcmp(m->keys[i], key)) {
			m->vals[i] = val;
			return;
		}
	}
}

/* first_seen - the order in which a (dimension, value) first appeared in the input. */
static long first_seen(struct compare *c, const char *dim, const char *value)
{
	char *k = xasprintf("%s\x1f%s", dim, value);
	int v = map_get(&c->first, k);

	if (v < 0) {
		v = (int)c->first.n;
		map_put(&c->first, k, v);
	}
	free(k);
	return v;
}

static const char *cell_at(const struct run *r, int row, int col)
{
	return col >= 0 ? r->t->rows[row][col] : "";
}

/* ---- loading runs ---- */

static void load_run(struct run *r, const char *arg)
{
	struct run_file f;
	const char *base, *dir;

	run_file_load(&f, arg);
	memset(r, 0, sizeof(*r));
	r->arg = arg;
	r->csv_path = f.csv_path;
	r->t = f.t;
	r->label = f.run_id;
	r->host = f.host;
	r->cpu_model = f.cpu_model;
	r->start = f.start;
	dir = f.dir;
	for (int i = 0; i < NREQ; i++)
		r->col[i] = csv_col(r->t, results_required[i]);
	r->c_host = csv_col(r->t, "host");
	r->c_home = csv_col(r->t, "home");
	r->c_topo = csv_col(r->t, "topology_fp");
	if (!r->label) {
		/* One run_id in the whole CSV names the run. */
		const char *id = cell_at(r, 0, r->col[C_RUN_ID]);
		int same = id[0] != '\0';

		for (int i = 1; i < r->t->nrows && same; i++)
			same = !strcmp(id, cell_at(r, i, r->col[C_RUN_ID]));
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
	}
	if (!r->host && r->c_host >= 0)
		r->host = xstrdup(cell_at(r, 0, r->c_host));
	free(f.dir);
}

/* The union of the param_* and metric columns over all runs, in first-seen order. */
static void collect_columns(struct compare *c)
{
	static const char *const fixed[] = {"ops_per_s", "ns_per_op"};

	c->metrics = xcalloc(2, sizeof(char *));
	for (int i = 0; i < 2; i++)
		c->metrics[c->nmetrics++] = xstrdup(fixed[i]);
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

		for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
			int found = -1;

			for (int i = 0; i < c->nmetrics; i++)
				if (!strcmp(c->metrics[i], m))
					found = i;
			if (found < 0)
				usage_error("--metric", m,
					    "no such metric column (ops_per_s, ns_per_op or a "
					    "*_per_op column of RUN)");
			for (int i = 0; i < nkeep; i++)
				if (keep[i] == c->metrics[found])
					found = -1;
			if (found >= 0)
				keep[nkeep++] = c->metrics[found];
		}
		free(list);
		free(c->metrics);
		c->metrics = keep;
		c->nmetrics = nkeep;
	}
	for (int ri = 0; ri < c->nruns; ri++) {
		struct run *r = &c->runs[ri];

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

/* ---- building sides, groups, entries and cells ---- */

static long scenario_rank(struct compare *c, const char *scenario)
{
	for (int i = 0; all_scenarios[i]; i++)
		if (!strcmp(all_scenarios[i]->name, scenario))
			return i;
	return 1000000 + first_seen(c, "scenario", scenario);
}

static long preset_rank(struct compare *c, const char *scenario, const char *preset)
{
	const struct scenario *sc = scenario_find(scenario);
	char *k;
	long r;

	if (sc)
		for (int i = 0; sc->presets[i].name; i++)
			if (!strcmp(sc->presets[i].name, preset))
				return i;
	k = xasprintf("%s\x1f%s", scenario, preset);
	r = 1000000 + first_seen(c, "preset", k);
	free(k);
	return r;
}

static long workload_rank(struct compare *c, const char *scenario, const char *workload)
{
	const struct scenario *sc = scenario_find(scenario);
	char *k;
	long r;

	if (sc)
		for (int i = 0; sc->workloads[i].name; i++)
			if (!strcmp(sc->workloads[i].name, workload))
				return i;
	k = xasprintf("%s\x1f%s", scenario, workload);
	r = 1000000 + first_seen(c, "workload", k);
	free(k);
	return r;
}

static int side_of(struct compare *c, int ri, int row)
{
	const struct run *r = &c->runs[ri];
	const char *host, *topo;
	char *key;
	int s;

	if (c->one_run)
		return 0;
	if (!c->o.by_host)
		return ri;
	host = r->c_host >= 0 ? cell_at(r, row, r->c_host) : r->host ? r->host : r->label;
	topo = cell_at(r, row, r->c_topo);
	key = xasprintf("%s\x1f%s", host, topo);
	s = map_get(&c->smap, key);
	if (s < 0) {
		struct side *sd;

		s = c->nsides;
		c->sides = xrealloc(c->sides, (size_t)(s + 1) * sizeof(*c->sides));
		sd = &c->sides[c->nsides++];
		memset(sd, 0, sizeof(*sd));
		sd->name = topo[0] ? xasprintf("%s#%s", host, topo) : xstrdup(host);
		sd->host = xstrdup(host);
		sd->cpu = r->cpu_model && r->host && !strcmp(r->host, host) ? r->cpu_model : NULL;
		map_put(&c->smap, key, s);
	}
	{
		struct side *sd = &c->sides[s];

		if (sd->last_run != ri + 1) {
			char *runs =
			    sd->runs ? xasprintf("%s;%s", sd->runs, r->label) : xstrdup(r->label);

			free(sd->runs);
			sd->runs = runs;
			sd->last_run = ri + 1;
		}
	}
	free(key);
	return s;
}

static int group_of(struct compare *c, int ri, int row)
{
	const struct run *r = &c->runs[ri];
	const char *sc = cell_at(r, row, r->col[C_SCENARIO]);
	const char *wl = cell_at(r, row, r->col[C_WORKLOAD]);
	const char *pl = cell_at(r, row, r->col[C_PLACEMENT]);
	const char *th = cell_at(r, row, r->col[C_THREADS]);
	const char *home = cell_at(r, row, r->c_home);
	const char *host = "";

	c->has_home |= home[0] != '\0'; /* shown when some row says where the memory is */
	char *key;
	int g;

	/* One run: rows of several hosts (an appended --csv file) are never pooled. */
	if (c->one_run && r->c_host >= 0)
		host = cell_at(r, row, r->c_host);
	key = xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", sc, wl, pl, th, home, host,
			cell_at(r, row, c->one_run ? r->c_topo : -1));
	g = map_get(&c->gmap, key);
	if (g < 0) {
		struct group *gr;
		char *end;

		g = c->ngroups;
		c->groups = xrealloc(c->groups, (size_t)(g + 1) * sizeof(*c->groups));
		gr = &c->groups[c->ngroups++];
		gr->scenario = xstrdup(sc);
		gr->workload = xstrdup(wl);
		gr->placement = xstrdup(pl);
		gr->threads = xstrdup(th);
		gr->home = xstrdup(home);
		gr->host = xstrdup(host);
		gr->nthreads = strtol(th, &end, 10);
		if (end == th || *end)
			usage_error("RUN", r->csv_path, "line %d: threads \"%s\" is not an integer",
				    row + 2, th);
		gr->sc_rank = scenario_rank(c, sc);
		gr->wl_rank = workload_rank(c, sc, wl);
		gr->pl_rank = first_seen(c, "placement", pl);
		gr->home_rank = first_seen(c, "home", home);
		gr->host_rank = first_seen(c, "host", host);
		map_put(&c->gmap, key, g);
	}
	free(key);
	return g;
}

static int entry_of(struct compare *c, int ri, int row)
{
	const struct run *r = &c->runs[ri];
	const char *sc = cell_at(r, row, r->col[C_SCENARIO]);
	const char *pr = cell_at(r, row, r->col[C_PRESET]);
	const char *ly = cell_at(r, row, r->col[C_LAYOUT]);
	struct sb key = {0};
	int e;

	sb_printf(&key, "%s\x1f%s\x1f%s", sc, pr, ly);
	for (int i = 0; i < c->nparams; i++)
		sb_printf(&key, "\x1f%s", cell_at(r, row, r->param_col[i]));
	e = map_get(&c->emap, sb_str(&key));
	if (e < 0) {
		struct entry *en;

		e = c->nentries;
		c->entries = xrealloc(c->entries, (size_t)(e + 1) * sizeof(*c->entries));
		en = &c->entries[c->nentries++];
		memset(en, 0, sizeof(*en));
		en->scenario = xstrdup(sc);
		en->preset = xstrdup(pr);
		en->layout = xstrdup(ly);
		en->pv = xcalloc((size_t)c->nparams + 1, sizeof(char *));
		for (int i = 0; i < c->nparams; i++)
			en->pv[i] = xstrdup(cell_at(r, row, r->param_col[i]));
		en->sc_rank = scenario_rank(c, sc);
		en->preset_rank = preset_rank(c, sc, pr);
		en->first = e;
		map_put(&c->emap, sb_str(&key), e);
	}
	free(key.p);
	return e;
}

static void add_row(struct compare *c, int ri, int row)
{
	const struct run *r = &c->runs[ri];
	int s = side_of(c, ri, row), g = group_of(c, ri, row), e = entry_of(c, ri, row);
	const char *status = cell_at(r, row, r->col[C_STATUS]);
	const char *reason = cell_at(r, row, r->col[C_REASON]);
	char *key = xasprintf("%d\x1f%d\x1f%d", s, g, e);
	int ci = map_get(&c->cmap, key);
	struct cell *cl;

	if (ci < 0) {
		ci = c->ncells;
		c->cells = xrealloc(c->cells, (size_t)(ci + 1) * sizeof(*c->cells));
		cl = &c->cells[c->ncells++];
		memset(cl, 0, sizeof(*cl));
		cl->side = s;
		cl->group = g;
		cl->entry = e;
		map_put(&c->cmap, key, ci);
	}
	free(key);
	cl = &c->cells[ci];
	GROW(cl->rows, cl->nrows, cl->cap);
	cl->rows[cl->nrows++] = (struct rowref){ri, row};
	if (!strcmp(status, "ok")) {
		cl->nok++;
	} else if (!strcmp(status, "skipped")) {
		cl->nskip++;
		if (!cl->skip_reason)
			cl->skip_reason = reason;
	} else {
		/* "error", and anything that is not ok. */
		cl->nerr++;
		if (!cl->err_reason)
			cl->err_reason = reason[0] ? reason : status;
	}
}

static int cmp_long(long a, long b)
{
	return (a > b) - (a < b);
}

static struct compare *sort_ctx;

static int cmp_group_idx(const void *pa, const void *pb)
{
	const struct group *a = &sort_ctx->groups[*(const int *)pa];
	const struct group *b = &sort_ctx->groups[*(const int *)pb];
	int d;

	if ((d = cmp_long(a->sc_rank, b->sc_rank)) || (d = cmp_long(a->wl_rank, b->wl_rank)) ||
	    (d = cmp_long(a->pl_rank, b->pl_rank)) || (d = cmp_long(a->host_rank, b->host_rank)) ||
	    (d = cmp_long(a->home_rank, b->home_rank)) || (d = cmp_long(a->nthreads, b->nthreads)))
		return d;
	return cmp_long(*(const int *)pa, *(const int *)pb);
}

static int cmp_entry_idx(const void *pa, const void *pb)
{
	const struct entry *a = &sort_ctx->entries[*(const int *)pa];
	const struct entry *b = &sort_ctx->entries[*(const int *)pb];
	int d;

	if ((d = cmp_long(a->sc_rank, b->sc_rank)) ||
	    (d = cmp_long(a->preset_rank, b->preset_rank)))
		return d;
	return cmp_long(a->first, b->first);
}

static int find_cell(const struct compare *c, int side, int group, int entry);

/* meet - entries @i and @j are measured in a common group (on any side). */
static int meet(const struct compare *c, int i, int j)
{
	for (int g = 0; g < c->ngroups; g++) {
		int hi = 0, hj = 0;

		for (int s = 0; s < c->nsides; s++) {
			hi |= find_cell(c, s, g, i) >= 0;
			hj |= find_cell(c, s, g, j) >= 0;
		}
		if (hi && hj)
			return 1;
	}
	return 0;
}

/*
 * Entry labels: preset [layout], plus the parameters that tell apart entries of the same
 * preset that appear in a common group (the same preset run with other -D values).
 */
static void label_entries(struct compare *c)
{
	for (int i = 0; i < c->nentries; i++) {
		struct entry *e = &c->entries[i];
		struct sb b = {0};

		sb_printf(&b, "%s", e->preset);
		if (e->layout[0])
			sb_printf(&b, " [%s]", e->layout);
		for (int p = 0; p < c->nparams; p++) {
			int varies = 0;

			for (int j = 0; j < c->nentries && !varies; j++) {
				const struct entry *f = &c->entries[j];

				varies = j != i && !strcmp(f->scenario, e->scenario) &&
					 !strcmp(f->preset, e->preset) &&
					 strcmp(f->pv[p], e->pv[p]) && meet(c, i, j);
			}
			if (varies)
				sb_printf(&b, " %s=%s", c->params[p], e->pv[p]);
		}
		e->label = b.p;
	}
}

static int find_cell(const struct compare *c, int side, int group, int entry)
{
	char key[64];

	snprintf(key, sizeof(key), "%d\x1f%d\x1f%d", side, group, entry);
	return map_get(&c->cmap, key);
}

static const char *scenario_base(const struct compare *c, const char *scenario)
{
	for (int i = 0; i < c->nsc; i++)
		if (!strcmp(c->sc_names[i], scenario))
			return c->sc_base[i];
	return NULL;
}

/* One-run mode: choose each scenario's base preset; --base must name a preset of the run. */
static void choose_bases(struct compare *c, const int *eorder)
{
	int found = 0;
	struct sb known = {0}, desc = {0};

	for (int k = 0; k < c->nentries; k++) {
		const struct entry *e = &c->entries[eorder[k]];
		int seen = 0;

		for (int i = 0; i < c->nsc; i++)
			seen |= !strcmp(c->sc_names[i], e->scenario);
		/* Every distinct preset, for the error message. */
		int listed = 0;

		for (int j = 0; j < k; j++)
			listed |= !strcmp(c->entries[eorder[j]].preset, e->preset);
		if (!listed)
			sb_printf(&known, "%s, ", e->preset);
		found |= c->o.base && !strcmp(e->preset, c->o.base);
		if (seen)
			continue;
		/* Entries are in preset order: the first one of a scenario is its first preset. */
		c->sc_names = xrealloc(c->sc_names, (size_t)(c->nsc + 1) * sizeof(char *));
		c->sc_base = xrealloc(c->sc_base, (size_t)(c->nsc + 1) * sizeof(char *));
		c->sc_names[c->nsc] = e->scenario;
		c->sc_base[c->nsc++] = e->preset;
	}
	if (c->o.base && !found) {
		known.p[known.n - 2] = '\0';
		usage_error("--base", c->o.base, "no such preset in %s (presets: %s)",
			    c->runs[0].arg, known.p);
	}
	for (int i = 0; i < c->nsc; i++) {
		int has = 0;

		for (int k = 0; k < c->nentries && c->o.base; k++)
			has |= !strcmp(c->entries[k].scenario, c->sc_names[i]) &&
			       !strcmp(c->entries[k].preset, c->o.base);
		if (has)
			c->sc_base[i] = (char *)c->o.base;
		sb_printf(&desc, "%s%s %s", i ? "; " : "", c->sc_names[i], c->sc_base[i]);
		if (c->o.base && !has)
			sb_printf(&desc, " (no %s here: its first preset)", c->o.base);
	}
	c->base_desc = c->o.base ? xasprintf("--base %s: %s", c->o.base, sb_str(&desc))
				 : xasprintf("per scenario, its first preset: %s", sb_str(&desc));
	free(known.p);
	free(desc.p);
}

static char *key_text(const struct compare *c, const struct group *g, const struct entry *e)
{
	struct sb b = {0};

	sb_printf(&b, "%s", g->scenario);
	if (e)
		sb_printf(&b, " %s%s%s%s", e->preset, e->layout[0] ? " [" : "", e->layout,
			  e->layout[0] ? "]" : "");
	sb_printf(&b, " workload=%s placement=%s threads=%s", g->workload, g->placement,
		  g->threads);
	if (c->has_home)
		sb_printf(&b, " home=%s", g->home);
	if (c->one_run && c->nhosts > 1)
		sb_printf(&b, " host=%s", g->host);
	for (int p = 0; e && p < c->nparams; p++)
		if (e->pv[p][0])
			sb_printf(&b, " %s=%s", c->params[p], e->pv[p]);
	return b.p;
}

static void add_unmatched(struct compare *c, int group, int entry, char *what)
{
	c->um = xrealloc(c->um, (size_t)(c->num + 1) * sizeof(*c->um));
	c->um[c->num++] = (struct unmatched){group, entry, what};
}

static struct block *new_block(struct compare *c, int group, int entry, int ncols)
{
	struct block *b;

	c->blocks = xrealloc(c->blocks, (size_t)(c->nblocks + 1) * sizeof(*c->blocks));
	b = &c->blocks[c->nblocks++];
	b->group = group;
	b->entry = entry;
	b->ncols = ncols;
	b->cell = xcalloc((size_t)ncols, sizeof(int));
	b->label = xcalloc((size_t)ncols, sizeof(char *));
	b->res = xcalloc((size_t)ncols * (size_t)(c->nmetrics ? c->nmetrics : 1), sizeof(int));
	for (int i = 0; i < ncols * c->nmetrics; i++)
		b->res[i] = -1;
	return b;
}

static void build_blocks(struct compare *c)
{
	int *gorder = xcalloc((size_t)c->ngroups, sizeof(int));
	int *eorder = xcalloc((size_t)c->nentries, sizeof(int));

	sort_ctx = c;
	for (int i = 0; i < c->ngroups; i++)
		gorder[i] = i;
	for (int i = 0; i < c->nentries; i++)
		eorder[i] = i;
	qsort(gorder, (size_t)c->ngroups, sizeof(int), cmp_group_idx);
	qsort(eorder, (size_t)c->nentries, sizeof(int), cmp_entry_idx);
	label_entries(c);
	if (c->one_run)
		choose_bases(c, eorder);

	for (int gi = 0; gi < c->ngroups; gi++) {
		int g = gorder[gi];
		const struct group *gr = &c->groups[g];

		if (c->one_run) {
			const char *base = scenario_base(c, gr->scenario);
			int base_cell = -1, n = 0,
			    *cols = xcalloc((size_t)c->nentries, sizeof(int));

			for (int k = 0; k < c->nentries; k++) {
				int cl = find_cell(c, 0, g, eorder[k]);

				if (cl < 0)
					continue;
				if (base_cell < 0 && !strcmp(c->entries[eorder[k]].preset, base))
					base_cell = cl;
				else
					cols[n++] = cl;
			}
			if (base_cell < 0) {
				struct sb what = {0};

				sb_printf(&what, "no base %s; present:", base);
				for (int k = 0; k < n; k++)
					sb_printf(&what, " %s",
						  c->entries[c->cells[cols[k]].entry].label);
				add_unmatched(c, g, -1, what.p);
			} else if (n) {
				struct block *b = new_block(c, g, -1, n + 1);

				b->cell[0] = base_cell;
				for (int k = 0; k < n; k++)
					b->cell[k + 1] = cols[k];
				for (int k = 0; k <= n; k++)
					b->label[k] = c->entries[c->cells[b->cell[k]].entry].label;
			}
			free(cols);
			continue;
		}
		for (int k = 0; k < c->nentries; k++) {
			int e = eorder[k], present = 0,
			    *cl = xcalloc((size_t)c->nsides, sizeof(int));

			for (int s = 0; s < c->nsides; s++) {
				cl[s] = find_cell(c, s, g, e);
				present += cl[s] >= 0;
			}
			if (!present) {
				free(cl);
				continue;
			}
			if (present < c->nsides) {
				struct sb what = {0};
				int first = 1;

				sb_printf(&what, "only in");
				for (int s = 0; s < c->nsides; s++)
					if (cl[s] >= 0) {
						sb_printf(&what, "%s %s", first ? "" : ",",
							  c->sides[s].name);
						first = 0;
					}
				add_unmatched(c, g, e, what.p);
			}
			if (cl[0] >= 0 && present > 1) {
				struct block *b = new_block(c, g, e, c->nsides);

				for (int s = 0; s < c->nsides; s++) {
					b->cell[s] = cl[s];
					b->label[s] = c->sides[s].name;
				}
			}
			free(cl);
		}
	}
	free(gorder);
	free(eorder);
}

/* ---- statistics ---- */

static double parse_num(const struct run *r, int row, int col)
{
	const char *s = r->t->rows[row][col];
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || isnan(v))
		usage_error("RUN", r->csv_path, "line %d: column %s: \"%s\" is not a number",
			    row + 2, r->t->header[col], s);
	return v;
}

/* cell_values - the non-empty values of @metric in the ok rows of @cl; sets *mux. */
static size_t cell_values(const struct compare *c, const struct cell *cl, int metric, double *out,
			  double *mux)
{
	size_t n = 0;

	*mux = 1;
	for (int i = 0; i < cl->nrows; i++) {
		const struct run *r = &c->runs[cl->rows[i].run];
		int row = cl->rows[i].row, col = r->metric_col[metric], mc = r->mux_col[metric];

		if (col < 0 || strcmp(cell_at(r, row, r->col[C_STATUS]), "ok") ||
		    !r->t->rows[row][col][0])
			continue;
		out[n++] = parse_num(r, row, col);
		if (mc >= 0 && r->t->rows[row][mc][0]) {
			double m = parse_num(r, row, mc);

			if (m < *mux)
				*mux = m;
		}
	}
	return n;
}

static void summarize(const double *v, size_t n, double mux, struct summary *s)
{
	s->n = n;
	s->median = stats_median(v, n);
	s->mean = stats_mean(v, n);
	s->sd = n ? stats_stddev(v, n) : NAN;
	s->cv = stats_cv(v, n);
	s->mux = mux;
}

static int higher_is_better(const char *metric)
{
	return !strcmp(metric, "ops_per_s");
}

static void status_flags(struct sb *f, const char *who, const struct cell *cl)
{
	if (cl->nerr)
		sb_printf(f, "%s%s %d/%d error: %.60s", f->n ? "; " : "", who, cl->nerr, cl->nrows,
			  cl->err_reason);
	if (cl->nskip)
		sb_printf(f, "%s%s %d/%d skipped: %.60s", f->n ? "; " : "", who, cl->nskip,
			  cl->nrows, cl->skip_reason[0] ? cl->skip_reason : "no reason given");
}

static void compare_cells(struct compare *c, int bi, int col)
{
	struct block *bl = &c->blocks[bi];
	const struct cell *cb = &c->cells[bl->cell[0]], *co = &c->cells[bl->cell[col]];
	size_t cap = (size_t)(cb->nrows > co->nrows ? cb->nrows : co->nrows) + 1;
	double *vb = xcalloc(cap, sizeof(double)), *vo = xcalloc(cap, sizeof(double));

	for (int m = 0; m < c->nmetrics; m++) {
		struct result r = {.block = bi, .col = col, .metric = m};
		double muxb, muxo;
		size_t nb = cell_values(c, cb, m, vb, &muxb), no = cell_values(c, co, m, vo, &muxo);
		struct sb flags = {0};
		int first = 1;

		for (int k = 0; k < m; k++)
			first &= bl->res[col * c->nmetrics + k] < 0;
		if (strcmp(c->metrics[m], "ops_per_s") && (!nb || !no))
			continue;
		summarize(vb, nb, muxb, &r.b);
		summarize(vo, no, muxo, &r.o);
		r.change = NAN;
		r.ci_lo = r.ci_hi = NAN;
		/* From a zero median: no change to zero, an infinite one to anything else. */
		if (nb && no)
			r.change = r.b.median != 0
				       ? 100 * (r.o.median - r.b.median) / fabs(r.b.median)
				   : r.o.median == 0 ? 0
						     : copysign(INFINITY, r.o.median);
		r.min_p = stats_mwu_min_p(nb, no);
		if (nb && no)
			r.have_p = !stats_mwu(vo, no, vb, nb, STATS_MWU_AUTO, &r.mwu);
		if (c->o.ci && nb && no &&
		    !stats_bootstrap_ratio_ci(vb, nb, vo, no, 1 - c->o.alpha, CI_ITERS, CI_SEED,
					      &r.ci_lo, &r.ci_hi)) {
			r.ci_lo = 100 * (r.ci_lo - 1);
			r.ci_hi = 100 * (r.ci_hi - 1);
		}
		if (isnan(r.change) || !r.have_p) {
			r.verdict = "n/a";
		} else if (r.mwu.p < c->o.alpha && fabs(r.change) >= c->o.min_change) {
			int up = r.change > 0;

			r.verdict =
			    up == higher_is_better(c->metrics[m]) ? "improved" : "regressed";
		} else if (r.mwu.p < c->o.alpha) {
			r.verdict = "small";
		} else if (r.min_p >= c->o.alpha) {
			r.verdict = "low n";
		} else {
			r.verdict = "n.s.";
		}
		if (first) {
			status_flags(&flags, "base", cb);
			status_flags(&flags, "with-patch", co);
		}
		if (r.b.mux < 1)
			sb_printf(&flags, "%sbase multiplexed (mux %.2f)", flags.n ? "; " : "",
				  r.b.mux);
		if (r.o.mux < 1)
			sb_printf(&flags, "%swith-patch multiplexed (mux %.2f)",
				  flags.n ? "; " : "", r.o.mux);
		r.flags = flags.p ? flags.p : xstrdup("");
		c->res = xrealloc(c->res, (size_t)(c->nres + 1) * sizeof(*c->res));
		bl->res[col * c->nmetrics + m] = c->nres;
		c->res[c->nres++] = r;
	}
	free(vb);
	free(vo);
}

/* ---- formatting ---- */

static void fmt_val(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static void fmt_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f%%", 100 * v);
}

static void fmt_change(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "(%+.2f %%)", v);
}

static void fmt_p(char *buf, size_t len, const struct result *r)
{
	if (!r->have_p)
		snprintf(buf, len, "-");
	else if (r->mwu.p >= 0.001)
		snprintf(buf, len, "%.3f", r->mwu.p);
	else
		snprintf(buf, len, "%.1e", r->mwu.p);
}

static void fmt_ci(char *buf, size_t len, const struct result *r)
{
	if (isnan(r->ci_lo))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%+.2f, %+.2f] %%", r->ci_lo, r->ci_hi);
}

static void fmt_g(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%g", v);
}

/* Header lines: (key, value) pairs, rendered by each format. */
struct header {
	char *key[32], *val[32];
	int n;
};

static void hdr(struct header *h, const char *key, char *val)
{
	if (h->n < 32) {
		h->key[h->n] = xstrdup(key);
		h->val[h->n++] = val;
	}
}

static char *run_desc(const struct run *r)
{
	struct sb b = {0};

	sb_printf(&b, "%s (%s", r->label, r->arg);
	if (r->start)
		sb_printf(&b, ", started %s", r->start);
	sb_printf(&b, ", %d rows)", r->t->nrows);
	return b.p;
}

static char *machine_desc(const char *host, const char *cpu)
{
	return cpu ? xasprintf("%s (%s)", host ? host : "unknown host", cpu)
		   : xstrdup(host ? host : "unknown host");
}

static void build_header(struct compare *c, struct header *h)
{
	char a[32], cil[32];
	int low = 0, total = 0, worst = -1, need = 1;

	if (c->one_run) {
		const struct run *r = &c->runs[0];

		hdr(h, "compare", xstrdup("presets within one run"));
		if (c->nhosts > 1)
			hdr(h, "machine",
			    xasprintf("%d hosts (see host= in each table)", c->nhosts));
		else
			hdr(h, "machine", machine_desc(r->host, r->cpu_model));
		hdr(h, "run", run_desc(r));
		hdr(h, "base", xstrdup(c->base_desc));
	} else {
		hdr(h, "compare",
		    c->o.by_host ? xasprintf("%d hosts side by side (host#topology_fp)", c->nsides)
				 : xasprintf("%d runs, same keys", c->nruns));
		for (int s = 0; s < c->nsides; s++) {
			const struct side *sd = &c->sides[s];
			char *m = machine_desc(sd->host, sd->cpu);

			hdr(h, "machine", xasprintf("%s = %s", sd->name, m));
			free(m);
		}
		for (int i = 0; i < c->nruns; i++) {
			char *d = run_desc(&c->runs[i]);

			if (c->o.by_host) {
				hdr(h, "run", d);
			} else {
				hdr(h, "run", xasprintf("%s = %s", c->sides[i].name, d));
				free(d);
			}
		}
		hdr(h, "base",
		    xasprintf("%s%s", c->sides[0].name, c->o.by_host ? "" : " (the first RUN)"));
	}
	fmt_g(a, sizeof(a), c->o.alpha);
	hdr(h, "values",
	    xstrdup("median over the ok repetitions; cv = stddev / mean; %change = change of "
		    "the medians"));
	hdr(h, "rule",
	    xasprintf("significant when the two-sided Mann-Whitney U p < %s (exact for n <= %d "
		      "per side, else normal approximation with tie correction) and |%%change| >= "
		      "%g%%; ops_per_s: higher is better, *_per_op: lower is better",
		      a, STATS_MWU_EXACT_MAX, c->o.min_change));
	hdr(h, "verdicts",
	    xstrdup("improved/regressed: significant; small: p < alpha but |%change| below "
		    "the minimum; n.s.: not significant; low n: too few ok repetitions for p < "
		    "alpha; n/a: nothing to compare"));
	if (c->o.ci) {
		fmt_g(cil, sizeof(cil), 100 * (1 - c->o.alpha));
		hdr(h, "ci",
		    xasprintf("%s%% percentile bootstrap interval of the ratio of medians, as "
			      "%%change (%d resamples, splitmix64 seed %d)",
			      cil, CI_ITERS, CI_SEED));
	}
	for (int i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];

		if (!r->b.n || !r->o.n)
			continue;
		total++;
		if (r->min_p >= c->o.alpha) {
			low++;
			if (worst < 0 || r->min_p > c->res[worst].min_p)
				worst = i;
		}
	}
	while (need < 1000 && stats_mwu_min_p((size_t)need, (size_t)need) >= c->o.alpha)
		need++;
	if (low) {
		char mp[32];

		fmt_g(mp, sizeof(mp), c->res[worst].min_p);
		hdr(h, "note",
		    xasprintf("%d of %d comparisons cannot reach p < %s with their ok repetitions: "
			      "with %zu vs %zu the smallest possible p is %s; run with -r %d or "
			      "more",
			      low, total, a, c->res[worst].b.n, c->res[worst].o.n, mp, need));
	}
	{
		int flagged = 0;

		for (int i = 0; i < c->nres; i++)
			flagged += c->res[i].flags[0] != '\0';
		if (flagged)
			hdr(h, "flagged",
			    xasprintf("%d row%s: status not ok or counters multiplexed (_mux < 1), "
				      "see the last column",
				      flagged, flagged > 1 ? "s" : ""));
	}
	if (c->num)
		hdr(h, "unmatched",
		    xasprintf("%d key%s not compared, listed at the end", c->num,
			      c->num > 1 ? "s" : ""));
}

static char *group_title(const struct compare *c, const struct group *g, const char *sep)
{
	struct sb b = {0};

	sb_printf(&b, "%s%sworkload=%s%splacement=%s%sthreads=%s", g->scenario, sep, g->workload,
		  sep, g->placement, sep, g->threads);
	if (c->has_home)
		sb_printf(&b, "%shome=%s", sep, g->home);
	if (c->one_run && c->nhosts > 1)
		sb_printf(&b, "%shost=%s", sep, g->host);
	return b.p;
}

static const char *testcase_label(const struct compare *c, const struct block *b, int col,
				  char *buf, size_t len)
{
	if (c->one_run)
		return b->label[col];
	if (c->nsides > 2)
		snprintf(buf, len, "%s (%s)", c->entries[b->entry].label, b->label[col]);
	else
		snprintf(buf, len, "%s", c->entries[b->entry].label);
	return buf;
}

static char *base_note(const struct compare *c, const struct block *b)
{
	if (c->one_run)
		return xasprintf("base: %s", b->label[0]);
	if (c->nsides == 2)
		return xasprintf("base: %s, with-patch: %s", b->label[0], b->label[1]);
	return xasprintf("base: %s", b->label[0]);
}

enum {
	T_CASE,
	T_METRIC,
	T_BASE,
	T_BCV,
	T_NEW,
	T_NCV,
	T_CHANGE,
	T_P,
	T_VERDICT,
	T_CI,
	T_FLAGS,
	T_N
};

static const char *const table_head[T_N] = {
    "testcase", "metric",  "base",    "cv", "with-patch", "cv",
    "%change",	"p-value", "verdict", "ci", "flags",
};

/* The cells of one result row, as text. */
static void result_cells(const struct compare *c, const struct result *r, const char *tc, int first,
			 char cells[T_N][160])
{
	snprintf(cells[T_CASE], 160, "%s", first ? tc : "");
	snprintf(cells[T_METRIC], 160, "%s", c->metrics[r->metric]);
	fmt_val(cells[T_BASE], 160, r->b.median);
	fmt_pct(cells[T_BCV], 160, r->b.cv);
	fmt_val(cells[T_NEW], 160, r->o.median);
	fmt_pct(cells[T_NCV], 160, r->o.cv);
	fmt_change(cells[T_CHANGE], 160, r->change);
	fmt_p(cells[T_P], 160, r);
	snprintf(cells[T_VERDICT], 160, "%s", r->verdict);
	fmt_ci(cells[T_CI], 160, r);
	snprintf(cells[T_FLAGS], 160, "%s", r->flags);
}

static void print_unmatched(const struct compare *c, FILE *out, int markdown)
{
	if (!c->num)
		return;
	fprintf(out, markdown ? "\n### Not compared\n\n" : "\nnot compared:\n");
	for (int i = 0; i < c->num; i++) {
		const struct unmatched *u = &c->um[i];
		char *k =
		    key_text(c, &c->groups[u->group], u->entry >= 0 ? &c->entries[u->entry] : NULL);

		fprintf(out, markdown ? "- %s: %s\n" : "  %s: %s\n", u->what, k);
		free(k);
	}
}

static void print_table(const struct compare *c, const struct header *h, FILE *out, int md)
{
	int w[T_N] = {0}, last_group = -1;
	char cells[T_N][160], tcb[512];

	if (md) {
		fprintf(out, "## pcbench compare\n\n");
		for (int i = 0; i < h->n; i++)
			fprintf(out, "- **%s**: %s\n", h->key[i], h->val[i]);
	} else {
		for (int i = 0; i < h->n; i++)
			fprintf(out, "%-10s%s\n", h->key[i], h->val[i]);
	}
	for (int i = 0; i < T_N; i++)
		w[i] = text_width(table_head[i]);
	for (int i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];
		const struct block *b = &c->blocks[r->block];

		result_cells(c, r, testcase_label(c, b, r->col, tcb, sizeof(tcb)), 1, cells);
		for (int k = 0; k < T_N; k++)
			if (text_width(cells[k]) > w[k])
				w[k] = text_width(cells[k]);
	}
	for (int i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];
		const struct block *b = &c->blocks[r->block];
		int first =
		    i == 0 || c->res[i - 1].block != r->block || c->res[i - 1].col != r->col;
		struct sb line = {0};

		if (b->group != last_group) {
			char *t = group_title(c, &c->groups[b->group], md ? " · " : "  ");
			char *bn = base_note(c, b);

			if (md) {
				fprintf(out, "\n### %s (%s)\n\n|", t, bn);
				for (int k = 0; k < T_N; k++)
					if (k != T_CI || c->o.ci)
						fprintf(out, " %s |", table_head[k]);
				fprintf(out, "\n|");
				for (int k = 0; k < T_N; k++)
					if (k != T_CI || c->o.ci)
						fprintf(out, "%s|",
							k >= T_BASE && k <= T_P ? "--:" : ":--");
				fprintf(out, "\n");
			} else {
				struct sb head = {0};

				fprintf(out, "\n%s  (%s)\n", t, bn);
				for (int k = 0; k < T_N; k++) {
					if (k == T_CI && !c->o.ci)
						continue;
					if (k == T_FLAGS) {
						sb_printf(&head, "  %s", table_head[k]);
						continue;
					}
					if (k)
						sb_add(&head, "  ", 2);
					pad(&head, table_head[k], w[k], k >= T_BASE && k <= T_P);
				}
				fprintf(out, "%s\n", sb_str(&head));
				free(head.p);
			}
			free(t);
			free(bn);
			last_group = b->group;
		}
		result_cells(c, r, testcase_label(c, b, r->col, tcb, sizeof(tcb)), first, cells);
		if (md) {
			sb_add(&line, "|", 1);
			for (int k = 0; k < T_N; k++) {
				if (k == T_CI && !c->o.ci)
					continue;
				sb_add(&line, " ", 1);
				for (const char *p = cells[k]; *p; p++)
					sb_add(&line, *p == '|' ? "\\|" : p, *p == '|' ? 2 : 1);
				sb_add(&line, " |", 2);
			}
		} else {
			for (int k = 0; k < T_N; k++) {
				if (k == T_CI && !c->o.ci)
					continue;
				if (k == T_FLAGS) {
					if (cells[k][0])
						sb_printf(&line, "  %s", cells[k]);
					continue;
				}
				if (k)
					sb_add(&line, "  ", 2);
				pad(&line, cells[k], w[k], k >= T_BASE && k <= T_P);
			}
			while (line.n && line.p[line.n - 1] == ' ')
				line.p[--line.n] = '\0';
		}
		fprintf(out, "%s\n", sb_str(&line));
		free(line.p);
	}
	if (!c->nres)
		fprintf(out, "\nnothing to compare%s\n",
			c->one_run ? ": no group has a base and another preset (two RUNs compare "
				     "the same presets across runs)"
				   : ": no key is present in the base and another run");
	print_unmatched(c, out, md);
}

/* lkp: the 0-day robot's `%stddev %change %stddev` table, one per block. */
static void lkp_value(struct sb *b, const struct summary *s)
{
	char v[64], sd[32] = "";

	fmt_val(v, sizeof(v), s->median);
	if (s->n && !isnan(s->cv) && 100 * s->cv > LKP_SD_MIN)
		snprintf(sd, sizeof(sd), " ±%3.0f%%", 100 * s->cv);
	if (s->n && strlen(v) >= 10)
		sb_add(b, " ", 1); /* keep a blank before a wide value */
	pad(b, s->n ? v : "", 10, 1);
	pad(b, sd, 6, 0);
}

static void print_lkp(const struct compare *c, const struct header *h, FILE *out)
{
	for (int i = 0; i < h->n; i++)
		fprintf(out, "%-10s%s\n", h->key[i], h->val[i]);
	for (int bi = 0; bi < c->nblocks; bi++) {
		const struct block *b = &c->blocks[bi];
		const struct group *g = &c->groups[b->group];
		struct sb line = {0};
		int any_fail = 0;

		fprintf(out, "\nscenario/workload/placement/threads%s%s: %s/%s/%s/%s%s%s%s%s\n",
			c->has_home ? "/home" : "", c->one_run && c->nhosts > 1 ? "/host" : "",
			g->scenario, g->workload, g->placement, g->threads, c->has_home ? "/" : "",
			c->has_home ? g->home : "", c->one_run && c->nhosts > 1 ? "/" : "",
			c->one_run && c->nhosts > 1 ? g->host : "");
		if (!c->one_run)
			fprintf(out, "testcase: %s\n", c->entries[b->entry].label);
		fprintf(out, "\n");
		for (int k = 0; k < b->ncols; k++) {
			char lab[64];

			snprintf(lab, sizeof(lab), "%s", b->label[k]);
			if (k)
				sb_add(&line, " ", 1);
			pad(&line, lab, k ? 27 : 16, 0);
		}
		while (line.n && line.p[line.n - 1] == ' ')
			line.p[--line.n] = '\0';
		fprintf(out, "%s\n----------------", sb_str(&line));
		for (int k = 1; k < b->ncols; k++)
			fprintf(out, " ---------------------------");
		fprintf(out, "\n");
		line.n = 0;

		for (int k = 0; k < b->ncols; k++)
			if (b->cell[k] >= 0)
				any_fail |= c->cells[b->cell[k]].nerr || c->cells[b->cell[k]].nskip;
		if (any_fail) {
			static const char *const st[2] = {"error", "skipped"};

			pad(&line, "fail:runs", 16, 1);
			for (int k = 1; k < b->ncols; k++) {
				pad(&line, "%reproduction", 15, 1);
				pad(&line, "fail:runs", 13, 1);
			}
			fprintf(out, "%s\n", sb_str(&line));
			/* a bar under the middle of each heading */
			for (size_t i = 0, start = 0; i <= line.n; i++) {
				if (i < line.n && line.p[i] != ' ') {
					if (!i || line.p[i - 1] == ' ')
						start = i;
					continue;
				}
				if (i && line.p[i - 1] != ' ') {
					size_t mid = (start + i - 1) / 2;

					for (size_t j = start; j < i; j++)
						line.p[j] = j == mid ? '|' : ' ';
				}
			}
			while (line.n && line.p[line.n - 1] == ' ')
				line.p[--line.n] = '\0';
			fprintf(out, "%s\n", sb_str(&line));
			for (int s = 0; s < 2; s++) {
				const struct cell *c0 = &c->cells[b->cell[0]];
				int k0 = s ? c0->nskip : c0->nerr, any = k0;
				char v[32];

				for (int k = 1; k < b->ncols; k++)
					if (b->cell[k] >= 0)
						any |= s ? c->cells[b->cell[k]].nskip
							 : c->cells[b->cell[k]].nerr;
				if (!any)
					continue;
				line.n = 0;
				if (k0)
					snprintf(v, sizeof(v), "%d:%d", k0, c0->nrows);
				else
					snprintf(v, sizeof(v), ":%d", c0->nrows);
				pad(&line, v, 16, 1);
				for (int k = 1; k < b->ncols; k++) {
					const struct cell *ck =
					    b->cell[k] >= 0 ? &c->cells[b->cell[k]] : NULL;
					int kk = ck ? (s ? ck->nskip : ck->nerr) : 0;

					if (!ck) {
						pad(&line, "", 28, 0);
						continue;
					}
					snprintf(v, sizeof(v), "%+.0f%%",
						 100.0 * ((double)kk / ck->nrows -
							  (double)k0 / c0->nrows));
					pad(&line, v, 15, 1);
					if (kk)
						snprintf(v, sizeof(v), "%d:%d", kk, ck->nrows);
					else
						snprintf(v, sizeof(v), ":%d", ck->nrows);
					pad(&line, v, 13, 1);
				}
				fprintf(out, "%s  status.%s\n", sb_str(&line), st[s]);
			}
		}
		fprintf(out, "         %%stddev");
		for (int k = 1; k < b->ncols; k++)
			fprintf(out, "     %%change         %%stddev");
		fprintf(out, "\n             \\");
		for (int k = 1; k < b->ncols; k++)
			fprintf(out, "          |                \\");
		fprintf(out, "\n");
		for (int m = 0; m < c->nmetrics; m++) {
			const struct result *base = NULL;
			struct sb notes = {0};

			for (int k = 1; k < b->ncols && !base; k++)
				if (b->res[k * c->nmetrics + m] >= 0)
					base = &c->res[b->res[k * c->nmetrics + m]];
			if (!base)
				continue;
			line.n = 0;
			lkp_value(&line, &base->b);
			for (int k = 1; k < b->ncols; k++) {
				int ri = b->res[k * c->nmetrics + m];
				const struct result *r = ri >= 0 ? &c->res[ri] : NULL;
				char ch[32] = "", p[32];

				if (r && !isnan(r->change))
					snprintf(ch, sizeof(ch), "%+.1f%%", r->change);
				pad(&line, ch, 12, 1);
				sb_add(&notes, k > 1 ? ", " : "p=", 2);
				if (r) {
					lkp_value(&line, &r->o);
					fmt_p(p, sizeof(p), r);
					sb_printf(&notes, "%s %s", p, r->verdict);
					if (r->flags[0])
						sb_printf(&notes, " [%s]", r->flags);
				} else {
					pad(&line, "", 16, 0);
					sb_add(&notes, "-", 1);
				}
			}
			fprintf(out, "%s  %s.%s  (%s)\n", sb_str(&line), g->scenario, c->metrics[m],
				sb_str(&notes));
			free(notes.p);
		}
		free(line.p);
	}
	if (!c->nblocks)
		fprintf(out, "\nnothing to compare\n");
	print_unmatched(c, out, 0);
}

/* CSV output: one row per comparison and metric, plus one per key not compared. */
static void csv_cell(FILE *out, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

static const char *const csv_head[] = {
    "scenario",
    "workload",
    "placement",
    "threads",
    "home",
    "host",
    "testcase",
    "base",
    "with_patch",
    "base_runs",
    "with_patch_runs",
    "metric",
    "higher_is_better",
    "n_base",
    "median_base",
    "mean_base",
    "stddev_base",
    "cv_base",
    "mux_base",
    "n_with_patch",
    "median_with_patch",
    "mean_with_patch",
    "stddev_with_patch",
    "cv_with_patch",
    "mux_with_patch",
    "change_pct",
    "u",
    "p_value",
    "p_method",
    "min_p",
    "ci_lo_pct",
    "ci_hi_pct",
    "alpha",
    "min_change_pct",
    "verdict",
    "flags",
};
#define NCSV (int)(sizeof(csv_head) / sizeof(csv_head[0]))

static void summary_cells(char v[][40], const struct summary *s)
{
	snprintf(v[0], 40, "%zu", s->n);
	fmt_double(v[1], 40, s->median);
	fmt_double(v[2], 40, s->mean);
	fmt_double(v[3], 40, s->sd);
	fmt_double(v[4], 40, s->cv);
	fmt_double(v[5], 40, s->n ? s->mux : NAN);
}

static const char *side_runs(const struct compare *c, int col)
{
	if (c->one_run)
		return c->runs[0].label;
	return c->sides[col].runs ? c->sides[col].runs : "";
}

static void print_csv(const struct compare *c, FILE *out)
{
	char tcb[512];

	for (int i = 0; i < NCSV; i++)
		csv_cell(out, csv_head[i], i == NCSV - 1);
	for (int i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];
		const struct block *b = &c->blocks[r->block];
		const struct group *g = &c->groups[b->group];
		char sb[6][40], so[6][40], num[8][40];
		const char *v[NCSV];
		int k = 0;

		summary_cells(sb, &r->b);
		summary_cells(so, &r->o);
		fmt_double(num[0], 40, r->change);
		fmt_double(num[1], 40, r->have_p ? r->mwu.u : NAN);
		fmt_double(num[2], 40, r->have_p ? r->mwu.p : NAN);
		fmt_double(num[3], 40, r->min_p);
		fmt_double(num[4], 40, r->ci_lo);
		fmt_double(num[5], 40, r->ci_hi);
		fmt_double(num[6], 40, c->o.alpha);
		fmt_double(num[7], 40, c->o.min_change);
		v[k++] = g->scenario;
		v[k++] = g->workload;
		v[k++] = g->placement;
		v[k++] = g->threads;
		v[k++] = g->home;
		v[k++] = g->host;
		v[k++] = testcase_label(c, b, r->col, tcb, sizeof(tcb));
		v[k++] = b->label[0];
		v[k++] = b->label[r->col];
		v[k++] = side_runs(c, 0);
		v[k++] = side_runs(c, r->col);
		v[k++] = c->metrics[r->metric];
		v[k++] = higher_is_better(c->metrics[r->metric]) ? "1" : "0";
		for (int j = 0; j < 6; j++)
			v[k++] = sb[j];
		for (int j = 0; j < 6; j++)
			v[k++] = so[j];
		v[k++] = num[0];
		v[k++] = num[1];
		v[k++] = num[2];
		v[k++] = r->have_p ? (r->mwu.exact ? "exact" : "normal") : "";
		v[k++] = num[3];
		v[k++] = num[4];
		v[k++] = num[5];
		v[k++] = num[6];
		v[k++] = num[7];
		v[k++] = r->verdict;
		v[k++] = r->flags;
		for (int j = 0; j < NCSV; j++)
			csv_cell(out, v[j], j == NCSV - 1);
	}
	for (int i = 0; i < c->num; i++) {
		const struct unmatched *u = &c->um[i];
		const struct group *g = &c->groups[u->group];
		const char *v[NCSV];

		for (int j = 0; j < NCSV; j++)
			v[j] = "";
		v[0] = g->scenario;
		v[1] = g->workload;
		v[2] = g->placement;
		v[3] = g->threads;
		v[4] = g->home;
		v[5] = g->host;
		v[6] = u->entry >= 0 ? c->entries[u->entry].label : "";
		v[NCSV - 2] = "unmatched";
		v[NCSV - 1] = u->what;
		for (int j = 0; j < NCSV; j++)
			csv_cell(out, v[j], j == NCSV - 1);
	}
}

/* ---- command line ---- */

static void usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: pcbench compare RUN [RUN...] [options]\n"
	    "\n"
	    "RUN is a run directory (results.csv and context.json) or a results CSV.\n"
	    "One RUN: each preset against the scenario's base preset, per scenario, workload,\n"
	    "placement, threads and home. Several RUNs: the same keys (scenario, preset,\n"
	    "layout, workload, placement, threads, home, every param_*) across runs, each\n"
	    "against the first; keys found on one side only are listed.\n"
	    "\n"
	    "  -b, --base PRESET     one RUN: the base preset (default: each scenario's first\n"
	    "                        preset); with --by host: the base host\n"
	    "      --by host         put hosts (and topology_fp) side by side, from one or\n"
	    "                        several RUNs\n"
	    "  -f, --format FMT      table (default: the seeds' testcase/base/with-patch/%%change\n"
	    "                        plus p-value and verdict), lkp (0-day %%stddev %%change\n"
	    "                        %%stddev), markdown, csv\n"
	    "  -m, --metric LIST     compare only these metric columns (default: ops_per_s,\n"
	    "                        ns_per_op and every *_per_op column measured on both sides)\n"
	    "      --alpha A         significance level of the Mann-Whitney U test (default 0.05)\n"
	    "      --min-change PCT  smallest |%%change| called significant (default 1)\n"
	    "      --ci              bootstrap confidence interval of the ratio of medians\n"
	    "  -h, --help            this text\n"
	    "\n"
	    "Exit status: 0 compared, 2 bad usage or input (nothing compared).\n"
	    "\n"
	    "Examples:\n"
	    "  pcbench compare results/latest\n"
	    "  pcbench compare results/latest --base +A --format lkp\n"
	    "  pcbench compare /tmp/before /tmp/after --ci\n"
	    "  pcbench compare lab1/ lab2/ lab3/ --by host --metric ops_per_s\n");
}

static double parse_double(const char *opt, const char *s, double lo, double hi, int open_lo)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(open_lo ? v > lo : v >= lo) || !(v < hi))
		usage_error(opt, s, "expected a number in %s%g, %g)", open_lo ? "(" : "[", lo, hi);
	return v;
}

static void parse_args(int argc, char **argv, struct options *o, const char ***args, int *nargs)
{
	static const struct option longopts[] = {
	    {"base", required_argument, NULL, 'b'},
	    {"by", required_argument, NULL, 'B'},
	    {"format", required_argument, NULL, 'f'},
	    {"metric", required_argument, NULL, 'm'},
	    {"alpha", required_argument, NULL, 'a'},
	    {"min-change", required_argument, NULL, 'c'},
	    {"ci", no_argument, NULL, 'C'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int ch;

	o->alpha = 0.05;
	o->min_change = 1;
	o->fmt = FMT_TABLE;
	opterr = 0;
	optind = 0; /* glibc: a full re-initialisation, whatever parsed argv before */
	while ((ch = getopt_long(argc, argv, ":b:f:m:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			o->base = optarg;
			break;
		case 'B':
			if (strcmp(optarg, "host"))
				usage_error("--by", optarg, "expected host");
			o->by_host = 1;
			break;
		case 'f':
			if (!strcmp(optarg, "table"))
				o->fmt = FMT_TABLE;
			else if (!strcmp(optarg, "lkp"))
				o->fmt = FMT_LKP;
			else if (!strcmp(optarg, "markdown"))
				o->fmt = FMT_MARKDOWN;
			else if (!strcmp(optarg, "csv"))
				o->fmt = FMT_CSV;
			else
				usage_error("--format", optarg,
					    "expected table, lkp, markdown or csv");
			break;
		case 'm':
			o->metrics = optarg;
			break;
		case 'a':
			o->alpha = parse_double("--alpha", optarg, 0, 1, 1);
			break;
		case 'c':
			o->min_change = parse_double("--min-change", optarg, 0, 1e9, 0);
			break;
		case 'C':
			o->ci = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			usage_error("option", argv[optind - 1], "needs a value (see --help)");
		default:
			usage_error("option", argv[optind - 1], "unknown option (see --help)");
		}
	}
	*args = (const char **)argv + optind;
	*nargs = argc - optind;
	if (!*nargs)
		usage_error("RUN", "",
			    "missing: give a run directory or a results CSV (see "
			    "pcbench compare --help)");
}

/*
 * The state of one comparison. File-scope, so that what it owns stays reachable until the
 * process exits (pcbench compare is a one-shot command; nothing is freed piecemeal).
 */
static struct compare state;
static struct header header;

/* median of column @col over the ok rows of @r where @match(row) holds; NAN if none. */
static double median_where(const struct run *r, int col,
			   int (*match)(const struct run *, int, const void *), const void *arg)
{
	double *v = xcalloc((size_t)r->t->nrows + 1, sizeof(double)), m;
	size_t n = 0;

	for (int i = 0; col >= 0 && i < r->t->nrows; i++)
		if (!strcmp(cell_at(r, i, r->col[C_STATUS]), "ok") && cell_at(r, i, col)[0] &&
		    match(r, i, arg))
			v[n++] = atof(cell_at(r, i, col));
	m = stats_median(v, n);
	free(v);
	return m;
}

static const char *const explain_classes[] = {"same-l3", "cross-l3", "same-package",
					      "cross-socket"};

/* a c2c ping-pong row between two PUs of pair class @arg */
static int is_c2c_class(const struct run *r, int i, const void *arg)
{
	int c = csv_col(r->t, "pair_class");

	return c >= 0 && !strcmp(cell_at(r, i, r->col[C_SCENARIO]), "c2c") &&
	       !strcmp(cell_at(r, i, r->col[C_WORKLOAD]), "pingpong") &&
	       !strcmp(cell_at(r, i, r->col[C_THREADS]), "2") && !strcmp(cell_at(r, i, c), arg);
}

/* a row of the same scenario, workload, threads and preset as row *(int *)arg */
static int same_family(const struct run *r, int i, const void *arg)
{
	int j = *(const int *)arg;
	static const int keys[] = {C_SCENARIO, C_PRESET, C_WORKLOAD, C_THREADS, C_PLACEMENT};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (strcmp(cell_at(r, i, r->col[keys[k]]), cell_at(r, j, r->col[keys[k]])))
			return 0;
	return 1;
}

/*
 * explain - explained numbers: when a run holds both c2c ping-pong rows (ns per one-way
 * transfer, per pair class) and the model's transfers per operation per class (--with-model),
 * print predicted ns/op = sum over classes of transfers/op x ns/transfer next to the
 * measured ns/op. An estimate: only line transfers, each at the probe's latency, none
 * overlapped (real cores overlap some, and do other work too).
 */
static void explain(const struct compare *c, FILE *out)
{
	for (int ri = 0; ri < c->nruns; ri++) {
		const struct run *r = &c->runs[ri];
		double ns[4];
		int have = 0, cols[4], printed = 0;

		for (int k = 0; k < 4; k++) {
			char name[64];

			snprintf(name, sizeof(name), "model_transfers_%s_per_op",
				 explain_classes[k]);
			for (char *p = name; *p; p++)
				*p = *p == '-' ? '_' : *p;
			cols[k] = csv_col(r->t, name);
			/* ns per one-way transfer: the probe's ns_per_op over its 2 threads */
			ns[k] =
			    median_where(r, r->col[C_NS_PER_OP], is_c2c_class, explain_classes[k]) /
			    2;
			have += !isnan(ns[k]);
		}
		if (!have || cols[0] < 0)
			continue;
		for (int i = 0; i < r->t->nrows; i++) {
			double pred = 0, transfers = 0;
			int first = 1, missing = -1;

			if (!strcmp(cell_at(r, i, r->col[C_SCENARIO]), "c2c"))
				continue;
			for (int j = 0; j < i && first; j++)
				first = !same_family(r, j, &i);
			if (!first)
				continue;
			for (int k = 0; k < 4; k++) {
				double t = median_where(r, cols[k], same_family, &i);

				if (isnan(t) || t == 0)
					continue;
				transfers += t;
				if (isnan(ns[k]))
					missing = k;
				else
					pred += t * ns[k];
			}
			if (!printed++) {
				fprintf(
				    out,
				    "\nexplained numbers, %s: predicted ns/op = model transfers/op "
				    "x c2c ns per transfer (",
				    r->label);
				for (int k = 0, n = 0; k < 4; k++)
					if (!isnan(ns[k]))
						fprintf(out, "%s%s %.1f ns", n++ ? ", " : "",
							explain_classes[k], ns[k]);
				fprintf(out, "); an estimate: transfers only, each at the probe's "
					     "latency, none overlapped\n");
				fprintf(out, "%-14s %-10s %-8s %-18s %10s %13s %15s\n", "scenario",
					"workload", "threads", "preset", "measured", "transfers/op",
					"predicted ns/op");
			}
			fprintf(out, "%-14s %-10s %-8s %-18s %10.1f %13.3f ",
				cell_at(r, i, r->col[C_SCENARIO]),
				cell_at(r, i, r->col[C_WORKLOAD]), cell_at(r, i, r->col[C_THREADS]),
				cell_at(r, i, r->col[C_PRESET]),
				median_where(r, r->col[C_NS_PER_OP], same_family, &i), transfers);
			if (missing >= 0)
				fprintf(out, "%15s\n", "n/a");
			else
				fprintf(out, "%15.1f\n", pred);
		}
	}
}

int compare_main(int argc, char **argv)
{
	struct compare *const cp = &state;
	struct header *const h = &header;
	const char **args;
	int nargs;

	memset(cp, 0, sizeof(*cp));
	memset(h, 0, sizeof(*h));

	parse_args(argc, argv, &cp->o, &args, &nargs);
	cp->nruns = nargs;
	cp->runs = xcalloc((size_t)nargs, sizeof(*cp->runs));
	for (int i = 0; i < nargs; i++)
		load_run(&cp->runs[i], args[i]);
	cp->one_run = nargs == 1 && !cp->o.by_host;
	if (cp->o.base && !cp->one_run && !cp->o.by_host)
		usage_error("--base", cp->o.base,
			    "with several RUNs the first RUN is the base (--base names a preset "
			    "with one RUN, a host with --by host)");
	collect_columns(cp);
	if (cp->one_run) {
		cp->nsides = 1;
		cp->sides = xcalloc(1, sizeof(*cp->sides));
		cp->sides[0].name = xstrdup("base");
	} else if (!cp->o.by_host) {
		cp->nsides = nargs;
		cp->sides = xcalloc((size_t)nargs, sizeof(*cp->sides));
		for (int i = 0; i < nargs; i++) {
			cp->sides[i].name =
			    i < 26 ? xasprintf("%c", 'A' + i) : xasprintf("R%d", i + 1);
			cp->sides[i].runs = xstrdup(cp->runs[i].label);
			cp->sides[i].host = cp->runs[i].host;
			cp->sides[i].cpu = cp->runs[i].cpu_model;
		}
	}
	for (int ri = 0; ri < cp->nruns; ri++)
		for (int row = 0; row < cp->runs[ri].t->nrows; row++) {
			add_row(cp, ri, row);
		}
	{
		/* distinct hosts over all rows */
		struct map hosts = {0};

		for (int ri = 0; ri < cp->nruns; ri++)
			for (int row = 0; row < cp->runs[ri].t->nrows; row++)
				if (cp->runs[ri].c_host >= 0) {
					const char *hn =
					    cell_at(&cp->runs[ri], row, cp->runs[ri].c_host);

					if (map_get(&hosts, hn) < 0)
						map_put(&hosts, hn, 1);
				}
		cp->nhosts = (int)hosts.n;
		for (size_t i = 0; i < hosts.cap; i++)
			free(hosts.keys[i]);
		free(hosts.keys);
		free(hosts.vals);
	}
	if (cp->o.by_host) {
		if (cp->o.base) {
			int b = -1;

			for (int s = 0; s < cp->nsides; s++)
				if (b < 0 && (!strcmp(cp->sides[s].name, cp->o.base) ||
					      !strcmp(cp->sides[s].host, cp->o.base)))
					b = s;
			if (b < 0)
				usage_error("--base", cp->o.base, "no such host in the RUNs");
			if (b) {
				struct side t = cp->sides[b];

				/* Move the base host to the front; remap the cells' sides. */
				memmove(&cp->sides[1], &cp->sides[0], (size_t)b * sizeof(t));
				cp->sides[0] = t;
				for (int i = 0; i < cp->ncells; i++)
					cp->cells[i].side = cp->cells[i].side == b ? 0
							    : cp->cells[i].side < b
								? cp->cells[i].side + 1
								: cp->cells[i].side;
				for (size_t i = 0; i < cp->cmap.cap; i++)
					free(cp->cmap.keys[i]);
				free(cp->cmap.keys);
				free(cp->cmap.vals);
				memset(&cp->cmap, 0, sizeof(cp->cmap));
				for (int i = 0; i < cp->ncells; i++) {
					char *key =
					    xasprintf("%d\x1f%d\x1f%d", cp->cells[i].side,
						      cp->cells[i].group, cp->cells[i].entry);

					map_put(&cp->cmap, key, i);
					free(key);
				}
			}
		}
		if (cp->nsides < 2)
			fprintf(stderr,
				"pcbench: compare: --by host: only one host (%s) in the RUNs\n",
				cp->sides[0].name);
	}
	build_blocks(cp);
	for (int bi = 0; bi < cp->nblocks; bi++)
		for (int col = 1; col < cp->blocks[bi].ncols; col++)
			if (cp->blocks[bi].cell[col] >= 0)
				compare_cells(cp, bi, col);
	build_header(cp, h);
	switch (cp->o.fmt) {
	case FMT_TABLE:
		print_table(cp, h, stdout, 0);
		explain(cp, stdout);
		break;
	case FMT_MARKDOWN:
		print_table(cp, h, stdout, 1);
		break;
	case FMT_LKP:
		print_lkp(cp, h, stdout);
		break;
	case FMT_CSV:
		print_csv(cp, stdout);
		break;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "pcbench: compare: writing the report: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
