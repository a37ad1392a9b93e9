// SPDX-License-Identifier: MIT
/*
 * blocks.c - compare under the block design (docs/compare.md#blocks): which design a
 * comparison gets, each table's blocks (clean or left out, and why), the per-block change
 * of a column against its base (stats_block_change), the host mappings seen by the
 * transfer probe (xfer_before_ns, xfer_after_ns) and the change within each of them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* ---- the design ---- */

static int single_run_id(const struct cmp_run *r)
{
	const char *id = cmp_cell_at(r, 0, r->col[C_RUN_ID]);

	for (int i = 1; i < r->t->nrows; i++)
		if (strcmp(id, cmp_cell_at(r, i, r->col[C_RUN_ID])))
			return 0;
	return 1;
}

void cmp_choose_design(struct compare *c)
{
	const struct cmp_run *r = &c->runs[0];
	const char *why = NULL;
	int any = 0;

	if (!c->one_run)
		why = c->o.by_kernel ? "--by kernel: blocks cannot span boots, so the kernels "
				       "are compared as independent samples"
		      : c->o.by_host ? "--by host: hosts are not paired"
				     : "several RUNs are not paired";
	else if (r->c_block < 0)
		why = "no block column: a run from before blocks";
	else if (r->design && !strcmp(r->design, "independent"))
		why = "the run was measured with --design independent";
	else if (c->nhosts > 1 || !single_run_id(r))
		why = "merged runs: block numbers pair rows only within one run";
	for (int i = 0; !why && i < r->t->nrows && !any; i++)
		any = cmp_cell_at(r, i, r->c_block)[0] != '\0';
	if (!why && !any)
		why = "no row has a block number";
	c->paired = !why;
	c->design = why ? xasprintf("independent repetitions (%s): Mann-Whitney U between the "
				    "repetitions of the two sides",
				    why)
			: xstrdup("blocks (each block measured every preset of a table once, back "
				  "to back): %change, ci and p within blocks; a block lacking a "
				  "clean row of a preset is left out, the reasons counted");
}

/* ---- host mappings ---- */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* xfer_value - the probe cell (@col) of @row as a positive number, or NaN. */
static double xfer_value(const struct cmp_run *r, int row, int col)
{
	const char *s = cmp_cell_at(r, row, col);

	return s[0] ? cmp_parse_num(r, row, col) : NAN;
}

void cmp_find_mappings(struct compare *c)
{
	const struct cmp_run *r = &c->runs[0];
	double *v = xcalloc(2 * (size_t)r->t->nrows + 1, sizeof(double));
	size_t n = 0, start = 0, min_size;

	c->nmap = 0;
	if (!c->one_run || r->c_xb < 0 || r->c_xa < 0) {
		free(v);
		return;
	}
	for (int row = 0; row < r->t->nrows; row++)
		for (int k = 0; k < 2; k++) {
			double x = xfer_value(r, row, k ? r->c_xa : r->c_xb);

			if (x > 0)
				v[n++] = x;
		}
	qsort(v, n, sizeof(*v), cmp_dbl);
	/* A cluster smaller than this is a stray probe, not a host mapping. */
	min_size = n / 20 > MAP_MIN_PROBES ? n / 20 : MAP_MIN_PROBES;
	for (size_t i = 1; i <= n; i++) {
		if (i < n && v[i] <= MAP_GAP * v[i - 1])
			continue;
		if (i - start >= min_size && c->nmap < MAP_MAX) {
			c->map_lo[c->nmap] = v[start];
			c->map_hi[c->nmap++] = v[i - 1];
		}
		start = i;
	}
	if (c->nmap)
		c->xfer_lo = c->map_lo[0], c->xfer_hi = c->map_hi[c->nmap - 1];
	free(v);
}

/* mapping_of - the host mapping whose probe range holds @x, or -1. */
static int mapping_of(const struct compare *c, double x)
{
	for (int k = 0; k < c->nmap; k++)
		if (x >= c->map_lo[k] && x <= c->map_hi[k])
			return k;
	return -1;
}

/* ---- a table's blocks ---- */

