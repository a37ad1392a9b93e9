// SPDX-License-Identifier: MIT
/*
 * run_plan.c - the plan of a run's windows (run.h), made before anything is measured: the
 * block design's tables and window for the budget (run_plan_blocks), --matrix's pairs and
 * repetitions within the budget (run_plan_matrix), and the warning when -r or --max-blocks
 * is below what a verdict needs (run_warn_too_few).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "stats.h"
#include "util.h"

/* same_table - @a and @b are presets of one table (compare's group: all but the preset). */
static int same_table(const struct family *a, const struct family *b)
{
	return a->sc == b->sc && a->wl == b->wl && a->threads == b->threads &&
	       !strcmp(a->placement, b->placement) && !strcmp(a->home_spec, b->home_spec);
}

/* preset_rank - @f's preset's place in its scenario: compare's base is the lowest. */
static long preset_rank(const struct family *f)
{
	return (long)(f->preset - f->sc->presets);
}

/*
 * run_plan_blocks - the block design: the tables of the run (families that can run, grouped
 * as compare groups them, the base preset first), the window for the budget (unless --time
 * was given) and the windows the budget plans at most.
 */
void run_plan_blocks(struct measure_run *run)
{
	struct options *o = &run->opt;
	int *idx = xcalloc((size_t)run->nfams + 1, sizeof(int));
	char *used = xcalloc((size_t)run->nfams + 1, 1);

	run->min_windows = 0;
	for (int i = 0; i < run->nfams; i++) {
		struct bl_table *t;
		int n = 0;

		if (used[i] || run->fams[i].skip[0])
			continue;
		for (int j = i; j < run->nfams; j++)
			if (!used[j] && !run->fams[j].skip[0] &&
			    same_table(&run->fams[i], &run->fams[j])) {
				int p = n++;

				/* insertion by preset rank: the base first */
				while (p > 0 && preset_rank(&run->fams[idx[p - 1]]) >
						    preset_rank(&run->fams[j])) {
					idx[p] = idx[p - 1];
					p--;
				}
				idx[p] = j;
				used[j] = 1;
			}
		run->tables = xrealloc(run->tables, (size_t)(run->ntables + 1) * sizeof(*t));
		t = &run->tables[run->ntables++];
		blocks_table_init(t, idx, n);
		run->min_windows += n * (o->reps_set ? o->repetitions : t->need);
	}
	if (!o->time_set)
		o->time_s = blocks_window(o->budget_s, run->min_windows);
	run->planned_windows = (int)(o->budget_s / blocks_window_cost(o->time_s));
	free(idx);
	free(used);
}

/*
 * run_plan_matrix - --matrix within --budget: its pairs x repetitions windows, each costing
 * blocks_window_cost (the window, its warm-up, the set-up), fit the budget (90 s unless
 * given). Without --time the window is chosen for it (at most the default 0.2 s, at least
 * BLOCKS_WINDOW_MIN); without -r the repetitions are cut to what fits (at least 1). A plan
 * that still does not fit is refused (exit 2) with the budget it needs. -t is not used:
 * every pair runs 2 threads, the diagonal 1; a -t given is named as unused.
 */
void run_plan_matrix(struct measure_run *run)
{
	struct options *o = &run->opt;
	char b[32];
	double need;

	if (o->threads_set)
		warn_msg("--matrix: -t %s is not used: every pair of PUs is measured with 2 "
			 "threads, the diagonal with 1",
			 o->sel.threads);
	if (!o->time_set) {
		/* blocks_window_cost(w) = 1.1 w + overhead: the longest whole-ms w that fits */
		double w =
		    (o->budget_s / ((double)run->nfams * o->repetitions) - BLOCKS_WINDOW_OVERHEAD) /
		    1.1;

		w = floor(w * 1000) / 1000;
		o->time_s = w > BLOCKS_WINDOW_MAX   ? BLOCKS_WINDOW_MAX
			    : w < BLOCKS_WINDOW_MIN ? BLOCKS_WINDOW_MIN
						    : w;
	}
	while (!o->reps_set && o->repetitions > 1 &&
	       (double)run->nfams * o->repetitions * blocks_window_cost(o->time_s) > o->budget_s)
		o->repetitions--;
	need = (double)run->nfams * o->repetitions * blocks_window_cost(o->time_s);
	snprintf(b, sizeof(b), "%g", o->budget_s);
	if (need > o->budget_s)
		usage_error("--budget", b,
			    "the matrix's %d pairs x %d repetition%s of %g s windows need about "
			    "%.0f s: give --budget %.0f, fewer PUs (--matrix-cpus)%s",
			    run->nfams, o->repetitions, o->repetitions == 1 ? "" : "s", o->time_s,
			    ceil(need), ceil(need), o->time_set ? " or a shorter --time" : "");
	snprintf(run->matrix_plan, sizeof(run->matrix_plan),
		 "%d pairs x %d repetition%s of %g s windows%s: about %.0f s of the budget of "
		 "%g s",
		 run->nfams, o->repetitions, o->repetitions == 1 ? "" : "s", o->time_s,
		 o->time_set ? "" : " (chosen for the budget)", ceil(need), o->budget_s);
	if (!o->dry_run)
		warn_msg("matrix: %s", run->matrix_plan);
}

/*
 * run_warn_too_few - at the start: when -r N (blocks, or --design independent's repetitions) or
 * --max-blocks N is below the fewest a verdict needs for the run's largest table (blocks: 6
 * for one comparison, 8 for four, after Holm; independent: ok repetitions a side), a
 * warning with the number needed. Not an error: the run measures, and says no verdict.
 */
void run_warn_too_few(const struct measure_run *run)
{
	const struct options *o = &run->opt;
	int most = 0, need;

	for (int i = 0; i < run->nfams; i++) {
		int n = 0;

		for (int j = 0; j < run->nfams; j++)
			n += !run->fams[i].skip[0] && !run->fams[j].skip[0] &&
			     same_table(&run->fams[i], &run->fams[j]);
		most = n - 1 > most ? n - 1 : most;
	}
	if (!most || o->matrix)
		return;
	need = o->independent ? stats_mwu_reps_needed(most, BLOCKS_ALPHA)
			      : stats_signrank_blocks_needed(most, BLOCKS_ALPHA);
	if (o->independent ? o->repetitions < need
			   : (o->reps_set ? o->repetitions : o->max_blocks) < need)
		warn_msg("warning: %s %d is below the %d %s a verdict needs for a "
			 "table of %d comparison%s (p < %g after Holm): such comparisons will "
			 "say no verdict",
			 o->independent || o->reps_set ? "-r" : "--max-blocks",
			 o->independent || o->reps_set ? o->repetitions : o->max_blocks, need,
			 o->independent ? "ok repetitions a side" : "clean blocks", most,
			 most == 1 ? "" : "s", BLOCKS_ALPHA);
}
