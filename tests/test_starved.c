// SPDX-License-Identifier: MIT
/*
 * test_starved.c - a window in which no operation completed because a measuring thread was
 * kept off its CPU is starved (disturbed, its reason ending "(starved)"), not an error,
 * also when that thread had spent CPU time before the warm-up: under load 13 on 2 CPUs,
 * thread 0 spinning in the transfer probe for a descheduled partner hid the starved window
 * that followed, and test_smoke and topology_host got "no operation completed in the window"
 * (docs/measuring.md, Noise). Stand-ins, no load: thread 0 burns 0.2 s of its CPU time in
 * the probe (meas_xfer_hook), then its first operation sleeps 0.1 s, past warm-up + window
 * (off its CPU, as a descheduled thread); thread 1 waits for it, spinning on its CPU. The
 * durations only make the stand-ins long enough; no duration is asserted.
 *
 * Under a hypervisor that accounts no steal (QEMU TCG, issue 38), a vCPU the host took away
 * looks on its CPU to the guest: a window with no operation whose threads had their CPUs is
 * starved when a hypervisor is present and steal stayed 0 on every planned CPU, and an
 * error (no operation, not disturbed) otherwise. Stand-ins: the "idle" scenario's threads
 * spin on their CPUs and complete nothing; noise_hypervisor and noise_steal_reader answer.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "harness.h"
#include "measure.h"
#include "noise.h"
#include "test_scenario.h"
#include "topology.h"
#include "util.h"

#define WINDOW_S 0.01
#define BURN_CPU_S 0.2 /* thread 0's CPU time in the probe, twice its sleep */
#define SLEEP_S 0.1    /* thread 0 off its CPU, ten times warm-up + window */

struct stall {
	atomic_int ticks; /* thread 0's operations: none in the window */
};

struct stall_thread {
	struct test_thread th;
	int slept; /* thread 0: its first operation of this window slept */
};
TEST_THREAD_STATE(struct stall_thread, th);

/* Thread 0, after each probe: before the window, spin as for a partner off its CPU. */
static double burn_hook(int after, double ns)
{
	double t0 = noise_thread_cpu_s();

	while (!after && noise_thread_cpu_s() - t0 < BURN_CPU_S)
		;
	return ns;
}

static void *stall_setup(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	struct stall *s = bench_alloc(sizeof(*s), BENCH_PAD);

	(void)cfg;
	if (!s)
		bench_error(err, errlen, "out of memory");
	return s;
}

/*
 * Thread 0 sleeps through the window in its first operation and returns with none done;
 * thread 1 waits for a tick of thread 0 until the window is over.
 */
static uint64_t stall_run(void *shared, void *tstate, uint64_t n)
{
	struct stall *s = shared;
	struct stall_thread *t = tstate;
	unsigned spins = 0;

	(void)n;
	if (t->th.id == 0) {
		struct timespec d = {0, (long)(SLEEP_S * 1e9)};

		if (!t->slept++)
			while (nanosleep(&d, &d))
				;
		return 0;
	}
	while (!atomic_load(&s->ticks))
		if (bench_spin(&spins))
			return 0;
	return 0;
}

static const struct scenario stall_scenario = {
    .name = "stall",
    .desc = "thread 0 off its CPU through the window, thread 1 waiting for it",
    .params = (const struct bench_param[]){{0}},
    .presets = (const struct bench_preset[]){{"stall", "thread 0 sleeps", ""}, {0}},
    .workloads = (const struct bench_workload[]){{"wait", "thread 1 waits", "", 0}, {0}},
    .setup = stall_setup,
    .thread_setup = test_thread_setup,
    .run = stall_run,
};

/* The idle scenario: every call spins 20 us on the CPU and completes no operation. */
static uint64_t idle_run(void *shared, void *tstate, uint64_t n)
{
	double t0 = noise_thread_cpu_s();

	(void)shared, (void)tstate, (void)n;
	while (noise_thread_cpu_s() - t0 < 20e-6)
		;
	return 0;
}

static const struct scenario idle_scenario = {
    .name = "idle",
    .desc = "threads on their CPUs, no operation completes",
    .params = (const struct bench_param[]){{0}},
    .presets = (const struct bench_preset[]){{"idle", "nothing done", ""}, {0}},
    .workloads = (const struct bench_workload[]){{"spin", "spin", "", 0}, {0}},
    .setup = stall_setup,
    .thread_setup = test_thread_setup,
    .run = idle_run,
};

static int hv_yes(void)
{
	return 1;
}
static int hv_no(void)
{
	return 0;
}
static unsigned long long fake_steal;
static int steal_fixed(int cpu, unsigned long long *ticks)
{
	(void)cpu;
	*ticks = fake_steal;
	return 0;
}
static int steal_growing(int cpu, unsigned long long *ticks)
{
	(void)cpu;
	*ticks = ++fake_steal;
	return 0;
}

