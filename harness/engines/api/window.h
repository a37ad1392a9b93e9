/* SPDX-License-Identifier: MIT */
/*
 * window.h - the harness side of bench_window_over() (bench.h): what ends a wait in a
 * scenario's run(). The measure driver binds each thread to its window's flag; the
 * coherence model and tests say when no operation is wanted any more; a stop request
 * (lib/stop) ends every wait.
 */
#ifndef PCBENCH_WINDOW_H
#define PCBENCH_WINDOW_H

#include <stdatomic.h>

/*
 * window_all_done - set when no operation is wanted any more outside a measured window: by
 * the coherence model (one OS thread) once every virtual CPU has done its operations, or by
 * a test driving scenarios on plain threads. bench_window_over() is then true, so a wait in
 * run() ends as at the end of a measured window instead of spinning on a partner that has
 * stopped. Atomic: other threads read it while one sets it.
 */
extern atomic_int window_all_done;

/*
 * window_bind - from now on, bench_window_over() on the calling thread is also true once
 * @over is nonzero (the flag of the window it measures); NULL unbinds it.
 */
void window_bind(const atomic_int *over);

#endif
