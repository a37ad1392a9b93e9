// SPDX-License-Identifier: MIT
/*
 * test_page_counter.c - the page_counter scenario's algorithm and its atomic inventory,
 * driven only through the public scenario API (setup/run/objects) and read back through
 * objects() + layout_offset(). Linked with the tracing build of the scenarios, so every
 * shared access reaches pc_trace_hook.
 *
 *  1. values: after setup and after k `direct` operations, every level's counters equal
 *     those of the independent reference (pc_ref.h) after the same k charge+uncharge pairs,
 *     plus known values typed in here (L1 min_usage 256, low_usage 512, ...);
 *  2. a charge beyond max fails at that counter, unwinds the levels below, bumps failcnt;
 *  3. atomic inventory: RMW ops per level and field for one `direct` op (also with L1's
 *     protection crossed by every charge), and hierarchy walks per burst of the `stocked`
 *     workload (batch 32 vs 64) against a hand computation.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "pc_ref.h"
#include "check.h"
#include "scenario_inst.h"

#define NLEVELS 4 /* root, L1, L2, L3: objs[0] is the root, objs[3] the leaf */
#define LEAF (NLEVELS - 1)
#define MIN_PAGES 256		/* memory.min of L1 in the scenario */
#define LOW_PAGES 512		/* memory.low of L1 */
#define PRELOAD 65536		/* the scenario's default preload */
#define PC_MAX 0x7ffffffffffffL /* PAGE_COUNTER_MAX = LONG_MAX / 4096 */

static const char *const level_names[NLEVELS] = {"root", "L1", "L2", "L3"};

/* ---- one scenario instance, driven through the public API ---- */

/* open_pc - page_counter with thread 0's state; its objects are the 4 levels, root first. */
static int open_pc(struct inst *in, const char *preset, const char *workload, char *const *user,
		   int nuser)
{
	if (inst_open(in, "page_counter", preset, workload, 1, user, nuser, 1))
		return -1;
	CHECK_EQ("objects()", in->nobj, NLEVELS);
	if (in->nobj != NLEVELS)
		return -1;
	for (int i = 0; i < NLEVELS; i++)
		CHECK(!strcmp(in->obj[i].name, level_names[i]), "object %d is %s, expected %s", i,
		      in->obj[i].name, level_names[i]);
	return 0;
}

/* word - the pc_word at @path ("memory.usage", "css.parent") of level @lv's mem_cgroup. */
static pc_word *word(const struct inst *in, int lv, const char *path)
{
	long off = layout_offset(in->obj[lv].layout, in->obj[lv].sname, path);

	if (off < 0) {
		fprintf(stderr, "FATAL: layout %s has no mem_cgroup field %s\n",
			in->obj[lv].layout->name, path);
		exit(2);
	}
	return (pc_word *)((char *)in->obj[lv].base + off);
}

/* mem - memory.<field> of level @lv. */
static pc_word *mem(const struct inst *in, int lv, const char *field)
{
	char path[96];

	snprintf(path, sizeof(path), "memory.%s", field);
	return word(in, lv, path);
}

static long memv(const struct inst *in, int lv, const char *field)
{
	return atomic_load(mem(in, lv, field));
}

/* ---- the reference hierarchy ---- */

struct ref {
	struct ref_pc *c[NLEVELS];
	int cond;
};

static void ref_open(struct ref *r, long preload, int cond)
{
	for (int i = 0; i < NLEVELS; i++)
		r->c[i] = bench_alloc(sizeof(struct ref_pc), 64);
	r->cond = cond;
	ref_hierarchy(r->c, NLEVELS, MIN_PAGES, LOW_PAGES, preload, cond);
}

static void ref_close(struct ref *r)
{
	for (int i = 0; i < NLEVELS; i++)
		bench_free(r->c[i]);
}

static long refv(const struct ref *r, int lv, size_t off)
{
	return atomic_load((atomic_long *)((char *)r->c[lv] + off));
}

/* ref_ops - @k direct operations on the reference: try_charge, and uncharge if it succeeded. */
static void ref_ops(struct ref *r, long k, long nr)
{
	while (k--) {
		if (!ref_try_charge(r->c[LEAF], nr, r->cond))
			ref_uncharge(r->c[LEAF], nr, r->cond);
	}
}

/* compare - every reference field of every level; @when says where we are. */
static void compare(const struct inst *in, const struct ref *r, const char *when)
{
	for (int lv = 0; lv < NLEVELS; lv++) {
		for (size_t f = 0; f < ARRAY_SIZE(ref_fields); f++) {
			long got = memv(in, lv, ref_fields[f].name);
			long exp = refv(r, lv, ref_fields[f].off);

			CHECK(got == exp, "%s, %s: %s memory.%s = %ld, reference %ld", in->label,
			      when, level_names[lv], ref_fields[f].name, got, exp);
		}
	}
}

