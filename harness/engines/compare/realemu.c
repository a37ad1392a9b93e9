// SPDX-License-Identifier: MIT
/*
 * realemu.c - compare: the real kernel beside its emulation. A run (or merged runs) holding
 * a `kernel` family and an emulated family its workload stands for (the scenario's
 * emulates(), as --list prints it), at the same placement and thread count, gets one table:
 * the real ns/op, the profiled memcg share and ns/op (--profile), the emulated ns/op and
 * their ratio, with a sentence on what the ratio means. A view, not a verdict: no test.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "harness.h"
#include "table.h"

/* median_col - median of column @name over the ok rows of cell @ci; NaN when none. */
static double median_col(const struct compare *c, int ci, const char *name)
{
	const struct cell *cl = &c->cells[ci];
	double *v = xcalloc((size_t)cl->nrows + 1, sizeof(*v)), m;
	size_t n = 0;

	for (int i = 0; i < cl->nrows; i++) {
		const struct cmp_run *r = &c->runs[cl->rows[i].run];
		int col = csv_col(r->t, name), row = cl->rows[i].row;

		if (col < 0 || strcmp(cmp_cell_at(r, row, r->col[C_STATUS]), "ok") ||
		    !cmp_cell_at(r, row, col)[0])
			continue;
		v[n++] = cmp_parse_num(r, row, col);
	}
	m = stats_median(v, n);
	free(v);
	return m;
}

/* first_cell_text - column @name of the first row of cell @ci ("" when absent). */
static const char *first_cell_text(const struct compare *c, int ci, const char *name)
{
	const struct cell *cl = &c->cells[ci];
	const struct cmp_run *r = &c->runs[cl->rows[0].run];

	return cmp_cell_at(r, cl->rows[0].row, csv_col(r->t, name));
}

/* per_what - what one operation of real workload @wl is, for the sentence. */
static const char *per_what(const char *wl)
{
	if (!strncmp(wl, "page_fault", 10))
		return "per fault";
	if (!strncmp(wl, "fallocate", 9))
		return "per fallocate call";
	return "per message";
}

/* emulated_by - 1 when "scenario:workload" @sw is in @list (space-separated). */
static int emulated_by(const char *list, const char *sc, const char *wl)
{
	size_t n = strlen(sc), k = strlen(wl);

	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, " ");

		if (len == n + 1 + k && !strncmp(p, sc, n) && p[n] == ':' &&
		    !strncmp(p + n + 1, wl, k))
			return 1;
		p += len;
		p += strspn(p, " ");
	}
	return 0;
}

static void fmt_num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

/*
 * one_pair - the row of real cell @rk beside emulated cell @ek; with @say, its sentence
 * onto @why (one per emulated scenario: its base preset's).
 */
