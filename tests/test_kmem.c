// SPDX-License-Identifier: MIT
/*
 * test_kmem.c - the kmem scenario through the public scenario API, linked with the tracing
 * build of the scenarios:
 *
 *  1. layouts: memory, swap (memsw), kmem and tcpmem of struct mem_cgroup at the offsets of
 *     docs/kernel-facts.md section 1 (v6.0: 208/320/432/544, kmem's tail and tcpmem's head on line
 * 8; v6.1: 256/448/640/832), the objects 4096-aligned;
 *  2. sequential reference equivalence: after k operations of every preset and workload
 *     (nr 1, 3 and 40 > batch), every counter of memory, memsw and kmem at every level and
 *     stats_flush_threshold equal an independent reference (tests/pc_ref.h counters, the
 *     stock and the rstat bookkeeping re-implemented here), and after thread_teardown the
 *     usages are back at their preload;
 *  3. the atomic inventory: `pair` touches memory/memsw never once warm, the kmem counter
 *     twice per level per op when it is on; `split` walks memory (and memsw on v1) 65 times
 *     in 1056 ops of one page (33 stock refills, 32 stock drains);
 *  3b. the stats_flush_threshold add by hand: unconditional at a8c49af3be (one atomic add
 *     per 33 updates, no load), capped at num_online_cpus in v6.0 (873f64b791a2);
 *  3c. the model at 8 vCPUs, scatter, 2-socket fixtures: a8c49af3be moves more lines per op
 *     than no-kmem-stat, and the difference is stats_flush_threshold's unconditional add;
 *  4. concurrency: THREADS threads x OPS ops of every preset and workload leave memory,
 *     memsw and kmem at their preload, and every children_*_usage equal to its child's.
 *
 * Under TSan (PCBENCH_SANITIZED contains "thread": make test-tsan) part 4 runs OPS / 10
 * operations per thread (every preset and workload, the same checks, the threshold's bound
 * taken over the operations run): the paths recur every 33 updates and every stock batch,
 * and TSan judges the accesses that happen. Part 3c, the model, does not run there: it is
 * one thread switching coroutines, where TSan can find no race (18 model runs, nine tenths
 * of this test's TSan time). make test-all and make test-asan run it all.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model.h"
#include "pc_ref.h"
#include "check.h"
#include "scenario_inst.h"
#include "fixture_topo.h"

#define NLEVELS 4
#define LEAF (NLEVELS - 1)
#define NOBJ (NLEVELS + 1) /* + stats_flush_threshold */
#define THREADS 4
#define OPS 50000 /* per thread (TSan: OPS / 10) */
#define CHUNK 1000
#define PRELOAD 65536

static int tsan; /* under TSan: see the header */

static const char *const level_names[NLEVELS] = {"root", "L1", "L2", "L3"};
enum { C_MEMORY, C_SWAP, C_KMEM, NCTR };
static const char *const ctr_names[NCTR] = {"memory", "swap", "kmem"};

/* open_kmem - kmem; its objects are the 4 levels, root first, then the globals. */
static int open_kmem(struct inst *in, const char *preset, const char *workload, int threads,
		     char *const *user, int nuser, int thread_state)
{
	if (inst_open(in, "kmem", preset, workload, threads, user, nuser, thread_state))
		return -1;
	CHECK_EQ("objects()", in->nobj, NOBJ);
	if (in->nobj != NOBJ)
		return -1;
	for (int i = 0; i < NLEVELS; i++)
		CHECK(!strcmp(in->obj[i].name, level_names[i]), "object %d is %s", i,
		      in->obj[i].name);
	return 0;
}

static long cval(const struct inst *in, int lv, int c, const char *field)
{
	char path[96];

	snprintf(path, sizeof(path), "%s.%s", ctr_names[c], field);
	return obj_val(&in->obj[lv], path);
}

static long threshold(const struct inst *in)
{
	return obj_val(&in->obj[NLEVELS], "stats_flush_threshold");
}

/* ---- 1. layouts ---- */