static int preset_cond(const struct inst *in)
{
	return !strcmp(bench_str(in->cfg, "propagate"), "cond-xchg");
}

/* The presets covering both layouts x both propagate modes (+C: v6.0/always, batch 64). */
static const char *const all_presets[] = {"v6.0-rc1", "+A", "+B", "+C", "+ABC"};

/* known_setup - the values setup must produce, typed in from the scenario's description. */
static void known_setup(const struct inst *in, long preload)
{
	char what[400];

	for (int lv = 0; lv < NLEVELS; lv++) {
		snprintf(what, sizeof(what), "%s: %s memory.usage after setup", in->label,
			 level_names[lv]);
		CHECK_EQ(what, memv(in, lv, "usage"), preload);
		snprintf(what, sizeof(what), "%s: %s memory.watermark after setup", in->label,
			 level_names[lv]);
		CHECK_EQ(what, memv(in, lv, "watermark"), preload);
		snprintf(what, sizeof(what), "%s: %s memory.failcnt after setup", in->label,
			 level_names[lv]);
		CHECK_EQ(what, memv(in, lv, "failcnt"), 0);
		snprintf(what, sizeof(what), "%s: %s memory.min_usage after setup", in->label,
			 level_names[lv]);
		CHECK_EQ(what, memv(in, lv, "min_usage"), lv == 1 ? MIN_PAGES : 0);
		snprintf(what, sizeof(what), "%s: %s memory.low_usage after setup", in->label,
			 level_names[lv]);
		CHECK_EQ(what, memv(in, lv, "low_usage"), lv == 1 ? LOW_PAGES : 0);
		snprintf(what, sizeof(what), "%s: %s memory.children_min_usage after setup",
			 in->label, level_names[lv]);
		CHECK_EQ(what, memv(in, lv, "children_min_usage"), lv == 0 ? MIN_PAGES : 0);
		snprintf(what, sizeof(what), "%s: %s memory.children_low_usage after setup",
			 in->label, level_names[lv]);
		CHECK_EQ(what, memv(in, lv, "children_low_usage"), lv == 0 ? LOW_PAGES : 0);
		snprintf(what, sizeof(what), "%s: %s memory.parent", in->label, level_names[lv]);
		CHECK((char *)atomic_load(mem(in, lv, "parent")) ==
			  (lv ? (char *)word(in, lv - 1, "memory") : NULL),
		      "%s", what);
		snprintf(what, sizeof(what), "%s: %s css.parent", in->label, level_names[lv]);
		CHECK((char *)atomic_load(word(in, lv, "css.parent")) ==
			  (lv ? (const char *)in->obj[lv - 1].base : NULL),
		      "%s", what);
	}
}

/*
 * Test 1, reference equality. Reachability of min_usage/low_usage changes: the `direct`
 * workload keeps every usage within [preload, preload + nr] and check() demands
 * preload > 1024 > memory.low, so with the scenario's own min 256 / low 512 the protected
 * amounts never change (cases "default" and "small"). Case "cross" therefore rewrites L1's
 * memory.min/low after setup, as page_counter_set_min/low's WRITE_ONCE would (the propagation
 * then happens on the next charge), on both sides: preload 2048, nr 300, min 2148, low 2448.
 * A charge takes usage to 2348, above min and below low: min_usage 2148, low_usage 2348;
 * the uncharge takes both to 2048; root's children_* sums follow.
 */
struct ref_case {
	const char *name;
	long preload, nr;
	long set_min, set_low; /* 0: keep the scenario's 256/512 */
	long ks[3];	       /* cumulative op counts to compare at */
};

static const struct ref_case ref_cases[] = {
    {"default", PRELOAD, 1, 0, 0, {1, 10, 1000}},
    {"small", 1100, 300, 0, 0, {1, 7, 100}},
    {"cross", 2048, 300, 2048 + 100, 2048 + 400, {1, 2, 50}},
};

