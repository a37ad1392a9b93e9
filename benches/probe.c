// SPDX-License-Identifier: MIT
/*
 * probe.c - contention for any struct, with no C: a layout (`layout`, any built-in or
 * layout file) and a recipe (`recipe`, a built-in name or a recipe file; grammar in
 * benches/recipe.h and README.md "Layouts from outside") that names modelled objects,
 * roles with their per-operation access sequences, and how many threads take each role.
 * The steps go through the accessor layer like every other scenario's accesses, so the
 * probe is measured, traced and modelled the same way; objects() exposes its objects.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "infile.h"
#include "recipe.h"

#define RECIPE_FILE_MAX (1LL << 20)

/*
 * The built-in recipes. page_counter-direct is the page_counter scenario's `direct`
 * operation with always-xchg propagation (its v6.0-rc1 and +B presets), written out as
 * accesses: page_counter_try_charge of one page from the leaf L3 to the root, then
 * page_counter_uncharge, on each level's `memory` counter. Per level and charge:
 * add_return on usage, read max, propagate_protected_usage (levels with a parent: read
 * parent, min, then xchg min_usage where min is set (L1) or else read it, the same for
 * low), read watermark, read parent for the walk; per level and uncharge: sub_return on
 * usage, propagate, read parent. In the probe every value is a constant, so the xchg happens
 * because the recipe says so, not because min is set.
 */
static const char recipe_pc_direct[] =
    "# page_counter direct (always-xchg): try_charge of 1 page from L3 to the root, uncharge\n"
    "object root mem_cgroup\n"
    "object L1 mem_cgroup\n"
    "object L2 mem_cgroup\n"
    "object L3 mem_cgroup\n"
    "role charger: rmw L3.memory.usage 1; load L3.memory.max; load L3.memory.parent\n"
    "role charger: load L3.memory.min; load L3.memory.min_usage; load L3.memory.low\n"
    "role charger: load L3.memory.low_usage; load L3.memory.watermark; load L3.memory.parent\n"
    "role charger: rmw L2.memory.usage 1; load L2.memory.max; load L2.memory.parent\n"
    "role charger: load L2.memory.min; load L2.memory.min_usage; load L2.memory.low\n"
    "role charger: load L2.memory.low_usage; load L2.memory.watermark; load L2.memory.parent\n"
    "role charger: rmw L1.memory.usage 1; load L1.memory.max; load L1.memory.parent\n"
    "role charger: load L1.memory.min; xchg L1.memory.min_usage 256; load L1.memory.low\n"
    "role charger: xchg L1.memory.low_usage 512; load L1.memory.watermark\n"
    "role charger: load L1.memory.parent\n"
    "role charger: rmw root.memory.usage 1; load root.memory.max; load root.memory.parent\n"
    "role charger: load root.memory.watermark; load root.memory.parent\n"
    "# uncharge\n"
    "role charger: rmw L3.memory.usage -1; load L3.memory.parent; load L3.memory.min\n"
    "role charger: load L3.memory.min_usage; load L3.memory.low; load L3.memory.low_usage\n"
    "role charger: load L3.memory.parent\n"
    "role charger: rmw L2.memory.usage -1; load L2.memory.parent; load L2.memory.min\n"
    "role charger: load L2.memory.min_usage; load L2.memory.low; load L2.memory.low_usage\n"
    "role charger: load L2.memory.parent\n"
    "role charger: rmw L1.memory.usage -1; load L1.memory.parent; load L1.memory.min\n"
    "role charger: xchg L1.memory.min_usage 256; load L1.memory.low\n"
    "role charger: xchg L1.memory.low_usage 512; load L1.memory.parent\n"
    "role charger: rmw root.memory.usage -1; load root.memory.parent; load root.memory.parent\n"
    "threads: charger*\n";

/* The example: usage written by every writer, high read by one reader. */
static const char recipe_usage_high[] =
    "# one struct page_counter: writers charge usage, one reader checks high\n"
    "role writer: rmw usage 1; load max; load parent\n"
    "role reader: load high; load parent\n"
    "threads: writer*, reader 1\n";

static const struct {
	const char *name, *text;
} builtin_recipes[] = {
    {"page_counter-direct", recipe_pc_direct},
    {"usage-high", recipe_usage_high},
};
#define NBUILTIN (sizeof(builtin_recipes) / sizeof(builtin_recipes[0]))

struct pstep {
	enum recipe_op op;
	pc_word *w;
	long value;
};

struct probe_shared {
	struct recipe *r;
	const struct layout *layout;
	char *base[RECIPE_MAX_OBJECTS];
	struct pstep *steps[RECIPE_MAX_ROLES];
	int nsteps[RECIPE_MAX_ROLES];
	int *role_of;
	int threads;
};

