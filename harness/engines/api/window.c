// SPDX-License-Identifier: MIT
/* window.c - bench_window_over(): the end of the calling thread's window, or of everything. */
#include "bench.h"
#include "stop.h"
#include "window.h"

atomic_int window_all_done;

/* The window flag of the measurement the calling thread belongs to, or NULL. */
static _Thread_local const atomic_int *current;

void window_bind(const atomic_int *over)
{
	current = over;
}

int bench_window_over(void)
{
	return stop_requested || atomic_load_explicit(&window_all_done, memory_order_relaxed) ||
	       (current && atomic_load_explicit(current, memory_order_relaxed));
}