static void test_reference(const char *preset, const struct ref_case *rc)
{
	char p1[64], p2[64], p3[64], when[64], what[400];
	char *user[3] = {p1, p2, p3};
	struct inst in;
	struct ref r;
	long done = 0;

	/* check() wants burst to be a multiple of nr even for `direct`, which ignores it. */
	snprintf(p1, sizeof(p1), "preload=%ld", rc->preload);
	snprintf(p2, sizeof(p2), "nr=%ld", rc->nr);
	snprintf(p3, sizeof(p3), "burst=%ld", rc->nr);
	if (open_pc(&in, preset, "direct", user, 3)) {
		inst_close(&in);
		return;
	}
	CHECK_EQ("nr parameter", bench_long(in.cfg, "nr"), rc->nr);
	ref_open(&r, rc->preload, preset_cond(&in));
	known_setup(&in, rc->preload);
	compare(&in, &r, "after setup");
	if (rc->set_min) {
		atomic_store(mem(&in, 1, "min"), rc->set_min);
		atomic_store(mem(&in, 1, "low"), rc->set_low);
		atomic_store(&r.c[1]->min, rc->set_min);
		atomic_store(&r.c[1]->low, rc->set_low);
		compare(&in, &r, "after writing L1 min/low");
	}
	for (size_t i = 0; i < ARRAY_SIZE(rc->ks); i++) {
		in.sc->run(in.shared, in.ts, (uint64_t)(rc->ks[i] - done));
		ref_ops(&r, rc->ks[i] - done, rc->nr);
		done = rc->ks[i];
		snprintf(when, sizeof(when), "case %s after %ld ops", rc->name, done);
		compare(&in, &r, when);
		/* Known values too: every op is undone, the watermark saw one charge. */
		long prot_min = rc->set_min ? rc->preload : MIN_PAGES;
		long prot_low = rc->set_min ? rc->preload : LOW_PAGES;

		for (int lv = 0; lv < NLEVELS; lv++) {
			snprintf(what, sizeof(what), "%s %s: %s memory.usage", in.label, when,
				 level_names[lv]);
			CHECK_EQ(what, memv(&in, lv, "usage"), rc->preload);
			snprintf(what, sizeof(what), "%s %s: %s memory.watermark", in.label, when,
				 level_names[lv]);
			CHECK_EQ(what, memv(&in, lv, "watermark"), rc->preload + rc->nr);
		}
		snprintf(what, sizeof(what), "%s %s: L1 memory.min_usage", in.label, when);
		CHECK_EQ(what, memv(&in, 1, "min_usage"), prot_min);
		snprintf(what, sizeof(what), "%s %s: L1 memory.low_usage", in.label, when);
		CHECK_EQ(what, memv(&in, 1, "low_usage"), prot_low);
		snprintf(what, sizeof(what), "%s %s: root memory.children_min_usage", in.label,
			 when);
		CHECK_EQ(what, memv(&in, 0, "children_min_usage"), prot_min);
		snprintf(what, sizeof(what), "%s %s: root memory.children_low_usage", in.label,
			 when);
		CHECK_EQ(what, memv(&in, 0, "children_low_usage"), prot_low);
	}
	ref_close(&r);
	inst_close(&in);
}

/*
 * Test 2: memory.max of level @fl set to preload + 5, one direct op of nr = 10. The charge
 * must fail at @fl (failcnt 1 there, 0 elsewhere), the levels below @fl (closer to the leaf)
 * are unwound to preload (their watermark keeps preload + 10), the levels above are never
 * touched, and no uncharge follows.
 */
static void test_fail(const char *preset, int fl)
{
	const long nr = 10, slack = 5;
	char *user[3] = {"preload=65536", "nr=10", "burst=10"};
	struct ref_pc *fail;
	struct inst in;
	struct ref r;
	char what[400];

	if (open_pc(&in, preset, "direct", user, 3)) {
		inst_close(&in);
		return;
	}
	CHECK_EQ("preload parameter", bench_long(in.cfg, "preload"), PRELOAD);
	CHECK_EQ("nr parameter", bench_long(in.cfg, "nr"), nr);
	ref_open(&r, PRELOAD, preset_cond(&in));
	atomic_store(mem(&in, fl, "max"), PRELOAD + slack);
	atomic_store(&r.c[fl]->max, PRELOAD + slack);
	in.sc->run(in.shared, in.ts, 1);
	fail = ref_try_charge(r.c[LEAF], nr, r.cond);
	CHECK(fail == r.c[fl], "reference: the charge did not fail at %s", level_names[fl]);
	if (!fail)
		ref_uncharge(r.c[LEAF], nr, r.cond);
	snprintf(what, sizeof(what), "failing charge at %s", level_names[fl]);
	compare(&in, &r, what);
	for (int lv = 0; lv < NLEVELS; lv++) {
		snprintf(what, sizeof(what), "%s, max exceeded at %s: %s memory.usage", in.label,
			 level_names[fl], level_names[lv]);
		CHECK_EQ(what, memv(&in, lv, "usage"), PRELOAD);
		snprintf(what, sizeof(what), "%s, max exceeded at %s: %s memory.failcnt", in.label,
			 level_names[fl], level_names[lv]);
		CHECK_EQ(what, memv(&in, lv, "failcnt"), lv == fl);
		snprintf(what, sizeof(what), "%s, max exceeded at %s: %s memory.watermark",
			 in.label, level_names[fl], level_names[lv]);
		CHECK_EQ(what, memv(&in, lv, "watermark"), lv > fl ? PRELOAD + nr : PRELOAD);
	}
	snprintf(what, sizeof(what), "%s, max exceeded at %s: L1 memory.min_usage", in.label,
		 level_names[fl]);
	CHECK_EQ(what, memv(&in, 1, "min_usage"), MIN_PAGES);
	snprintf(what, sizeof(what), "%s, max exceeded at %s: L1 memory.low_usage", in.label,
		 level_names[fl]);
	CHECK_EQ(what, memv(&in, 1, "low_usage"), LOW_PAGES);
	ref_close(&r);
	inst_close(&in);
}

