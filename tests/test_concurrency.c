// SPDX-License-Identifier: MIT
/*
 * test_concurrency.c - the page_counter scenario under real concurrency (the normal, untraced
 * build): for every preset and workload, THREADS plain pthreads charge and uncharge the same
 * hierarchy at once; after every thread's thread_teardown the hierarchy must be back where
 * setup left it. Nothing here is timed or pinned.
 *
 * The `socket` workload's conservation: after a run of N = 1..4 threads (odd N: the last
 * thread sends to itself), also with `mix`, every level's usage is back at the preload, every
 * stock is drained (a stocked page is a charged page, so the usage says it) and no page is
 * left in flight on any pair's word. Its waits (and stocked_xcpu's) end through
 * bench_window_over(): the first worker done sets window_all_done, as the end of a measured
 * window would. After every run the scenario's own window_end() must find its invariants.
 *
 * `test_concurrency --loop N` (ctest sock_teardown_loop): what found the teardown race of
 * sock.h (issue 35) - the socket workload, 2000 operations per thread, N times in a row,
 * every pairing of ack and receiver at 2 and 3 threads, with two threads spinning beside the
 * workers so that the teardowns, which run at once as measure.c runs them, are preempted at
 * any point. It stops at the first iteration that does not balance.
 *
 * Under TSan (PCBENCH_SANITIZED contains "thread": make test-tsan) every configuration runs
 * OPS / 20 operations per thread instead of OPS: the same presets, workloads, thread counts
 * and parameters, and the same checks after each run, over fewer operations. A run's paths
 * recur within a few hundred operations (a stock's batch of 32 or 64 pages, a burst of
 * about 48, a socket window of 32 pages), the threads still overlap (none stops before
 * every thread has run a chunk), and TSan judges the accesses that happen by their
 * happens-before: 5000 operations per thread take every path many times over. make test-all
 * runs OPS. --loop (sock_teardown_loop) keeps LOOP_OPS and its iterations in every build.
 *
 * Under ASan (PCBENCH_SANITIZED without "thread": make test-asan) the workloads whose threads
 * wait for a partner (socket, stocked_xcpu) at 2 threads or more also run OPS / 20; the
 * others keep OPS. A paired run's CPU time is its waits: with 4 threads on 2 CPUs a waiter
 * spins until its descheduled partner runs again (100000 operations of socket x4 took 5 to
 * 20 CPU s under ASan on a loaded 2-vCPU VM, direct x4 0.2 s), and ASan finds a bad access
 * on the first pass of a path, which 5000 operations take many times over. The handshakes
 * still interleave at every operation; the teardown race keeps its own loop (above).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "window.h"
#include "check.h"
#include "scenario_inst.h"

#define NLEVELS 4 /* root, L1, L2, L3 */
#define MIN_PAGES 256
#define LOW_PAGES 512
#define THREADS 4
#define OPS 100000 /* per thread, at least (--loop: LOOP_OPS; TSan, ASan paired: OPS / 20) */
#define LOOP_OPS 2000
#define MAXHOGS 8
#define CHUNK 1000
#define MAXOBJ 16

static const char *const level_names[NLEVELS] = {"root", "L1", "L2", "L3"};

struct run {
	const struct scenario *sc;
	void *shared;
	int threads, paired;
	long ops;
	pthread_barrier_t start;
	int setup_failed[THREADS];
	atomic_int started; /* threads that finished their first chunk */
	atomic_int inside;  /* threads inside run() right now */
	atomic_int overlap; /* the most threads seen inside run() at once (informative) */
};

struct worker {
	struct run *r;
	int tid;
};

static void *worker(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->r;
	void *ts = scenario_thread_setup(r->sc, r->shared, w->tid);

	r->setup_failed[w->tid] = !ts;
	pthread_barrier_wait(&r->start);
	if (!ts) {
		pthread_barrier_wait(&r->start);
		return NULL;
	}
	/* No thread stops before every thread has run a chunk, so their runs overlap. */
	for (long done = 0; done < r->ops || atomic_load(&r->started) < r->threads; done += CHUNK) {
		int in = atomic_fetch_add(&r->inside, 1) + 1, seen = atomic_load(&r->overlap);

		while (in > seen && !atomic_compare_exchange_weak(&r->overlap, &seen, in))
			;
		r->sc->run(r->shared, ts, CHUNK);
		atomic_fetch_sub(&r->inside, 1);
		if (!done)
			atomic_fetch_add(&r->started, 1);
	}
	if (r->paired) /* a partner may wait for this thread: end the "window" */
		atomic_store(&window_all_done, 1);
	pthread_barrier_wait(&r->start); /* every thread has stopped, as in the harness */
	scenario_thread_teardown(r->sc, r->shared, ts);
	return NULL;
}

