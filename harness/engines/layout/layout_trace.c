// SPDX-License-Identifier: MIT
/*
 * layout_trace.c - the traced accesses of `layout show --scenario` and `layout suggest`:
 * the scenario's tracing build runs N virtual threads in turn on this one OS thread (each
 * gets thread_setup(), then run(shared, tstate_i, 1) in turn, for --warmup rounds and then
 * --ops counted rounds), and pc_trace_hook counts every shared access per object, leaf,
 * access kind and virtual thread; addresses map to fields through the scenario's
 * objects() and their layouts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "infile.h"
#include "layout.h"

#include "layout_cmd.h"

#define MAX_OBJECTS 64

static int acc_kind(enum pc_op op)
{
	switch (op) {
	case PC_OP_LOAD:
	case PC_OP_WAIT:
		return ACC_LOAD;
	case PC_OP_STORE:
	case PC_OP_UNLOCK:
		return ACC_STORE;
	default:
		return ACC_RMW;
	}
}

struct trace tr;

static void trace_hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	uintptr_t a = (uintptr_t)addr;

	(void)size;
	(void)site;
	if ((unsigned)op >= PC_OP_COUNT)
		return;
	for (int i = 0; i < tr.n; i++) {
		struct tobj *t = &tr.o[i];
		uintptr_t base = (uintptr_t)t->o.base;
		const struct layout_leaf *lf;

		if (a < base || a >= base + t->s->size)
			continue;
		lf = layout_leaf_at(t->lv, t->n, a - base);
		if (!lf) {
			t->undescribed++;
			return;
		}
		t->cnt[((lf - t->lv) * NACC + acc_kind(op)) * tr.threads + tr.cur]++;
		t->opmask[lf - t->lv] |= 1u << op;
		return;
	}
	tr.outside++;
}

void trace_annotate(const struct tobj *t, long ops, struct ann *a)
{
	for (int i = 0; i < t->n; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].opmask = t->opmask[i];
		for (int k = 0; k < NACC; k++) {
			long sum = 0;

			for (int th = 0; th < tr.threads; th++) {
				long c = t->cnt[(i * NACC + k) * tr.threads + th];

				if (!c)
					continue;
				sum += c;
				a[i].thr[k]++;
				a[i].amask |= 1ULL << th;
				if (k != ACC_LOAD)
					a[i].wmask |= 1ULL << th;
			}
			if (a[i].thr[k])
				a[i].per_op[k] = (double)sum / ((double)ops * a[i].thr[k]);
		}
	}
}

/* The line of the "layout NAME" line of file @path (1 when it cannot tell). */
static int layout_line_of(const char *path)
{
	FILE *f = infile_open(path, 0, "a layout file", NULL, 0);
	char buf[1024];
	int line = 0;

	if (!f)
		return 1;
	while (fgets(buf, sizeof(buf), f)) {
		char *s = buf;

		line++;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!strncmp(s, "layout", 6) && (s[6] == ' ' || s[6] == '\t')) {
			fclose(f);
			return line;
		}
	}
	fclose(f);
	return 1;
}

/* "PATH:LINE: " at the start of @msg, as layout and recipe errors have. */
static int has_file_line(const char *msg)
{
	const char *c = strchr(msg, ':');

	if (!c || c == msg || c[1] < '0' || c[1] > '9')
		return 0;
	for (c++; *c >= '0' && *c <= '9'; c++)
		;
	return *c == ':';
}

/*
 * check_error - exit 2 with a scenario's check() message about layout file @l: "FILE:LINE:"
 * of the struct the message names, else of the "layout" line.
 */
static int check_error(const struct layout *l, const char *msg)
{
	int line = 0;

	if (strncmp(l->source, "builtin:", 8) == 0 || has_file_line(msg))
		return layout_usage_error("%s: %s", tr.cmd, msg);
	for (const char *s = msg; (s = strstr(s, "struct ")); s += 7) {
		char name[LAYOUT_NAME_MAX];
		size_t n = strspn(
		    s + 7, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		const struct layout_struct *ls;

		if (!n || n >= sizeof(name))
			continue;
		memcpy(name, s + 7, n);
		name[n] = '\0';
		ls = layout_find_struct(l, name);
		if (ls) {
			line = ls->line;
			break;
		}
	}
	if (!line)
		line = layout_line_of(l->source);
	return layout_usage_error("%s: %s:%d: a required field is missing for the scenario: %s",
				  tr.cmd, l->source, line, msg);
}

/* Exit 2: no traced scenario is named @name; the message lists those there are. */
static int no_such_scenario(const char *name)
{
	char names[512] = "";
	size_t k = 0;

	for (int i = 0; all_scenarios_traced[i] && k < sizeof(names); i++)
		k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", i ? ", " : "",
				      all_scenarios_traced[i]->name);
	return layout_usage_error("%s: --scenario: %s: no such scenario (scenarios: %s)", tr.cmd,
				  name, names);
}

