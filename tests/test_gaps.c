// SPDX-License-Identifier: MIT
/*
 * test_gaps.c - the noise the guest cannot see (issue 24), through measure.c's windows with
 * a scenario of this test's own: a thread that sleeps 30% of its window is flagged by the
 * gap accounting (host_preemption) and measured again; the probe's value passed through
 * meas_xfer_hook changes between before and after, and the window is flagged (remap) and
 * measured again; a symmetric workload whose second thread is 200 times slower is flagged
 * (imbalance), an asymmetric one is not; one thread has no probe and says why; and
 * noise_gap_lost on made-up batch times. The run delay and steal of a busy test machine
 * must not decide first, so PCBENCH_PROCFS_ROOT points at an empty directory: the kernel
 * "does not say" either. Nothing asserts a time: the sleep only bounds lost_pct from below.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "measure.h"
#include "noise.h"
#include "test_scenario.h"
#include "topology.h"
#include "util.h"

#define WINDOW_S 0.2

static int windows_seen;  /* setup() calls: the window being measured, from 1 */
static int sleep_windows; /* the sleeper sleeps in windows 1..sleep_windows (-1: all) */
static int sleeper = -1;  /* the thread that sleeps 30% of the window, or -1 */
static int slow_factor = 1;

struct shared {
	double t_sleep; /* when the sleeper sleeps: 20% into the window */
};

struct tstate {
	struct test_thread th;
	int slept;
	volatile unsigned long sink;
};
TEST_THREAD_STATE(struct tstate, th);

static void *t_setup(const struct bench_cfg *cfg, char *err, size_t len)
{
	struct shared *s = bench_alloc(sizeof(*s), 64);

	(void)cfg, (void)err, (void)len;
	windows_seen++;
	/* after setup: the probe (at most 1% of the window), the warm-up (a tenth), then it */
	s->t_sleep = now_s() + WINDOW_S * (0.01 + 0.1 + 0.2);
	return s;
}

static uint64_t t_run(void *shared, void *tstate, uint64_t n)
{
	struct shared *s = shared;
	struct tstate *t = tstate;
	int work = t->th.id == 1 ? 50 * slow_factor : 50;

	if (t->th.id == sleeper && !t->slept &&
	    (sleep_windows < 0 || windows_seen <= sleep_windows) && now_s() >= s->t_sleep) {
		struct timespec ts = {0, (long)(WINDOW_S * 0.3 * 1e9)};

		t->slept = 1;
		nanosleep(&ts, NULL);
	}
	for (uint64_t i = 0; i < n; i++)
		for (int k = 0; k < work; k++)
			t->sink += (unsigned long)k;
	return n;
}

static const struct bench_param t_params[] = {{0}};
static const struct bench_preset t_presets[] = {{"base", "", ""}, {0}};
static const struct bench_workload t_workloads[] = {
    {"sym", "every thread the same", "", BENCH_SYMMETRIC}, {"asym", "roles", "", 0}, {0}};
static const struct scenario t_scenario = {
    .name = "gaps_selftest",
    .desc = "",
    .params = t_params,
    .presets = t_presets,
    .workloads = t_workloads,
    .setup = t_setup,
    .thread_setup = test_thread_setup,
    .run = t_run,
};

static int hook_calls, hook_remap_windows;

/* The probe says 60 ns before and 460 ns after in the first hook_remap_windows windows. */
static double fake_probe(int after, double ns)
{
	int window = hook_calls++ / 2 + 1;

	(void)ns;
	if (window <= hook_remap_windows)
		return after ? 460 : 60;
	return after ? 61 : 60;
}

struct setup {
	struct topo *t;
	int pus[2], npus;
};

/* measure - one row: @threads threads of workload @wl, noise limit @max, @retries. */
static void measure(const struct setup *su, const char *what, const char *wl, int threads,
		    double max, int retries, double imbalance, struct measurement *m,
		    struct meas_result *r)
{
	struct bench_cfg *cfg;
	struct topo_home home;
	char err[256];

