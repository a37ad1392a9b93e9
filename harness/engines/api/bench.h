/* SPDX-License-Identifier: MIT */
/*
 * bench.h - the scenario API. A scenario is one file in benches/ that defines one
 * `const struct scenario <name>_scenario` and registers itself with one add_scenario(<name>)
 * line in benches/CMakeLists.txt. It sees only this header, access.h and layout.h: the
 * harness owns threads, pinning, timing, repetitions, counters and output.
 */
#ifndef PCBENCH_BENCH_H
#define PCBENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "access.h"
#include "layout.h"

/* Cache-line size the harness pads private blocks to (covers adjacent-line prefetch). */
#define BENCH_PAD 128

/*
 * One scenario parameter. Values are strings; a parameter is either one of @choices
 * ("a|b|c"), or an integer in [@min, @max] when @choices is NULL. A parameter with
 * choices == BENCH_LAYOUT is the scenario's layout (at most one): any built-in layout name,
 * layout file or btf:, which the harness loads (once per process) before check() runs and
 * bench_layout() returns; --layout sets it. Parameters with choices == BENCH_FILE take a
 * file path (or a built-in name the scenario knows); the harness does not validate them,
 * the scenario's check() does.
 */
struct bench_param {
	const char *name;
	const char *def;
	const char *help;
	const char *choices;
	long min, max;
};
#define BENCH_LAYOUT "<layout>"
#define BENCH_FILE "<file>"

/* A preset: a named set of parameter values, "k=v k=v", reproducing one kernel state. */
struct bench_preset {
	const char *name;
	const char *desc;
	const char *set;
};

/* A workload: an operation mix, with its own parameter defaults ("k=v ..."). */
struct bench_workload {
	const char *name;
	const char *desc;
	const char *set;
	unsigned flags; /* BENCH_SYMMETRIC */
};
/*
 * Workload flags. BENCH_SYMMETRIC: every thread runs the same operations on equally shared
 * state; with --imbalance-min R (an opt-in, off by default) a window whose
 * ops_min_thread / ops_max_thread is under R is disturbed (--list says which workloads).
 */
#define BENCH_SYMMETRIC 1u

/* The resolved parameters of one measurement (opaque to scenarios). */
struct bench_cfg;

/*
 * Parameter values. Order of precedence, lowest first: the parameter's default, the
 * workload's set, the preset's set, the user's --param. Values are validated before any
 * measurement starts, so these never fail for a declared parameter.
 */
const char *bench_str(const struct bench_cfg *cfg, const char *name);
long bench_long(const struct bench_cfg *cfg, const char *name);
const char *bench_workload_name(const struct bench_cfg *cfg);
int bench_threads(const struct bench_cfg *cfg);

/*
 * bench_layout - the layout of the scenario's BENCH_LAYOUT parameter, loaded before check()
 * (a configuration whose layout cannot be loaded never reaches the scenario). NULL only for
 * a scenario without such a parameter.
 */
const struct layout *bench_layout(const struct bench_cfg *cfg);

/*
 * bench_alloc - zeroed memory for modelled structs or per-thread blocks, aligned to
 * @align (rounded up to a power of two, at least 64). The harness decides where it lives.
 * The rule: the shared state setup() returns and the state thread_setup() returns come
 * from bench_alloc, nothing else. The harness may free them itself with bench_free: the
 * model frees an abandoned virtual CPU's state without its thread_teardown, and the default
 * hooks free what they are given.
 */
void *bench_alloc(size_t size, size_t align);
void bench_free(void *p);

/*
 * bench_window_over - true once the measured window of the calling thread's measurement
 * has ended. Only for operations that wait on another thread (a ping-pong): they must give
 * up when the partner has stopped. Cheap (one relaxed load), but call it every few hundred
 * spins, not per access.
 */
int bench_window_over(void);

/*
 * bench_spin - one retry of a wait on another thread: a pause and, every 256 retries,
 * bench_window_over(). Nonzero once the window is over: the waiter then gives up.
 *	while (pc_load(p) != v)
 *		if (bench_spin(&spins))
 *			return i;
 */
static inline int bench_spin(unsigned *spins)
{
	pc_cpu_relax();
	return !(++*spins & 255) && bench_window_over();
}