/* ---- test 3: the atomic inventory through pc_trace_hook ---- */

static const char *const pc_fields[] = {
    "usage",
    "min",
    "low",
    "high",
    "max",
    "emin",
    "min_usage",
    "children_min_usage",
    "elow",
    "low_usage",
    "children_low_usage",
    "watermark",
    "failcnt",
    "parent",
};
#define NPCF ((int)ARRAY_SIZE(pc_fields))
#define F_CSS_PARENT NPCF  /* css.parent, counted under counter 0 */
#define F_SOCKP (NPCF + 1) /* socket_pressure, counted under counter 0 */
#define NF (NPCF + 2)
enum { CTR_MEMORY, CTR_SWAP, NCTR };
static const char *const ctr_names[NCTR] = {"memory", "swap"};
#define MAXWALK 64

struct tmap {
	const volatile void *addr;
	int lv, ctr, f;
};

static struct {
	struct tmap map[NLEVELS * (NCTR * NPCF + 2)];
	int nmap;
	const volatile void *leaf_usage;
	int walk; /* walks started since the reset; a walk starts at add_return on leaf usage */
	long n[MAXWALK][NLEVELS][NCTR][NF][PC_OP_COUNT];
	long unmapped[PC_OP_COUNT];
} tr;

static int field_index(const char *name)
{
	for (int f = 0; f < NPCF; f++)
		if (!strcmp(pc_fields[f], name))
			return f;
	fprintf(stderr, "FATAL: no page_counter field %s\n", name);
	exit(2);
}

static void trace_hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	(void)size;
	(void)site;
	if ((unsigned)op >= PC_OP_COUNT)
		return;
	if (op == PC_OP_ADD_RETURN && addr == tr.leaf_usage && tr.walk < MAXWALK - 1)
		tr.walk++;
	for (int i = 0; i < tr.nmap; i++) {
		if (tr.map[i].addr == addr) {
			tr.n[tr.walk][tr.map[i].lv][tr.map[i].ctr][tr.map[i].f][op]++;
			return;
		}
	}
	tr.unmapped[op]++;
}

static void trace_map(const struct inst *in)
{
	char path[96];

	tr.nmap = 0;
	for (int lv = 0; lv < NLEVELS; lv++) {
		for (int c = 0; c < NCTR; c++) {
			for (int f = 0; f < NPCF; f++) {
				snprintf(path, sizeof(path), "%s.%s", ctr_names[c], pc_fields[f]);
				tr.map[tr.nmap++] = (struct tmap){word(in, lv, path), lv, c, f};
			}
		}
		tr.map[tr.nmap++] =
		    (struct tmap){word(in, lv, "css.parent"), lv, CTR_MEMORY, F_CSS_PARENT};
		tr.map[tr.nmap++] =
		    (struct tmap){word(in, lv, "socket_pressure"), lv, CTR_MEMORY, F_SOCKP};
	}
	tr.leaf_usage = mem(in, LEAF, "usage");
}

static void trace_reset(void)
{
	memset(tr.n, 0, sizeof(tr.n));
	memset(tr.unmapped, 0, sizeof(tr.unmapped));
	tr.walk = 0;
}

static int is_rmw(int op)
{
	return op == PC_OP_ADD_RETURN || op == PC_OP_XCHG || op == PC_OP_ADD || op == PC_OP_CMPXCHG;
}

/* cnt - ops @op (-1: every op) on (lv, ctr, f) in walks [w0, w1]. */
static long cnt(int w0, int w1, int lv, int ctr, int f, int op)
{
	long s = 0;

	for (int w = w0; w <= w1; w++)
		for (int o = 0; o < PC_OP_COUNT; o++)
			if (op == o || op == -1)
				s += tr.n[w][lv][ctr][f][o];
	return s;
}

/* walk_total - every mapped access in walk @w. */
static long walk_total(int w)
{
	long s = 0;

	for (int lv = 0; lv < NLEVELS; lv++)
		for (int c = 0; c < NCTR; c++)
			for (int f = 0; f < NF; f++)
				s += cnt(w, w, lv, c, f, -1);
	return s;
}

static const char *fname(int f)
{
	return f == F_CSS_PARENT ? "css.parent" : f == F_SOCKP ? "socket_pressure" : pc_fields[f];
}