static void test_layouts(void)
{
	static const struct {
		const char *layout, *path;
		long off;
	} want[] = {
	    {"v6.0", "css.parent", 192},  {"v6.0", "memory", 208},
	    {"v6.0", "swap", 320},	  {"v6.0", "kmem", 432},
	    {"v6.0", "tcpmem", 544},	  {"v6.0", "high_work", 656},
	    {"v6.0", "kmem.usage", 432},  {"v6.0", "kmem.children_low_usage", 512},
	    {"v6.0", "kmem.parent", 536}, {"v6.0", "tcpmem.usage", 544},
	    {"v6.0", "tcpmem.high", 568}, {"v6.1", "memory", 256},
	    {"v6.1", "swap", 448},	  {"v6.1", "kmem", 640},
	    {"v6.1", "kmem.usage", 640},  {"v6.1", "tcpmem", 832},
	};
	char what[300];

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		char p[64], *user[] = {p};
		struct inst in;

		snprintf(p, sizeof(p), "layout=%s", want[i].layout);
		if (open_kmem(&in, "a8c49af3be", "pair", 1, user, 1, 0)) {
			inst_close(&in);
			continue;
		}
		snprintf(what, sizeof(what), "layout %s: mem_cgroup.%s", want[i].layout,
			 want[i].path);
		CHECK_EQ(what, layout_offset(in.obj[0].layout, "mem_cgroup", want[i].path),
			 want[i].off);
		for (int lv = 0; lv < NLEVELS; lv++)
			CHECK((uintptr_t)in.obj[lv].base % 4096 == 0, "%s: %s not 4096-aligned",
			      in.label, level_names[lv]);
		inst_close(&in);
	}
	/* v6.0, section 1.4: kmem's last four words and tcpmem's first four share line 8. */
	{
		struct inst in;

		if (!open_kmem(&in, "a8c49af3be", "pair", 1, NULL, 0, 0)) {
			const struct layout *l = in.obj[0].layout;

			CHECK(layout_offset(l, "mem_cgroup", "kmem.children_low_usage") / 64 == 8 &&
				  layout_offset(l, "mem_cgroup", "tcpmem.high") / 64 == 8 &&
				  layout_offset(l, "mem_cgroup", "kmem.usage") / 64 == 6,
			      "v6.0: kmem/tcpmem lines");
		}
		inst_close(&in);
	}
}

/* ---- 2. the reference ---- */

struct rstock {
	int cached;
	long nr;
};

struct kref {
	struct ref_pc *c[NCTR][NLEVELS];
	struct rstock stock, ustock;
	long batch, x, thr, ncpus;
	int v1, stat, counter, split, uncond, cond;
};

static void kref_open(struct kref *r, const struct bench_cfg *cfg, long preload)
{
	const long min = bench_long(cfg, "min");

	memset(r, 0, sizeof(*r));
	r->v1 = !strcmp(bench_str(cfg, "cgroup"), "v1");
	r->stat = !strcmp(bench_str(cfg, "kmem_stat"), "on");
	r->counter = r->v1 && !strcmp(bench_str(cfg, "kmem_counter"), "on");
	r->split = !strcmp(bench_workload_name(cfg), "split");
	r->uncond = !strcmp(bench_str(cfg, "flush"), "unconditional");
	r->cond = !strcmp(bench_str(cfg, "propagate"), "cond-xchg");
	r->batch = bench_long(cfg, "batch");
	r->ncpus = bench_threads(cfg);
	for (int c = 0; c < NCTR; c++) {
		for (int lv = 0; lv < NLEVELS; lv++)
			r->c[c][lv] = bench_alloc(sizeof(struct ref_pc), 64);
		ref_hierarchy(r->c[c], NLEVELS, c == C_MEMORY ? min : 0,
			      c == C_MEMORY ? 2 * min : 0, c == C_MEMORY || r->v1 ? preload : 0,
			      r->cond);
	}
}

static void kref_close(struct kref *r)
{
	for (int c = 0; c < NCTR; c++)
		for (int lv = 0; lv < NLEVELS; lv++)
			bench_free(r->c[c][lv]);
}