	windows_seen = 0;
	hook_calls = 0;
	cfg = cfg_new(&t_scenario, &t_presets[0], workload_find(&t_scenario, wl), threads, NULL, 0,
		      err, sizeof(err));
	CHECK(cfg != NULL, "%s: cfg: %s", what, err);
	if (!cfg)
		exit(1);
	topo_home_parse(su->t, "first", su->pus[0], &home, err, sizeof(err));
	meas_init(m, &t_scenario, cfg, su->t, threads, su->pus, WINDOW_S, WINDOW_S / 10, &home);
	meas_set_noise(m, max, retries);
	meas_set_imbalance(m, imbalance);
	meas_run(m);
	meas_result(m, r);
	CHECK(!r->failed, "%s: failed: %s", what, r->reason);
	printf("%s: %d window(s), %d retries, lost %.1f%%, ops %llu..%llu, probe %.0f/%.0f ns "
	       "%s, gaps %d, imbalance %d, remap %d: %s\n",
	       what, r->windows, r->retries, r->lost_pct, (unsigned long long)r->ops_min,
	       (unsigned long long)r->ops_max, r->xfer_ns[0], r->xfer_ns[1], r->xfer_note,
	       r->kind_windows[NOISE_GAPS], r->kind_windows[NOISE_IMBALANCE],
	       r->kind_windows[NOISE_REMAP], r->disturbed ? r->noise_reason : "clean");
	cfg_free(cfg);
}

/* The gap arithmetic on made-up batch times (ns). */
static void test_gap_lost(void)
{
	struct noise_gaps *g = xcalloc(1, sizeof(*g));
	double med, lost;

	for (int i = 0; i < 3; i++)
		noise_gap_add(g, 20000);
	noise_gap_add(g, 60e6);
	CHECK(noise_gap_lost(g, &med) == 0 && med == 0, "4 batches: judged");
	for (int i = 0; i < 996; i++)
		noise_gap_add(g, 20000);
	lost = noise_gap_lost(g, &med);
	CHECK(med == 20000 && fabs(lost - (60e6 - 20000)) < 1e-3,
	      "one 60 ms gap among 20 us batches: median %g, lost %g", med, lost);
	memset(g, 0, sizeof(*g));
	for (int i = 0; i < 500; i++) {
		noise_gap_add(g, 10000);
		noise_gap_add(g, 90000); /* 9x: a slow batch, not a gap */
	}
	lost = noise_gap_lost(g, &med);
	CHECK(lost == 0, "batches within 9x of each other: lost %g (median %g)", lost, med);
	free(g);
}

