// SPDX-License-Identifier: MIT
/* report.c - compare: the header and the cells every report format shares. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_run.h"
#include "compare.h"
#include "esc.h"

/* ---- formatting ---- */

void cmp_fmt_val(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

void cmp_fmt_fair(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v);
}

void cmp_fmt_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f%%", 100 * v);
}

void cmp_fmt_change(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "(%+.2f %%)", v);
}

void cmp_fmt_p(char *buf, size_t len, const struct result *r)
{
	if (!r->have_p)
		snprintf(buf, len, "-");
	else if (r->p_adj >= 0.001)
		snprintf(buf, len, "%.3f", r->p_adj);
	else
		snprintf(buf, len, "%.1e", r->p_adj);
}

void cmp_fmt_ci(char *buf, size_t len, const struct result *r)
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
static void hdr(struct header *h, const char *key, char *val)
{
	if (h->n < 32) {
		h->key[h->n] = xstrdup(key);
		h->val[h->n++] = val;
	}
}

static char *run_desc(const struct cmp_run *r)
{
	struct sb b = {0};
	char *arg = esc_text(r->arg); /* the run as the user named it, escaped */

	sb_printf(&b, "%s (%s", r->label, arg);
	free(arg);
	if (r->start)
		sb_printf(&b, ", started %s", r->start);
	sb_printf(&b, ", %d rows)", r->t->nrows);
	return b.p;
}

/* machine_desc - "host (CPU model): 1 socket, 2 threads, ..., ucode 0x1" as far as known. */
static char *machine_desc(const char *host, const char *cpu, const char *state)
{
	return xasprintf("%s%s%s%s%s%s", host ? host : "unknown host", cpu ? " (" : "",
			 cpu ? cpu : "", cpu ? ")" : "", state ? ": " : "", state ? state : "");
}

char *cmp_correction_desc(const struct compare *c)
{
	static const char *const desc[] = {
	    "Holm (step-down, family-wise error rate)",
	    "Benjamini-Hochberg (step-up, false discovery rate)",
	    "none (raw p-values)",
	};

	return xasprintf("%scorrected per family (one metric's comparisons in one table): %s",
			 c->o.correction == CORR_NONE ? "not " : "", desc[c->o.correction]);
}

int cmp_count_comparisons(const struct compare *c,
			  int (*want)(const struct compare *c, const struct result *r))
{
	int n = 0;

	for (int bi = 0; bi < c->nblocks; bi++) {
		const struct block *b = &c->blocks[bi];

		for (int col = 1; col < b->ncols; col++) {
			int any = 0;

			for (int m = 0; m < c->nmetrics && !any; m++) {
				int i = b->res[col * c->nmetrics + m];

				any = i >= 0 && want(c, &c->res[i]);
			}
			n += any;
		}
	}
	return n;
}

static int has_data(const struct compare *c, const struct result *r)
{
	(void)c;
	return r->b.n && r->o.n;
}

/* method_lines - how the values, the p-values, the verdicts and the ci are made. */
static void method_lines(const struct compare *c, struct header *h)
{
	char a[32], cil[32];

	fmt_g(a, sizeof(a), c->o.alpha);
	fmt_g(cil, sizeof(cil), 100 * (1 - c->o.alpha));
	if (c->paired) {
		hdr(h, "values",
		    xstrdup("median over the ok repetitions; cv = stddev / mean; %change = median "
			    "over the clean blocks of the per-block ratio to the base"));
		hdr(h, "rule",
		    xasprintf("significant when the exact two-sided Wilcoxon signed-rank p of the "
			      "per-block log ratios < %s (zeros dropped, midranks for ties; normal "
			      "approximation above %d blocks) and |%%change| >= %g%%; ops_per_s: "
			      "higher is better, *_per_op: lower is better",
			      a, STATS_SR_EXACT_MAX, c->o.min_change));
	} else {
		hdr(h, "values",
		    xstrdup("median over the ok repetitions; cv = stddev / mean; %change = change "
			    "of the medians"));
		hdr(h, "rule",
		    xasprintf("significant when the two-sided Mann-Whitney U p < %s (exact for n "
			      "<= %d per side, else normal approximation with tie correction) and "
			      "|%%change| >= %g%%; ops_per_s: higher is better, *_per_op: lower is "
			      "better",
			      a, STATS_MWU_EXACT_MAX, c->o.min_change));
	}
	hdr(h, "p-values", cmp_correction_desc(c));
	hdr(h, "verdicts",
	    xasprintf("improved/regressed: significant; small: p < alpha but |%%change| below "
		      "the minimum; n.s.: not significant; no verdict: too few %s for p < "
		      "alpha after the correction (the flags say why); n/a: nothing to compare",
		      c->paired ? "clean blocks" : "ok repetitions"));
	if (c->paired)
		hdr(h, "ci",
		    xasprintf(
			"95%% percentile bootstrap over blocks of the median per-block ratio, "
			"as %%change (%d resamples, GSL MT19937 seed %d), every metric",
			STATS_BLOCK_ITERS, CI_SEED));
	else
		hdr(h, "ci",
		    xasprintf("%s%% percentile bootstrap interval of the ratio of medians, as "
			      "%%change (%d resamples, GSL MT19937 seed %d), for ops_per_s%s",
			      cil, CI_ITERS, CI_SEED, c->o.ci ? " and every metric (--ci)" : ""));
}

