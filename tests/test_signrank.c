// SPDX-License-Identifier: MIT
/*
 * test_signrank.c - the exact Wilcoxon signed-rank test against p-values computed by hand
 * for n = 5, 6 and 8 (with ties and zeros), its normal approximation, and the block
 * bootstrap of stats_block_change on fixed seeds.
 *
 * The hand computation: under the null hypothesis each of the n ranks is positive or negative
 * with probability 1/2, so W+ (the rank sum of the positive differences) is the sum of a
 * random subset of the ranks, each of the 2^n subsets equally likely. The two-sided p is the
 * share of subsets whose sum lies at least as far from the mean n (n + 1) / 4 as the observed
 * W+; by symmetry, twice the share at or below min(W+, W-).
 */
#include <math.h>
#include <stdio.h>

#include "stats.h"
#include "check.h"

static void near(const char *what, double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail("%s: got %.17g, want %.17g (tolerance %g)", what, got, want, tol);
}

static struct stats_signrank sr(const double *d, size_t n)
{
	struct stats_signrank r;

	if (stats_signrank(d, n, &r))
		fail("stats_signrank(n %zu) failed", n);
	return r;
}

/*
 * n = 5. d = {+1, -2, +3, +4, +5}: the ranks are the values, W+ = 1 + 3 + 4 + 5 = 13,
 * W- = 2. Subsets of {1..5} with sum <= 2: {}, {1}, {2}: 3 of 32. p = 2 * 3 / 32 = 0.1875.
 * All five positive: W- = 0, only {} has sum 0: p = 2 / 32 = 0.0625 (the smallest at n = 5).
 */
static void test_n5(void)
{
	double d[] = {1, -2, 3, 4, 5}, pos[] = {0.5, 0.1, 0.3, 0.2, 0.4};
	struct stats_signrank r = sr(d, 5);

	near("n=5 W+", r.w_plus, 13, 0);
	near("n=5 p", r.p, 6.0 / 32, 1e-15);
	CHECK(r.exact && !r.ties && r.n == 5 && r.nzero == 0, "n=5: exact %d ties %d n %d", r.exact,
	      r.ties, r.n);
	near("n=5 all positive p", sr(pos, 5).p, 2.0 / 32, 1e-15);
	near("min p at 5", stats_signrank_min_p(5), 0.0625, 0);
}

/*
 * n = 6, distinct. d = {0.10, 0.20, -0.05, 0.30, 0.25, 0.15}: by |d| the ranks are
 * 0.05 -> 1 (negative), 0.10 -> 2, 0.15 -> 3, 0.20 -> 4, 0.25 -> 5, 0.30 -> 6. W- = 1,
 * W+ = 20. Subsets of {1..6} with sum <= 1: {}, {1}: 2 of 64. p = 2 * 2 / 64 = 0.0625.
 *
 * n = 6, ties. d = {1, -1, 2, -3, 3, 3}: |d| = 1, 1, 2, 3, 3, 3 get the midranks 1.5, 1.5,
 * 3, 5, 5, 5; the negative ones are one 1.5 and one 5: W- = 6.5, W+ = 14.5, mean 10.5.
 * Doubled ranks {3, 3, 6, 10, 10, 10} (total 42, mean 21), doubled W- = 13, distance 8.
 * Subsets with doubled sum <= 13: {} 0, {3} 3 (twice), {3,3} 6, {6} 6, {3,6} 9 (twice),
 * {3,3,6} 12, {10} 10 (three times), {3,10} 13 (six times: 2 threes x 3 tens): 1 + 2 + 1 + 1
 * + 2 + 1 + 3 + 6 = 17 of 64. By symmetry 17 more have doubled sum >= 29. p = 34 / 64 =
 * 0.53125.
 */
static void test_n6(void)
{
	double d[] = {0.10, 0.20, -0.05, 0.30, 0.25, 0.15}, t[] = {1, -1, 2, -3, 3, 3};
	struct stats_signrank r = sr(d, 6), rt = sr(t, 6);

	near("n=6 W+", r.w_plus, 20, 0);
	near("n=6 p", r.p, 4.0 / 64, 1e-15);
	near("n=6 ties W+", rt.w_plus, 14.5, 0);
	near("n=6 ties p", rt.p, 34.0 / 64, 1e-15);
	CHECK(rt.ties && rt.exact, "n=6 ties: ties %d exact %d", rt.ties, rt.exact);
	near("min p at 6", stats_signrank_min_p(6), 0.03125, 0);
}

/*
 * n = 8, with a zero. d = {0, +0.8, +0.7, -0.1, +0.6, +0.5, -0.2, +0.4, +0.3}: the 0 is
 * dropped (nzero 1), leaving 8. Ranks by |d|: 0.1 -> 1 and 0.2 -> 2 (negative), 0.3..0.8 ->
 * 3..8. W- = 3, W+ = 33. Subsets of {1..8} with sum <= 3: {}, {1}, {2}, {3}, {1,2}: 5 of
 * 256. p = 2 * 5 / 256 = 0.0390625.
 * All eight of one sign: p = 2 / 256 = 0.0078125; Holm over four comparisons multiplies the
 * smallest by 4: 0.03125 < 0.05, which is why 8 blocks are the fewest for four comparisons.
 */
