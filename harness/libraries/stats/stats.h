/* SPDX-License-Identifier: MIT */
/*
 * stats.h - summary statistics over repetitions, the Mann-Whitney U test and a bootstrap
 * confidence interval of a ratio of medians (independent repetitions), the Wilcoxon
 * signed-rank test and the block bootstrap (paired repetitions: blocks), for `pcbench
 * compare` and measure's precision stop rule.
 */
#ifndef PCBENCH_STATS_H
#define PCBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/* stats_median - median of @x[0..@n) (sorts a copy); NaN when @n is 0. */
double stats_median(const double *x, size_t n);
/* stats_mean - arithmetic mean; NaN when @n is 0. */
double stats_mean(const double *x, size_t n);
/* stats_stddev - sample standard deviation (n - 1); 0 when @n < 2. */
double stats_stddev(const double *x, size_t n);
/* stats_cv - coefficient of variation, stddev / mean; NaN when @n is 0 or the mean is 0. */
double stats_cv(const double *x, size_t n);

/*
 * The Mann-Whitney U test (Wilcoxon rank-sum test) of two independent samples.
 *
 * U of @x is the number of pairs (x_i, y_j) with x_i > y_j, plus half the number of ties;
 * U of @y is nx * ny - U. Ties get midranks.
 *
 * Exact: the permutation distribution of the rank sum of @x over all C(nx + ny, nx)
 * assignments of the pooled midranks to @x, counted by a subset-sum recurrence over doubled
 * ranks (integers, so comparisons are exact). Without ties this is the classical
 * distribution of U; with ties it is the exact conditional distribution given the ties.
 * The two-sided p is P(|U - nx*ny/2| >= |u - nx*ny/2|), the "at least as far from the mean
 * in either direction" rule; without ties the distribution is symmetric and this is twice
 * the smaller one-sided p.
 *
 * Normal approximation: mean nx*ny/2, variance nx*ny/12 * ((N + 1) - sum(t^3 - t) / (N (N - 1)))
 * over tie groups of size t (N = nx + ny), with a continuity correction of 1/2 towards the
 * mean.
 *
 * STATS_MWU_AUTO uses the exact distribution when nx and ny are both <= STATS_MWU_EXACT_MAX,
 * and the normal approximation otherwise.
 */
#define STATS_MWU_EXACT_MAX 10
/* The largest pooled sample the exact distribution is computed for (memory ~ 8 N^3 bytes). */
#define STATS_MWU_EXACT_MAX_N 100

enum stats_mwu_method { STATS_MWU_AUTO, STATS_MWU_EXACT, STATS_MWU_NORMAL };

struct stats_mwu {
	double u;	  /* U of x */
	double mean;	  /* of U under the null hypothesis: nx * ny / 2 */
	double sd;	  /* of U under the null hypothesis, tie-corrected */
	double z;	  /* (u - mean) / sd with the continuity correction; 0 when sd is 0 */
	double p;	  /* two-sided p-value */
	double p_less;	  /* one-sided P(U <= u): x tends to be smaller than y */
	double p_greater; /* one-sided P(U >= u): x tends to be larger than y */
	int exact;	  /* 1: exact distribution, 0: normal approximation */
	int ties;	  /* 1: the pooled sample has ties */
};

/*
 * stats_mwu - test @x[0..@nx) against @y[0..@ny) (NaNs are not allowed). Returns 0, or -1
 * when a sample is empty or the exact distribution is requested above
 * STATS_MWU_EXACT_MAX_N pooled values.
 */
int stats_mwu(const double *x, size_t nx, const double *y, size_t ny, enum stats_mwu_method m,
	      struct stats_mwu *r);

/*
 * stats_mwu_min_p - the smallest two-sided p STATS_MWU_AUTO can give for samples of @nx and
 * @ny values (complete separation, no ties): 2 / C(nx + ny, nx) when exact. With 3 and 3
 * it is 0.1, so nothing can be significant at 0.05. 1 when a sample is empty.
 */
double stats_mwu_min_p(size_t nx, size_t ny);

/*
 * stats_mwu_reps_needed - the fewest values a side (both sides alike) whose smallest p
 * (stats_mwu_min_p), times @mult (the Holm factor: the comparisons of one family), is below
 * @alpha: 4 for one comparison at 0.05 (2/70 = 0.029), 5 for two to six (2/252 = 0.0079). At
 * most 1000.
 */
int stats_mwu_reps_needed(int mult, double alpha);

/*
 * stats_bootstrap_ratio_ci - percentile bootstrap confidence interval of
 * median(@other) / median(@base): @iters times, resample each sample with replacement (its
 * own size) and take the ratio of the medians; the interval is the (1 - @level) / 2 and
 * (1 + @level) / 2 quantiles of those ratios (linear interpolation). A resample's median is
 * drawn directly from the distribution of the middle order statistics of n draws (Beta
 * variates, see stats.c), O(1) instead of O(n) per resample. The generator is GSL's MT19937
 * seeded with @seed, so the same inputs give the same interval on every machine (with the
 * same GSL). Resamples whose base median is 0 are dropped. Returns 0, or -1 when a sample is
 * empty or no resample has a non-zero base median.
 */