const char *cmp_row_reason(const struct cmp_run *r, int row)
{
	const char *st = cmp_cell_at(r, row, r->col[C_STATUS]);
	const char *by = cmp_cell_at(r, row, r->c_dist_by);

	if (by[0])
		return by;
	return !strcmp(st, "disturbed") ? "noise" : st;
}

/* disturbance - @why names a disturbance (a disturbed_by kind), not an error or a gap. */
static int disturbance(const char *why)
{
	return strcmp(why, "error") && strcmp(why, "skipped") && strcmp(why, "missing");
}

void cmp_reasons_text(struct sb *b, const char **why, int n)
{
	int *done = xcalloc((size_t)n + 1, sizeof(int));

	sb_addc(b, '(');
	/* Each reason once, the most frequent first (first seen among equals). */
	for (int shown = 0; shown < n;) {
		int best = -1, best_n = 0;

		for (int i = 0; i < n; i++) {
			int k = 0;

			if (done[i])
				continue;
			for (int j = i; j < n; j++)
				k += !strcmp(why[i], why[j]);
			if (k > best_n)
				best = i, best_n = k;
		}
		sb_printf(b, "%s%d ", shown ? ", " : "", best_n);
		for (const char *p = why[best]; *p; p++) /* run_delay -> run delay */
			sb_addc(b, *p == '_' ? ' ' : *p);
		for (int j = best; j < n; j++)
			if (!strcmp(why[best], why[j]))
				done[j] = 1;
		shown += best_n;
	}
	sb_addc(b, ')');
	free(done);
}

char *cmp_left_text(const char **why, int nleft, int n, const char *unit)
{
	struct sb b = {0};
	int all_dist = 1;

	for (int i = 0; i < nleft; i++)
		all_dist &= disturbance(why[i]);
	sb_printf(&b, "%d of %d %s%s %s ", nleft, n, unit, n == 1 ? "" : "s",
		  all_dist ? "disturbed" : "left out");
	cmp_reasons_text(&b, why, nleft);
	return b.p;
}

/* block_index - the index of block @name in @tb, added when new. */
static int block_index(struct tblocks *tb, struct map *m, const char *name)
{
	int j = cmp_map_get(m, name);

	if (j < 0) {
		j = tb->nb;
		GROW(tb->name, tb->nb, tb->ncap);
		tb->name[tb->nb++] = xstrdup(name);
		cmp_map_put(m, name, j);
	}
	return j;
}

/*
 * block_probes - the probes (before and after, every column) of block @j of table @bl;
 * @skip_remapped: not those of a window disturbed by its own remap.
 */
static double *block_probes(const struct compare *c, const struct block *bl, const struct map *m,
			    int j, int skip_remapped, size_t *n)
{
	const struct cmp_run *r = &c->runs[0];
	double *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (int col = 0; r->c_xb >= 0 && r->c_xa >= 0 && col < bl->ncols; col++) {
		const struct cell *cl = &c->cells[bl->cell[col]];

		for (int i = 0; i < cl->nrows; i++) {
			int row = cl->rows[i].row;

			/* a window remapped itself leaves out only its own comparisons */
			if (cmp_map_get(m, cmp_cell_at(r, row, r->c_block)) != j ||
			    (skip_remapped && !strcmp(cmp_row_reason(r, row), "remap")))
				continue;
			for (int k = 0; k < 2; k++) {
				double x = xfer_value(r, row, k ? r->c_xa : r->c_xb);

				if (!(x > 0))
					continue;
				GROW(v, *n, cap);
				v[(*n)++] = x;
			}
		}
	}
	return v;
}

/*
 * block_remapped - block @j's probes span two host mappings (results_remapped, as the run's
 * stopping rule judges a block: measure/blocks.c): the host moved the vCPUs between its
 * windows, so its presets were not measured on the same machine. The probes of a window
 * remapped itself are not counted: that window's comparisons leave the block out anyway.
 */
static int block_remapped(const struct compare *c, const struct block *bl, const struct map *m,
			  int j)
{
	size_t n;
	double *v = block_probes(c, bl, m, j, 1, &n), lo = INFINITY, hi = 0;

	for (size_t i = 0; i < n; i++)
		lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
	free(v);
	return n && results_remapped(lo, hi);
}