/* bench_error - write a formatted reason into @err (setup and check helpers). */
void bench_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * bench_note - a remark on stderr ("pcbench: note: ..."), printed once per distinct text
 * however often a check runs: what a scenario accepts but does not model (the fields of a
 * newer kernel's struct it ignores).
 */
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A modelled object of the shared state: where it is and which layout struct it follows. */
struct bench_object {
	const char *name;  /* "root", "L1", ... */
	const char *sname; /* struct name in the layout, "mem_cgroup" */
	const void *base;
	const struct layout *layout;
};

/*
 * Scenario flags (struct scenario.flags).
 * BENCH_KERNEL: the scenario drives the running kernel (system calls, page faults,
 * sockets) instead of modelled memory. Nothing is modelled, so the coherence model
 * (`model`, `--with-model`), `hitm` and `layout show` refuse it (bench_unmodelled says
 * why), and a run that names no scenario (the default suite) leaves it out: it runs only
 * when selected with -s.
 */
#define BENCH_KERNEL 1u

struct scenario {
	const char *name;
	const char *desc;
	unsigned flags;				/* BENCH_* */
	const struct bench_param *params;	/* terminated by {NULL} */
	const struct bench_preset *presets;	/* terminated by {NULL}; the first is the base */
	const struct bench_workload *workloads; /* terminated by {NULL} */

	/* Optional: validate a resolved configuration before anything is measured. */
	int (*check)(const struct bench_cfg *cfg, char *err, size_t errlen);
	/*
	 * Build the shared modelled state for one measurement (called once, on thread 0 after
	 * it is pinned), from bench_alloc. Returns NULL with a reason in @err on failure.
	 */
	void *(*setup)(const struct bench_cfg *cfg, char *err, size_t errlen);
	/* Optional: free @shared (default: bench_free(shared)). */
	void (*teardown)(void *shared);
	/*
	 * Optional: per-thread private state, built on the pinned thread itself, from
	 * bench_alloc. NULL means failure. Default: a zeroed BENCH_PAD block.
	 */
	void *(*thread_setup)(void *shared, int thread);
	/*
	 * Optional: undo what the thread still holds (outstanding charges, stock) and free its
	 * state. Default: bench_free(tstate).
	 */
	void (*thread_teardown)(void *shared, void *tstate);
	/*
	 * Perform @n operations; the only function that runs inside the measured window.
	 * Returns the operations performed: @n, or fewer only when it stopped early because
	 * bench_window_over() became true while it waited for another thread.
	 */
	uint64_t (*run)(void *shared, void *tstate, uint64_t n);
	/*
	 * Optional: the modelled objects of @shared, at most @max of them; returns how many.
	 * Lets tests, reports and the coherence model map an address back to an object and a
	 * field; without it every shared access is reported as (shared).
	 */
	int (*objects)(void *shared, struct bench_object *out, int max);
	/*
	 * Optional: extra lines for `pcbench --list` about one resolved configuration (a
	 * preset), e.g. which hot-read fields share a cache line with hot-written ones.
	 * Each line is written with @out(@arg, line).
	 */
	void (*describe)(const struct bench_cfg *cfg, void (*out)(void *arg, const char *line),
			 void *arg);
	/*
	 * Optional, for scenarios whose layout is computed from parameters rather than named
	 * by a BENCH_LAYOUT parameter: that layout (the caller frees it), for layout_fp; and
	 * the parameter whose value names it (one of @params), for the results' layout column.
	 */
	struct layout *(*computed_layout)(const struct bench_cfg *cfg);
	const struct bench_param *layout_param;
	/*
	 * Optional: nonzero when a valid configuration cannot run as planned (a workload that
	 * needs two threads, at one): its rows are skipped with the reason written to @why.
	 */
	int (*skip)(const struct bench_cfg *cfg, char *why, size_t len);
	/*
	 * Optional: called once after every window, on thread 0, once every thread_teardown has
	 * run and before teardown: check what the window did (messages received = sent) and
	 * write a one-line account of it into @note (the row's `note` column: the filesystem,
	 * the counts). Returns 0, or -1 with the reason in @note: the row becomes an error.
	 */
	int (*window_end)(void *shared, char *note, size_t len);
	/*
	 * Optional (BENCH_KERNEL scenarios): the emulated families workload @wl stands for,
	 * "scenario:workload" items separated by spaces ("page_counter:socket"), or NULL.
	 * --list prints them; compare sets a run's real and emulated families side by side.
	 */
	const char *(*emulates)(const char *wl);
};

/* bench_unmodelled - why @sc cannot be modelled or annotated (BENCH_KERNEL), or NULL. */
static inline const char *bench_unmodelled(const struct scenario *sc)
{
	return sc->flags & BENCH_KERNEL ? "it measures the running kernel, nothing is modelled"
					: NULL;
}

#endif