static void kref_drain(struct kref *r, struct rstock *s)
{
	if (!s->cached)
		return;
	if (s->nr) {
		ref_uncharge(r->c[C_MEMORY][LEAF], s->nr, r->cond);
		if (r->v1)
			ref_uncharge(r->c[C_SWAP][LEAF], s->nr, r->cond);
		s->nr = 0;
	}
	s->cached = 0;
}

static void kref_refill(struct kref *r, struct rstock *s, long n)
{
	if (!s->cached)
		s->cached = 1;
	s->nr += n;
	if (s->nr > r->batch)
		kref_drain(r, s);
}

static void kref_stat(struct kref *r, long v)
{
	r->x += v < 0 ? -v : v;
	if (r->x > r->batch) {
		if (r->uncond || r->thr <= r->ncpus)
			r->thr += r->x / r->batch;
		r->x = 0;
	}
}

/* One op: charge n (stock, else a batch to memsw+memory), account kmem, then undo it. */
static void kref_op(struct kref *r, long n)
{
	long b = n > r->batch ? n : r->batch;

	if (n <= r->batch && r->stock.cached && r->stock.nr >= n) {
		r->stock.nr -= n;
	} else {
		if (r->v1)
			CHECK(!ref_try_charge(r->c[C_SWAP][LEAF], b, r->cond), "reference memsw");
		CHECK(!ref_try_charge(r->c[C_MEMORY][LEAF], b, r->cond), "reference memory");
		if (b > n)
			kref_refill(r, &r->stock, b - n);
	}
	if (r->stat)
		kref_stat(r, n);
	if (r->counter)
		CHECK(!ref_try_charge(r->c[C_KMEM][LEAF], n, r->cond), "reference kmem");
	if (r->stat)
		kref_stat(r, -n);
	if (r->counter)
		ref_uncharge(r->c[C_KMEM][LEAF], n, r->cond);
	kref_refill(r, r->split ? &r->ustock : &r->stock, n);
}

static void compare(const struct inst *in, const struct kref *r, const char *when)
{
	for (int c = 0; c < NCTR; c++)
		for (int lv = 0; lv < NLEVELS; lv++)
			for (size_t f = 0; f < ARRAY_SIZE(ref_fields); f++) {
				long got = cval(in, lv, c, ref_fields[f].name);
				long exp = atomic_load(
				    (atomic_long *)((char *)r->c[c][lv] + ref_fields[f].off));

				CHECK(got == exp, "%s, %s: %s %s.%s = %ld, reference %ld",
				      in->label, when, level_names[lv], ctr_names[c],
				      ref_fields[f].name, got, exp);
			}
	CHECK(threshold(in) == r->thr, "%s, %s: stats_flush_threshold %ld, reference %ld",
	      in->label, when, threshold(in), r->thr);
}

static void test_reference(const char *preset, const char *workload, long nr, const char *flush)
{
	static const long ks[] = {1, 7, 33, 100, 1100};
	char p1[32], p2[32], *user[] = {p1, p2};
	struct inst in;
	struct kref r;
	char when[96], what[300];
	long done = 0;

	snprintf(p1, sizeof(p1), "nr=%ld", nr);
	snprintf(p2, sizeof(p2), "flush=%s", flush);
	if (open_kmem(&in, preset, workload, 1, user, 2, 1)) {
		inst_close(&in);
		return;
	}
	kref_open(&r, in.cfg, PRELOAD);
	compare(&in, &r, "after setup");
	for (size_t i = 0; i < ARRAY_SIZE(ks); i++) {
		CHECK_EQ("run() return", in.sc->run(in.shared, in.ts, (uint64_t)(ks[i] - done)),
			 ks[i] - done);
		for (; done < ks[i]; done++)
			kref_op(&r, nr);
		snprintf(when, sizeof(when), "after %ld ops", done);
		compare(&in, &r, when);
	}
	scenario_thread_teardown(in.sc, in.shared, in.ts);
	in.ts = NULL;
	kref_drain(&r, &r.stock);
	kref_drain(&r, &r.ustock);
	compare(&in, &r, "after thread_teardown");
	for (int c = 0; c < NCTR; c++)
		for (int lv = 0; lv < NLEVELS; lv++) {
			snprintf(what, sizeof(what), "%s after thread_teardown: %s %s.usage",
				 in.label, level_names[lv], ctr_names[c]);
			CHECK_EQ(what, cval(&in, lv, c, "usage"),
				 c == C_MEMORY || r.v1 ? PRELOAD : 0);
		}
	kref_close(&r);
	inst_close(&in);
}