double cmp_half_width(const struct result *r)
{
	return (r->ci_hi - r->ci_lo) / 2;
}

static int no_verdict(const struct compare *c, const struct result *r)
{
	(void)c;
	return !strcmp(r->verdict, "no verdict");
}

static int has_target(const struct compare *c, const struct result *r)
{
	return r->paired && !isnan(c->runs[0].precision) &&
	       !strcmp(c->metrics[r->metric], results_cols[COL_OPS_PER_S]) && !isnan(r->ci_lo);
}

static int target_met(const struct compare *c, const struct result *r)
{
	return has_target(c, r) && cmp_half_width(r) <= c->runs[0].precision;
}

/* measured - @r has ok rows on both sides, or no verdict (every block left out, say). */
static int measured(const struct compare *c, const struct result *r)
{
	return has_data(c, r) || no_verdict(c, r);
}

/* cannot_reach - no verdict although both sides have ok rows: too few of them. */
static int cannot_reach(const struct compare *c, const struct result *r)
{
	return has_data(c, r) && no_verdict(c, r);
}

/*
 * no_verdict_note - the comparisons without a verdict, out of those measured; independent
 * repetitions add the smallest p their ok rows allow and the -r the largest family needs.
 */
static void no_verdict_note(const struct compare *c, struct header *h)
{
	int total = cmp_count_comparisons(c, measured), nv = cmp_count_comparisons(c, no_verdict);
	int worst = -1, fam = 1;
	char a[32], mp[32];
	struct sb b = {0};

	if (!nv)
		return;
	sb_printf(&b,
		  "%d of %d comparisons have no verdict: too few %s (the reasons in the "
		  "flags)",
		  nv, total, c->paired ? "clean blocks" : "ok repetitions");
	for (int i = 0; !c->paired && i < c->nres; i++) {
		const struct result *r = &c->res[i];

		if (cannot_reach(c, r) && (worst < 0 || r->min_p > c->res[worst].min_p))
			worst = i;
		if (c->o.correction != CORR_NONE && r->family > fam)
			fam = r->family;
	}
	if (worst >= 0) {
		fmt_g(a, sizeof(a), c->o.alpha);
		fmt_g(mp, sizeof(mp), c->res[worst].min_p);
		sb_printf(&b,
			  "; with %zu vs %zu ok repetitions the smallest possible p is %s: run "
			  "with -r %d or more for p < %s (%d comparison%s in the largest family)",
			  c->res[worst].b.n, c->res[worst].o.n, mp,
			  stats_mwu_reps_needed(fam, c->o.alpha), a, fam, fam == 1 ? "" : "s");
	}
	hdr(h, "note", b.p);
}

/*
 * paired_notes - blocks: the precision target reached. It counts the comparisons as the
 * summary's last list and no_verdict_note do (measured: ok rows on both sides, or no
 * verdict); those without a ci (too few clean blocks) are said, never "0 of 0".
 */
static void paired_notes(const struct compare *c, struct header *h)
{
	int total = cmp_count_comparisons(c, measured);
	int noci = total - cmp_count_comparisons(c, has_target);
	char why[96] = "";

	if (isnan(c->runs[0].precision) || !total)
		return;
	if (noci == total)
		snprintf(why, sizeof(why), "; none has a ci: too few clean blocks");
	else if (noci > 0)
		snprintf(why, sizeof(why), "; %d without a ci: too few clean blocks", noci);
	hdr(h, "target",
	    xasprintf("ci half-width <= %g%% (the run's --precision): reached by %d of %d "
		      "comparisons (ops_per_s%s)",
		      c->runs[0].precision, cmp_count_comparisons(c, target_met), total, why));
}

