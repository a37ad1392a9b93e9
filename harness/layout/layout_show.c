// SPDX-License-Identifier: MIT
/*
 * layout_show.c - `pcbench layout show`: a pahole-like view of a layout (nested structs
 * flattened, cache-line boundaries, holes) or its layout-file text; with --scenario, the
 * scenario's tracing build runs N virtual threads in turn on this OS thread and every
 * field is annotated with its accesses per operation, with the false-sharing report. The
 * view of one struct is layout_view.c's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "infile.h"
#include "layout.h"
#include "num.h"

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

/* One modelled object of the traced scenario and its counts. */
struct tobj {
	struct bench_object o;
	const struct layout_struct *s;
	struct layout_leaf *lv;
	int n;
	long *cnt;	  /* [leaf][NACC][thread] */
	unsigned *opmask; /* [leaf]: 1 << pc_op of every op seen */
	long undescribed; /* accesses inside the object but in no described field */
	int group;	  /* the first object with the same struct and counts */
};

static struct {
	struct tobj *o;
	int n, threads, cur;
	long outside;
} tr;

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

static void annotate(const struct tobj *t, long ops, struct ann *a)
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
		return err2("show: %s", msg);
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
	return err2("show: %s:%d: a required field is missing for the scenario: %s", l->source,
		    line, msg);
}

static int same_counts(const struct tobj *a, const struct tobj *b)
{
	if (a->s != b->s || a->o.layout != b->o.layout || a->n != b->n)
		return 0;
	return !memcmp(a->cnt, b->cnt, (size_t)a->n * NACC * (size_t)tr.threads * sizeof(long)) &&
	       !memcmp(a->opmask, b->opmask, (size_t)a->n * sizeof(unsigned)) &&
	       a->undescribed == b->undescribed;
}

/* Exit 2: no traced scenario is named @name; the message lists those there are. */
static int no_such_scenario(const char *name)
{
	char names[512] = "";
	size_t k = 0;

	for (int i = 0; all_scenarios_traced[i] && k < sizeof(names); i++)
		k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", i ? ", " : "",
				      all_scenarios_traced[i]->name);
	return err2("show: --scenario: %s: no such scenario (scenarios: %s)", name, names);
}

/*
 * find_selection - the scenario, preset and workload that --scenario, --preset and
 * --workload name (the first workload without --workload); 0, or 2 with why.
 */
static int find_selection(const struct show_opts *so, const struct scenario **scp,
			  const struct bench_preset **presetp, const struct bench_workload **wlp)
{
	const struct scenario *sc = scenario_find_traced(so->scenario);

	if (!sc)
		return no_such_scenario(so->scenario);
	if (bench_unmodelled(sc))
		return err2("show: --scenario: %s: %s", sc->name, bench_unmodelled(sc));
	if (!scenario_takes_layout(sc))
		return err2("show: --scenario: %s: takes no layout", sc->name);
	if (!so->preset)
		return err2("show: --scenario %s needs --preset (the first is %s)", sc->name,
			    sc->presets[0].name);
	*presetp = preset_find(sc, so->preset);
	if (!*presetp)
		return err2("show: --preset: %s: scenario %s has no such preset", so->preset,
			    sc->name);
	*wlp = so->workload ? workload_find(sc, so->workload) : &sc->workloads[0];
	if (!*wlp)
		return err2("show: --workload: %s: scenario %s has no such workload", so->workload,
			    sc->name);
	*scp = sc;
	return 0;
}

/*
 * show_cfg - the configuration of the selection with the user's -D values, the layout
 * shown winning, as --layout does; 0, or 2 with why (a layout's fault at its FILE:LINE).
 */
static int show_cfg(const struct show_opts *so, const struct scenario *sc,
		    const struct bench_preset *preset, const struct bench_workload *wl,
		    const struct layout *l, struct bench_cfg **cfgp)
{
	char err[1024], err0[1024], *user[MAX_PARAMS + 2];
	struct bench_cfg *c0;

	for (int i = 0; i < so->nparams; i++) {
		if (!strchr(so->params[i], '=') || so->params[i][0] == '=')
			return err2("show: -D: %s: expected NAME=VALUE", so->params[i]);
		if (!param_arg_known(sc, so->params[i]))
			return err2("show: -D: %s: scenario %s has no parameter %.*s",
				    so->params[i], sc->name, (int)strcspn(so->params[i], "="),
				    so->params[i]);
		user[i] = so->params[i];
	}
	*cfgp = cfg_new_layout(sc, preset, wl, (int)so->threads, user, so->nparams, l, so->layout,
			       err, sizeof(err));
	if (*cfgp)
		return 0;
	c0 = cfg_new(sc, preset, wl, (int)so->threads, user, so->nparams, err0, sizeof(err0));
	cfg_free(c0);
	if (!c0 && !strcmp(err, err0))
		return err2("show: %s", err); /* not about the layout */
	return check_error(l, err);
}