/*
 * find_selection - the scenario, preset and workload that --scenario, --preset and
 * --workload name (the first workload without --workload); 0, or 2 with why.
 */
static int find_selection(const struct trace_req *so, const struct scenario **scp,
			  const struct bench_preset **presetp, const struct bench_workload **wlp)
{
	const struct scenario *sc = scenario_find_traced(so->scenario);

	if (!sc)
		return no_such_scenario(so->scenario);
	if (bench_unmodelled(sc))
		return layout_usage_error("%s: --scenario: %s: %s", tr.cmd, sc->name,
					  bench_unmodelled(sc));
	if (so->layout ? !scenario_takes_layout(sc) : scenario_layout_param(sc) < 0)
		return layout_usage_error("%s: --scenario: %s: takes no layout", tr.cmd, sc->name);
	if (!so->preset)
		return layout_usage_error("%s: --scenario %s needs --preset (the first is %s)",
					  tr.cmd, sc->name, sc->presets[0].name);
	*presetp = preset_find(sc, so->preset);
	if (!*presetp)
		return layout_usage_error("%s: --preset: %s: scenario %s has no such preset",
					  tr.cmd, so->preset, sc->name);
	*wlp = so->workload ? workload_find(sc, so->workload) : &sc->workloads[0];
	if (!*wlp)
		return layout_usage_error("%s: --workload: %s: scenario %s has no such workload",
					  tr.cmd, so->workload, sc->name);
	*scp = sc;
	return 0;
}

/*
 * trace_cfg - the configuration of the selection with the user's -D values, the layout
 * shown winning, as --layout does; 0, or 2 with why (a layout's fault at its FILE:LINE).
 */
static int trace_cfg(const struct trace_req *so, const struct scenario *sc,
		     const struct bench_preset *preset, const struct bench_workload *wl,
		     const struct layout *l, struct bench_cfg **cfgp)
{
	char err[1024], err0[1024], *user[TRACE_MAX_PARAMS + 2];
	struct bench_cfg *c0;

	for (int i = 0; i < so->nparams; i++) {
		if (!strchr(so->params[i], '=') || so->params[i][0] == '=')
			return layout_usage_error("%s: -D: %s: expected NAME=VALUE", tr.cmd,
						  so->params[i]);
		if (!param_arg_known(sc, so->params[i]))
			return layout_usage_error("%s: -D: %s: scenario %s has no parameter %.*s",
						  tr.cmd, so->params[i], sc->name,
						  (int)strcspn(so->params[i], "="), so->params[i]);
		user[i] = so->params[i];
	}
	*cfgp = cfg_new_layout(sc, preset, wl, (int)so->threads, user, so->nparams, l, so->layout,
			       err, sizeof(err));
	if (*cfgp)
		return 0;
	if (!l)
		return layout_usage_error("%s: %s", tr.cmd, err);
	c0 = cfg_new(sc, preset, wl, (int)so->threads, user, so->nparams, err0, sizeof(err0));
	cfg_free(c0);
	if (!c0 && !strcmp(err, err0))
		return layout_usage_error("%s: %s", tr.cmd, err); /* not about the layout */
	return check_error(l, err);
}

/* The state of each of @so's virtual threads into @ts, then their warm-up; 0 or 2. */
static int setup_threads(const struct trace_req *so, const struct scenario *sc, void *shared,
			 void **ts)
{
	for (int t = 0; t < so->threads; t++) {
		ts[t] = scenario_thread_setup(sc, shared, t);
		if (!ts[t])
			return layout_usage_error("%s: %s: thread_setup(%d) failed", tr.cmd,
						  sc->name, t);
	}
	for (long r = 0; r < so->warmup; r++)
		for (int t = 0; t < so->threads; t++)
			sc->run(shared, ts[t], 1);
	return 0;
}

