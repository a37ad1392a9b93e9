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

void cmp_print_lkp(const struct compare *c, const struct header *h, FILE *out)
{
	for (int i = 0; i < h->n; i++)
		fprintf(out, "%-10s%s\n", h->key[i], h->val[i]);
	int shown = 0;

	for (int bi = 0; bi < c->nblocks; bi++) {
		const struct block *b = &c->blocks[bi];
		const struct group *g = &c->groups[b->group];
		struct sb line = {0};
		int any_fail = 0;

		if (b->ncols < 2)
			continue;
		shown++;

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
			sb_pad(&line, lab, k ? 27 : 16, 0);
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

			sb_pad(&line, "fail:runs", 16, 1);
			for (int k = 1; k < b->ncols; k++) {
				sb_pad(&line, "%reproduction", 15, 1);
				sb_pad(&line, "fail:runs", 13, 1);
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
				sb_pad(&line, v, 16, 1);
				for (int k = 1; k < b->ncols; k++) {
					const struct cell *ck =
					    b->cell[k] >= 0 ? &c->cells[b->cell[k]] : NULL;
					int kk = ck ? (s ? ck->nskip : ck->nerr) : 0;

					if (!ck) {
						sb_pad(&line, "", 28, 0);
						continue;
					}
					snprintf(v, sizeof(v), "%+.0f%%",
						 100.0 * ((double)kk / ck->nrows -
							  (double)k0 / c0->nrows));
					sb_pad(&line, v, 15, 1);
					if (kk)
						snprintf(v, sizeof(v), "%d:%d", kk, ck->nrows);
					else
						snprintf(v, sizeof(v), ":%d", ck->nrows);
					sb_pad(&line, v, 13, 1);
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
			free(notes.p);
		}
		free(line.p);
	}
	if (!shown)
		fprintf(out, "\nnothing to compare\n");
	cmp_print_unmatched(c, out, 0);
}
