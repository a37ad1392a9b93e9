// SPDX-License-Identifier: MIT
/* fmt_lkp.c - the `lkp` report format: the 0-day robot's %stddev %change %stddev table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* lkp: the 0-day robot's `%stddev %change %stddev` table, one per block. */
static void lkp_value(struct sb *b, const struct summary *s)
{
	char v[64], sd[32] = "";

	cmp_fmt_val(v, sizeof(v), s->median);
	if (s->n && !isnan(s->cv) && 100 * s->cv > LKP_SD_MIN)
		snprintf(sd, sizeof(sd), " ±%3.0f%%", 100 * s->cv);
	if (s->n && strlen(v) >= 10)
		sb_add(b, " ", 1); /* keep a blank before a wide value */
	sb_pad(b, s->n ? v : "", 10, 1);
	sb_pad(b, sd, 6, 0);
}

/* The block's title lines, then its column labels with a dashed rule under them. */
static void lkp_head(const struct compare *c, const struct block *b, const struct group *g,
		     FILE *out)
{
	int by_host = c->one_run && c->nhosts > 1;
	struct sb line = {0};

	fprintf(out, "\nscenario/workload/placement/threads%s%s: %s/%s/%s/%s%s%s%s%s\n",
		c->has_home ? "/home" : "", by_host ? "/host" : "", g->scenario, g->workload,
		g->placement, g->threads, c->has_home ? "/" : "", c->has_home ? g->home : "",
		by_host ? "/" : "", by_host ? g->host : "");
	if (!c->one_run)
		fprintf(out, "testcase: %s\n", c->entries[b->entry].label);
	fprintf(out, "\n");
	for (int k = 0; k < b->ncols; k++) {
		char lab[64];

		snprintf(lab, sizeof(lab), "%s", b->label[k]);
		if (k)
			sb_add(&line, " ", 1);
		sb_pad(&line, lab, k ? 27 : 16, 0);
	}
	sb_rtrim(&line);
	fprintf(out, "%s\n----------------", sb_str(&line));
	for (int k = 1; k < b->ncols; k++)
		fprintf(out, " ---------------------------");
	fprintf(out, "\n");
	free(line.p);
}

/* Replaces each word of @line by a bar under its middle, trailing blanks dropped. */
static void lkp_bars(struct sb *line)
{
	for (size_t i = 0, start = 0; i <= line->n; i++) {
		if (i < line->n && line->p[i] != ' ') {
			if (!i || line->p[i - 1] == ' ')
				start = i;
			continue;
		}
		if (i && line->p[i - 1] != ' ') {
			size_t mid = (start + i - 1) / 2;

			for (size_t j = start; j < i; j++)
				line->p[j] = j == mid ? '|' : ' ';
		}
	}
	sb_rtrim(line);
}

/* "K:N" (K of a cell's N runs failed; ":N" when none) right-aligned in @width. */
static void lkp_fail_runs(struct sb *line, int k, int n, int width)
{
	char v[32];

	if (k)
		snprintf(v, sizeof(v), "%d:%d", k, n);
	else
		snprintf(v, sizeof(v), ":%d", n);
	sb_pad(line, v, width, 1);
}

/*
 * The status row of the block's runs with status @skip ? "skipped" : "error": the
 * failed:runs of each column, and beyond the first the %change of their share. Nothing when
 * no column has such a run.
 */
static void lkp_status_row(const struct compare *c, const struct block *b, int skip, FILE *out)
{
	const struct cell *c0 = &c->cells[b->cell[0]];
	int k0 = skip ? c0->nskip : c0->nerr, any = k0;
	struct sb line = {0};

	for (int k = 1; k < b->ncols; k++)
		if (b->cell[k] >= 0)
			any |= skip ? c->cells[b->cell[k]].nskip : c->cells[b->cell[k]].nerr;
	if (!any)
		return;
	lkp_fail_runs(&line, k0, c0->nrows, 16);
	for (int k = 1; k < b->ncols; k++) {
		const struct cell *ck = b->cell[k] >= 0 ? &c->cells[b->cell[k]] : NULL;
		int kk = ck ? (skip ? ck->nskip : ck->nerr) : 0;
		char v[32];

		if (!ck) {
			sb_pad(&line, "", 28, 0);
			continue;
		}
		snprintf(v, sizeof(v), "%+.0f%%",
			 100.0 * ((double)kk / ck->nrows - (double)k0 / c0->nrows));
		sb_pad(&line, v, 15, 1);
		lkp_fail_runs(&line, kk, ck->nrows, 13);
	}
	fprintf(out, "%s  status.%s\n", sb_str(&line), skip ? "skipped" : "error");
	free(line.p);
}

