// SPDX-License-Identifier: MIT
/*
 * fmt_table.c - the `table` report format: the seeds' testcase/base/with-patch/%change
 * table plus p-value and verdict, one per group, then the explained numbers.
 */
#include <stdlib.h>
#include <string.h>

#include "compare.h"

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
	cmp_fmt_val(cells[T_BASE], 160, r->b.median);
	cmp_fmt_pct(cells[T_BCV], 160, r->b.cv);
	cmp_fmt_val(cells[T_NEW], 160, r->o.median);
	cmp_fmt_pct(cells[T_NCV], 160, r->o.cv);
	cmp_fmt_change(cells[T_CHANGE], 160, r->change);
	cmp_fmt_p(cells[T_P], 160, r);
	snprintf(cells[T_VERDICT], 160, "%s", r->verdict);
	cmp_fmt_ci(cells[T_CI], 160, r);
	snprintf(cells[T_FLAGS], 160, "%s", r->flags);
}
void cmp_print_table(const struct compare *c, const struct header *h, FILE *out, int md)
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

		result_cells(c, r, cmp_testcase_label(c, b, r->col, tcb, sizeof(tcb)), 1, cells);
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
			char *t = cmp_group_title(c, &c->groups[b->group], md ? " · " : "  ");
			char *bn = cmp_base_note(c, b);

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
					sb_pad(&head, table_head[k], w[k], k >= T_BASE && k <= T_P);
				}
				fprintf(out, "%s\n", sb_str(&head));
				free(head.p);
			}
			free(t);
			free(bn);
			last_group = b->group;
		}
		result_cells(c, r, cmp_testcase_label(c, b, r->col, tcb, sizeof(tcb)), first,
			     cells);
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
				sb_pad(&line, cells[k], w[k], k >= T_BASE && k <= T_P);
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
	cmp_print_unmatched(c, out, md);
}

/* The `table` format: the tables, then the explained numbers when the run has them. */
void cmp_fmt_table(const struct compare *c, const struct header *h, FILE *out)
{
	cmp_print_table(c, h, out, 0);
	cmp_explain(c, out);
}
