// SPDX-License-Identifier: MIT
/*
 * test_coro.c - the model's coroutine switch (harness/engines/model/coro.h): the x86-64 switch of
 * its own, or ucontext elsewhere and in the sanitizer builds.
 *
 *  1. three coroutines and the main stack take turns many times, each keeping its own
 *     locals (callee-saved registers and stack) across every switch;
 *  2. a coroutine's first call gets a 16-byte aligned stack (the ABI's: aligned SSE
 *     stores of a double's formatting would fault otherwise), and floating point works;
 *  3. each argument reaches its coroutine; a coroutine started but never resumed costs
 *     nothing (its stack is freed as any memory).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "coro.h"

#define NCO 3
#define ROUNDS 10000
#define STACK (64 * 1024)

static struct coro main_co, co[NCO + 1];
static long seen[NCO];	    /* turns each coroutine took */
static int arg_of[NCO + 1]; /* the argument each one was started with */
static char text[NCO][64];  /* what each one formatted */

/* co_main - take ROUNDS turns, passing to the next coroutine, the last one to main. */
static void co_main(int id)
{
	volatile long mine = 1000L * id;	       /* lives on this coroutine's stack */
	unsigned long reg = (unsigned long)id * 7 + 3; /* in a register across the switches */
	double x = 1.5 * id;
	_Alignas(16) char buf[32];

	arg_of[id] = id;
	snprintf(text[id], sizeof(text[id]), "%.3f %p", x / 3.0, (void *)buf);
#ifdef __x86_64__ /* the frame pointer after `push %rbp` at a 16-byte aligned call */
	CHECK(((uintptr_t)__builtin_frame_address(0) & 15) == 0, "coroutine %d: stack misaligned",
	      id);
#endif
	for (long r = 0; r < ROUNDS; r++) {
		seen[id]++;
		mine++;
		reg = reg * 3 + 1;
		coro_switch(&co[id], id + 1 < NCO ? &co[id + 1] : &main_co);
		CHECK(mine == 1000L * id + r + 1, "coroutine %d: its local lost at round %ld", id,
		      r);
	}
	CHECK(reg != 0, "coroutine %d: reg", id); /* keeps reg's value in use */
	for (;;)				  /* done: back to main for good */
		coro_switch(&co[id], &main_co);
}

static void never_run(int id)
{
	(void)id;
	abort();
}

int main(void)
{
	void *stacks[NCO + 1];
	long main_local = 42;

	for (int i = 0; i <= NCO; i++) {
		stacks[i] = malloc(STACK);
		coro_make(&co[i], stacks[i], STACK, i < NCO ? co_main : never_run, i);
	}
	for (long r = 0; r < ROUNDS; r++) {
		coro_switch(&main_co, &co[0]);
		for (int i = 0; i < NCO; i++)
			CHECK(seen[i] == r + 1, "round %ld: coroutine %d took %ld turns", r, i,
			      seen[i]);
		if (failures)
			break;
	}
	coro_switch(&main_co, &co[0]); /* each ends its loop, 0 comes back here */
	CHECK(main_local == 42, "main's local lost");
	for (int i = 0; i < NCO; i++) {
		char want[16];

		CHECK(arg_of[i] == i, "coroutine %d started with %d", i, arg_of[i]);
		snprintf(want, sizeof(want), "%.3f ", 1.5 * i / 3.0);
		CHECK(!strncmp(text[i], want, strlen(want)), "coroutine %d formatted '%s'", i,
		      text[i]);
	}
	for (int i = 0; i <= NCO; i++)
		free(stacks[i]);
	if (failures) {
		fprintf(stderr, "test_coro: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_coro: %d coroutines x %d turns: all checks passed\n", NCO, ROUNDS);
	return 0;
}