/*
 * idle_window - one idle window with these answers: 2 when it was starved for the
 * hypervisor's sake, 1 starved for a thread off its CPU (this machine's load), 0 not
 * disturbed.
 */
static int idle_window(struct topo *t, const int *pus, int (*hv)(void),
		       int (*steal)(int, unsigned long long *), const char *what)
{
	struct bench_cfg *cfg;
	struct measurement m;
	struct meas_result r;
	struct topo_home home;
	char err[256];
	int starved;

	noise_hypervisor = hv;
	noise_steal_reader = steal;
	cfg = cfg_new(&idle_scenario, &idle_scenario.presets[0], &idle_scenario.workloads[0], 2,
		      NULL, 0, err, sizeof(err));
	CHECK(cfg != NULL, "cfg: %s", err);
	if (!cfg)
		return -1;
	topo_home_parse(t, "first", pus[0], &home, err, sizeof(err));
	meas_init(&m, &idle_scenario, cfg, t, 2, pus, WINDOW_S, WINDOW_S / 10, &home);
	meas_set_noise(&m, INFINITY, 0);
	meas_run(&m);
	meas_result(&m, &r);
	printf("idle, %s: %llu ops, %s\n", what, (unsigned long long)r.ops,
	       r.failed	     ? r.reason
	       : r.disturbed ? r.noise_reason
			     : "clean (no operation completed: an error)");
	CHECK(!r.failed && r.ops == 0, "%s: want no operation and no failure", what);
	starved = !r.disturbed ? 0 : strstr(r.noise_reason, "hypervisor") ? 2 : 1;
	CHECK(!r.disturbed || !strcmp(r.disturbed_by, "starved"), "%s: disturbed by %s", what,
	      r.disturbed_by);
	meas_destroy(&m);
	cfg_free(cfg);
	return starved;
}

int main(void)
{
	struct bench_cfg *cfg;
	struct measurement m;
	struct meas_result r;
	struct topo_home home;
	struct topo *t;
	char err[256];
	int pus[2];

	t = topo_load_host(err, sizeof(err));
	if (!t) {
		fprintf(stderr, "test_starved: %s\n", err);
		return 1;
	}
	if (topo_place(t, "scatter", 2, pus, err, sizeof(err)) || pus[0] == pus[1]) {
		printf("SKIP: no two PUs for two threads: %s\n", err);
		topo_free(t);
		return 77;
	}
	cfg = cfg_new(&stall_scenario, &stall_scenario.presets[0], &stall_scenario.workloads[0], 2,
		      NULL, 0, err, sizeof(err));
	CHECK(cfg != NULL, "cfg: %s", err);
	if (!cfg)
		return 1;
	topo_home_parse(t, "first", pus[0], &home, err, sizeof(err));
	meas_xfer_hook = burn_hook;
	noise_hypervisor = hv_no; /* the CPU times decide (this machine may be a VM) */
	meas_init(&m, &stall_scenario, cfg, t, 2, pus, WINDOW_S, WINDOW_S / 10, &home);
	meas_set_noise(&m, INFINITY, 0); /* --noise-max off (make test): one window */
	meas_run(&m);
	meas_result(&m, &r);
	printf("stall: %llu ops, %s\n", (unsigned long long)r.ops,
	       r.failed	     ? r.reason
	       : r.disturbed ? r.noise_reason
			     : "clean");
	CHECK(!r.failed, "failed: %s", r.reason);
	CHECK(r.ops == 0, "%llu operations, want none", (unsigned long long)r.ops);
	CHECK(r.disturbed && strstr(r.noise_reason, "(starved)") &&
		  !strcmp(r.disturbed_by, "starved"),
	      "want a starved window (disturbed), got %s",
	      r.disturbed ? r.noise_reason : "a clean one (no operation completed: an error)");
	meas_destroy(&m);
	cfg_free(cfg);

	meas_xfer_hook = NULL;
	CHECK(idle_window(t, pus, hv_yes, steal_fixed, "hypervisor, steal 0") == 2,
	      "a hypervisor with steal 0: want starved (the host may have taken the vCPUs)");
	/* Without that reason, the window is an error, or starved by this machine's load. */
	CHECK(idle_window(t, pus, hv_no, steal_fixed, "no hypervisor") < 2,
	      "no hypervisor: starved for a hypervisor's sake");
	CHECK(idle_window(t, pus, hv_yes, steal_growing, "hypervisor, steal counted") < 2,
	      "a hypervisor that accounts steal: starved for its sake");
	topo_free(t);
	if (!failures)
		printf(
		    "ok: a starved window is disturbed, whatever CPU time came before it; under a "
		    "hypervisor without steal too\n");
	return failures != 0;
}