static void one_pair(const struct compare *c, struct table *t, struct sb *why, int rk, int ek,
		     int say)
{
	const struct group *g = &c->groups[c->cells[rk].group];
	const struct entry *e = &c->entries[c->cells[ek].entry];
	double real = median_col(c, rk, results_cols[COL_NS_PER_OP]);
	double share = median_col(c, rk, results_var_cols[VCOL_MEMCG_SHARE_PCT]);
	double memcg = median_col(c, rk, results_var_cols[VCOL_MEMCG_NS_PER_OP]);
	double emu = median_col(c, ek, results_cols[COL_NS_PER_OP]);
	const char *kfp = first_cell_text(c, rk, results_var_cols[VCOL_KERNEL_LAYOUT_FP]);
	const char *efp = first_cell_text(c, ek, results_cols[COL_LAYOUT_FP]);
	int same_layout = kfp[0] && !strcmp(kfp, efp);
	double ratio = memcg > 0 ? emu / memcg : NAN;
	char cells[10][64];
	const char *v[10];
	char *emulated =
	    xasprintf("%s:%s %s", e->scenario, c->groups[c->cells[ek].group].workload, e->preset);

	snprintf(cells[0], 64, "%.60s", g->workload);
	snprintf(cells[1], 64, "%.60s", g->placement);
	snprintf(cells[2], 64, "%.60s", g->threads);
	fmt_num(cells[3], 64, real, "%.0f");
	fmt_num(cells[4], 64, share, "%.2f%%");
	fmt_num(cells[5], 64, memcg, "%.1f");
	snprintf(cells[6], 64, "%.63s", emulated);
	snprintf(cells[7], 64, "%.60s", same_layout ? "the running kernel's (btf)" : e->layout);
	fmt_num(cells[8], 64, emu, "%.1f");
	fmt_num(cells[9], 64, ratio, "%.2fx");
	for (int i = 0; i < 10; i++)
		v[i] = cells[i];
	table_add(t, v);
	if (!say) {
		free(emulated);
		return;
	}
	sb_printf(why, "  %s at %s thread%s, %s: ", g->workload, g->threads,
		  strcmp(g->threads, "1") ? "s" : "", emulated);
	if (!isnan(ratio) && memcg > 0)
		sb_printf(
		    why,
		    "the emulated charge path costs %.2gx what the real kernel spends in it %s "
		    "here (%.2f%% of %.0f ns)",
		    ratio, per_what(g->workload), share, real);
	else if (!isnan(real) && !isnan(emu))
		sb_printf(why,
			  "%s; the emulated charge path is %.3g%% of the real kernel's whole "
			  "operation (%.0f ns %s)",
			  isnan(share)
			      ? "no --profile, so the real memcg share is unknown"
			      : "no sample of the real kernel landed in the memcg charge path",
			  100 * emu / real, real, per_what(g->workload));
	else
		sb_printf(why, "no ok repetition on one side");
	if (strstr(first_cell_text(c, rk, "note"), "sockets not accounted"))
		sb_printf(why, "; sockets are not accounted in the real run's memcg (its note), so "
			       "the real kernel charged nothing there");
	if (!same_layout)
		sb_printf(why, "; the emulation ran on layout %s, not the running kernel's (%s)",
			  e->layout[0] ? e->layout : "(computed)", kfp[0] ? kfp : "no BTF");
	sb_printf(why, ".\n");
	free(emulated);
}

void cmp_fmt_real_vs_emulated(const struct compare *c, FILE *out)
{
	static const struct table_col cols[] = {
	    {"real", 0},	   {"placement", 0},	  {"threads", 1},  {"real ns/op", 1},
	    {"memcg share", 1},	   {"memcg ns/op", 1},	  {"emulated", 0}, {"layout", 0},
	    {"emulated ns/op", 1}, {"emulated/memcg", 1},
	};
	const struct scenario *k = scenario_find("kernel");
	struct table *t = NULL;
	struct sb why = {0};

	if (!k || !k->emulates || !c->one_run)
		return;
	/* blocks are groups in the report's order, their columns the presets, base first */
	for (int bk = 0; bk < c->nblocks; bk++) {
		const struct group *g = &c->groups[c->blocks[bk].group];
		const char *list = strcmp(g->scenario, "kernel") ? NULL : k->emulates(g->workload);
		int rk = c->blocks[bk].cell[0];

		if (!list || rk < 0 || !c->cells[rk].nok)
			continue;
		for (int be = 0; be < c->nblocks; be++) {
			const struct block *b = &c->blocks[be];
			const struct group *h = &c->groups[b->group];

			if (strcmp(h->placement, g->placement) || strcmp(h->threads, g->threads) ||
			    strcmp(h->host, g->host) || strcmp(h->home, g->home) ||
			    !emulated_by(list, h->scenario, h->workload))
				continue;
			for (int col = 0; col < b->ncols; col++) {
				int ek = b->cell[col];

				if (ek < 0 || !c->cells[ek].nok)
					continue;
				if (!t)
					t = table_new(10, cols);
				one_pair(c, t, &why, rk, ek, col == 0);
			}
		}
	}
	if (!t)
		return;
	fprintf(out,
		"\nreal kernel beside its emulation (medians of the ok repetitions; a view, not a "
		"verdict)\n");
	table_print(t, out, TABLE_TEXT);
	fprintf(out, "%s", sb_str(&why));
	table_free(t);
	free(why.p);
}