struct probe_thread {
	const struct pstep *steps;
	int n;
	long *seen; /* cmpxchg: the value each step last saw */
	long sink;
};

/* load - the recipe the configuration names, parsed and bound to its layout. */
static struct recipe *load(const struct bench_cfg *cfg, const struct layout **lp, char *err,
			   size_t errlen)
{
	const struct layout *l = bench_layout(cfg);
	const char *name = bench_str(cfg, "recipe");
	char source[300], *text = NULL;
	struct recipe *r;

	for (size_t i = 0; i < NBUILTIN; i++) {
		if (!strcmp(name, builtin_recipes[i].name)) {
			snprintf(source, sizeof(source), "builtin:%s", name);
			r = recipe_parse(builtin_recipes[i].text, source, err, errlen);
			goto parsed;
		}
	}
	text = infile_read(name, RECIPE_FILE_MAX, "a recipe", NULL, err, errlen);
	if (!text) {
		int missing = errno == ENOENT || errno == ENOTDIR;
		char why[1024];

		snprintf(why, sizeof(why), "%s", err);
		if (missing)
			bench_error(err, errlen,
				    "recipe: %s: no built-in recipe of that name and no such file "
				    "(built-ins: page_counter-direct, usage-high)",
				    name);
		else
			bench_error(err, errlen, "recipe: %s", why);
		return NULL;
	}
	r = recipe_parse(text, name, err, errlen);
	free(text);
parsed:
	if (!r)
		return NULL;
	if (recipe_bind(r, l, err, errlen)) {
		recipe_free(r);
		return NULL;
	}
	*lp = l;
	return r;
}

static int check(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	const struct layout *l;
	struct recipe *r = load(cfg, &l, err, errlen);
	int threads = bench_threads(cfg), rc;
	int *role;

	if (!r)
		return -1;
	role = calloc((size_t)(threads > 0 ? threads : 1), sizeof(*role));
	rc = role ? recipe_assign(r, threads, role, err, errlen) : -1;
	if (!role)
		bench_error(err, errlen, "out of memory");
	free(role);
	recipe_free(r);
	return rc;
}

static void teardown(void *shared)
{
	struct probe_shared *s = shared;

	if (!s)
		return;
	for (int i = 0; s->r && i < s->r->nobjects; i++)
		bench_free(s->base[i]);
	for (int i = 0; i < RECIPE_MAX_ROLES; i++)
		free(s->steps[i]);
	free(s->role_of);
	recipe_free(s->r);
	bench_free(s);
}

/* Where kmalloc would put an object of @size: naturally aligned up to a page. */
static size_t object_align(const struct layout_struct *ls)
{
	size_t a = 64;

	while (a < ls->size && a < 4096)
		a *= 2;
	return ls->align > a ? ls->align : a;
}

static void *setup(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	struct probe_shared *s = bench_alloc(sizeof(*s), BENCH_PAD);
	const struct layout *l;

	err[0] = '\0';
	s->r = load(cfg, &l, err, errlen);
	if (!s->r) {
		bench_free(s);
		return NULL;
	}
	s->layout = l;
	s->threads = bench_threads(cfg);
	s->role_of = calloc((size_t)s->threads + 1, sizeof(*s->role_of));
	if (!s->role_of || recipe_assign(s->r, s->threads, s->role_of, err, errlen))
		goto fail;
	for (int i = 0; i < s->r->nobjects; i++) {
		const struct layout_struct *ls = layout_find_struct(l, s->r->objects[i].sname);

		s->base[i] = bench_alloc(ls->size ? ls->size : 1, object_align(ls));
	}
	for (int i = 0; i < s->r->nroles; i++) {
		const struct recipe_role *ro = &s->r->roles[i];

		s->steps[i] = calloc((size_t)ro->nsteps, sizeof(*s->steps[i]));
		if (!s->steps[i]) {
			bench_error(err, errlen, "out of memory");
			goto fail;
		}
		s->nsteps[i] = ro->nsteps;
		for (int j = 0; j < ro->nsteps; j++) {
			const struct recipe_step *st = &ro->steps[j];

			s->steps[i][j].op = st->op;
			s->steps[i][j].value = st->value;
			if (st->op != RO_SPIN)
				s->steps[i][j].w = (pc_word *)(s->base[st->obj] + st->offset);
		}
	}
	return s;
fail:
	if (!err[0])
		bench_error(err, errlen, "out of memory");
	teardown(s);
	return NULL;
}

static void *thread_setup(void *shared, int thread)
{
	struct probe_shared *s = shared;
	struct probe_thread *t = bench_alloc(sizeof(*t), BENCH_PAD);
	int role = s->role_of[s->threads ? thread % s->threads : 0];

	t->steps = s->steps[role];
	t->n = s->nsteps[role];
	/* written by every cmpxchg step: in the thread's own block, as its state is */
	t->seen = bench_alloc((size_t)t->n * sizeof(*t->seen), BENCH_PAD);
	return t;
}