/* The state of each of @so's virtual threads into @ts, then their warm-up; 0 or 2. */
static int setup_threads(const struct show_opts *so, const struct scenario *sc, void *shared,
			 void **ts)
{
	for (int t = 0; t < so->threads; t++) {
		ts[t] = scenario_thread_setup(sc, shared, t);
		if (!ts[t])
			return err2("show: %s: thread_setup(%d) failed", sc->name, t);
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
		return err2("show: %s: objects() gives no modelled object", sc->name);
	memset(&tr, 0, sizeof(tr));
	tr.o = calloc((size_t)nobj, sizeof(*tr.o));
	tr.threads = threads;
	for (int i = 0; tr.o && i < nobj; i++) {
		struct tobj *t = &tr.o[i];

		t->o = objs[i];
		t->s = layout_find_struct(objs[i].layout, objs[i].sname);
		t->n = t->s ? layout_leaves(objs[i].layout, objs[i].sname, &t->lv) : -1;
		if (t->n < 0)
			return err2("show: %s: object %s: no struct %s in its layout", sc->name,
				    objs[i].name, objs[i].sname);
		t->cnt = calloc((size_t)(t->n + 1) * NACC * (size_t)tr.threads, sizeof(long));
		t->opmask = calloc((size_t)t->n + 1, sizeof(unsigned));
		if (!t->cnt || !t->opmask)
			return err2("show: out of memory");
		tr.n++;
	}
	if (!tr.o)
		return err2("show: out of memory");
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
			return err2(
			    "show: %s:%d: field %s (%s of struct %s): scenario %s does atomic "
			    "%s on it, but its kind is %s: a plain word or a bit-field cannot be "
			    "updated atomically (mark it atomic if the kernel's type is)",
			    t->o.layout->source, fd->line, t->lv[f].path, fd->name,
			    t->lv[f].owner->name, sc->name, ops, layout_kind_name(t->o.layout, fd));
		}
	}
	return 0;
}

/* The comment lines above the objects: the layout, the run and how to read the view. */
static void print_legend(const struct show_opts *so, const struct layout *l, const char *sc,
			 const char *preset, const char *wl)
{
	view_header(l, so->line);
	printf("/* scenario %s, preset %s, workload %s, layout %s */\n", sc, preset, wl, l->name);
	printf("/* traced: %ld virtual thread%s run in turn on one OS thread, one operation at a "
	       "time: %ld warm-up and %ld counted operations each */\n",
	       so->threads, so->threads == 1 ? "" : "s", so->warmup, so->ops);
	printf("/* per field: accesses per operation of each thread that makes them, xN: by N "
	       "threads; rmw = add, add_return, xchg, cmpxchg, lock; store = store, unlock */\n");
	printf("/* !! marks a cache line where a field written by one thread shares the line "
	       "with a field used by another thread (false sharing)%s */\n",
	       so->threads < 2 ? "; with one thread there is none" : "");
	if (tr.outside)
		printf("/* %.4g accesses per operation outside the objects below */\n",
		       (double)tr.outside / (double)(so->ops * so->threads));
}

/* Each object's group: the first object with the same struct and the same counts. */
static void group_objects(void)
{
	for (int i = 0; i < tr.n; i++) {
		tr.o[i].group = i;
		for (int j = 0; j < i; j++) {
			if (tr.o[j].group == j && same_counts(&tr.o[i], &tr.o[j])) {
				tr.o[i].group = j;
				break;
			}
		}
	}
}

/* The annotated struct of group @i (first object tr.o[i]), its lines flagged into @rep. */
static int print_group(const struct show_opts *so, int i, struct report *rep)
{
	const struct tobj *t = &tr.o[i];
	char who[512];
	size_t k = 0;
	int members = 0;
	struct ann *a;

	for (int j = i; j < tr.n && k < sizeof(who); j++)
		if (tr.o[j].group == i) {
			k += (size_t)snprintf(who + k, sizeof(who) - k, "%s%s", members ? ", " : "",
					      tr.o[j].o.name);
			members++;
		}
	a = calloc((size_t)t->n + 1, sizeof(*a));
	if (!a)
		return err2("show: out of memory");
	annotate(t, so->ops, a);
	printf("\n/* object%s %s: struct %s of layout %s */\n", members > 1 ? "s" : "", who,
	       t->s->name, t->o.layout->name);
	if (t->undescribed)
		printf("/* %.4g accesses per operation at offsets no field describes */\n",
		       (double)t->undescribed / (double)(so->ops * so->threads));
	view_struct(t->o.layout, t->s, t->lv, t->n, a, (size_t)so->line, so->all, who, rep);
	free(a);
	return 0;
}

