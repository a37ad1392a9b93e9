// SPDX-License-Identifier: MIT
/* fmt_csv.c - the `csv` report format: one row per comparison and metric. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

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

/* compare.csv's key columns, results.csv's that name a group, then its own (cmp_csv_cols). */
static const enum results_col csv_keys[] = {COL_SCENARIO, COL_WORKLOAD, COL_PLACEMENT,
					    COL_THREADS,  COL_HOME,	COL_HOST};
#define NKEYS (int)(sizeof(csv_keys) / sizeof(csv_keys[0]))
/* compare.csv's own columns' names, indexed by enum cmp_csv_col (compare.h). */
const char *const cmp_csv_cols[CCSV_N] = {
#define CCSV_NAME(e, name) name,
    COMPARE_CSV_COLUMNS(CCSV_NAME)
#undef CCSV_NAME
};

int cmp_csv_col(const struct csv_table *t, enum cmp_csv_col c)
{
	return csv_col(t, cmp_csv_cols[c]);
}
#define NCSV (NKEYS + CCSV_N)

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

void cmp_fmt_csv(const struct compare *c, const struct header *h, FILE *out)
{
	(void)h;
	char tcb[512];

	for (int i = 0; i < NKEYS; i++)
		csv_cell(out, results_cols[csv_keys[i]], 0);
	for (int i = NKEYS; i < NCSV; i++)
		csv_cell(out, cmp_csv_cols[i - NKEYS], i == NCSV - 1);
	for (int i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];
		const struct block *b = &c->blocks[r->block];
		const struct group *g = &c->groups[b->group];
		char sb[6][40], so[6][40], num[13][40];
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
		fmt_double(num[8], 40, r->p_adj);
		snprintf(num[9], 40, "%d", r->family);
		fmt_double(num[10], 40, r->fair_b);
		fmt_double(num[11], 40, r->fair_o);
		fmt_double(num[12], 40, r->fair_p);
		v[k++] = g->scenario;
		v[k++] = g->workload;
		v[k++] = g->placement;
		v[k++] = g->threads;
		v[k++] = g->home;
		v[k++] = g->host;
		v[k++] = cmp_testcase_label(c, b, r->col, tcb, sizeof(tcb));
		v[k++] = b->label[0];
		v[k++] = b->label[r->col];
		v[k++] = side_runs(c, 0);
		v[k++] = side_runs(c, r->col);
		v[k++] = c->metrics[r->metric];
		v[k++] = cmp_higher_is_better(c->metrics[r->metric]) ? "1" : "0";
		for (int j = 0; j < 6; j++)
			v[k++] = sb[j];
		for (int j = 0; j < 6; j++)
			v[k++] = so[j];
		v[k++] = num[0];
		v[k++] = num[1];
		v[k++] = num[2];
		v[k++] = !r->have_p  ? ""
			 : r->paired ? (r->mwu.exact ? "signed-rank exact" : "signed-rank normal")
			 : r->mwu.exact ? "exact"
					: "normal";
		v[k++] = num[8];
		v[k++] = cmp_correction_names[c->o.correction];
		v[k++] = num[9];
		v[k++] = num[3];
		v[k++] = num[4];
		v[k++] = num[5];
		v[k++] = num[6];
		v[k++] = num[7];
		v[k++] = num[10];
		v[k++] = num[11];
		v[k++] = num[12];
		v[k++] = isnan(r->fair_p) ? "" : r->fair_changed ? "1" : "0";
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
