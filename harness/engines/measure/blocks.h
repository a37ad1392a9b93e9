/* SPDX-License-Identifier: MIT */
/*
 * blocks.h - the block design of a measure run (docs/measuring.md#blocks): the presets of
 * one table (same scenario, workload, placement, threads and memory home) are measured in
 * blocks, each block measuring every preset of the table once, back to back, in a fresh
 * random order. A table gets blocks until each of its comparisons (a preset against the
 * base, its scenario's first preset) has enough clean blocks for a verdict and a 95% ci
 * half-width within the precision target, or the budget is spent. What is computed here
 * decides only when to stop; the verdicts are compare's (compare/blocks.c), from
 * the rows written.
 */
#ifndef PCBENCH_BLOCKS_H
#define PCBENCH_BLOCKS_H

#include <stdint.h>

#define BLOCKS_ALPHA 0.05	   /* compare's default alpha: the minimum block count's */
#define BLOCKS_DEFAULT_PRECISION 5 /* --precision: ci half-width target, in %change points */
#define BLOCKS_DEFAULT_BUDGET 90   /* --budget: seconds of measuring */
#define BLOCKS_DEFAULT_MAX 50	   /* --max-blocks */
#define BLOCKS_WINDOW_MAX 0.2	   /* the window chosen for the budget: at most this... */
#define BLOCKS_WINDOW_MIN 0.02	   /* ...and at least this (s) */
/* s per window besides warm-up and window (set-up, threads) */
#define BLOCKS_WINDOW_OVERHEAD 0.02
#define BLOCKS_SEED 1 /* the bootstrap's seed, as compare's (CI_SEED) */

/* One table: its presets' families and what their blocks gave. */
struct bl_table {
	int *fam;     /* indexes of the run's families; fam[0] is the base */
	int n;	      /* presets */
	int need;     /* clean blocks needed: the fewest with which p < 0.05 after Holm */
	int blocks;   /* blocks measured */
	int cap;      /* of each val[k] */
	double **val; /* [k][b]: ops/s of preset k in block b if its window was clean, else NaN */
	double *xlo, *xhi; /* [b]: the lowest and highest transfer probe of block b's windows */
	int nclean;	   /* the fewest clean blocks of a comparison (its base alone: its own) */
	int met;	   /* comparisons whose ci half-width is within the target */
	double worst;	   /* the largest ci half-width of its comparisons (NaN: not yet known) */
	int done;	   /* no more blocks: target reached, block count reached, or max blocks */
};

/* blocks_table_init - table @t of @n families (@fam, the base first), all unmeasured. */
void blocks_table_init(struct bl_table *t, const int *fam, int n);
void blocks_table_free(struct bl_table *t);

/* blocks_record - preset @k's window in block @b (0-based) of @t: @ops_per_s, or NaN when
 * the window was not clean (disturbed, failed), and its transfer probes @xfer_ns (before and
 * after; NaN when not taken; NULL: not counted, a window disturbed by its own remap, which
 * leaves out only its comparisons). A block whose probes span more than
 * RESULTS_REMAP_RATIO was measured on two host mappings: it is not clean (blocks_judge). */
void blocks_record(struct bl_table *t, int k, int b, double ops_per_s, const double xfer_ns[2]);

/*
 * blocks_judge - after a block of @t: for each comparison its clean blocks (those in which
 * both its windows, the base's and its preset's, were clean and the block's windows were
 * measured on one host mapping: as compare counts them) and the ci half-width of the median
 * per-block ratio (stats_block_change, the bootstrap compare reports); @t->done when every
 * comparison has @t->need clean blocks and a half-width of at most @precision (%), when
 * @fixed blocks (> 0: -r) were measured, or at @max blocks.
 */
void blocks_judge(struct bl_table *t, double precision, int fixed, int max);

/*
 * blocks_window - the window length (s) for a budget of @budget s and @windows_min windows
 * at least (every table's minimum blocks): half the budget for those windows (the rest for
 * the blocks the precision target adds), each costing 1.1 windows (its warm-up) plus
 * BLOCKS_WINDOW_OVERHEAD, within [BLOCKS_WINDOW_MIN, BLOCKS_WINDOW_MAX].
 */
double blocks_window(double budget, int windows_min);

/* blocks_window_cost - the planned seconds of one window of @window_s (warm-up included). */
double blocks_window_cost(double window_s);

/* blocks_shuffle - @order[0..@n) in a fresh random order (Fisher-Yates, from @state). */
void blocks_shuffle(int *order, int n, uint64_t *state);

#endif
