// SPDX-License-Identifier: MIT
/* work.c - the calibrated private work of `-D work=N` (see work.h). */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "util.h"
#include "work.h"

__attribute__((noinline)) void work_spin(uint64_t iters)
{
	/* The empty asm makes every iteration real without touching memory. */
	for (uint64_t i = 0; i < iters; i++)
		__asm__ __volatile__("" : "+r"(i));
}

double work_median(const double *v, int n)
{
	double s[16];

	if (n < 1 || n > 16)
		return 0;
	memcpy(s, v, (size_t)n * sizeof(*s));
	for (int i = 1; i < n; i++) /* insertion sort: n is 5 */
		for (int j = i; j > 0 && s[j] < s[j - 1]; j--) {
			double x = s[j];

			s[j] = s[j - 1];
			s[j - 1] = x;
		}
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

int work_calibrate(struct work_cal *c)
{
	const double t_start = now_s();
	uint64_t n = 1024;
	double t;

	memset(c, 0, sizeof(*c));
	for (;;) { /* grow until one trial takes 5 ms */
		t = now_s();
		work_spin(n);
		t = now_s() - t;
		if (t >= 0.005 || n >= (UINT64_C(1) << 40))
			break;
		n <<= 1;
	}
	c->iters = n;
	for (int k = 0; k < WORK_TRIALS; k++) {
		t = now_s();
		work_spin(n);
		c->trial_ns[k] = (now_s() - t) * 1e9 / (double)n;
	}
	c->trials = WORK_TRIALS;
	c->ns_per_iter = work_median(c->trial_ns, c->trials);
	c->seconds = now_s() - t_start;
	return c->ns_per_iter > 0 && isfinite(c->ns_per_iter) ? 0 : -1;
}

static struct work_cal run_cal;
static pthread_once_t run_cal_once = PTHREAD_ONCE_INIT;
static int run_cal_done;

static void calibrate_once(void)
{
	work_calibrate(&run_cal);
	__atomic_store_n(&run_cal_done, 1, __ATOMIC_RELEASE);
}

const struct work_cal *work_calibration(void)
{
	pthread_once(&run_cal_once, calibrate_once);
	return &run_cal;
}

const struct work_cal *work_calibrated(void)
{
	return __atomic_load_n(&run_cal_done, __ATOMIC_ACQUIRE) ? &run_cal : NULL;
}

uint64_t work_iters(const struct work_cal *c, long ns)
{
	double n;

	if (ns <= 0 || !c || !(c->ns_per_iter > 0) || !isfinite(c->ns_per_iter))
		return 0;
	n = floor((double)ns / c->ns_per_iter + 0.5);
	return n < 1 ? 1 : (uint64_t)n;
}
