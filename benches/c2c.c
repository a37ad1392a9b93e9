// SPDX-License-Identifier: MIT
/*
 * c2c.c - the calibration probe: the cost of moving one cache line between two CPUs, the
 * physical limit next to every contended number of the other scenarios.
 *
 * One operation is one one-way transfer: a thread's turn, which needs the line its
 * predecessor just wrote. The ops of a row count the transfers of all threads together, so
 *
 *	ns per transfer = duration_s * 1e9 / ops
 *
 * Both workloads pass a token around the threads in a ring, thread t -> t + 1 (mod N):
 *  - pingpong: one pc_word on its own line. Thread t waits (loads) until the value is
 *    t + k*N, its turn, then compare-exchanges it to value + 1: one line whose owner
 *    alternates, each turn a read miss then an upgrade (the CAS);
 *  - rw: one line per thread, each with exactly one writer and one reader. Thread t waits
 *    until its predecessor's line holds t + k*N, then stores value + 1 into its own line (a
 *    plain store, no atomic RMW): each turn one invalidation and one read miss.
 * With 2 threads (the measurement this probe is for) the ring is a ping-pong between the
 * pair. With 1 thread every turn is the thread's own, so nothing moves: the op is the bare
 * CAS (or store and load) on a line in the thread's own cache, the diagonal of a matrix.
 * With N > 2 the token visits every thread in turn while the N - 2 others spin on the line.
 * A waiting thread checks bench_window_over() every 256 spins and returns the turns done so
 * far once its partner has stopped.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define C2C_LAYOUT                                                                                 \
	"layout c2c\n"                                                                             \
	"desc one cache line of the c2c probe, alone in its 128-byte block\n"                      \
	"struct c2c_line size 64 align 64\n"                                                       \
	"\tvalue 0 8 atomic\n"                                                                     \
	"end\n"

struct c2c_shared {
	int nthreads, rw;
	pc_word **line; /* pingpong: line[0] only; rw: one per thread */
	int nlines;
	char (*names)[16];
	struct layout *layout;
};

struct c2c_thread {
	pc_word *wait; /* the word this thread waits on */
	pc_word *mine; /* the word it writes (pingpong: the same one) */
	long next;     /* the value that makes it this thread's turn */
	long step;     /* nthreads */
};

static void teardown(void *shared);

static void *setup(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	struct c2c_shared *s = bench_alloc(sizeof(*s), BENCH_PAD);

	s->nthreads = bench_threads(cfg);
	s->rw = !strcmp(bench_workload_name(cfg), "rw");
	s->nlines = s->rw ? s->nthreads : 1;
	s->layout = layout_parse(C2C_LAYOUT, "c2c.c", err, errlen);
	s->line = bench_alloc((size_t)s->nlines * sizeof(*s->line), BENCH_PAD);
	s->names = bench_alloc((size_t)s->nlines * sizeof(*s->names), BENCH_PAD);
	if (!s->layout) {
		teardown(s);
		return NULL;
	}
	for (int i = 0; i < s->nlines; i++) {
		/* Each line alone in a 128-byte block: no adjacent-line prefetch partner. */
		s->line[i] = bench_alloc(64, BENCH_PAD);
		snprintf(s->names[i], sizeof(s->names[i]), s->rw ? "line%d" : "line", i);
	}
	return s;
}

static void teardown(void *shared)
{
	struct c2c_shared *s = shared;

	for (int i = 0; i < s->nlines; i++)
		bench_free(s->line[i]);
	bench_free(s->line);
	bench_free(s->names);
	layout_free(s->layout);
	bench_free(s);
}

static void *thread_setup(void *shared, int thread)
{
	struct c2c_shared *s = shared;
	struct c2c_thread *st;

	if (thread >= s->nthreads)
		return NULL;
	st = bench_alloc(sizeof(*st), BENCH_PAD);
	st->next = thread;
	st->step = s->nthreads;
	if (s->rw) {
		st->mine = s->line[thread];
		st->wait = s->line[(thread + s->nthreads - 1) % s->nthreads];
	} else {
		st->mine = st->wait = s->line[0];
	}
	return st;
}

static void thread_teardown(void *shared, void *tstate)
{
	(void)shared;
	bench_free(tstate);
}

/* wait_turn - 0 once *@p == @v, -1 if the window ended while waiting. */
static inline int wait_turn(pc_word *p, long v)
{
	unsigned spins = 0;

	while (pc_load(p) != v)
		if (bench_spin(&spins))
			return -1;
	return 0;
}

static uint64_t run_pingpong(struct c2c_thread *st, uint64_t n)
{
	pc_word *line = st->mine;
	long next = st->next;
	uint64_t i;

	for (i = 0; i < n; i++) {
		if (wait_turn(line, next))
			break;
		pc_cmpxchg(line, next, next + 1); /* nobody else moves it from our value */
		next += st->step;
	}
	st->next = next;
	return i;
}

static uint64_t run_rw(struct c2c_thread *st, uint64_t n)
{
	long next = st->next;
	uint64_t i;

	for (i = 0; i < n; i++) {
		if (wait_turn(st->wait, next))
			break;
		pc_store(st->mine, next + 1);
		next += st->step;
	}
	st->next = next;
	return i;
}

static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct c2c_shared *s = shared;

	return s->rw ? run_rw(tstate, n) : run_pingpong(tstate, n);
}

static int objects(void *shared, struct bench_object *out, int max)
{
	struct c2c_shared *s = shared;
	int n = 0;

	for (; n < s->nlines && n < max; n++)
		out[n] = (struct bench_object){s->names[n], "c2c_line", s->line[n], s->layout};
	return n;
}

static void describe(const struct bench_cfg *cfg, void (*out)(void *arg, const char *line),
		     void *arg)
{
	(void)cfg;
	out(arg, "one op = one one-way transfer of the line; ns per transfer = duration_s * 1e9 / "
		 "ops (all threads)");
	out(arg, "2 threads: the pair; 1 thread: no transfer (the diagonal); N > 2: a token ring");
}

static const struct bench_param params[] = {
    {0},
};

static const struct bench_preset presets[] = {
    {"transfer", "cache-to-cache transfer latency between the placed threads", ""},
    {0},
};

static const struct bench_workload workloads[] = {
    {"pingpong", "compare-exchange ping-pong on one word: wait for your value, CAS it + 1", "",
     BENCH_SYMMETRIC},
    {"rw", "one writer and one reader per line: wait for the partner's store, store yours", "", 0},
    {0},
};

const struct scenario c2c_scenario = {
    .name = "c2c",
    .desc = "calibration probe: ns per one-way cache-line transfer between two CPUs",
    .params = params,
    .presets = presets,
    .workloads = workloads,
    .setup = setup,
    .teardown = teardown,
    .thread_setup = thread_setup,
    .thread_teardown = thread_teardown,
    .run = run,
    .objects = objects,
    .describe = describe,
};
