// SPDX-License-Identifier: MIT
/* stats.c - the statistics of stats.h: summaries, the Mann-Whitney U test, the bootstrap. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

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

int stats_mwu_reps_needed(int mult, double alpha)
{
	int n = 1;

	while (n < 1000 && (mult < 1 ? 1 : mult) * stats_mwu_min_p((size_t)n, (size_t)n) >= alpha)
		n++;
	return n;
}

/*
 * resample_median - the median of one resample of @n draws with replacement from the sorted
 * @v[0..@n), drawn directly in O(1). A draw is v[floor(n U)] with U uniform on [0, 1), and
 * floor is monotone, so the k-th smallest of the n draws is v[floor(n U_(k))], U_(k) the k-th
 * smallest of n uniforms: Beta(k, n + 1 - k). Given U_(k) = u, the n - k larger ones are
 * uniform on (u, 1), so U_(k+1) = u + (1 - u) Beta(1, n - k), the smallest of them. Same
 * distribution as drawing the n values and sorting them; only the random stream differs.
 */
static double resample_median(const double *v, size_t n, gsl_rng *rng)
{
	size_t k = (n + 1) / 2; /* the lower middle, 1-based */
	double u = gsl_ran_beta(rng, (double)k, (double)(n + 1 - k)), m;
	size_t i = (size_t)(u * (double)n);

	m = v[i < n ? i : n - 1];
	if (n % 2)
		return m;
	u += (1 - u) * gsl_ran_beta(rng, 1, (double)(n - k));
	i = (size_t)(u * (double)n);
	return (m + v[i < n ? i : n - 1]) / 2;
}

static double *sorted_copy(const double *x, size_t n)
{
	double *v = memcpy(xmalloc(n * sizeof(*v)), x, n * sizeof(*v));

	qsort(v, n, sizeof(*v), cmp_double);
	return v;
}

/* rng_new - GSL's MT19937 seeded with @seed; out of memory exits as xmalloc does. */
static gsl_rng *rng_new(uint64_t seed)
{
	gsl_error_handler_t *was = gsl_set_error_handler_off(); /* GSL's own would abort */
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_set_error_handler(was);
	if (!rng)
		die("memory", "gsl_rng_alloc", "out of memory");
	gsl_rng_set(rng, (unsigned long)seed);
	return rng;
}