/* print_rmw - the RMW ops of walks [w0, w1], one line per (level, counter, field). */
static void print_rmw(const char *label, int w0, int w1)
{
	printf("  %s:\n", label);
	for (int lv = 0; lv < NLEVELS; lv++)
		for (int c = 0; c < NCTR; c++)
			for (int f = 0; f < NF; f++)
				for (int o = 0; o < PC_OP_COUNT; o++) {
					long v = cnt(w0, w1, lv, c, f, o);

					if (v && is_rmw(o))
						printf("    %-4s %s.%-20s %-10s %ld\n",
						       level_names[lv], ctr_names[c], fname(f),
						       pc_op_name((enum pc_op)o), v);
				}
}

/*
 * One direct op of nr = 1 (walk 1 = the charge, walk 2 = the uncharge), after one warm-up
 * op so the watermark store of the first charge is not counted. Expected RMWs per walk:
 * 1 add_return on memory.usage at every level; on L1 (min 256, low 512, usage 65536) one
 * xchg each on min_usage and low_usage without patch A, none with it; nothing else (the
 * protected amounts do not change, so no atomic add on the parent's children_* sums).
 */
static void test_inventory_direct(const char *preset)
{
	static const char *const prot_fields[] = {"min", "low", "min_usage", "low_usage"};
	const int usage = field_index("usage"), min_usage = field_index("min_usage"),
		  low_usage = field_index("low_usage"), f_min = field_index("min"),
		  f_low = field_index("low");
	char *user[1] = {"nr=1"};
	char what[400];
	struct inst in;
	int cond;

	if (open_pc(&in, preset, "direct", user, 1)) {
		inst_close(&in);
		return;
	}
	cond = preset_cond(&in);
	trace_map(&in);
	pc_trace_hook = trace_hook;
	in.sc->run(in.shared, in.ts, 1); /* warm-up: the first charge stores the watermark */
	trace_reset();
	in.sc->run(in.shared, in.ts, 1);
	pc_trace_hook = NULL;

	printf("%s, one op (walk 1 = charge, walk 2 = uncharge):\n", in.label);
	print_rmw("RMW ops", 1, 2);
	snprintf(what, sizeof(what), "%s: hierarchy walks in one direct op", in.label);
	CHECK_EQ(what, tr.walk, 2);
	for (int o = 0; o < PC_OP_COUNT; o++) {
		snprintf(what, sizeof(what), "%s: %s ops outside the mapped objects", in.label,
			 pc_op_name((enum pc_op)o));
		CHECK_EQ(what, tr.unmapped[o], 0);
	}
	snprintf(what, sizeof(what), "%s: accesses before the first walk", in.label);
	CHECK_EQ(what, walk_total(0), 0);
	for (int w = 1; w <= 2; w++) {
		const char *wn = w == 1 ? "charge" : "uncharge";

		for (int lv = 0; lv < NLEVELS; lv++) {
			for (int c = 0; c < NCTR; c++) {
				for (int f = 0; f < NF; f++) {
					for (int o = 0; o < PC_OP_COUNT; o++) {
						long exp = 0, got = cnt(w, w, lv, c, f, o);

						if (!is_rmw(o))
							continue;
						if (c == CTR_MEMORY && f == usage &&
						    o == PC_OP_ADD_RETURN)
							exp = 1;
						if (c == CTR_MEMORY && lv == 1 && !cond &&
						    (f == min_usage || f == low_usage) &&
						    o == PC_OP_XCHG)
							exp = 1;
						snprintf(what, sizeof(what),
							 "%s %s: %s %s.%s %s per %s", in.label, wn,
							 level_names[lv], ctr_names[c], fname(f),
							 pc_op_name((enum pc_op)o), wn);
						CHECK_EQ(what, got, exp);
					}
				}
			}
		}
		/* propagate_protected_usage did run on L1: it read min and low once each. */
		snprintf(what, sizeof(what), "%s %s: L1 memory.min loads", in.label, wn);
		CHECK_EQ(what, cnt(w, w, 1, CTR_MEMORY, f_min, PC_OP_LOAD), 1);
		snprintf(what, sizeof(what), "%s %s: L1 memory.low loads", in.label, wn);
		CHECK_EQ(what, cnt(w, w, 1, CTR_MEMORY, f_low, PC_OP_LOAD), 1);
	}
	/* The root never propagates: not even a read of its protection fields. */
	for (size_t i = 0; i < ARRAY_SIZE(prot_fields); i++) {
		snprintf(what, sizeof(what), "%s: root memory.%s accesses", in.label,
			 prot_fields[i]);
		CHECK_EQ(what, cnt(0, MAXWALK - 1, 0, CTR_MEMORY, field_index(prot_fields[i]), -1),
			 0);
	}
	/* Summaries the brief states, redundant with the table above but explicit. */
	for (int lv = 0; lv < NLEVELS; lv++) {
		long x = 0;

		for (int c = 0; c < NCTR; c++)
			for (int f = 0; f < NF; f++)
				x += cnt(1, 2, lv, c, f, PC_OP_XCHG);
		snprintf(what, sizeof(what), "%s: xchg on %s in one op", in.label, level_names[lv]);
		CHECK_EQ(what, x, lv == 1 && !cond ? 4 : 0);
	}
	inst_close(&in);
}