int stats_bootstrap_ratio_ci(const double *base, size_t nb, const double *other, size_t no,
			     double level, int iters, uint64_t seed, double *lo, double *hi);

/*
 * stats_bootstrap_medians - @out[0..@iters): the medians of @iters resamples of @x[0..@n)
 * with replacement, drawn as stats_bootstrap_ratio_ci draws them (its bootstrap distribution
 * of the median, for checking the sampler). Nothing when @n is 0.
 */
void stats_bootstrap_medians(const double *x, size_t n, int iters, uint64_t seed, double *out);

/*
 * The Wilcoxon signed-rank test of paired differences @d[0..@n) (for blocks: the per-block
 * log ratios log(other / base)); the null hypothesis is a distribution symmetric about 0.
 *
 * Zeros: a difference that is exactly 0 is dropped before ranking (Wilcoxon's own rule, R's
 * wilcox.test and SciPy's zero_method "wilcox"); n is the count of the others.
 * Ties: equal |d| get their midrank. W+ is the sum of the ranks of the positive differences.
 * Exact: under the null hypothesis each rank carries either sign with probability 1/2,
 * independently, so the distribution of W+ is that of the sum of a random subset of the
 * (mid)ranks; it is enumerated by a recurrence over doubled ranks (integers, one rank at a
 * time: in the subset or not), so with ties it is the exact conditional distribution given
 * the ties. The two-sided p is P(|W+ - mean| >= |w - mean|), mean n (n + 1) / 4; the
 * distribution is symmetric, so this is twice the smaller one-sided p (at most 1).
 * Normal approximation (n > STATS_SR_EXACT_MAX): variance n (n + 1)(2n + 1) / 24 minus
 * sum(t^3 - t) / 48 over tie groups of size t, continuity correction 1/2.
 */
#define STATS_SR_EXACT_MAX 200

struct stats_signrank {
	double w_plus; /* sum of the ranks of the positive differences */
	double mean;   /* of W+ under the null hypothesis: n (n + 1) / 4 */
	double p;      /* two-sided p-value; 1 when n is 0 */
	int n;	       /* differences ranked (the non-zero ones) */
	int nzero;     /* differences dropped because they were 0 */
	int exact;     /* 1: exact distribution, 0: normal approximation */
	int ties;      /* 1: some |d| are equal */
};

/* stats_signrank - test @d[0..@n) (no NaNs). Returns 0, or -1 when a value is not finite. */
int stats_signrank(const double *d, size_t n, struct stats_signrank *r);

/*
 * stats_signrank_min_p - the smallest two-sided p of @n non-zero differences without ties:
 * 2 / 2^n (all of one sign), 1 when @n is 0. 0.0625 at 5, 0.03125 at 6, 0.0078125 at 8: 6
 * blocks can reach p < 0.05 for one comparison, 8 for four after Holm (4 * 2/256 = 0.031).
 */
double stats_signrank_min_p(size_t n);

/*
 * stats_signrank_blocks_needed - the fewest blocks (non-zero differences) whose smallest p
 * (stats_signrank_min_p), times @mult (the Holm factor: the comparisons of one family), is
 * below @alpha: 6 for one comparison, 8 for four at 0.05. At most 64.
 */
int stats_signrank_blocks_needed(int mult, double alpha);

/* The change of one preset against the base over blocks (stats_block_change). */
struct block_change {
	double pct;    /* median over blocks of (other / base - 1) * 100 */
	double lo, hi; /* the 95% bootstrap interval of pct over blocks */
	double p;      /* exact two-sided signed-rank p of the per-block log ratios */
	int n;	       /* blocks */
};

#define STATS_BLOCK_ITERS 10000 /* bootstrap resamples */
#define STATS_BLOCK_LEVEL 0.95

/*
 * stats_block_change - @base[i], @other[i]: the ops_per_s of the base preset and of the other
 * preset in block i of @n. The bootstrap resamples the n blocks with replacement
 * STATS_BLOCK_ITERS times (GSL's MT19937 seeded with @seed) and takes each resample's median
 * per-block ratio, drawn directly as stats_bootstrap_ratio_ci draws a median; the interval is
 * the 2.5% and 97.5% quantiles of those medians, as percent changes. The blocks are the unit:
 * a block's two values stay together, so what the blocks share (the host mapping of their
 * time) cancels in the ratio. Returns 0; -1 (and NaNs) when @n < 2 or a value is not finite
 * and positive.
 */
int stats_block_change(const double *base, const double *other, int n, uint64_t seed,
		       struct block_change *out);

#endif