/* ---- 3. the atomic inventory ---- */

static struct {
	const volatile void *usage[NCTR][NLEVELS], *thresh;
	long rmw[NCTR][NLEVELS], thresh_ops[PC_OP_COUNT];
} tr;

static void inv_hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	(void)size;
	(void)site;
	if (addr == tr.thresh) {
		tr.thresh_ops[op]++;
		return;
	}
	if (op != PC_OP_ADD_RETURN && op != PC_OP_ADD)
		return;
	for (int c = 0; c < NCTR; c++)
		for (int lv = 0; lv < NLEVELS; lv++)
			if (tr.usage[c][lv] == addr)
				tr.rmw[c][lv]++;
}

static void test_inventory(const char *preset, const char *workload)
{
	const int split = !strcmp(workload, "split");
	const long ops = split ? 1056 : 64;
	struct inst in;
	char what[300];
	int v1, stat, counter, uncond;

	if (open_kmem(&in, preset, workload, 1, NULL, 0, 1)) {
		inst_close(&in);
		return;
	}
	uncond = !strcmp(bench_str(in.cfg, "flush"), "unconditional");
	v1 = !strcmp(bench_str(in.cfg, "cgroup"), "v1");
	stat = !strcmp(bench_str(in.cfg, "kmem_stat"), "on");
	counter = v1 && !strcmp(bench_str(in.cfg, "kmem_counter"), "on");
	memset(&tr, 0, sizeof(tr));
	for (int c = 0; c < NCTR; c++)
		for (int lv = 0; lv < NLEVELS; lv++) {
			char path[64];

			snprintf(path, sizeof(path), "%s.usage", ctr_names[c]);
			tr.usage[c][lv] = obj_word(&in.obj[lv], path);
		}
	tr.thresh = obj_word(&in.obj[NLEVELS], "stats_flush_threshold");
	if (!split) /* pair: warm the stock first */
		in.sc->run(in.shared, in.ts, 1);
	pc_trace_hook = inv_hook;
	in.sc->run(in.shared, in.ts, (uint64_t)ops);
	pc_trace_hook = NULL;
	for (int c = 0; c < NCTR; c++)
		for (int lv = 0; lv < NLEVELS; lv++) {
			long exp;

			if (c == C_KMEM)
				exp = counter ? 2 * ops : 0;
			else if (c == C_SWAP && !v1)
				exp = 0;
			else
				exp = split ? 65 : 0;
			snprintf(what, sizeof(what), "%s: %s %s.usage atomic RMW in %ld ops",
				 in.label, level_names[lv], ctr_names[c], ops);
			CHECK_EQ(what, tr.rmw[c][lv], exp);
		}
	snprintf(what, sizeof(what), "%s: stats_flush_threshold %s in %ld ops", in.label,
		 uncond ? "adds (no load)" : "loads", ops);
	if (stat && uncond)
		CHECK(tr.thresh_ops[PC_OP_LOAD] == 0 &&
			  tr.thresh_ops[PC_OP_ADD] >= 2 * ops / 33 - 1 &&
			  tr.thresh_ops[PC_OP_ADD] <= 2 * ops / 33 + 1,
		      "%s: %ld loads, %ld adds", what, tr.thresh_ops[PC_OP_LOAD],
		      tr.thresh_ops[PC_OP_ADD]);
	else if (stat)
		CHECK(tr.thresh_ops[PC_OP_LOAD] >= 2 * ops / 33 - 1 &&
			  tr.thresh_ops[PC_OP_LOAD] <= 2 * ops / 33 + 1,
		      "%s: %ld", what, tr.thresh_ops[PC_OP_LOAD]);
	else
		CHECK_EQ(what, tr.thresh_ops[PC_OP_LOAD] + tr.thresh_ops[PC_OP_ADD], 0);
	printf("%s: %ld ops: RMW on leaf memory %ld, memsw %ld, kmem %ld; stats_flush_threshold "
	       "%ld loads %ld adds\n",
	       in.label, ops, tr.rmw[C_MEMORY][LEAF], tr.rmw[C_SWAP][LEAF], tr.rmw[C_KMEM][LEAF],
	       tr.thresh_ops[PC_OP_LOAD], tr.thresh_ops[PC_OP_ADD]);
	inst_close(&in);
}