/*
 * Patch A removes only the xchg that would not change anything: in the crossing case of
 * test 1 (preload 2048, nr 300, L1 min 2148, low 2448) both protected amounts change on
 * every charge and uncharge, so every preset must do, per walk on L1, one xchg each on
 * min_usage and low_usage and one atomic add each on root's children_min_usage and
 * children_low_usage.
 */
static void test_inventory_cross(const char *preset)
{
	static const char *const l1_xchg[] = {"min_usage", "low_usage"};
	static const char *const root_add[] = {"children_min_usage", "children_low_usage"};
	char *user[3] = {"preload=2048", "nr=300", "burst=300"};
	char what[400];
	struct inst in;

	if (open_pc(&in, preset, "direct", user, 3)) {
		inst_close(&in);
		return;
	}
	atomic_store(mem(&in, 1, "min"), 2048 + 100);
	atomic_store(mem(&in, 1, "low"), 2048 + 400);
	trace_map(&in);
	pc_trace_hook = trace_hook;
	in.sc->run(in.shared, in.ts, 1); /* warm-up: 256/512 -> 2148/2348 -> 2048/2048 */
	trace_reset();
	in.sc->run(in.shared, in.ts, 1);
	pc_trace_hook = NULL;
	snprintf(what, sizeof(what), "%s crossing L1 min/low: hierarchy walks", in.label);
	CHECK_EQ(what, tr.walk, 2);
	for (int w = 1; w <= 2; w++) {
		for (int i = 0; i < 2; i++) {
			snprintf(what, sizeof(what), "%s crossing, walk %d: L1 memory.%s xchg",
				 in.label, w, l1_xchg[i]);
			CHECK_EQ(what,
				 cnt(w, w, 1, CTR_MEMORY, field_index(l1_xchg[i]), PC_OP_XCHG), 1);
			snprintf(what, sizeof(what), "%s crossing, walk %d: root memory.%s add",
				 in.label, w, root_add[i]);
			CHECK_EQ(what,
				 cnt(w, w, 0, CTR_MEMORY, field_index(root_add[i]), PC_OP_ADD), 1);
		}
	}
	inst_close(&in);
}

/*
 * Stocked workload, nr = 3, burst = 48: one op = one charge of 3 pages, and the ops of a
 * burst are 16 charges then 16 uncharges of 3 pages (run(16) = exactly one burst). A
 * hierarchy walk (add_return on the leaf's memory.usage) is a stock miss (charge of
 * max(batch, 3) = batch pages, surplus batch - 3 stocked) or a drain (refill_stock pushed
 * the stock over batch: the WHOLE stock is uncharged). The stock starts empty.
 *
 * batch 32 (v6.0-rc1, +A, +B):
 *   burst 1 (warm-up): charge 1 misses -> walk, stock 29; charges 2-10 consume 27 -> 2;
 *     charge 11 misses -> walk, stock 31; charges 12-16 consume 15 -> 16.
 *     Uncharges: 16 -> 19, 22, 25, 28, 31, 34 > 32 -> drain (walk), 0; 10 more -> 30.
 *     3 walks.
 *   burst 2 (measured): charges 1-10 consume 30 -> 0; charge 11 misses -> walk, stock 29;
 *     charges 12-16 consume 15 -> 14. Uncharges: 14 + 3*7 = 35 > 32 at the 7th -> drain
 *     (walk), 0; 9 more -> 27. 2 walks (1 charge of 32 pages, 1 uncharge of 35).
 *   There is no fixed point: the burst-start stock goes 0, 30, 27, 24, 21, 18, 15, 12, 9,
 *   6, 3, 0 (period 11 bursts) with 3, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4 walks: any 11
 *   consecutive bursts (bursts 3..13 below) take 3 + 2*5 + 4*5 = 33 walks (3 per burst,
 *   3/16 per charge).
 * batch 64 (+C, +ABC):
 *   burst 1: charge 1 misses -> walk, stock 61; charges 2-16 consume 45 -> 16.
 *     Uncharges: 16 + 48 = 64, never > 64: no drain. 1 walk, stock 64.
 *   burst 2 and every later one: 16 charges consume 48 -> 16, 16 uncharges -> 64.
 *     0 walks: the steady state.
 */
#define BURST_OPS 16
#define PERIOD_BURSTS 11