/*
 * block_mappings - the host mapping of each block of table @bl: the one that holds the
 * median of its rows' probes (before and after, every column), or -1 (none, or between).
 */
static void block_mappings(const struct compare *c, const struct block *bl, struct tblocks *tb,
			   const struct map *m)
{
	for (int j = 0; j < tb->nb; j++) {
		size_t n = 0;
		double *v = c->nmap ? block_probes(c, bl, m, j, 0, &n) : NULL;

		tb->mapping[j] = n ? mapping_of(c, stats_median(v, n)) : -1;
		free(v);
	}
}

/* table_blocks - the blocks of table @bi: built once, then kept in c->tb[bi]. */
static struct tblocks *table_blocks(struct compare *c, int bi)
{
	const struct block *bl = &c->blocks[bi];
	const struct cmp_run *r = &c->runs[0];
	struct tblocks *tb;
	struct map m = {0};
	int cap;

	if (!c->tb)
		c->tb = xcalloc((size_t)c->nblocks, sizeof(*c->tb));
	if (c->tb[bi])
		return c->tb[bi];
	tb = c->tb[bi] = xcalloc(1, sizeof(*tb));
	for (int col = 0; col < bl->ncols; col++) {
		const struct cell *cl = &c->cells[bl->cell[col]];

		for (int i = 0; i < cl->nrows; i++)
			if (cmp_cell_at(r, cl->rows[i].row, r->c_block)[0])
				block_index(tb, &m, cmp_cell_at(r, cl->rows[i].row, r->c_block));
	}
	cap = tb->cap = tb->nb ? tb->nb : 1;
	tb->state = xcalloc((size_t)(bl->ncols * cap), 1);
	tb->remap = xcalloc((size_t)cap, 1);
	tb->mapping = xcalloc((size_t)cap, sizeof(int));
	tb->why = xcalloc((size_t)(bl->ncols * cap), sizeof(*tb->why));
	for (int col = 0; col < bl->ncols; col++) {
		const struct cell *cl = &c->cells[bl->cell[col]];

		for (int i = 0; i < cl->nrows; i++) {
			int row = cl->rows[i].row, j;
			const char *b = cmp_cell_at(r, row, r->c_block);

			if (!b[0])
				continue;
			j = block_index(tb, &m, b);
			if (!strcmp(cmp_cell_at(r, row, r->col[C_STATUS]), "ok")) {
				tb->state[col * cap + j] = 1;
			} else if (tb->state[col * cap + j] != 1) {
				tb->state[col * cap + j] = 2;
				tb->why[col * cap + j] = cmp_row_reason(r, row);
			}
		}
	}
	for (int j = 0; j < tb->nb; j++)
		tb->remap[j] = (char)block_remapped(c, bl, &m, j);
	block_mappings(c, bl, tb, &m);
	for (size_t i = 0; i < m.cap; i++)
		free(m.keys[i]);
	free(m.keys);
	free(m.vals);
	return tb;
}

/*
 * pair_left - why the comparison of column @col with the base (column 0) of table @bl
 * leaves block @j out, or NULL when it uses it: the base's window not clean (its reason,
 * or "missing"), else the column's, else the block's windows on two host mappings. A
 * column with nothing measured (all skipped or failed) is n/a, not a gap.
 */
static const char *pair_left(const struct compare *c, const struct block *bl,
			     const struct tblocks *tb, int col, int j)
{
	for (int k = 0; k < 2; k++) {
		int cc = k ? col : 0;
		const struct cell *cl = &c->cells[bl->cell[cc]];
		int st = tb->state[cc * tb->cap + j];

		if (cl->nok + cl->ndist == 0 || st == 1)
			continue;
		return st ? tb->why[cc * tb->cap + j] : "missing";
	}
	return tb->remap[j] ? "remap_in_block" : NULL;
}

/*
 * pair_left_text - "used 17 of 24 blocks; 7 left out (4 host preemption, 3 remap in
 * block)": the blocks the comparison of column @col of table @bi uses, and why it leaves
 * the others out; NULL when it uses them all. *@nleft: how many it leaves out.
 */
