/* SPDX-License-Identifier: MIT */
/*
 * test_scenario.h - what the tests' own scenarios share (test_gaps.c, test_model.c,
 * test_starved.c): their thread_setup. run() is not told which thread runs it, so each
 * thread's state says; the rest of the hooks are the harness's defaults (bench.h), which
 * free what bench_alloc gave.
 */
#ifndef PCBENCH_TEST_SCENARIO_H
#define PCBENCH_TEST_SCENARIO_H

#include <stddef.h>

#include "bench.h"

/* The head of a test scenario's per-thread state (the whole state is one BENCH_PAD block). */
struct test_thread {
	int id; /* the thread's index, from 0 */
};

/* TEST_THREAD_STATE - @type begins with a struct test_thread @head and fits the block. */
#define TEST_THREAD_STATE(type, head)                                                              \
	_Static_assert(offsetof(type, head) == 0 && sizeof(type) <= BENCH_PAD,                     \
		       #type " starts with its struct test_thread and fits BENCH_PAD")

/* test_thread_setup - a zeroed BENCH_PAD block from bench_alloc that knows its thread. */
static inline void *test_thread_setup(void *shared, int thread)
{
	struct test_thread *t = bench_alloc(BENCH_PAD, BENCH_PAD);

	(void)shared;
	t->id = thread;
	return t;
}

#endif