/*
 * A configuration: a preset, a workload, optional user parameters and, for the crossing
 * runs, L1's memory.min/low rewritten after setup (0: keep the scenario's 256/512).
 */
struct conf {
	const struct bench_preset *preset;
	const struct bench_workload *wl;
	char *const *user;
	int nuser;
	long set_min, set_low;
	int threads; /* 0: THREADS */
};

static void check_state(const char *label, const struct conf *c, const struct bench_cfg *cfg,
			const struct bench_object *obj, int nobj)
{
	static const char *const zero_fields[] = {
	    "memory.failcnt", "memory.emin",	"memory.elow",	 "swap.usage",
	    "swap.failcnt",   "swap.min_usage", "swap.low_usage"};
	const long preload = bench_long(cfg, "preload");
	const int stocked = !strcmp(bench_workload_name(cfg), "stocked");
	const int socket = !strcmp(bench_workload_name(cfg), "socket");
	const int xcpu = !strcmp(bench_workload_name(cfg), "stocked_xcpu");
	const long nr = bench_long(cfg, "nr"), batch = bench_long(cfg, "batch");
	/* What one thread can have charged at once: its charge in flight, or (stocked) the
	 * largest burst, the stock and the batch being charged, or (socket) its stock, the
	 * batch being charged, its pair's window charged twice (tx and rx) with an skb more
	 * and the forward allocations, or (stocked_xcpu) its stock and its pair's burst. */
	const long skb =
	    (bench_long(cfg, "skb_head") + bench_long(cfg, "skb_msgs") * bench_long(cfg, "msg")) /
		4096 +
	    2;
	const long per_thread = stocked	 ? 2 * bench_long(cfg, "burst") + batch + nr
				: socket ? 2 * batch + 2 * (bench_long(cfg, "window") + 2 * skb)
				: xcpu	 ? 2 * batch + bench_long(cfg, "burst") + 2 * nr
					 : nr;
	const long wm_min = preload + (stocked || socket || xcpu ? batch : nr);
	char what[400];

	/* Conservation: nothing in flight, nothing left in a socket's forward allocation. */
	for (int i = NLEVELS; i < nobj; i++) {
		static const char *const words[] = {"pending", "acked", "tx_fwd", "rx_fwd",
						    "inflight"};

		for (size_t w = 0; w < ARRAY_SIZE(words); w++) {
			if (layout_offset(obj[i].layout, obj[i].sname, words[w]) < 0)
				continue;
			snprintf(what, sizeof(what), "%s: %s.%s after teardown", label, obj[i].name,
				 words[w]);
			CHECK_EQ(what, obj_val(&obj[i], words[w]), 0);
		}
	}

	for (int lv = 0; lv < NLEVELS; lv++) {
		const char *ln = level_names[lv];
		long wm = obj_val(&obj[lv], "memory.watermark");

		snprintf(what, sizeof(what), "%s: %s memory.usage", label, ln);
		CHECK_EQ(what, obj_val(&obj[lv], "memory.usage"), preload);
		if (lv == 1 && c->set_min) {
			/*
			 * Crossing: every charge and uncharge moves L1's protected usage, and
			 * the last propagation may have seen another thread's charge (the race
			 * the kernel accepts), so only bounds hold: min(usage seen, limit)
			 * with usage seen in [preload, preload + THREADS * nr].
			 */
			long mu = obj_val(&obj[lv], "memory.min_usage");
			long lu = obj_val(&obj[lv], "memory.low_usage");
			long hi = preload + THREADS * bench_long(cfg, "nr");

			CHECK(mu >= preload && mu <= (hi < c->set_min ? hi : c->set_min),
			      "%s: L1 memory.min_usage %ld outside [%ld, %ld]", label, mu, preload,
			      hi < c->set_min ? hi : c->set_min);
			CHECK(lu >= preload && lu <= (hi < c->set_low ? hi : c->set_low),
			      "%s: L1 memory.low_usage %ld outside [%ld, %ld]", label, lu, preload,
			      hi < c->set_low ? hi : c->set_low);
		} else {
			snprintf(what, sizeof(what), "%s: %s memory.min_usage", label, ln);
			CHECK_EQ(what, obj_val(&obj[lv], "memory.min_usage"),
				 lv == 1 ? MIN_PAGES : 0);
			snprintf(what, sizeof(what), "%s: %s memory.low_usage", label, ln);
			CHECK_EQ(what, obj_val(&obj[lv], "memory.low_usage"),
				 lv == 1 ? LOW_PAGES : 0);
		}
		for (size_t i = 0; i < ARRAY_SIZE(zero_fields); i++) {
			snprintf(what, sizeof(what), "%s: %s %s", label, ln, zero_fields[i]);
			CHECK_EQ(what, obj_val(&obj[lv], zero_fields[i]), 0);
		}
		/* Each parent's children_* sums equal its only child's protected usage, exactly:
		 * every change of a child's value is xchg'd and its delta added to the sum. */
		long cmin = lv + 1 < NLEVELS ? obj_val(&obj[lv + 1], "memory.min_usage") : 0;
		long clow = lv + 1 < NLEVELS ? obj_val(&obj[lv + 1], "memory.low_usage") : 0;

		snprintf(what, sizeof(what), "%s: %s memory.children_min_usage vs its child's",
			 label, ln);
		CHECK_EQ(what, obj_val(&obj[lv], "memory.children_min_usage"), cmin);
		snprintf(what, sizeof(what), "%s: %s memory.children_low_usage vs its child's",
			 label, ln);
		CHECK_EQ(what, obj_val(&obj[lv], "memory.children_low_usage"), clow);
		/* Racy, but every store writes a just-charged usage: within these bounds. */
		CHECK(wm >= wm_min && wm <= preload + THREADS * per_thread,
		      "%s: %s memory.watermark %ld outside [%ld, %ld]", label, ln, wm, wm_min,
		      preload + THREADS * per_thread);
	}
}