static char *pair_left_text(struct compare *c, int bi, int col, int *nleft)
{
	const struct block *bl = &c->blocks[bi];
	struct tblocks *tb = table_blocks(c, bi);
	const char **why = xcalloc((size_t)tb->nb + 1, sizeof(*why));
	struct sb b = {0};
	int n = 0;

	for (int j = 0; j < tb->nb; j++) {
		const char *w = pair_left(c, bl, tb, col, j);

		if (w)
			why[n++] = w;
	}
	if (n) {
		sb_printf(&b, "used %d of %d block%s; %d left out ", tb->nb - n, tb->nb,
			  tb->nb == 1 ? "" : "s", n);
		cmp_reasons_text(&b, why, n);
	}
	free(why);
	*nleft = n;
	return b.p;
}

/* ---- fairness ---- */

#define M_FAIRNESS (-1) /* in place of a metric: the rows' fairness (cmp_row_fairness) */

double cmp_row_fairness(const struct cmp_run *r, int row)
{
	double lo, hi;

	if (r->c_omin < 0 || r->c_omax < 0 ||
	    !strcmp(cmp_cell_at(r, row, r->col[C_THREADS]), "1") ||
	    !cmp_cell_at(r, row, r->c_omin)[0] || !cmp_cell_at(r, row, r->c_omax)[0])
		return NAN;
	lo = cmp_parse_num(r, row, r->c_omin);
	hi = cmp_parse_num(r, row, r->c_omax);
	return hi > 0 ? lo / hi : NAN;
}

/*
 * row_value - @metric in @row of @r (M_FAIRNESS: its fairness), or NaN when the row is
 * not ok or the cell is empty.
 */
static double row_value(const struct cmp_run *r, int row, int metric)
{
	int col = metric >= 0 ? r->metric_col[metric] : -1;

	if (strcmp(cmp_cell_at(r, row, r->col[C_STATUS]), "ok"))
		return NAN;
	if (metric == M_FAIRNESS)
		return cmp_row_fairness(r, row);
	return col >= 0 && cmp_cell_at(r, row, col)[0] ? cmp_parse_num(r, row, col) : NAN;
}

/*
 * block_value - the median of @metric (M_FAIRNESS: the fairness) over the ok rows of @cl in
 * block @bname (every block: NULL), or NaN; @buf holds the values.
 */
static double block_value(const struct compare *c, const struct cell *cl, int metric,
			  const char *bname, double *buf, size_t *nout)
{
	size_t n = 0;

	for (int i = 0; i < cl->nrows; i++) {
		const struct cmp_run *r = &c->runs[cl->rows[i].run];
		int row = cl->rows[i].row;
		double v;

		if (bname && strcmp(cmp_cell_at(r, row, r->c_block), bname))
			continue;
		v = row_value(r, row, metric);
		if (!isnan(v))
			buf[n++] = v;
	}
	if (nout)
		*nout = n;
	return n ? stats_median(buf, n) : NAN;
}

/*
 * paired_values - @vb, @vo: the values of @metric of the base column and of column @col in
 * the blocks where both its windows are clean (pair_left) and both values are positive (a
 * ratio needs them; M_FAIRNESS: known); @in_map: only blocks of that host mapping (-1:
 * all). Returns how many.
 */
static int paired_values(struct compare *c, int bi, int col, int metric, int in_map, double *vb,
			 double *vo)
{
	const struct block *bl = &c->blocks[bi];
	struct tblocks *tb = table_blocks(c, bi);
	const struct cell *cb = &c->cells[bl->cell[0]], *co = &c->cells[bl->cell[col]];
	double *buf = xcalloc((size_t)(cb->nrows + co->nrows) + 1, sizeof(double));
	int n = 0;

	for (int j = 0; j < tb->nb; j++) {
		double b, o;

		if (pair_left(c, bl, tb, col, j) || (in_map >= 0 && tb->mapping[j] != in_map))
			continue;
		b = block_value(c, cb, metric, tb->name[j], buf, NULL);
		o = block_value(c, co, metric, tb->name[j], buf, NULL);
		if (metric == M_FAIRNESS ? !isnan(b) && !isnan(o) : b > 0 && o > 0)
			vb[n] = b, vo[n++] = o;
	}
	free(buf);
	return n;
}

