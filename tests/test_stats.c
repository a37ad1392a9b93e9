// SPDX-License-Identifier: MIT
/*
 * test_stats.c - summary statistics, the Mann-Whitney U test against published examples
 * (exact and normal, with and without ties), the normal approximation against the exact
 * distribution at n = 10, the smallest reachable p, the bootstrap interval, and the
 * bootstrap's direct draw of a resample median against the distribution of plain resampling
 * (every resample enumerated for tiny n; binomial tails for n = 101 and n = 100).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "stats.h"
#include "check.h"

/* near - |got - want| <= tol, else a failure naming @what. */
static void near(const char *what, double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail("%s: got %.6g, want %.6g (tolerance %g)", what, got, want, tol);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct stats_mwu mwu(const double *x, size_t nx, const double *y, size_t ny,
			    enum stats_mwu_method m)
{
	struct stats_mwu r;

	if (stats_mwu(x, nx, y, ny, m, &r))
		fail("stats_mwu(%zu, %zu, method %d) failed", nx, ny, (int)m);
	return r;
}

static void test_summary(void)
{
	double x[] = {4, 1, 3, 2}, one[] = {7};

	near("median of 4", stats_median(x, 4), 2.5, 0);
	near("median of 3", stats_median(x, 3), 3, 0);
	near("mean", stats_mean(x, 4), 2.5, 0);
	near("stddev", stats_stddev(x, 4), sqrt(5.0 / 3), 1e-12);
	near("cv", stats_cv(x, 4), sqrt(5.0 / 3) / 2.5, 1e-12);
	near("stddev of one", stats_stddev(one, 1), 0, 0);
	if (!isnan(stats_median(x, 0)) || !isnan(stats_cv(x, 0)))
		fail("median/cv of nothing is not NaN");
}

/*
 * SciPy's mannwhitneyu documentation, after the Boston University SPH tutorial "Mann
 * Whitney U Test (Wilcoxon Rank Sum Test)": ages at diagnosis of type II diabetes, 5 males
 * and 4 females, no ties. U_males = 17, U_females = 3, exact two-sided p = 0.11 (14/126);
 * SciPy's asymptotic (continuity-corrected) p = 0.11134688653314041.
 */
static void test_diabetes(void)
{
	double males[] = {19, 22, 16, 29, 24}, females[] = {20, 11, 17, 12};
	struct stats_mwu r = mwu(males, 5, females, 4, STATS_MWU_AUTO);

	near("diabetes U_males", r.u, 17, 0);
	near("diabetes exact p", r.p, 14.0 / 126, 1e-12);
	if (!r.exact || r.ties)
		fail("diabetes: AUTO at 5/4 should be exact without ties");
	r = mwu(females, 4, males, 5, STATS_MWU_AUTO);
	near("diabetes U_females", r.u, 3, 0);
	near("diabetes exact p (swapped)", r.p, 14.0 / 126, 1e-12);
	r = mwu(males, 5, females, 4, STATS_MWU_NORMAL);
	near("diabetes normal p", r.p, 0.11134688653314041, 1e-9);
}

/*
 * NAG Library, G08AJF/G08AKF example programs (Mark 26): group sizes 16 and 23.
 * Untied data (G08AJF): U = 86, normal statistic -2.7838, lower tail 0.0027 (normal) and
 * 0.0022 (exact). Tied data (G08AHF/G08AKF): U = 86, normal statistic -2.8039, lower tail
 * 0.0025 (normal, tie-corrected) and 0.0020 (exact, conditional on the ties).
 * Published to 4 decimals, hence the 5e-5 tolerance.
 */
static void test_nag(void)
{
	double x1[] = {13.0, 5.8, 11.7, 6.5, 12.3, 6.7, 9.2, 6.9,
		       10.0, 7.3, 16.0, 7.0, 10.5, 8.5, 9.0, 7.5};
	double y1[] = {17.0, 6.2,  10.1, 8.0,  15.3, 8.2,  15.0, 9.6,  14.9, 10.4, 14.2, 9.8,
		       13.8, 11.0, 14.0, 11.1, 12.9, 11.6, 12.8, 12.0, 13.1, 12.4, 11.9};
	double x2[] = {13, 6, 12, 7, 12, 7, 10, 7, 10, 7, 16, 7, 10, 8, 9, 8};
	double y2[] = {17, 6,  10, 8,  15, 8,  15, 10, 15, 10, 14, 10,
		       14, 11, 14, 11, 13, 12, 13, 12, 13, 12, 12};
	struct stats_mwu r;

	r = mwu(x1, N(x1), y1, N(y1), STATS_MWU_AUTO);
	near("NAG untied U", r.u, 86, 0);
	near("NAG untied z", r.z, -2.7838, 5e-5);
	near("NAG untied normal lower tail", r.p_less, 0.0027, 5e-5);
	if (r.exact || r.ties)
		fail("NAG untied: AUTO at 16/23 should be the normal approximation, no ties");
	r = mwu(x1, N(x1), y1, N(y1), STATS_MWU_EXACT);
	near("NAG untied exact lower tail", r.p_less, 0.0022, 5e-5);
	near("NAG untied exact two-sided", r.p, 2 * r.p_less, 1e-12);

	r = mwu(x2, N(x2), y2, N(y2), STATS_MWU_NORMAL);
	near("NAG tied U", r.u, 86, 0);
	near("NAG tied z", r.z, -2.8039, 5e-5);
	near("NAG tied normal lower tail", r.p_less, 0.0025, 5e-5);
	if (!r.ties)
		fail("NAG tied: ties not detected");
	r = mwu(x2, N(x2), y2, N(y2), STATS_MWU_EXACT);
	near("NAG tied exact lower tail", r.p_less, 0.0020, 5e-5);
}

/*
 * SAS/STAT User's Guide, PROC NPAR1WAY, example "Exact Wilcoxon Two-Sample Test": reaction
 * times under two stimulants, 13 and 6 subjects, heavily tied. Rank sum of stimulant 2 =
 * 79.5 (U = 79.5 - 21 = 58.5), expected 60, tie-corrected standard deviation 11.004784.
 * Continuity-corrected normal: Z = 1.7265, two-sided 0.0843. Exact: one-sided 0.0527,
 * two-sided (Pr >= |S - Mean|) 0.1054.
 */
static void test_sas(void)
{
	double s1[] = {1.94, 1.94, 2.92, 2.92, 2.92, 2.92, 3.27,
		       3.27, 3.27, 3.27, 3.70, 3.70, 3.74};
	double s2[] = {3.27, 3.27, 3.27, 3.70, 3.70, 3.74};
	struct stats_mwu r;

	r = mwu(s2, N(s2), s1, N(s1), STATS_MWU_NORMAL);
	near("SAS U", r.u, 58.5, 0);
	near("SAS sd", r.sd, 11.004784, 5e-7);
	near("SAS z", r.z, 1.7265, 5e-5);
	near("SAS normal two-sided", r.p, 0.0843, 5e-5);
	r = mwu(s2, N(s2), s1, N(s1), STATS_MWU_EXACT);
	near("SAS exact one-sided", r.p_greater, 0.0527, 5e-5);
	near("SAS exact two-sided", r.p, 0.1054, 5e-5);
}

/*
 * The normal approximation against the exact distribution at n = 10 per side, for every U
 * of untied data (y = 1, 3, ..., 19; x placed between them). It agrees within 0.01
 * everywhere (the largest gap is about 0.009, near p = 0.5). With ties the exact
 * distribution is lumpier: for data tied in pairs the gap reaches 0.015 near p = 0.5, but
 * stays within 0.01 where decisions are made (exact p < 0.2), which is checked too.
 */
static void test_normal_vs_exact(void)
{
	double worst = 0;
	int checked = 0;

	for (int u = 0; u <= 100; u++) {
		double x[10], y[10];
		int left = u;
		struct stats_mwu e, n;

		for (int i = 0; i < 10; i++) {
			y[i] = 2 * i + 1;
			x[i] = -100 + i;
		}
		/* Raise x values one at a time: x_i just above c of the y's gives c pairs. */
		for (int i = 9; i >= 0 && left > 0; i--) {
			int c = left > 10 ? 10 : left;

			x[i] = 2 * c + 0.5 + i * 1e-3;
			left -= c;
		}
		e = mwu(x, 10, y, 10, STATS_MWU_EXACT);
		n = mwu(x, 10, y, 10, STATS_MWU_NORMAL);
		if (e.u != u || e.ties)
			fail("n=10 construction: wanted U = %d without ties, got %g", u, e.u);
		if (fabs(e.p - n.p) > worst)
			worst = fabs(e.p - n.p);
		if (!(fabs(e.p - n.p) < 0.01))
			fail("n=10, U = %d: exact p %.5f, normal p %.5f differ by >= 0.01", u, e.p,
			     n.p);
		checked++;
	}
	for (int k = -40; k <= 40; k++) {
		double x[10], y[10];
		struct stats_mwu e, n;

		for (int i = 0; i < 10; i++) {
			y[i] = i + 1;
			x[i] = i + 1 + k * 0.25; /* whole shifts tie the samples in pairs */
		}
		e = mwu(x, 10, y, 10, STATS_MWU_EXACT);
		n = mwu(x, 10, y, 10, STATS_MWU_NORMAL);
		if (e.p < 0.2 && !(fabs(e.p - n.p) < 0.01))
			fail("n=10 tied, shift %g: exact p %.5f, normal p %.5f", k * 0.25, e.p,
			     n.p);
		checked++;
	}
	printf("normal vs exact at n = 10: %d cases, largest untied gap %.4f\n", checked, worst);
}

static void test_edges(void)
{
	double a[] = {5, 5, 5}, b[] = {5, 5, 5}, lo[] = {1, 2, 3}, hi[] = {4, 5, 6};
	struct stats_mwu r;

	r = mwu(a, 3, b, 3, STATS_MWU_AUTO);
	near("all tied: p", r.p, 1, 0);
	r = mwu(a, 3, b, 3, STATS_MWU_NORMAL);
	near("all tied, normal: p", r.p, 1, 0);
	r = mwu(hi, 3, lo, 3, STATS_MWU_AUTO);
	near("3 vs 3 separated: U", r.u, 9, 0);
	near("3 vs 3 separated: p", r.p, 0.1, 1e-12);
	near("3 vs 3 separated: one-sided", r.p_greater, 0.05, 1e-12);
	if (stats_mwu(a, 0, b, 3, STATS_MWU_AUTO, &r) != -1)
		fail("an empty sample is not an error");

	near("min p 3/3", stats_mwu_min_p(3, 3), 0.1, 1e-12);
	near("min p 4/4", stats_mwu_min_p(4, 4), 2.0 / 70, 1e-12);
	near("min p 5/5", stats_mwu_min_p(5, 5), 2.0 / 252, 1e-12);
	near("min p 1/1", stats_mwu_min_p(1, 1), 1, 0);
	near("min p 0/5", stats_mwu_min_p(0, 5), 1, 0);
	{
		/* Above 10 per side it is the normal approximation's p at U = 0. */
		double x[11], y[11];

		for (int i = 0; i < 11; i++) {
			x[i] = i;
			y[i] = 100 + i;
		}
		r = mwu(x, 11, y, 11, STATS_MWU_AUTO);
		near("min p 11/11", stats_mwu_min_p(11, 11), r.p, 1e-15);
	}
}

static void test_bootstrap(void)
{
	double b[] = {100, 101, 99, 100.5, 99.5}, o[] = {150, 151, 149, 150.5, 149.5};
	double same[] = {7, 7, 7}, zero[] = {0, 0};
	double lo, hi, lo2, hi2;

	if (stats_bootstrap_ratio_ci(b, 5, o, 5, 0.95, 10000, 1, &lo, &hi))
		fail("bootstrap failed");
	if (!(lo <= 1.5 && 1.5 <= hi && lo > 1.4 && hi < 1.6))
		fail("bootstrap CI [%g, %g] does not bracket the ratio 1.5 closely", lo, hi);
	stats_bootstrap_ratio_ci(b, 5, o, 5, 0.95, 10000, 1, &lo2, &hi2);
	if (lo != lo2 || hi != hi2)
		fail("bootstrap is not deterministic: [%g, %g] then [%g, %g]", lo, hi, lo2, hi2);
	stats_bootstrap_ratio_ci(same, 3, same, 3, 0.95, 1000, 1, &lo, &hi);
	near("bootstrap of equal samples: lo", lo, 1, 0);
	near("bootstrap of equal samples: hi", hi, 1, 0);
	if (stats_bootstrap_ratio_ci(zero, 2, o, 5, 0.95, 100, 1, &lo, &hi) != -1)
		fail("a zero base median should give no interval");
}

/*
 * The sampler is checked in distribution: the largest gap between the empirical and the
 * exact distribution function of DRAWS medians is below the Kolmogorov-Smirnov critical value
 * at 0.001 (1.95 / sqrt(DRAWS); conservative for a discrete distribution). Fixed seeds:
 * deterministic, never flaky.
 */
#define DRAWS 100000
#define KS_MAX (1.95 / sqrt(DRAWS))

struct atom {
	double v, p; /* a median value, its exact probability */
};

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * ks_gap - max |F_draws - F_exact| over the values of @ex[0..@nex) (sorted, probabilities
 * summing to 1); a draw that is no value of @ex fails the test.
 */
static double ks_gap(const char *what, const struct atom *ex, int nex, double *draws)
{
	double gap = 0, fe = 0;
	size_t k = 0;

	qsort(draws, DRAWS, sizeof(*draws), cmp_dbl);
	for (int i = 0; i < nex; i++) {
		size_t below = k;

		while (k < DRAWS && draws[k] <= ex[i].v)
			k++;
		if (k > below && draws[below] != ex[i].v)
			fail("%s: drew %g, not a possible median", what, draws[below]);
		fe += ex[i].p;
		gap = fmax(gap, fabs((double)k / DRAWS - fe));
	}
	if (k < DRAWS)
		fail("%s: drew %g, above every possible median", what, draws[k]);
	return gap;
}

/*
 * Plain resampling, every one of the n^n resamples of @x[0..@n) (n <= 6) enumerated: the
 * exact distribution of the resample median, against the direct draw.
 */
static void check_enumerated(const double *x, int n)
{
	struct atom ex[64];
	int nex = 0, idx[6] = {0};
	long total = 1;
	double *d = malloc(DRAWS * sizeof(*d)), gap;
	char what[64];

	for (int i = 0; i < n; i++)
		total *= n;
	for (long t = 0; t < total; t++) {
		double v[6], m;
		int i;

		for (i = 0; i < n; i++)
			v[i] = x[idx[i]];
		qsort(v, (size_t)n, sizeof(*v), cmp_dbl);
		m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		for (i = 0; i < nex && ex[i].v != m; i++)
			;
		if (i == nex)
			ex[nex++] = (struct atom){m, 0};
		ex[i].p += 1.0 / (double)total;
		for (i = 0; i < n && ++idx[i] == n; i++) /* the next index tuple */
			idx[i] = 0;
	}
	qsort(ex, (size_t)nex, sizeof(*ex), cmp_dbl); /* by v, the first member */
	stats_bootstrap_medians(x, (size_t)n, DRAWS, 7, d);
	snprintf(what, sizeof(what), "enumerated n = %d", n);
	gap = ks_gap(what, ex, nex, d);
	if (!(gap <= KS_MAX))
		fail("%s: resample medians off the exact distribution by %g (> %g)", what, gap,
		     KS_MAX);
	free(d);
}

static void test_bootstrap_sampler(void)
{
	double odd[] = {5, 2, 3, 2, 1}, even[] = {13, 1, 8, 2, 5, 3}, *x, *d;
	struct atom *ex;

	check_enumerated(odd, 5); /* a tie: 2 twice */
	check_enumerated(even, 6);

	/*
	 * n = 101, values 0..100: the median is the 51st of 101 draws, <= j when at least 51
	 * draws are <= j, each with probability (j + 1) / 101.
	 */
	x = malloc(101 * sizeof(*x));
	ex = malloc(101 * sizeof(*ex));
	d = malloc(DRAWS * sizeof(*d));
	for (int j = 0; j < 101; j++) {
		x[j] = 100 - j;
		ex[j] = (struct atom){j, gsl_cdf_binomial_Q(50, (j + 1) / 101.0, 101) -
					     (j ? gsl_cdf_binomial_Q(50, j / 101.0, 101) : 0)};
	}
	stats_bootstrap_medians(x, 101, DRAWS, 11, d);
	near("n = 101: median off the binomial tails", ks_gap("n = 101", ex, 101, d), 0, KS_MAX);

	/*
	 * n = 100, fifty 0s and fifty 1s: with Z ~ Binomial(100, 1/2) zeros drawn, the median
	 * (the mean of the 50th and 51st draws) is 0 when Z >= 51, 1/2 when Z = 50, else 1.
	 */
	for (int j = 0; j < 100; j++)
		x[j] = j % 2;
	ex[0] = (struct atom){0, gsl_cdf_binomial_Q(50, 0.5, 100)};
	ex[1] = (struct atom){0.5, gsl_ran_binomial_pdf(50, 0.5, 100)};
	ex[2] = (struct atom){1, gsl_cdf_binomial_P(49, 0.5, 100)};
	stats_bootstrap_medians(x, 100, DRAWS, 13, d);
	near("n = 100: median off the binomial tails", ks_gap("n = 100", ex, 3, d), 0, KS_MAX);
	free(x);
	free(ex);
	free(d);
}

int main(void)
{
	test_summary();
	test_diabetes();
	test_nag();
	test_sas();
	test_normal_vs_exact();
	test_edges();
	test_bootstrap();
	test_bootstrap_sampler();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("test_stats: ok\n");
	return 0;
}