/*
 * The flush add, counted by hand. `pair`, nr=1, one thread: each op is mod_memcg_state(+1)
 * and (-1), so the per-CPU count grows by 1 per update and passes MEMCG_CHARGE_BATCH (32)
 * at its 33rd update, i.e. 2 * 1100 = 2200 updates cross 66 times (66 x 33 = 2178; 22
 * left over), each adding 33 / 32 = 1. a8c49af3be (unconditional): 66 atomic adds, no load,
 * threshold 66. v6.0 (capped at num_online_cpus): 66 loads; adds only while the value is
 * <= the CPU count, i.e. at 0 and 1 with one CPU (threshold 2), at 0..8 with 8 (threshold
 * 9; one thread drives all of them here). no-kmem-stat: no update, nothing touched.
 */
static void test_flush(void)
{
	static const struct {
		const char *preset;
		int threads;
		long loads, adds, value;
	} cases[] = {
	    {"a8c49af3be", 1, 0, 66, 66}, {"a8c49af3be", 8, 0, 66, 66}, {"v6.0", 1, 66, 2, 2},
	    {"v6.0", 8, 66, 9, 9},	  {"no-kmem-stat", 1, 0, 0, 0},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct inst in;
		char what[300];

		if (open_kmem(&in, cases[i].preset, "pair", cases[i].threads, NULL, 0, 1)) {
			inst_close(&in);
			continue;
		}
		memset(&tr, 0, sizeof(tr));
		tr.thresh = obj_word(&in.obj[NLEVELS], "stats_flush_threshold");
		pc_trace_hook = inv_hook;
		CHECK_EQ("run() return", in.sc->run(in.shared, in.ts, 1100), 1100);
		pc_trace_hook = NULL;
		snprintf(what, sizeof(what), "%s: stats_flush_threshold loads in 1100 ops",
			 in.label);
		CHECK_EQ(what, tr.thresh_ops[PC_OP_LOAD], cases[i].loads);
		snprintf(what, sizeof(what), "%s: stats_flush_threshold atomic adds in 1100 ops",
			 in.label);
		CHECK_EQ(what, tr.thresh_ops[PC_OP_ADD], cases[i].adds);
		snprintf(what, sizeof(what), "%s: stats_flush_threshold after 1100 ops", in.label);
		CHECK_EQ(what, threshold(&in), cases[i].value);
		inst_close(&in);
	}
}

/*
 * The model (issue 14, part 5): at 8 vCPUs placed `scatter` on the 2-socket fixtures,
 * a8c49af3be makes more transfers per operation than no-kmem-stat, and the difference is
 * on stats_flush_threshold: its unconditional atomic add (one per 33 updates per CPU)
 * moves that line, no-kmem-stat never touches it, and v6.0's capped add only reads it
 * once it has passed the CPU count (a shared line: no transfer).
 */
static double field_xfer(const struct model_result *r, const char *leaf)
{
	uint64_t n = 0;

	for (int i = 0; i < r->nattrs; i++)
		if (!strcmp(r->fields[r->attrs[i].field].leaf, leaf))
			n += r->attrs[i].ev[MEV_HITM_LOCAL] + r->attrs[i].ev[MEV_HITM_REMOTE] +
			     r->attrs[i].ev[MEV_CLEAN_C2C];
	return r->ops ? (double)n / (double)r->ops : 0;
}