void cmp_count_verdicts(const struct compare *c, struct run_verdicts *v)
{
	v->no_verdict = cmp_count_comparisons(c, no_verdict);
	v->total = cmp_count_comparisons(c, measured);
	v->paired = c->paired;
	v->more = 0;
	for (int i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];
		size_t got = r->paired ? (size_t)r->nclean : r->b.n < r->o.n ? r->b.n : r->o.n;
		double more = (double)r->need / (double)(got ? got : 1);

		if (no_verdict(c, r) && more > v->more)
			v->more = more;
	}
}

void cmp_build_header(struct compare *c, struct header *h)
{
	if (c->one_run) {
		const struct cmp_run *r = &c->runs[0];

		hdr(h, "compare", xstrdup("presets within one run"));
		if (c->nhosts > 1)
			hdr(h, "machine",
			    xasprintf("%d hosts (see host= in each table)", c->nhosts));
		else
			hdr(h, "machine", machine_desc(r->host, r->cpu_model, r->machine));
		hdr(h, "run", run_desc(r));
		hdr(h, "base", xstrdup(c->base_desc));
	} else {
		hdr(h, "compare",
		    c->o.by_kernel ? xasprintf("%d kernels side by side "
					       "(kernel_release#kernel_layout_fp)",
					       c->nsides)
		    : c->o.by_host
			? xasprintf("%d hosts side by side (host#topology_fp)", c->nsides)
			: xasprintf("%d runs, same keys", c->nruns));
		for (int s = 0; s < c->nsides; s++) {
			const struct side *sd = &c->sides[s];
			char *m = machine_desc(sd->host, sd->cpu, sd->state);

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
	if (c->fallback)
		hdr(h, "note", xstrdup(c->fallback));
	for (int i = 0; i < c->nruns; i++)
		if (c->runs[i].incomplete)
			hdr(h, "warning",
			    xasprintf("incomplete run: %s (%s): %s; its %d rows are compared as "
				      "they are",
				      c->runs[i].label, c->runs[i].arg, c->runs[i].incomplete,
				      c->runs[i].t->nrows));
	hdr(h, "design", xstrdup(c->design));
	if (c->nmap > 1)
		hdr(h, "mapping",
		    xasprintf("transfer cost %.0f–%.0f ns over this run: the host moved the vCPUs; "
			      "%s",
			      c->xfer_lo, c->xfer_hi,
			      c->paired ? "comparisons are made within blocks"
					: "the repetitions mix its mappings"));
	method_lines(c, h);
	no_verdict_note(c, h);
	if (c->paired)
		paired_notes(c, h);
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

char *cmp_group_title(const struct compare *c, const struct group *g, const char *sep)
{
	struct sb b = {0};

	sb_printf(&b, "%s%sworkload=%s%splacement=%s%sthreads=%s", g->scenario, sep, g->workload,
		  sep, g->placement, sep, g->threads);
	if (c->has_home)
		sb_printf(&b, "%shome=%s", sep, g->home);
	if (c->one_run && c->nhosts > 1)
		sb_printf(&b, "%shost=%s", sep, g->host);
	if (g->sweep[0])
		sb_printf(&b, "%s%s", sep, g->sweep);
	return b.p;
}

const char *cmp_testcase_label(const struct compare *c, const struct block *b, int col, char *buf,
			       size_t len)
{
	if (c->one_run)
		return b->label[col];
	if (c->nsides > 2)
		snprintf(buf, len, "%s (%s)", c->entries[b->entry].label, b->label[col]);
	else
		snprintf(buf, len, "%s", c->entries[b->entry].label);
	return buf;
}

char *cmp_base_note(const struct compare *c, const struct block *b)
{
	if (c->one_run)
		return xasprintf("base: %s", b->label[0]);
	if (c->nsides == 2)
		return xasprintf("base: %s, with-patch: %s", b->label[0], b->label[1]);
	return xasprintf("base: %s", b->label[0]);
}
void cmp_fmt_unmatched(const struct compare *c, FILE *out, int markdown)
{
	if (!c->num)
		return;
	fprintf(out, markdown ? "\n### Not compared\n\n" : "\nnot compared:\n");
	for (int i = 0; i < c->num; i++) {
		const struct unmatched *u = &c->um[i];
		char *k = cmp_key_text(c, &c->groups[u->group],
				       u->entry >= 0 ? &c->entries[u->entry] : NULL);

		fprintf(out, markdown ? "- %s: %s\n" : "  %s: %s\n", u->what, k);
		free(k);
	}
}