static void test_inventory_stocked(const char *preset, long *walks1)
{
	const int usage = field_index("usage"), min_usage = field_index("min_usage"),
		  low_usage = field_index("low_usage"), high = field_index("high");
	char *user[3] = {"nr=3", "burst=48", "burst_dist=fixed"};
	long batch, exp1, expp, w1, wp, x;
	char what[400];
	struct inst in;
	int cond;

	if (open_pc(&in, preset, "stocked", user, 3)) {
		inst_close(&in);
		return;
	}
	cond = preset_cond(&in);
	batch = bench_long(in.cfg, "batch");
	exp1 = batch == 32 ? 2 : batch == 64 ? 0 : -1;
	expp = batch == 32 ? 33 : batch == 64 ? 0 : -1;
	CHECK(exp1 >= 0, "%s: no hand computation for batch %ld", in.label, batch);
	trace_map(&in);
	pc_trace_hook = trace_hook;
	trace_reset();
	in.sc->run(in.shared, in.ts, BURST_OPS); /* warm-up burst */
	snprintf(what, sizeof(what), "%s: walks in the warm-up burst", in.label);
	CHECK_EQ(what, tr.walk, batch == 32 ? 3 : 1);
	trace_reset();
	in.sc->run(in.shared, in.ts, BURST_OPS); /* the measured burst */
	w1 = tr.walk;
	*walks1 = w1;

	printf("%s batch=%ld, one burst (16 charges):\n", in.label, batch);
	print_rmw("RMW ops", 0, MAXWALK - 1);
	x = cnt(0, MAXWALK - 1, 1, CTR_MEMORY, min_usage, PC_OP_XCHG) +
	    cnt(0, MAXWALK - 1, 1, CTR_MEMORY, low_usage, PC_OP_XCHG);
	printf("  per charge: %.4f walks, %.4f L1 xchg, %.4f root memory.high loads\n",
	       (double)w1 / BURST_OPS, (double)x / BURST_OPS,
	       (double)cnt(0, MAXWALK - 1, 0, CTR_MEMORY, high, PC_OP_LOAD) / BURST_OPS);
	snprintf(what, sizeof(what), "%s: hierarchy walks in one steady burst", in.label);
	CHECK_EQ(what, w1, exp1);
	for (int lv = 0; lv < NLEVELS; lv++) {
		snprintf(what, sizeof(what), "%s: %s memory.usage add_return per burst", in.label,
			 level_names[lv]);
		CHECK_EQ(what, cnt(0, MAXWALK - 1, lv, CTR_MEMORY, usage, PC_OP_ADD_RETURN), w1);
	}
	snprintf(what, sizeof(what), "%s: L1 xchg per burst", in.label);
	CHECK_EQ(what, x, cond ? 0 : 2 * w1);

	trace_reset();
	in.sc->run(in.shared, in.ts, PERIOD_BURSTS * BURST_OPS);
	wp = tr.walk;
	printf("  next %d bursts: %ld walks (%.4f per charge)\n", PERIOD_BURSTS, wp,
	       (double)wp / (PERIOD_BURSTS * BURST_OPS));
	snprintf(what, sizeof(what), "%s: hierarchy walks in bursts 3..13", in.label);
	CHECK_EQ(what, wp, expp);
	pc_trace_hook = NULL;

	/* Giving back the stock and the unfinished burst restores the preload exactly. */
	in.sc->run(in.shared, in.ts, 5); /* leave a burst half done */
	scenario_thread_teardown(in.sc, in.shared, in.ts);
	in.ts = NULL;
	for (int lv = 0; lv < NLEVELS; lv++) {
		snprintf(what, sizeof(what), "%s: %s memory.usage after thread_teardown", in.label,
			 level_names[lv]);
		CHECK_EQ(what, memv(&in, lv, "usage"), PRELOAD);
	}
	inst_close(&in);
}

/* Counting hooks for test 5: every access by op; socket_pressure loads of any level. */
static long op_count[PC_OP_COUNT];
static const volatile void *sp_addr[8];
static int sp_n;
static long sp_loads;

static void trace_map_levels(const struct inst *in, int levels)
{
	sp_n = 0;
	for (int i = 0; i < levels && i < 8; i++)
		sp_addr[sp_n++] = obj_word(&in->obj[i], "socket_pressure");
}

static void trace_hook_sp(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	(void)size;
	(void)site;
	for (int i = 0; i < sp_n; i++)
		if (addr == sp_addr[i] && op == PC_OP_LOAD)
			sp_loads++;
}

static void op_hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	(void)addr;
	(void)size;
	(void)site;
	if ((unsigned)op < PC_OP_COUNT)
		op_count[op]++;
}

/*
 * Test 5: `levels` sets the hierarchy. With levels L the objects are root, L1, ..., L(L-1)
 * (plus, in socket, the threshold and the pair's word), each css.parent the previous one,
 * and one `direct` op of nr 1 does exactly 2L add_returns (charge and uncharge walks of L
 * counters); one socket message with walks 2 loads 2L socket_pressure words; in kmem
 * (a8c49af3be, pair, warm stock) one op is the kmem counter's charge and uncharge walks,
 * 2L add_returns, and the objects are the L levels and stats_flush_threshold.
 */