void cmp_pair_result(struct compare *c, int bi, int col, struct result *r, struct sb *flags)
{
	struct tblocks *tb = table_blocks(c, bi);
	double *vb = xcalloc((size_t)tb->nb + 1, sizeof(double));
	double *vo = xcalloc((size_t)tb->nb + 1, sizeof(double));
	struct block_change bc;
	int n = paired_values(c, bi, col, r->metric, -1, vb, vo), nleft;
	char *left = pair_left_text(c, bi, col, &nleft);

	r->paired = 1;
	r->nclean = n;
	r->change = r->ci_lo = r->ci_hi = NAN;
	r->have_p = 0;
	r->min_p = stats_signrank_min_p((size_t)n);
	memset(&r->mwu, 0, sizeof(r->mwu));
	if (!stats_block_change(vb, vo, n, CI_SEED, &bc)) {
		r->change = bc.pct;
		r->ci_lo = bc.lo;
		r->ci_hi = bc.hi;
		r->mwu.p = bc.p;
		r->mwu.u = NAN;
		r->mwu.exact = n <= STATS_SR_EXACT_MAX;
		r->have_p = 1;
	}
	if (left)
		sb_printf(flags, "%s%s", flags->n ? "; " : "", left);
	free(left);
	free(vb);
	free(vo);
}

void cmp_mapping_changes(struct compare *c)
{
	for (int i = 0; c->paired && c->nmap > 1 && i < c->nres; i++) {
		const struct result *r = &c->res[i];
		struct tblocks *tb;

		if (!r->paired || strcmp(c->metrics[r->metric], results_cols[COL_OPS_PER_S]))
			continue;
		tb = table_blocks(c, r->block);
		for (int k = 0; k < c->nmap; k++) {
			double *vb = xcalloc((size_t)tb->nb + 1, sizeof(double));
			double *vo = xcalloc((size_t)tb->nb + 1, sizeof(double));
			int n = paired_values(c, r->block, r->col, r->metric, k, vb, vo);
			struct mchange mc = {.res = i, .mapping = k};

			if (!stats_block_change(vb, vo, n, CI_SEED, &mc.bc)) {
				GROW(c->mc, c->nmc, c->mc_cap);
				c->mc[c->nmc++] = mc;
			}
			free(vb);
			free(vo);
		}
	}
}

int cmp_blocks_left(struct compare *c, int bi, int col)
{
	int n;

	free(pair_left_text(c, bi, col, &n));
	return n;
}

void cmp_fairness(struct compare *c, int bi, int col, struct result *r)
{
	const struct block *bl = &c->blocks[bi];
	const struct cell *cb = &c->cells[bl->cell[0]], *co = &c->cells[bl->cell[col]];
	size_t nb, no, cap = (size_t)(cb->nrows > co->nrows ? cb->nrows : co->nrows) + 1;
	double *vb, *vo;

	if (c->paired && (size_t)table_blocks(c, bi)->nb >= cap)
		cap = (size_t)table_blocks(c, bi)->nb + 1;
	vb = xcalloc(cap, sizeof(double));
	vo = xcalloc(cap, sizeof(double));

	r->fair_b = block_value(c, cb, M_FAIRNESS, NULL, vb, &nb);
	r->fair_o = block_value(c, co, M_FAIRNESS, NULL, vo, &no);
	r->fair_p = NAN;
	if (c->paired) {
		int n = paired_values(c, bi, col, M_FAIRNESS, -1, vb, vo);
		struct stats_signrank sr;

		for (int j = 0; j < n; j++)
			vo[j] -= vb[j];
		if (n && !stats_signrank(vo, (size_t)n, &sr))
			r->fair_p = sr.p;
	} else if (nb && no) {
		struct stats_mwu u;

		if (!stats_mwu(vo, no, vb, nb, STATS_MWU_AUTO, &u))
			r->fair_p = u.p;
	}
	r->fair_changed = fabs(r->fair_o - r->fair_b) >= FAIR_MIN_CHANGE && r->fair_p < c->o.alpha;
	free(vb);
	free(vo);
}