int main(void)
{
	char dir[] = "/tmp/test_gaps.XXXXXX", err[256];
	struct measurement m;
	struct meas_result r;
	struct setup su = {0};

	test_gap_lost();
	/* no schedstat, no /proc/stat: run delay and steal unknown, never judged here */
	if (!mkdtemp(dir) || setenv("PCBENCH_PROCFS_ROOT", dir, 1)) {
		perror("test_gaps: mkdtemp");
		return 1;
	}
	su.t = topo_load_host(err, sizeof(err));
	CHECK(su.t != NULL, "topology: %s", err);
	if (!su.t)
		return 1;
	su.npus = topo_npus(su.t) >= 2 ? 2 : 1;
	if (topo_place(su.t, "scatter", su.npus, su.pus, err, sizeof(err))) {
		fprintf(stderr, "test_gaps: %s\n", err);
		return 1;
	}

	/* A sleep of 30% of the first window: flagged by the gaps, measured again. */
	sleeper = su.npus - 1, sleep_windows = 1;
	measure(&su, "sleep once", "sym", su.npus, 0.10, 2, 0, &m, &r);
	CHECK(r.retries >= 1 && r.kind_windows[NOISE_GAPS] >= 1,
	      "sleep once: want the first window disturbed by gaps and measured again");
	meas_destroy(&m);

	/* ...in every window, no retries: the row is disturbed by host_preemption. */
	sleep_windows = -1;
	measure(&su, "sleep always", "sym", su.npus, 0.10, 0, 0, &m, &r);
	CHECK(r.disturbed && !strcmp(r.disturbed_by, "host_preemption") &&
		  strstr(r.noise_reason, "gaps") && r.lost_pct >= 20,
	      "sleep always: disturbed %d by '%s', lost %.1f%%", r.disturbed, r.disturbed_by,
	      r.lost_pct);
	meas_destroy(&m);

	/* --noise-max off: recorded, not judged. */
	measure(&su, "sleep, off", "sym", su.npus, INFINITY, 2, 0.5, &m, &r);
	CHECK(!r.disturbed && r.retries == 0 && r.lost_pct >= 20,
	      "noise off: disturbed %d, retries %d, lost %.1f%%", r.disturbed, r.retries,
	      r.lost_pct);
	meas_destroy(&m);
	sleeper = -1;

	/*
	 * From here on the noise limit is the whole window: no thread can lose more than that
	 * in gaps, so however busy this machine is, only the probe and imbalance judge.
	 */
	/* One thread: no probe, and why. */
	measure(&su, "one thread", "sym", 1, 1.0, 0, 0, &m, &r);
	CHECK(isnan(r.xfer_ns[0]) && isnan(r.xfer_ns[1]) && strstr(r.xfer_note, "one thread"),
	      "one thread: probe %g/%g, note '%s'", r.xfer_ns[0], r.xfer_ns[1], r.xfer_note);
	meas_destroy(&m);

	if (su.npus < 2) {
		printf("test_gaps: one PU: no probe or imbalance cases\n");
		goto out;
	}
	/* The real probe: a value before and after, or the reason there is none. */
	measure(&su, "probe", "sym", 2, 1.0, 0, 0, &m, &r);
	CHECK((r.xfer_ns[0] > 0 && r.xfer_ns[1] > 0) || r.xfer_note[0], "probe: %g/%g ns, no note",
	      r.xfer_ns[0], r.xfer_ns[1]);
	meas_destroy(&m);

	/* A probe that changed between before and after: remap, measured again. */
	meas_xfer_hook = fake_probe;
	hook_remap_windows = 1;
	measure(&su, "remap once", "sym", 2, 1.0, 2, 0, &m, &r);
	CHECK(r.retries >= 1 && r.kind_windows[NOISE_REMAP] == 1 && r.xfer_ns[0] == 60 &&
		  r.xfer_ns[1] == 61,
	      "remap once: want one remapped window, measured again, kept 60/61 ns");
	meas_destroy(&m);
	hook_remap_windows = 100;
	measure(&su, "remap always", "sym", 2, 1.0, 0, 0, &m, &r);
	CHECK(r.disturbed && !strcmp(r.disturbed_by, "remap") && strstr(r.noise_reason, "460"),
	      "remap always: disturbed %d by '%s'", r.disturbed, r.disturbed_by);
	meas_destroy(&m);
	meas_xfer_hook = NULL;

	/* Thread 1 200 times slower (also when a busy machine preempts thread 0 most of the
	 * window): imbalance in a symmetric workload only. */
	slow_factor = 200;
	measure(&su, "slow, symmetric", "sym", 2, 1.0, 0, 0.5, &m, &r);
	CHECK(r.disturbed && !strcmp(r.disturbed_by, "imbalance"),
	      "slow, symmetric: disturbed %d by '%s'", r.disturbed, r.disturbed_by);
	meas_destroy(&m);
	measure(&su, "slow, roles", "asym", 2, 1.0, 0, 0.5, &m, &r);
	CHECK(strcmp(r.disturbed_by, "imbalance"), "slow, roles: disturbed by imbalance");
	meas_destroy(&m);
	slow_factor = 1;
out:
	topo_free(su.t);
	rmdir(dir);
	if (!failures)
		printf("ok: gaps, probe, imbalance\n");
	return failures != 0;
}