/* tr: the modelled objects of @shared, each with its leaves and zeroed counts; 0 or 2. */
static int trace_objects(const struct scenario *sc, void *shared, int threads)
{
	struct bench_object objs[MAX_OBJECTS];
	int nobj = scenario_objects(sc, shared, objs, MAX_OBJECTS);

	if (nobj <= 0)
		return layout_usage_error("%s: %s: objects() gives no modelled object", tr.cmd,
					  sc->name);
	tr.o = calloc((size_t)nobj, sizeof(*tr.o));
	tr.threads = threads;
	for (int i = 0; tr.o && i < nobj; i++) {
		struct tobj *t = &tr.o[i];

		t->o = objs[i];
		t->s = layout_find_struct(objs[i].layout, objs[i].sname);
		t->n = t->s ? layout_leaves(objs[i].layout, objs[i].sname, &t->lv) : -1;
		if (t->n < 0)
			return layout_usage_error("%s: %s: object %s: no struct %s in its layout",
						  tr.cmd, sc->name, objs[i].name, objs[i].sname);
		t->cnt = calloc((size_t)(t->n + 1) * NACC * (size_t)tr.threads, sizeof(long));
		t->opmask = calloc((size_t)t->n + 1, sizeof(unsigned));
		if (!t->cnt || !t->opmask)
			return layout_usage_error("%s: out of memory", tr.cmd);
		tr.n++;
	}
	if (!tr.o)
		return layout_usage_error("%s: out of memory", tr.cmd);
	return 0;
}

/* @ops counted operations of every virtual thread in turn, each access into tr. */
static void trace_run(const struct scenario *sc, void *shared, void **ts, long ops)
{
	pc_trace_hook = trace_hook;
	for (long r = 0; r < ops; r++)
		for (tr.cur = 0; tr.cur < tr.threads; tr.cur++)
			sc->run(shared, ts[tr.cur], 1);
	pc_trace_hook = NULL;
}

/* 2 if the traced run did an atomic RMW on a field whose kind cannot take one, else 0. */
static int check_rmw_kinds(const struct scenario *sc)
{
	for (int i = 0; i < tr.n; i++) {
		const struct tobj *t = &tr.o[i];

		for (int f = 0; f < t->n; f++) {
			const struct layout_field *fd = t->lv[f].field;
			long rmw = 0;
			char ops[128];

			for (int th = 0; th < tr.threads; th++)
				rmw += t->cnt[(f * NACC + ACC_RMW) * tr.threads + th];
			if (!rmw || fd->kind == LK_ATOMIC || fd->kind == LK_LOCK ||
			    fd->kind == LK_PTR)
				continue;
			view_ops(ops, sizeof(ops),
				 t->opmask[f] & ~((1u << PC_OP_LOAD) | (1u << PC_OP_STORE)));
			return layout_usage_error(
			    "%s: %s:%d: field %s (%s of struct %s): scenario %s does atomic "
			    "%s on it, but its kind is %s: a plain word or a bit-field cannot be "
			    "updated atomically (mark it atomic if the kernel's type is)",
			    tr.cmd, t->o.layout->source, fd->line, t->lv[f].path, fd->name,
			    t->lv[f].owner->name, sc->name, ops, layout_kind_name(t->o.layout, fd));
		}
	}
	return 0;
}

/* Frees tr's objects and clears it. */
void trace_free(void)
{
	for (int t = 0; t < tr.threads && tr.ts; t++)
		if (tr.ts[t])
			scenario_thread_teardown(tr.sc, tr.shared, tr.ts[t]);
	if (tr.shared)
		scenario_teardown(tr.sc, tr.shared);
	cfg_free(tr.cfg);
	free(tr.ts);
	for (int i = 0; i < tr.n; i++) {
		free(tr.o[i].lv);
		free(tr.o[i].cnt);
		free(tr.o[i].opmask);
	}
	free(tr.o);
	memset(&tr, 0, sizeof(tr));
}

int trace_start(const struct trace_req *rq, const struct layout *l)
{
	const struct scenario *sc = NULL;
	char err[1024];
	int rc;

	memset(&tr, 0, sizeof(tr));
	tr.cmd = rq->cmd;
	rc = find_selection(rq, &sc, &tr.preset, &tr.wl);
	if (!rc)
		rc = trace_cfg(rq, sc, tr.preset, tr.wl, l, &tr.cfg);
	if (rc)
		return rc;
	tr.sc = sc;
	tr.shared = sc->setup(tr.cfg, err, sizeof(err));
	if (!tr.shared)
		return layout_usage_error("%s: %s: setup: %s", tr.cmd, sc->name, err);
	tr.ts = calloc((size_t)rq->threads, sizeof(*tr.ts));
	if (!tr.ts)
		return layout_usage_error("%s: out of memory", tr.cmd);
	tr.threads = (int)rq->threads;
	rc = setup_threads(rq, sc, tr.shared, tr.ts);
	if (!rc)
		rc = trace_objects(sc, tr.shared, (int)rq->threads);
	if (!rc) {
		trace_run(sc, tr.shared, tr.ts, rq->ops);
		rc = check_rmw_kinds(sc);
	}
	tr.ops = rq->ops;
	return rc;
}