static void test_model_flush(const char *srcdir)
{
	static const char *const fixtures[] = {"spr-2s56c-snc4", "icx-2s36c", "milan-2s64c"};
	static const char *const presets[] = {"a8c49af3be", "no-kmem-stat", "v6.0"};
	static const char *const workloads[] = {"pair", "split"};
	const struct scenario *sc = scenario_find("kmem");

	for (size_t f = 0; f < ARRAY_SIZE(fixtures); f++) {
		struct topo *t = fixture_topo(srcdir, fixtures[f]);
		char err[512];
		int pus[8];

		if (!t)
			continue;
		CHECK(topo_place(t, "scatter", 8, pus, err, sizeof(err)) == TOPO_OK,
		      "scatter x8: %s", err);
		for (size_t w = 0; w < ARRAY_SIZE(workloads); w++) {
			double total[3] = {0}, thr[3] = {0};

			for (size_t p = 0; p < ARRAY_SIZE(presets); p++) {
				struct bench_cfg *cfg = cfg_new(sc, preset_find(sc, presets[p]),
								workload_find(sc, workloads[w]), 8,
								NULL, 0, err, sizeof(err));
				struct model_opts o;
				struct model_result r;

				CHECK(cfg, "kmem %s: %s", presets[p], err);
				if (!cfg)
					continue;
				model_opts_default(&o);
				if (!model_run(sc, cfg, t, pus, 8, &o, &r)) {
					total[p] = model_transfers_per_op(&r);
					thr[p] = field_xfer(&r, "stats_flush_threshold");
					model_result_free(&r);
				} else {
					CHECK(0, "model kmem %s/%s: %s", presets[p], workloads[w],
					      r.reason);
					model_result_free(&r);
				}
				cfg_free(cfg);
			}
			printf(
			    "model %s scatter x8 kmem/%s transfers/op (on stats_flush_threshold): "
			    "a8c49af3be %.4f (%.4f), no-kmem-stat %.4f (%.4f), v6.0 %.4f (%.4f)\n",
			    fixtures[f], workloads[w], total[0], thr[0], total[1], thr[1], total[2],
			    thr[2]);
			CHECK(
			    total[0] > total[1],
			    "%s %s: a8c49af3be %.4f transfers/op, not more than no-kmem-stat %.4f",
			    fixtures[f], workloads[w], total[0], total[1]);
			CHECK(thr[0] > 0 && thr[1] == 0 && thr[2] < thr[0],
			      "%s %s: stats_flush_threshold transfers/op a8c49af3be %.4f, "
			      "no-kmem-stat %.4f, v6.0 %.4f",
			      fixtures[f], workloads[w], thr[0], thr[1], thr[2]);
		}
		topo_free(t);
	}
}

/* ---- 4. concurrency ---- */

struct crun {
	const struct scenario *sc;
	void *shared;
	pthread_barrier_t bar;
	atomic_int started;
	long ops; /* per thread, at least */
};

struct cworker_arg {
	struct crun *r;
	int tid;
};

static void *cworker(void *p)
{
	struct cworker_arg *a = p;
	struct crun *r = a->r;
	void *ts = scenario_thread_setup(r->sc, r->shared, a->tid);

	pthread_barrier_wait(&r->bar);
	if (!ts)
		return NULL;
	for (long done = 0; done < r->ops || atomic_load(&r->started) < THREADS; done += CHUNK) {
		r->sc->run(r->shared, ts, CHUNK);
		if (!done)
			atomic_fetch_add(&r->started, 1);
	}
	scenario_thread_teardown(r->sc, r->shared, ts);
	return NULL;
}