void stats_bootstrap_medians(const double *x, size_t n, int iters, uint64_t seed, double *out)
{
	double *v;
	gsl_rng *rng;

	if (!n)
		return;
	v = sorted_copy(x, n);
	rng = rng_new(seed);
	for (int i = 0; i < iters; i++)
		out[i] = resample_median(v, n, rng);
	gsl_rng_free(rng);
	free(v);
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
	double *ratios, *vb, *vo;
	gsl_rng *rng;
	size_t k = 0;

	*lo = *hi = NAN;
	if (!nb || !no || iters < 1)
		return -1;
	ratios = xmalloc((size_t)iters * sizeof(*ratios));
	vb = sorted_copy(base, nb);
	vo = sorted_copy(other, no);
	rng = rng_new(seed);
	for (int i = 0; i < iters; i++) {
		double mb = resample_median(vb, nb, rng);
		double mo = resample_median(vo, no, rng);

		if (mb != 0)
			ratios[k++] = mo / mb;
	}
	gsl_rng_free(rng);
	free(vb);
	free(vo);
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

/*
 * signrank_exact - P(|S - mean| >= |obs - mean|) for S the doubled rank sum of a random
 * subset of @r2[0..n) (each in it with probability 1/2). prob[s] is built one rank at a time
 * (in the subset or not, halving both), so it stays a distribution and never overflows.
 */
static double signrank_exact(const long *r2, size_t n, long obs)
{
	long smax = 0;
	double *prob, p = 0;

	for (size_t i = 0; i < n; i++)
		smax += r2[i];
	prob = xcalloc((size_t)smax + 1, sizeof(*prob));
	prob[0] = 1;
	for (size_t i = 0, top = 0; i < n; i++) {
		top += (size_t)r2[i];
		for (size_t s = top; s > 0; s--)
			prob[s] =
			    prob[s] / 2 + (s >= (size_t)r2[i] ? prob[s - (size_t)r2[i]] / 2 : 0);
		prob[0] /= 2;
	}
	/* Distances from the mean smax / 2, doubled to stay integer. */
	for (long s = 0; s <= smax; s++)
		if (labs(2 * s - smax) >= labs(2 * obs - smax))
			p += prob[s];
	free(prob);
	return p;
}

int stats_signrank(const double *d, size_t n, struct stats_signrank *r)
{
	struct pooled *p = xmalloc((n ? n : 1) * sizeof(*p));
	long *r2 = xmalloc((n ? n : 1) * sizeof(*r2)), w2 = 0;
	size_t m = 0;
	double tsum, nn, var;

	memset(r, 0, sizeof(*r));
	r->p = 1;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(d[i])) {
			free(p);
			free(r2);
			return -1;
		}
		if (d[i] == 0)
			r->nzero++;
		else
			p[m++] = (struct pooled){fabs(d[i]), d[i] > 0};
	}
	r->n = (int)m;
	nn = (double)m;
	r->mean = nn * (nn + 1) / 4;
	r->exact = m <= STATS_SR_EXACT_MAX;
	if (m) {
		tsum = doubled_ranks(p, m, r2, &r->ties);
		for (size_t i = 0; i < m; i++)
			if (p[i].from_x)
				w2 += r2[i];
		r->w_plus = (double)w2 / 2;
		if (r->exact) {
			r->p = signrank_exact(r2, m, w2);
		} else {
			var = nn * (nn + 1) * (2 * nn + 1) / 24 - tsum / 48;
			double dist = fabs(r->w_plus - r->mean);

			r->p =
			    var > 0 && dist > 0.5 ? erfc((dist - 0.5) / sqrt(var) / sqrt(2.0)) : 1;
		}
		if (r->p > 1)
			r->p = 1;
	}
	free(p);
	free(r2);
	return 0;
}

double stats_signrank_min_p(size_t n)
{
	return n ? fmin(1, 2 / pow(2, (double)n)) : 1;
}

int stats_signrank_blocks_needed(int mult, double alpha)
{
	int n = 1;

	while (n < 64 && (mult < 1 ? 1 : mult) * stats_signrank_min_p((size_t)n) >= alpha)
		n++;
	return n;
}

int stats_block_change(const double *base, const double *other, int n, uint64_t seed,
		       struct block_change *out)
{
	struct stats_signrank sr;
	double *ratio, *lr, *med;
	size_t nb = n > 0 ? (size_t)n : 0;

	*out = (struct block_change){NAN, NAN, NAN, NAN, n};
	if (n < 2)
		return -1;
	for (size_t i = 0; i < nb; i++)
		if (!(isfinite(base[i]) && isfinite(other[i]) && base[i] > 0 && other[i] > 0))
			return -1;
	ratio = xmalloc(nb * sizeof(*ratio));
	lr = xmalloc(nb * sizeof(*lr));
	for (size_t i = 0; i < nb; i++) {
		ratio[i] = other[i] / base[i];
		lr[i] = log(other[i]) - log(base[i]);
	}
	stats_signrank(lr, nb, &sr);
	out->p = sr.p;
	out->pct = (stats_median(ratio, nb) - 1) * 100;
	med = xmalloc(STATS_BLOCK_ITERS * sizeof(*med));
	stats_bootstrap_medians(ratio, nb, STATS_BLOCK_ITERS, seed, med);
	qsort(med, STATS_BLOCK_ITERS, sizeof(*med), cmp_double);
	out->lo = (quantile(med, STATS_BLOCK_ITERS, (1 - STATS_BLOCK_LEVEL) / 2) - 1) * 100;
	out->hi = (quantile(med, STATS_BLOCK_ITERS, (1 + STATS_BLOCK_LEVEL) / 2) - 1) * 100;
	free(med);
	free(ratio);
	free(lr);
	return 0;
}