static void test_n8(void)
{
	double d[] = {0, 0.8, 0.7, -0.1, 0.6, 0.5, -0.2, 0.4, 0.3};
	double neg[] = {-1, -2, -3, -4, -5, -6, -7, -8};
	struct stats_signrank r = sr(d, 9);

	CHECK(r.n == 8 && r.nzero == 1, "n=8: n %d nzero %d", r.n, r.nzero);
	near("n=8 W+", r.w_plus, 33, 0);
	near("n=8 p", r.p, 10.0 / 256, 1e-15);
	near("n=8 all negative p", sr(neg, 8).p, 2.0 / 256, 1e-15);
	near("min p at 8", stats_signrank_min_p(8), 0.0078125, 0);
}

/*
 * Edges: nothing, all zeros (p 1), a non-finite value (-1). Above STATS_SR_EXACT_MAX the
 * normal approximation, by hand: d = +1, -2, +3, ..., +201 (odd ranks positive), W+ = 101^2
 * = 10201, mean 201 * 202 / 4 = 10150.5, variance 201 * 202 * 403 / 24 = 681775.25, p =
 * erfc((50.5 - 0.5) / sqrt(681775.25) / sqrt(2)) = 0.95171368. At n = 200 (exact) the same
 * pattern has W+ = 10000, mean 10050, and the normal value 0.95183831 that the exact p must
 * approach (within 0.002).
 */
static void test_edges(void)
{
	double z[] = {0, 0, 0}, bad[] = {1, NAN}, big[201];
	struct stats_signrank r;

	r = sr(z, 0);
	CHECK(r.n == 0 && r.p == 1, "n=0: n %d p %g", r.n, r.p);
	r = sr(z, 3);
	CHECK(r.n == 0 && r.nzero == 3 && r.p == 1, "zeros: n %d nzero %d p %g", r.n, r.nzero, r.p);
	CHECK(stats_signrank(bad, 2, &r) == -1, "a NaN difference is refused");
	for (int i = 0; i < 201; i++)
		big[i] = (i % 2 ? -1 : 1) * (i + 1);
	struct stats_signrank ex = sr(big, STATS_SR_EXACT_MAX);
	struct stats_signrank ap = sr(big, STATS_SR_EXACT_MAX + 1);

	CHECK(ex.exact && !ap.exact, "exact %d approx %d", ex.exact, ap.exact);
	near("normal approximation at 201", ap.p, 0.9517136813375652, 1e-12);
	near("exact at 200 against its normal value", ex.p, 0.9518383137907985, 0.002);
}

/*
 * The block bootstrap. Five blocks with the ratios {1.10, 1.20, 0.95, 1.30, 1.25}: pct is the
 * median ratio 1.20 -> +20%. A resample's median is the smallest ratio when 3 or more of its 5
 * draws are the smallest block: P = sum_{k>=3} C(5,k) 0.2^k 0.8^(5-k) = 0.05792 > 0.025, so
 * the 2.5% quantile of 10000 resample medians is the smallest ratio (-5%) on any seed, and
 * likewise the 97.5% quantile the largest (+30%). The log ratios have the signs - + + + + and
 * the negative one is the smallest in magnitude (rank 1): W- = 1, p = 2 * 2 / 32 = 0.125.
 * Eight blocks: the ratios sorted are 135/105, 130/98, 120/90, 140/100, 160/110, 150/100,
 * 150/95, 170/100; pct is the mean of the middle two, (1.4 + 1.454545) / 2 - 1 = +42.727%.
 * On seed 1 (GSL's MT19937: the same numbers on every machine with the same GSL) the
 * interval is [130/98 - 1, 150/95 - 1] = [+32.653%, +57.895%]: resample medians whose two
 * middle draws are the same block. All eight ratios are above 1: p = 2 / 256.
 */
static void test_block_change(void)
{
	double b5[] = {100, 100, 200, 100, 80}, o5[] = {110, 120, 190, 130, 100};
	double b8[] = {100, 90, 110, 100, 95, 105, 100, 98};
	double o8[] = {150, 120, 160, 140, 150, 135, 170, 130};
	struct block_change c, c2;

	CHECK(stats_block_change(b5, o5, 5, 1, &c) == 0, "block change of 5 failed");
	near("5 blocks pct", c.pct, 20, 1e-9);
	near("5 blocks lo", c.lo, -5, 1e-9);
	near("5 blocks hi", c.hi, 30, 1e-9);
	near("5 blocks p", c.p, 0.125, 1e-15);
	CHECK(c.n == 5, "5 blocks: n %d", c.n);

	CHECK(stats_block_change(b8, o8, 8, 1, &c) == 0, "block change of 8 failed");
	stats_block_change(b8, o8, 8, 1, &c2);
	CHECK(c.lo == c2.lo && c.hi == c2.hi, "not deterministic: [%g, %g] then [%g, %g]", c.lo,
	      c.hi, c2.lo, c2.hi);
	near("8 blocks p (all positive)", c.p, 2.0 / 256, 1e-15);
	near("8 blocks pct", c.pct, (1.4 + 160.0 / 110) / 2 * 100 - 100, 1e-9);
	near("8 blocks lo, seed 1", c.lo, 130.0 / 98 * 100 - 100, 1e-9);
	near("8 blocks hi, seed 1", c.hi, 150.0 / 95 * 100 - 100, 1e-9);

	CHECK(stats_block_change(b8, o8, 1, 1, &c) == -1 && isnan(c.pct), "n=1 gives -1 and NaN");
	b8[3] = 0;
	CHECK(stats_block_change(b8, o8, 8, 1, &c) == -1, "a zero base is refused");
}

int main(void)
{
	test_n5();
	test_n6();
	test_n8();
	test_edges();
	test_block_change();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("test_signrank: ok\n");
	return 0;
}