static void test_levels(void)
{
	static const char *const names[] = {"root", "L1", "L2", "L3", "L4", "L5", "L6", "L7"};

	for (int levels = 1; levels <= 8; levels++) {
		char p1[32], what[200];
		char *user[1] = {p1};
		struct inst in;

		snprintf(p1, sizeof(p1), "levels=%d", levels);
		if (inst_open(&in, "page_counter", "v6.0-rc1", "direct", 1, user, 1, 1)) {
			inst_close(&in);
			continue;
		}
		snprintf(what, sizeof(what), "levels=%d: objects", levels);
		CHECK_EQ(what, in.nobj, levels);
		for (int i = 0; i < in.nobj; i++) {
			CHECK(!strcmp(in.obj[i].name, names[i]), "levels=%d: object %d is %s",
			      levels, i, in.obj[i].name);
			CHECK((const void *)atomic_load(obj_word(&in.obj[i], "css.parent")) ==
				  (i ? in.obj[i - 1].base : NULL),
			      "levels=%d: %s css.parent", levels, names[i]);
		}
		in.sc->run(in.shared, in.ts, 1); /* the first charge stores the watermarks */
		memset(op_count, 0, sizeof(op_count));
		pc_trace_hook = op_hook;
		in.sc->run(in.shared, in.ts, 1);
		pc_trace_hook = NULL;
		snprintf(what, sizeof(what), "levels=%d: add_return per direct op", levels);
		CHECK_EQ(what, op_count[PC_OP_ADD_RETURN], 2 * levels);
		inst_close(&in);

		if (inst_open(&in, "page_counter", "v6.0-rc1", "socket", 1, user, 1, 1)) {
			inst_close(&in);
			continue;
		}
		snprintf(what, sizeof(what), "levels=%d socket: objects", levels);
		CHECK_EQ(what, in.nobj, levels + 2);
		in.sc->run(in.shared, in.ts, 2); /* one message to itself: charge, uncharge */
		trace_map_levels(&in, levels);
		pc_trace_hook = trace_hook_sp;
		sp_loads = 0;
		in.sc->run(in.shared, in.ts, 2);
		pc_trace_hook = NULL;
		snprintf(what, sizeof(what), "levels=%d socket: socket_pressure loads per message",
			 levels);
		CHECK_EQ(what, sp_loads, 2 * levels);
		inst_close(&in);

		/* kmem (v1, kmem counter on): the unbatched kmem walk is `levels` long too. */
		if (inst_open(&in, "kmem", "a8c49af3be", "pair", 1, user, 1, 1)) {
			inst_close(&in);
			continue;
		}
		snprintf(what, sizeof(what), "levels=%d kmem: objects", levels);
		CHECK_EQ(what, in.nobj, levels + 1); /* the levels, stats_flush_threshold */
		for (int i = 0; i < in.nobj && i < levels; i++)
			CHECK(!strcmp(in.obj[i].name, names[i]), "levels=%d kmem: object %d is %s",
			      levels, i, in.obj[i].name);
		in.sc->run(in.shared, in.ts, 1); /* fills the stock: memory and memsw walks */
		memset(op_count, 0, sizeof(op_count));
		pc_trace_hook = op_hook;
		in.sc->run(in.shared, in.ts, 1); /* stock hit and refill: only the kmem walks */
		pc_trace_hook = NULL;
		snprintf(what, sizeof(what), "levels=%d kmem: add_return per pair op", levels);
		CHECK_EQ(what, op_count[PC_OP_ADD_RETURN], 2 * levels);
		inst_close(&in);
	}
}

int main(int argc, char **argv)
{
	long walks[ARRAY_SIZE(all_presets)] = {0};

	(void)argc;
	(void)argv;
	for (size_t p = 0; p < ARRAY_SIZE(all_presets); p++) {
		for (size_t c = 0; c < ARRAY_SIZE(ref_cases); c++)
			test_reference(all_presets[p], &ref_cases[c]);
		for (int fl = 0; fl < NLEVELS; fl++)
			test_fail(all_presets[p], fl);
		test_inventory_direct(all_presets[p]);
		test_inventory_cross(all_presets[p]);
		test_inventory_stocked(all_presets[p], &walks[p]);
	}
	test_levels();
	/* all_presets[0] is v6.0-rc1 (batch 32), all_presets[3] is +C (batch 64). */
	CHECK(walks[3] < walks[0], "stocked walks per burst: +C %ld, v6.0-rc1 %ld: expected fewer",
	      walks[3], walks[0]);
	printf("stocked walks per burst: v6.0-rc1 %ld, +C %ld\n", walks[0], walks[3]);
	if (failures) {
		fprintf(stderr, "test_page_counter: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_page_counter: all checks passed\n");
	return 0;
}