static void thread_teardown(void *shared, void *tstate)
{
	struct probe_thread *t = tstate;

	(void)shared;
	bench_free(t->seen);
	bench_free(t);
}

static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct probe_thread *t = tstate;
	const struct pstep *steps = t->steps;
	const int ns = t->n;
	long sink = 0;

	(void)shared;
	for (uint64_t i = 0; i < n; i++) {
		for (int j = 0; j < ns; j++) {
			const struct pstep *st = &steps[j];

			switch (st->op) {
			case RO_LOAD:
				sink += pc_load(st->w);
				break;
			case RO_STORE:
				pc_store(st->w, st->value);
				break;
			case RO_RMW:
				sink += pc_add_return(st->w, st->value);
				break;
			case RO_ADD:
				pc_add(st->w, st->value);
				break;
			case RO_XCHG:
				sink += pc_xchg(st->w, st->value);
				break;
			case RO_CMPXCHG: {
				long seen = t->seen[j];
				long got = pc_cmpxchg(st->w, seen, seen + st->value);

				t->seen[j] = got == seen ? seen + st->value : got;
				break;
			}
			case RO_LOCK:
				pc_spin_lock((pc_lock *)st->w);
				break;
			case RO_UNLOCK:
				pc_spin_unlock((pc_lock *)st->w);
				break;
			case RO_SPIN:
				for (long k = 0; k < st->value; k++)
					pc_cpu_relax();
				break;
			default:
				break;
			}
		}
	}
	t->sink += sink;
	return n;
}

static int objects(void *shared, struct bench_object *out, int max)
{
	struct probe_shared *s = shared;
	int i;

	for (i = 0; i < s->r->nobjects && i < max; i++)
		out[i] = (struct bench_object){s->r->objects[i].name, s->r->objects[i].sname,
					       s->base[i], s->layout};
	return i;
}

static void describe(const struct bench_cfg *cfg, void (*out)(void *arg, const char *line),
		     void *arg)
{
	char err[512], line[600];
	const struct layout *l;
	struct recipe *r = load(cfg, &l, err, sizeof(err));
	size_t k;

	if (!r) {
		out(arg, err);
		return;
	}
	k = (size_t)snprintf(line, sizeof(line), "recipe %s on layout %s: object%s", r->source,
			     l->name, r->nobjects > 1 ? "s" : "");
	for (int i = 0; i < r->nobjects && k < sizeof(line); i++)
		k += (size_t)snprintf(line + k, sizeof(line) - k, " %s (%s)", r->objects[i].name,
				      r->objects[i].sname);
	out(arg, line);
	for (int i = 0; i < r->nroles; i++) {
		int c[RO_COUNT] = {0};

		for (int j = 0; j < r->roles[i].nsteps; j++)
			c[r->roles[i].steps[j].op]++;
		snprintf(
		    line, sizeof(line),
		    "role %s: %d steps per operation: %d rmw/add/xchg/cmpxchg, %d store, %d load, "
		    "%d lock",
		    r->roles[i].name, r->roles[i].nsteps,
		    c[RO_RMW] + c[RO_ADD] + c[RO_XCHG] + c[RO_CMPXCHG], c[RO_STORE], c[RO_LOAD],
		    c[RO_LOCK]);
		out(arg, line);
	}
	recipe_free(r);
}

static const struct bench_param params[] = {
    {"layout", "v6.1", "the structs of the objects: a built-in layout or a layout file",
     BENCH_LAYOUT, 0, 0},
    {"recipe", "page_counter-direct",
     "objects, roles and their accesses: a recipe file, or built-in page_counter-direct or "
     "usage-high",
     BENCH_FILE, 0, 0},
    {0},
};

static const struct bench_preset presets[] = {
    {"v6.0", "the recipe on the v6.0 layouts", "layout=v6.0"},
    {"v6.1", "the recipe on the v6.1 layouts", "layout=v6.1"},
    {0},
};

static const struct bench_workload workloads[] = {
    {"recipe", "one pass of each thread's role: the recipe's accesses, in order", "", 0},
    {0},
};

const struct scenario probe_scenario = {
    .name = "probe",
    .desc = "contention for any struct without C: a layout and a recipe of accesses by role",
    .params = params,
    .presets = presets,
    .workloads = workloads,
    .check = check,
    .setup = setup,
    .teardown = teardown,
    .thread_setup = thread_setup,
    .thread_teardown = thread_teardown,
    .run = run,
    .objects = objects,
    .describe = describe,
};