/* Every group of objects, then the static false-sharing report; 0 or 2. */
static int print_objects(const struct show_opts *so)
{
	struct report rep = {0};
	int rc = 0;

	group_objects();
	for (int i = 0; i < tr.n && !rc; i++)
		if (tr.o[i].group == i)
			rc = print_group(so, i, &rep);
	if (!rc) {
		printf("\n/* static false-sharing report: %d cache line%s flagged */\n", rep.n,
		       rep.n == 1 ? "" : "s");
		for (int i = 0; i < rep.n; i++)
			printf("/*   %s */\n", rep.lines[i]);
	}
	free(rep.lines);
	return rc;
}

/* Frees tr's objects and clears it. */
static void trace_free(void)
{
	for (int i = 0; i < tr.n; i++) {
		free(tr.o[i].lv);
		free(tr.o[i].cnt);
		free(tr.o[i].opmask);
	}
	free(tr.o);
	memset(&tr, 0, sizeof(tr));
}

static int show_scenario(const struct show_opts *so, const struct layout *l)
{
	const struct scenario *sc = NULL;
	const struct bench_preset *preset = NULL;
	const struct bench_workload *wl = NULL;
	struct bench_cfg *cfg = NULL;
	char err[1024];
	void *shared, *ts[MAX_VTHREADS] = {0};
	int rc;

	rc = find_selection(so, &sc, &preset, &wl);
	if (!rc)
		rc = show_cfg(so, sc, preset, wl, l, &cfg);
	if (rc)
		return rc;
	shared = sc->setup(cfg, err, sizeof(err));
	if (!shared) {
		cfg_free(cfg);
		return err2("show: %s: setup: %s", sc->name, err);
	}
	rc = setup_threads(so, sc, shared, ts);
	if (!rc)
		rc = trace_objects(sc, shared, (int)so->threads);
	if (!rc) {
		trace_run(sc, shared, ts, so->ops);
		rc = check_rmw_kinds(sc);
	}
	if (!rc) {
		print_legend(so, l, sc->name, preset->name, wl->name);
		rc = print_objects(so);
	}
	for (int t = 0; t < so->threads; t++)
		if (ts[t])
			scenario_thread_teardown(sc, shared, ts[t]);
	scenario_teardown(sc, shared);
	cfg_free(cfg);
	trace_free();
	return rc;
}

int layout_show_cmd(int argc, char **argv)
{
	struct show_opts so = {.threads = 2, .ops = 4096, .warmup = 256, .line = 64};
	char err[1024];
	struct layout *l;
	int first, rc = 0;

	first = opt_parse(&layout_show_help, argc, argv, &so);
	for (int i = first; i < argc; i++) {
		if (so.layout)
			return err2("show: one layout only: %s and %s", so.layout, argv[i]);
		so.layout = argv[i];
	}
	if (!so.layout)
		return err2("show: no layout (a built-in name such as v6.1, or a layout file)");
	if (so.format && strcmp(so.format, "view") && strcmp(so.format, "layout"))
		return err2("show: --format: %s: expected view or layout", so.format);
	if (so.format && !strcmp(so.format, "layout") && so.scenario)
		return err2("show: --format layout prints the layout only: drop --scenario");
	if (!so.scenario && (so.preset || so.workload || so.nparams))
		return err2("show: --preset, --workload and -D go with --scenario");

	l = layout_load(so.layout, err, sizeof(err));
	if (!l)
		return err2("show: %s", err);
	if (so.format && !strcmp(so.format, "layout")) {
		char *text = layout_to_text(l);

		if (!text)
			rc = err2("show: out of memory");
		else
			rc = layout_write_out(NULL, text);
		free(text);
		layout_free(l);
		return rc;
	}
	if (so.scenario) {
		rc = show_scenario(&so, l);
	} else {
		view_header(l, so.line);
		for (int i = 0; i < l->nstructs; i++) {
			struct layout_leaf *lv;
			int n = layout_leaves(l, l->structs[i].name, &lv);

			if (n < 0) {
				rc = err2("show: out of memory");
				break;
			}
			printf("\n");
			view_struct(l, &l->structs[i], lv, n, NULL, (size_t)so.line, 1, NULL, NULL);
			free(lv);
		}
	}
	layout_free(l);
	return rc;
}
