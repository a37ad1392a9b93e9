/* SPDX-License-Identifier: MIT */
/* stats.h - summary statistics over repetitions. */
#ifndef PCBENCH_STATS_H
#define PCBENCH_STATS_H

#include <stddef.h>

/* stats_median - median of @x[0..@n) (sorts a copy); NaN when @n is 0. */
double stats_median(const double *x, size_t n);
/* stats_mean - arithmetic mean; NaN when @n is 0. */
double stats_mean(const double *x, size_t n);
/* stats_stddev - sample standard deviation (n - 1); 0 when @n < 2. */
double stats_stddev(const double *x, size_t n);

#endif