/* When a column of the block has failed or skipped runs: their headings and status rows. */
static void lkp_failures(const struct compare *c, const struct block *b, FILE *out)
{
	struct sb line = {0};
	int any_fail = 0;

	for (int k = 0; k < b->ncols; k++)
		if (b->cell[k] >= 0)
			any_fail |= c->cells[b->cell[k]].nerr || c->cells[b->cell[k]].nskip;
	if (!any_fail)
		return;
	sb_pad(&line, "fail:runs", 16, 1);
	for (int k = 1; k < b->ncols; k++) {
		sb_pad(&line, "%reproduction", 15, 1);
		sb_pad(&line, "fail:runs", 13, 1);
	}
	fprintf(out, "%s\n", sb_str(&line));
	lkp_bars(&line);
	fprintf(out, "%s\n", sb_str(&line));
	free(line.p);
	lkp_status_row(c, b, 0, out);
	lkp_status_row(c, b, 1, out);
}

/*
 * Metric @m's row of the block: the base's median (and stddev), each column's %change and
 * median, then the p-values and verdicts in parentheses. Nothing when no column has it.
 */
static void lkp_metric_row(const struct compare *c, const struct block *b, const struct group *g,
			   int m, FILE *out)
{
	const struct result *base = NULL;
	struct sb line = {0}, notes = {0};

	for (int k = 1; k < b->ncols && !base; k++)
		if (b->res[k * c->nmetrics + m] >= 0)
			base = &c->res[b->res[k * c->nmetrics + m]];
	if (!base)
		return;
	lkp_value(&line, &base->b);
	for (int k = 1; k < b->ncols; k++) {
		int ri = b->res[k * c->nmetrics + m];
		const struct result *r = ri >= 0 ? &c->res[ri] : NULL;
		char ch[32] = "", p[32];

		if (r && !isnan(r->change))
			snprintf(ch, sizeof(ch), "%+.1f%%", r->change);
		sb_pad(&line, ch, 12, 1);
		sb_add(&notes, k > 1 ? ", " : "p=", 2);
		if (r) {
			lkp_value(&line, &r->o);
			cmp_fmt_p(p, sizeof(p), r);
			sb_printf(&notes, "%s %s", p, r->verdict);
			if (r->flags[0])
				sb_printf(&notes, " [%s]", r->flags);
		} else {
			sb_pad(&line, "", 16, 0);
			sb_add(&notes, "-", 1);
		}
	}
	fprintf(out, "%s  %s.%s  (%s)\n", sb_str(&line), g->scenario, c->metrics[m],
		sb_str(&notes));
	free(line.p);
	free(notes.p);
}

/* One block's table: title, column heads, failures, the %stddev heading, a row per metric. */
static void lkp_block(const struct compare *c, const struct block *b, FILE *out)
{
	const struct group *g = &c->groups[b->group];

	lkp_head(c, b, g, out);
	lkp_failures(c, b, out);
	fprintf(out, "         %%stddev");
	for (int k = 1; k < b->ncols; k++)
		fprintf(out, "     %%change         %%stddev");
	fprintf(out, "\n             \\");
	for (int k = 1; k < b->ncols; k++)
		fprintf(out, "          |                \\");
	fprintf(out, "\n");
	for (int m = 0; m < c->nmetrics; m++)
		lkp_metric_row(c, b, g, m, out);
}

void cmp_fmt_lkp(const struct compare *c, const struct header *h, FILE *out)
{
	int shown = 0;

	for (int i = 0; i < h->n; i++)
		fprintf(out, "%-10s%s\n", h->key[i], h->val[i]);
	for (int bi = 0; bi < c->nblocks; bi++) {
		if (c->blocks[bi].ncols < 2)
			continue;
		shown++;
		lkp_block(c, &c->blocks[bi], out);
	}
	if (!shown)
		fprintf(out, "\nnothing to compare\n");
	cmp_fmt_unmatched(c, out, 0);
}
