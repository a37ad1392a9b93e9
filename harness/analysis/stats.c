// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median(const double *x, size_t n)
{
	double *v, m;

	if (!n)
		return NAN;
	v = memcpy(xmalloc(n * sizeof(*v)), x, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	return m;
}

double stats_mean(const double *x, size_t n)
{
	double s = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stats_stddev(const double *x, size_t n)
{
	double m = stats_mean(x, n), s = 0;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

double stats_cv(const double *x, size_t n)
{
	double m = stats_mean(x, n);

	if (!n || m == 0)
		return NAN;
	return stats_stddev(x, n) / m;
}

/* Standard normal distribution function. */
static double phi(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

struct pooled {
	double v;
	int from_x;
};

static int cmp_pooled(const void *a, const void *b)
{
	const struct pooled *p = a, *q = b;

	return (p->v > q->v) - (p->v < q->v);
}

/*
 * doubled_ranks - sort the pooled sample and give each value twice its midrank (an integer:
 * a tie group over sorted positions i..j, 1-based, has midrank (i + j) / 2). Returns the
 * tie correction sum(t^3 - t) and sets *ties.
 */
static double doubled_ranks(struct pooled *p, size_t n, long *r2, int *ties)
{
	double tsum = 0;

	qsort(p, n, sizeof(*p), cmp_pooled);
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && p[j + 1].v == p[i].v)
			j++;
		for (size_t k = i; k <= j; k++)
			r2[k] = (long)(i + 1) + (long)(j + 1);
		if (j > i) {
			double t = (double)(j - i + 1);

			tsum += t * t * t - t;
			*ties = 1;
		}
		i = j + 1;
	}
	return tsum;
}

/*
 * exact_tails - the permutation distribution of the doubled rank sum of nx values drawn from
 * the pooled doubled ranks @r2[0..n): cnt[k][s] counts the k-subsets of the values seen so
 * far with doubled sum s (the subset-sum recurrence: a value is in the subset or not).
 * Sets the probabilities of a sum <= @obs, >= @obs, and at least as far from the mean as
 * @obs.
 */
static int exact_tails(const long *r2, size_t n, size_t nx, long obs, double *le, double *ge,
		       double *two)
{
	long smax = 0, mean2x; /* the mean doubled rank sum, nx (N + 1) */
	double *cnt, total = 0, a = 0, b = 0, c = 0;

	for (size_t i = 0; i < n; i++)
		smax += r2[i];
	cnt = calloc((nx + 1) * (size_t)(smax + 1), sizeof(*cnt));
	if (!cnt)
		return -1;
#define CNT(k, s) cnt[(size_t)(k) * (size_t)(smax + 1) + (size_t)(s)]
	CNT(0, 0) = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = (i + 1 < nx ? i + 1 : nx); k >= 1; k--)
			for (long s = smax; s >= r2[i]; s--)
				CNT(k, s) += CNT(k - 1, s - r2[i]);
	/* The mean doubled rank sum is nx (N + 1); compare distances doubled to stay integer. */
	mean2x = (long)nx * (long)(n + 1);
	for (long s = 0; s <= smax; s++) {
		double w = CNT(nx, s);

		if (w == 0)
			continue;
		total += w;
		if (s <= obs)
			a += w;
		if (s >= obs)
			b += w;
		if (labs(s - mean2x) >= labs(obs - mean2x))
			c += w;
	}
#undef CNT
	free(cnt);
	*le = a / total;
	*ge = b / total;
	*two = c / total;
	return 0;
}

int stats_mwu(const double *x, size_t nx, const double *y, size_t ny, enum stats_mwu_method m,
	      struct stats_mwu *r)
{
	size_t n = nx + ny;
	struct pooled *p;
	long *r2, rx2 = 0;
	double tsum, nn = (double)n, var;

	memset(r, 0, sizeof(*r));
	if (!nx || !ny)
		return -1;
	if (m == STATS_MWU_AUTO)
		m = nx <= STATS_MWU_EXACT_MAX && ny <= STATS_MWU_EXACT_MAX ? STATS_MWU_EXACT
									   : STATS_MWU_NORMAL;
	if (m == STATS_MWU_EXACT && n > STATS_MWU_EXACT_MAX_N)
		return -1;
	p = xmalloc(n * sizeof(*p));
	r2 = xmalloc(n * sizeof(*r2));
	for (size_t i = 0; i < nx; i++)
		p[i] = (struct pooled){x[i], 1};
	for (size_t i = 0; i < ny; i++)
		p[nx + i] = (struct pooled){y[i], 0};
	tsum = doubled_ranks(p, n, r2, &r->ties);
	for (size_t i = 0; i < n; i++)
		if (p[i].from_x)
			rx2 += r2[i];

	/* U = R - nx (nx + 1) / 2, with R = rx2 / 2. */
	r->u = (double)rx2 / 2 - (double)nx * (double)(nx + 1) / 2;
	r->mean = (double)nx * (double)ny / 2;
	var = (double)nx * (double)ny / 12 * ((nn + 1) - (n > 1 ? tsum / (nn * (nn - 1)) : 0));
	r->sd = var > 0 ? sqrt(var) : 0;
	if (r->sd > 0) {
		double d = r->u - r->mean;
		double dc = fabs(d) > 0.5 ? d - copysign(0.5, d) : 0;

		r->z = dc / r->sd;
	}

	if (m == STATS_MWU_EXACT) {
		r->exact = 1;
		if (exact_tails(r2, n, nx, rx2, &r->p_less, &r->p_greater, &r->p)) {
			free(p);
			free(r2);
			return -1;
		}
	} else if (r->sd == 0) {
		r->p = r->p_less = r->p_greater = 1;
	} else {
		double d = r->u - r->mean;

		r->p = fabs(d) > 0.5 ? erfc((fabs(d) - 0.5) / r->sd / sqrt(2.0)) : 1;
		r->p_less = phi((d + 0.5) / r->sd);
		r->p_greater = phi(-(d - 0.5) / r->sd);
	}
	if (r->p > 1)
		r->p = 1;
	free(p);
	free(r2);
	return 0;
}

double stats_mwu_min_p(size_t nx, size_t ny)
{
	if (!nx || !ny)
		return 1;
	if (nx <= STATS_MWU_EXACT_MAX && ny <= STATS_MWU_EXACT_MAX) {
		double c = 1; /* C(nx + ny, nx), exact in a double for these sizes */

		for (size_t i = 1; i <= nx; i++)
			c = c * (double)(ny + i) / (double)i;
		c = round(c);
		return c > 2 ? 2 / c : 1;
	} else {
		double nn = (double)(nx + ny), mean = (double)nx * (double)ny / 2;
		double sd = sqrt((double)nx * (double)ny * (nn + 1) / 12);

		return mean > 0.5 ? erfc((mean - 0.5) / sd / sqrt(2.0)) : 1;
	}
}

/* splitmix64 (Steele, Lea and Flood 2014): small, fast, and the same everywhere. */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A sample prepared for resampling: its values sorted, and each value's sorted position. */
struct resampler {
	const double *x;
	size_t n;
	double *sorted;
	size_t *rank;  /* rank[i]: where x[i] stands in sorted */
	size_t *count; /* per sorted position: how often one resample drew it */
};

static const double *rank_base;

static int cmp_index(const void *a, const void *b)
{
	double x = rank_base[*(const size_t *)a], y = rank_base[*(const size_t *)b];

	return x < y ? -1 : x > y ? 1 : 0;
}

static void resampler_init(struct resampler *r, const double *x, size_t n)
{
	size_t *order = xmalloc(n * sizeof(*order));

	r->x = x;
	r->n = n;
	r->sorted = xmalloc(n * sizeof(*r->sorted));
	r->rank = xmalloc(n * sizeof(*r->rank));
	r->count = xmalloc(n * sizeof(*r->count));
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	rank_base = x;
	qsort(order, n, sizeof(*order), cmp_index);
	for (size_t k = 0; k < n; k++) {
		r->sorted[k] = x[order[k]];
		r->rank[order[k]] = k;
	}
	free(order);
}

static void resampler_free(struct resampler *r)
{
	free(r->sorted);
	free(r->rank);
	free(r->count);
}

/*
 * resample_median - the median of @n draws with replacement (the draws of splitmix64 state
 * @s, in order): the draws are counted per sorted position and the middle order statistics
 * found by one walk, O(n) with no sort per resample.
 */
static double resample_median(struct resampler *r, uint64_t *s)
{
	size_t n = r->n, lo = (n - 1) / 2, hi = n / 2, seen = 0;
	double a = NAN, b = NAN;

	memset(r->count, 0, n * sizeof(*r->count));
	for (size_t i = 0; i < n; i++)
		r->count[r->rank[(size_t)((double)(splitmix64(s) >> 11) * 0x1.0p-53 *
					  (double)n)]]++;
	for (size_t k = 0; k < n && isnan(b); k++) {
		if (!r->count[k])
			continue;
		seen += r->count[k];
		if (isnan(a) && seen > lo)
			a = r->sorted[k];
		if (seen > hi)
			b = r->sorted[k];
	}
	return (a + b) / 2;
}

/* quantile - linear interpolation between order statistics of sorted @v[0..@n). */
static double quantile(const double *v, size_t n, double q)
{
	double h = q * (double)(n - 1);
	size_t i = (size_t)floor(h);

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - (double)i) * (v[i + 1] - v[i]);
}

int stats_bootstrap_ratio_ci(const double *base, size_t nb, const double *other, size_t no,
			     double level, int iters, uint64_t seed, double *lo, double *hi)
{
	struct resampler rb, ro;
	double *ratios;
	uint64_t s = seed;
	size_t k = 0;

	*lo = *hi = NAN;
	if (!nb || !no || iters < 1)
		return -1;
	ratios = xmalloc((size_t)iters * sizeof(*ratios));
	resampler_init(&rb, base, nb);
	resampler_init(&ro, other, no);
	for (int i = 0; i < iters; i++) {
		double mb = resample_median(&rb, &s);
		double mo = resample_median(&ro, &s);

		if (mb != 0)
			ratios[k++] = mo / mb;
	}
	resampler_free(&rb);
	resampler_free(&ro);
	if (!k) {
		free(ratios);
		return -1;
	}
	qsort(ratios, k, sizeof(*ratios), cmp_double);
	*lo = quantile(ratios, k, (1 - level) / 2);
	*hi = quantile(ratios, k, (1 + level) / 2);
	free(ratios);
	return 0;
}
