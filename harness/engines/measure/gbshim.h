/* SPDX-License-Identifier: MIT */
/*
 * gbshim.h - the C face of the Google Benchmark shim (gbshim.cc, the one C++ file).
 * Each family becomes one registered benchmark with ->Threads(t), manual time in ns,
 * ->Repetitions(r) and ->Iterations(1): every repetition is exactly one equal-time window,
 * whose measurement the C side owns.
 */
#ifndef PCBENCH_GBSHIM_H
#define PCBENCH_GBSHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gb_family {
	const char *name; /* key:value style, so --benchmark_filter applies */
	int threads;
	void *arg;
};

/*
 * gbshim_init - let Google Benchmark take its --benchmark_* flags out of argv (pcbench
 * keeps --benchmark_out and --benchmark_out_format: gbshim_out_begin). Returns 1 when an
 * argument is left that neither side knows, -1 when Google Benchmark threw (gbshim_error).
 */
int gbshim_init(int *argc, char **argv);

/* gbshim_out_begin - keep every run for --benchmark_out, in @format (json, csv, console). */
void gbshim_out_begin(const char *format);

/*
 * gbshim_out_text - Google Benchmark's report of every run so far, in the format of
 * gbshim_out_begin: a new string (free) of *@len bytes, or NULL (gbshim_error says why).
 */
char *gbshim_out_text(size_t *len);

/* gbshim_error - what the last C++ exception caught at the shim's boundary said. */
const char *gbshim_error(void);

/*
 * What thread 0 tells Google Benchmark about one repetition, for its own reporters
 * (--benchmark_out=FILE --benchmark_out_format=json): ns/op as the (manual) time, ops/s
 * (results.csv's ops_per_s: ops over the window's duration) as the counter
 * "items_per_second", ns/op as the user counter "ns_per_op"; a failed window as an error.
 */
struct gb_result {
	int valid; /* thread 0 filled it (not for an interrupted window) */
	int ok;
	double ns_per_op, ops_per_s;
	const char *reason; /* when not ok */
};

/*
 * gbshim_run - register @n families and run them with Google Benchmark; every thread of
 * every repetition calls @thread_fn(family->arg, thread_index, result) once; thread 0
 * fills result. It may be called several times (the block design: once per table and
 * block); gbshim_out_text holds every call's runs. Returns 0, or -1 when a C++ exception
 * ended it (caught here; gbshim_error says why: a thread Google Benchmark could not create).
 */
int gbshim_run(const struct gb_family *fams, int n, int repetitions,
	       void (*thread_fn)(void *arg, int thread_index, struct gb_result *result));

/*
 * gbshim_on_terminate - what ends the run when Google Benchmark calls std::terminate inside
 * gbshim_run instead of throwing: with 3 threads or more, a thread it cannot create (a
 * memory or process limit) while another already runs is destroyed joinable, which is
 * std::terminate (SIGABRT, rc 134, before). @fn(family->arg of the family being started,
 * or NULL when none is known; why) must not return (pcbench's die: an error row, exit 1).
 */
void gbshim_on_terminate(void (*fn)(void *arg, const char *why));
/*
 * gbshim_failed_arg - after gbshim_run returned -1: the family->arg of the family Google
 * Benchmark was starting (one of its threads began, or it is the only one not yet run), or
 * NULL when that is not known.
 */
void *gbshim_failed_arg(void);

#ifdef __cplusplus
}
#endif

#endif
