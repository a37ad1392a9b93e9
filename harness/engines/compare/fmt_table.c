// SPDX-License-Identifier: MIT
/*
 * fmt_table.c - the `table` report format: the seeds' testcase/base/with-patch/%change
 * table plus p-value and verdict, one per group, then the explained numbers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "table.h"

enum {
	T_CASE,
	T_METRIC,
	T_BASE,
	T_BCV,
	T_NEW,
	T_NCV,
	T_FAIR,
	T_CHANGE,
	T_CI,
	T_P,
	T_VERDICT,
	T_FLAGS,
	T_N
};

static const struct table_col table_cols[T_N] = {
    {"testcase", 0}, {"metric", 0},  {"base", 1}, {"cv", 1},	  {"with-patch", 1}, {"cv", 1},
    {"fairness", 0}, {"%change", 1}, {"ci", 0},	  {"p-value", 1}, {"verdict", 0},    {"flags", 0},
};

/* The cells of one result row, as text. */
static void result_cells(const struct compare *c, const struct result *r, const char *tc, int first,
			 char cells[T_N][160])
{
	snprintf(cells[T_CASE], 160, "%s", first ? tc : "");
	snprintf(cells[T_METRIC], 160, "%s", c->metrics[r->metric]);
	cmp_fmt_val(cells[T_BASE], 160, r->b.median);
	cmp_fmt_pct(cells[T_BCV], 160, r->b.cv);
	cmp_fmt_val(cells[T_NEW], 160, r->o.median);
	cmp_fmt_pct(cells[T_NCV], 160, r->o.cv);
	cells[T_FAIR][0] = '\0'; /* on the ops_per_s row: base -> with-patch */
	if (!strcmp(c->metrics[r->metric], results_cols[COL_OPS_PER_S]) &&
	    !(isnan(r->fair_b) && isnan(r->fair_o))) {
		char fb[16], fo[16];

		cmp_fmt_fair(fb, sizeof(fb), r->fair_b);
		cmp_fmt_fair(fo, sizeof(fo), r->fair_o);
		snprintf(cells[T_FAIR], 160, "%s -> %s", fb, fo);
	}
	cmp_fmt_change(cells[T_CHANGE], 160, r->change);
	cmp_fmt_p(cells[T_P], 160, r);
	snprintf(cells[T_VERDICT], 160, "%s", r->verdict);
	cmp_fmt_ci(cells[T_CI], 160, r);
	cells[T_FLAGS][0] = '\0'; /* the caller points at r->flags: never cut */
}

void cmp_fmt_text_table(const struct compare *c, const struct header *h, FILE *out, int md)
{
	struct table *t = table_new(T_N, table_cols);
	int last_group = -1, fair = 0;
	char cells[T_N][160], tcb[512];
	const char *cp[T_N];

	if (md) {
		fprintf(out, "## pcbench compare\n\n");
		for (int i = 0; i < h->n; i++)
			fprintf(out, "- **%s**: %s\n", h->key[i], h->val[i]);
	} else {
		for (int i = 0; i < h->n; i++)
			fprintf(out, "%-10s%s\n", h->key[i], h->val[i]);
	}
	for (int k = 0; k < T_N; k++)
		cp[k] = cells[k];
	for (int i = 0; i < c->nres && !fair; i++)
		fair = !(isnan(c->res[i].fair_b) && isnan(c->res[i].fair_o));
	if (!fair)
		table_hide(t, T_FAIR);
	for (int i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];
		const struct block *b = &c->blocks[r->block];
		int first =
		    i == 0 || c->res[i - 1].block != r->block || c->res[i - 1].col != r->col;

		if (b->group != last_group) {
			char *gt = cmp_group_title(c, &c->groups[b->group], md ? " · " : "  ");
			char *bn = cmp_base_note(c, b);
			char *title = xasprintf(md ? "%s (%s)" : "%s  (%s)", gt, bn);

			table_section(t, title);
			free(title);
			free(gt);
			free(bn);
			last_group = b->group;
		}
		result_cells(c, r, cmp_testcase_label(c, b, r->col, tcb, sizeof(tcb)), first,
			     cells);
		cp[T_FLAGS] = r->flags;
		table_add(t, cp);
	}
	table_print(t, out, md ? TABLE_MARKDOWN : TABLE_TEXT);
	table_free(t);
	if (!c->nres)
		fprintf(out, "\nnothing to compare%s\n",
			c->one_run ? ": no group has a base and another preset (two RUNs compare "
				     "the same presets across runs)"
				   : ": no key is present in the base and another run");
	cmp_fmt_unmatched(c, out, md);
}

/* The `table` format: the tables, then the explained numbers when the run has them. */
void cmp_fmt_table(const struct compare *c, const struct header *h, FILE *out)
{
	cmp_fmt_text_table(c, h, out, 0);
	cmp_explain(c, out);
}