static int quiet; /* --loop: no line per run */

static void test_one(const struct scenario *sc, const struct conf *c, long ops)
{
	struct bench_object obj[MAXOBJ];
	struct worker w[THREADS];
	pthread_t tid[THREADS];
	struct bench_cfg *cfg;
	struct run r = {.sc = sc, .threads = c->threads ? c->threads : THREADS, .ops = ops};
	char err[256], label[160];
	int n, nobj;

	/* the workloads whose threads wait for a partner (sock_wait_while, bench_spin) */
	r.paired = !strcmp(c->wl->name, "socket") || !strcmp(c->wl->name, "stocked_xcpu");
	n = snprintf(label, sizeof(label), "%s/%s x%d", c->preset->name, c->wl->name, r.threads);
	for (int i = 0; i < c->nuser && n > 0 && (size_t)n < sizeof(label); i++)
		n += snprintf(label + n, sizeof(label) - (size_t)n, " %s", c->user[i]);
	if (c->set_min && n > 0 && (size_t)n < sizeof(label))
		snprintf(label + n, sizeof(label) - (size_t)n, " L1 min=%ld low=%ld", c->set_min,
			 c->set_low);
	cfg = cfg_new(sc, c->preset, c->wl, r.threads, c->user, c->nuser, err, sizeof(err));
	if (!cfg) {
		CHECK(0, "%s: cfg_new: %s", label, err);
		return;
	}
	r.shared = sc->setup(cfg, err, sizeof(err));
	if (!r.shared) {
		CHECK(0, "%s: setup: %s", label, err);
		cfg_free(cfg);
		return;
	}
	nobj = scenario_objects(sc, r.shared, obj, MAXOBJ);
	n = nobj < NLEVELS ? nobj : NLEVELS;
	for (int i = 0; i < NLEVELS && i < nobj; i++)
		CHECK(!strcmp(obj[i].name, level_names[i]), "%s: object %d is %s", label, i,
		      obj[i].name);
	CHECK(nobj >= NLEVELS, "%s: objects(): %d", label, nobj);
	if (n == NLEVELS && c->set_min) {
		/* What page_counter_set_min/low's WRITE_ONCE does; the next charge propagates. */
		atomic_store(obj_word(&obj[1], "memory.min"), c->set_min);
		atomic_store(obj_word(&obj[1], "memory.low"), c->set_low);
	}
	if (n == NLEVELS) {
		pthread_barrier_init(&r.start, NULL, (unsigned)r.threads);
		for (int t = 0; t < r.threads; t++) {
			w[t] = (struct worker){&r, t};
			if (pthread_create(&tid[t], NULL, worker, &w[t])) {
				fprintf(stderr, "FATAL: pthread_create\n");
				exit(2);
			}
		}
		for (int t = 0; t < r.threads; t++)
			pthread_join(tid[t], NULL);
		atomic_store(&window_all_done, 0);
		pthread_barrier_destroy(&r.start);
		for (int t = 0; t < r.threads; t++)
			CHECK(!r.setup_failed[t], "%s: thread_setup failed on thread %d", label, t);
		check_state(label, c, cfg, obj, nobj);
		if (sc->window_end) {
			char note[512] = "";

			CHECK(!sc->window_end(r.shared, note, sizeof(note)), "%s: window_end: %s",
			      label, note);
		}
		if (!quiet)
			printf("%s: %ld+ ops per thread, up to %d threads in run() at once, state "
			       "checked\n",
			       label, ops, atomic_load(&r.overlap));
	}
	scenario_teardown(sc, r.shared);
	cfg_free(cfg);
}