static void test_concurrent(const char *preset, const char *workload)
{
	struct cworker_arg args[THREADS];
	pthread_t t[THREADS];
	struct crun r = {0};
	struct inst in;
	char what[300];
	long min;
	int v1;

	if (open_kmem(&in, preset, workload, THREADS, NULL, 0, 0)) {
		inst_close(&in);
		return;
	}
	min = bench_long(in.cfg, "min");
	v1 = !strcmp(bench_str(in.cfg, "cgroup"), "v1");
	r.sc = in.sc;
	r.shared = in.shared;
	r.ops = tsan ? OPS / 10 : OPS;
	pthread_barrier_init(&r.bar, NULL, THREADS);
	for (int i = 0; i < THREADS; i++) {
		args[i] = (struct cworker_arg){&r, i};
		if (pthread_create(&t[i], NULL, cworker, &args[i])) {
			fprintf(stderr, "FATAL: pthread_create\n");
			exit(2);
		}
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&r.bar);
	for (int c = 0; c < NCTR; c++)
		for (int lv = 0; lv < NLEVELS; lv++) {
			long cmin = lv + 1 < NLEVELS ? cval(&in, lv + 1, c, "min_usage") : 0;
			long clow = lv + 1 < NLEVELS ? cval(&in, lv + 1, c, "low_usage") : 0;

			snprintf(what, sizeof(what), "%s x%d: %s %s.usage", in.label, THREADS,
				 level_names[lv], ctr_names[c]);
			CHECK_EQ(what, cval(&in, lv, c, "usage"),
				 c == C_MEMORY || v1 ? PRELOAD : 0);
			snprintf(what, sizeof(what), "%s x%d: %s %s.failcnt", in.label, THREADS,
				 level_names[lv], ctr_names[c]);
			CHECK_EQ(what, cval(&in, lv, c, "failcnt"), 0);
			snprintf(what, sizeof(what), "%s x%d: %s %s.min_usage", in.label, THREADS,
				 level_names[lv], ctr_names[c]);
			CHECK_EQ(what, cval(&in, lv, c, "min_usage"),
				 c == C_MEMORY && lv == 1 ? min : 0);
			snprintf(what, sizeof(what), "%s x%d: %s %s.low_usage", in.label, THREADS,
				 level_names[lv], ctr_names[c]);
			CHECK_EQ(what, cval(&in, lv, c, "low_usage"),
				 c == C_MEMORY && lv == 1 ? 2 * min : 0);
			snprintf(what, sizeof(what), "%s x%d: %s %s.children_min_usage vs child",
				 in.label, THREADS, level_names[lv], ctr_names[c]);
			CHECK_EQ(what, cval(&in, lv, c, "children_min_usage"), cmin);
			snprintf(what, sizeof(what), "%s x%d: %s %s.children_low_usage vs child",
				 in.label, THREADS, level_names[lv], ctr_names[c]);
			CHECK_EQ(what, cval(&in, lv, c, "children_low_usage"), clow);
		}
	/*
	 * Unconditional: every thread adds once per 33 updates, 2 per op, over at least r.ops
	 * ops. Capped: added to only while <= THREADS, each thread at most once past that.
	 */
	if (!strcmp(bench_str(in.cfg, "kmem_stat"), "on") &&
	    !strcmp(bench_str(in.cfg, "flush"), "unconditional"))
		CHECK(threshold(&in) >= THREADS * (2L * r.ops / 33),
		      "%s: stats_flush_threshold %ld", in.label, threshold(&in));
	else if (!strcmp(bench_str(in.cfg, "kmem_stat"), "on"))
		CHECK(threshold(&in) > 0 && threshold(&in) <= 2 * THREADS,
		      "%s: stats_flush_threshold %ld", in.label, threshold(&in));
	printf("%s x%d: %ld+ ops per thread, counters back at preload, stats_flush_threshold "
	       "%ld\n",
	       in.label, THREADS, r.ops, threshold(&in));
	inst_close(&in);
}

int main(int argc, char **argv)
{
	static const char *const presets[] = {"a8c49af3be", "no-kmem-counter", "no-kmem-stat", "v2",
					      "v6.0"};
	static const char *const workloads[] = {"pair", "split"};
	static const long nrs[] = {1, 3, 40};
	const char *san = getenv("PCBENCH_SANITIZED");

	tsan = san && strstr(san, "thread");
	test_layouts();
	test_flush();
	if (!tsan)
		test_model_flush(argc > 1 ? argv[1] : ".");
	for (size_t p = 0; p < ARRAY_SIZE(presets); p++)
		for (size_t w = 0; w < ARRAY_SIZE(workloads); w++) {
			for (size_t n = 0; n < ARRAY_SIZE(nrs); n++)
				test_reference(presets[p], workloads[w], nrs[n],
					       n == 1 ? "unconditional" : "capped");
			test_inventory(presets[p], workloads[w]);
			test_concurrent(presets[p], workloads[w]);
		}
	if (failures) {
		fprintf(stderr, "test_kmem: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_kmem: all checks passed\n");
	return 0;
}
