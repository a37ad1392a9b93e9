/* SPDX-License-Identifier: MIT */
/*
 * gbshim.h - the C face of the Google Benchmark shim (gbshim.cc, the one C++ file).
 * Each family becomes one registered benchmark with ->Threads(t), real time,
 * ->Repetitions(r) and ->Iterations(1): every repetition is exactly one equal-time window,
 * whose measurement the C side owns.
 */
#ifndef PCBENCH_GBSHIM_H
#define PCBENCH_GBSHIM_H

#ifdef __cplusplus
extern "C" {
#endif

struct gb_family {
	const char *name; /* key:value style, so --benchmark_filter applies */
	int threads;
	void *arg;
};

/*
 * gbshim_init - let Google Benchmark take its --benchmark_* flags out of argv.
 * Returns non-zero when an argument is left that neither side knows.
 */
int gbshim_init(int *argc, char **argv);

/*
 * gbshim_run - register @n families and run them with Google Benchmark; every thread of
 * every repetition calls @thread_fn(family->arg, thread_index) once.
 */
void gbshim_run(const struct gb_family *fams, int n, int repetitions,
		void (*thread_fn)(void *arg, int thread_index));

#ifdef __cplusplus
}
#endif

#endif