/* hog - a thread that spins until told to stop: the load the teardown race needed. */
static atomic_int hog_stop;

static void *hog(void *arg)
{
	volatile unsigned long x = 0;

	(void)arg;
	while (!atomic_load_explicit(&hog_stop, memory_order_relaxed))
		x++;
	return NULL;
}

/* loop - --loop N: the socket workload's teardown, N times under load (see the header). */
static int loop(const struct scenario *sc, long n, int nhogs, char *const (*sock_user)[2],
		int nuser)
{
	pthread_t hogs[MAXHOGS];
	long i;

	quiet = 1;
	for (int h = 0; h < nhogs; h++)
		if (pthread_create(&hogs[h], NULL, hog, NULL)) {
			fprintf(stderr, "FATAL: pthread_create\n");
			exit(2);
		}
	for (i = 0; i < n && !failures; i++) {
		/* a window of all the messages: the sender waits little on a loaded machine */
		char *user[3] = {sock_user[i / 2 % nuser][0], sock_user[i / 2 % nuser][1],
				 "window=8192"};

		test_one(sc,
			 &(struct conf){&sc->presets[i % 2], workload_find(sc, "socket"), user, 3,
					0, 0, 2 + (int)(i / 8 % 2)},
			 LOOP_OPS);
	}
	atomic_store(&hog_stop, 1);
	for (int h = 0; h < nhogs; h++)
		pthread_join(hogs[h], NULL);
	if (failures) {
		fprintf(stderr, "test_concurrency --loop: iteration %ld of %ld failed\n", i, n);
		return 1;
	}
	printf("test_concurrency --loop: %ld iterations balanced\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	/*
	 * Crossing: preload 2048, nr 300, L1 min 2148 and low 2448, so every charge takes L1's
	 * usage above min (and below low) and every uncharge back below: min_usage and
	 * low_usage change on every op, in both propagate modes, under contention.
	 */
	static char *const cross_user[] = {"preload=2048", "nr=300", "burst=300"};
	static char *const sock_user[][2] = {{"ack=window", "receiver=same"},
					     {"ack=sender", "receiver=root"},
					     {"ack=receiver", "skb_msgs=3"},
					     {"reclaim_walk=off", "folio=16384"}};
	const struct scenario *sc = scenario_find("page_counter");
	const char *san = getenv("PCBENCH_SANITIZED");
	/* see the header: TSan runs OPS / 20 everywhere, ASan in the paired workloads */
	const long ops = san && strstr(san, "thread") ? OPS / 20 : OPS;
	const long paired_ops = san && *san ? OPS / 20 : ops;

	if (!sc) {
		fprintf(stderr, "FAIL: scenario page_counter not found\n");
		return 1;
	}
	if (argc == 4 && !strcmp(argv[1], "--loop") && atoi(argv[3]) >= 0 &&
	    atoi(argv[3]) <= MAXHOGS)
		return loop(sc, atol(argv[2]), atoi(argv[3]), sock_user,
			    (int)ARRAY_SIZE(sock_user));
	for (const struct bench_preset *p = sc->presets; p->name; p++) {
		for (const struct bench_workload *w = sc->workloads; w->name; w++)
			test_one(sc, &(struct conf){p, w, NULL, 0, 0, 0, 0},
				 !strcmp(w->name, "socket") || !strcmp(w->name, "stocked_xcpu")
				     ? paired_ops
				     : ops);
		test_one(sc,
			 &(struct conf){p, workload_find(sc, "direct"), cross_user, 3, 2048 + 100,
					2048 + 400, 0},
			 ops);
		for (int t = 1; t <= THREADS; t++)
			test_one(sc,
				 &(struct conf){p, workload_find(sc, "socket"),
						(char **)sock_user[(t - 1) % 4], 2, 0, 0, t},
				 t > 1 ? paired_ops : ops);
	}
	if (failures) {
		fprintf(stderr, "test_concurrency: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_concurrency: all checks passed\n");
	return 0;
}
