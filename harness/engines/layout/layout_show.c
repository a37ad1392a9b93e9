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

#include "esc.h"
#include "harness.h"
#include "layout.h"
#include "num.h"

#include "layout_cmd.h"

static int same_counts(const struct tobj *a, const struct tobj *b)
{
	if (a->s != b->s || a->o.layout != b->o.layout || a->n != b->n)
		return 0;
	return !memcmp(a->cnt, b->cnt, (size_t)a->n * NACC * (size_t)tr.threads * sizeof(long)) &&
	       !memcmp(a->opmask, b->opmask, (size_t)a->n * sizeof(unsigned)) &&
	       a->undescribed == b->undescribed;
}

/* The comment lines above the objects: the layout, the run and how to read the view. */
static void print_legend(const struct show_opts *so, const struct layout *l, const char *sc,
			 const char *preset, const char *wl)
{
	view_header(l, so->line);
	printf("/* scenario %s, preset %s, workload %s, layout %s */\n", sc, preset, wl, l->name);
	printf("/* traced: %ld virtual thread%s run in turn on one OS thread, one operation at a "
	       "time: %ld warm-up and %ld counted operations each */\n",
	       so->rq.threads, so->rq.threads == 1 ? "" : "s", so->rq.warmup, so->rq.ops);
	printf("/* per field: accesses per operation of each thread that makes them, xN: by N "
	       "threads; rmw = add, add_return, xchg, cmpxchg, lock; store = store, unlock */\n");
	printf("/* !! marks a cache line where a field written by one thread shares the line "
	       "with a field used by another thread (false sharing)%s */\n",
	       so->rq.threads < 2 ? "; with one thread there is none" : "");
	if (tr.outside)
		printf("/* %.4g accesses per operation outside the objects below */\n",
		       (double)tr.outside / (double)(so->rq.ops * so->rq.threads));
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
		return layout_usage_error("show: out of memory");
	trace_annotate(t, so->rq.ops, a);
	printf("\n/* object%s %s: struct %s of layout %s */\n", members > 1 ? "s" : "", who,
	       t->s->name, t->o.layout->name);
	if (t->undescribed)
		printf("/* %.4g accesses per operation at offsets no field describes */\n",
		       (double)t->undescribed / (double)(so->rq.ops * so->rq.threads));
	view_struct(t->o.layout, t->s, t->lv, t->n, a, (size_t)so->line, so->all, who, rep, NULL);
	free(a);
	return 0;
}

/* The summary: how many lines were flagged !!, and the suggest command for them. */
static void print_suggest_line(const struct show_opts *so, int n)
{
	char *shown = esc_text(so->rq.layout); /* the user's path and values, escaped */

	printf("/* %d line%s flagged !!: pcbench layout suggest %s --scenario %s --preset %s "
	       "--workload %s -t %ld",
	       n, n == 1 ? "" : "s", shown, tr.sc->name, tr.preset->name, tr.wl->name,
	       so->rq.threads);
	free(shown);
	for (int i = 0; i < so->rq.nparams; i++) {
		shown = esc_text(so->rq.params[i]);
		printf(" -D '%s'", shown);
		free(shown);
	}
	if (so->line != 64)
		printf(" --line-size %ld", so->line);
	printf(" */\n");
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
		if (rep.n)
			print_suggest_line(so, rep.n);
	}
	free(rep.lines);
	return rc;
}

static int show_scenario(const struct show_opts *so, const struct layout *l)
{
	int rc = trace_start(&so->rq, l);

	if (!rc) {
		print_legend(so, l, tr.sc->name, tr.preset->name, tr.wl->name);
		rc = print_objects(so);
	}
	trace_free();
	return rc;
}

int layout_show_cmd(int argc, char **argv)
{
	struct show_opts so = {.rq = {.cmd = "show", .threads = 2, .ops = 4096, .warmup = 256},
			       .line = 64};
	char err[1024];
	struct layout *l;
	int first, rc = 0;

	first = opt_parse(&layout_show_help, argc, argv, &so);
	for (int i = first; i < argc; i++) {
		if (so.rq.layout)
			return layout_usage_error("show: one layout only: %s and %s", so.rq.layout,
						  argv[i]);
		so.rq.layout = argv[i];
	}
	if (!so.rq.layout)
		return layout_usage_error(
		    "show: no layout (a built-in name such as v6.1, or a layout file)");
	if (so.format && strcmp(so.format, "view") && strcmp(so.format, "layout"))
		return layout_usage_error("show: --format: %s: expected view or layout", so.format);
	if (so.format && !strcmp(so.format, "layout") && so.rq.scenario)
		return layout_usage_error(
		    "show: --format layout prints the layout only: drop --scenario");
	if (!so.rq.scenario && (so.rq.preset || so.rq.workload || so.rq.nparams))
		return layout_usage_error("show: --preset, --workload and -D go with --scenario");

	l = layout_load(so.rq.layout, err, sizeof(err));
	if (!l)
		return layout_usage_error("show: %s", err);
	if (so.format && !strcmp(so.format, "layout")) {
		char *text = layout_to_text(l);

		if (!text)
			rc = layout_usage_error("show: out of memory");
		else
			rc = layout_write_out(NULL, text);
		free(text);
		layout_free(l);
		return rc;
	}
	if (so.rq.scenario) {
		rc = show_scenario(&so, l);
	} else {
		view_header(l, so.line);
		for (int i = 0; i < l->nstructs; i++) {
			struct layout_leaf *lv;
			int n = layout_leaves(l, l->structs[i].name, &lv);

			if (n < 0) {
				rc = layout_usage_error("show: out of memory");
				break;
			}
			printf("\n");
			view_struct(l, &l->structs[i], lv, n, NULL, (size_t)so.line, 1, NULL, NULL,
				    NULL);
			free(lv);
		}
	}
	layout_free(l);
	return rc;
}
