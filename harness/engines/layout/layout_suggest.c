// SPDX-License-Identifier: MIT
/*
 * layout_suggest.c - `pcbench layout suggest`: from "this layout shares written lines" to a
 * layout to ship. The access source (a scenario's tracing build, a probe recipe, a hitm run's
 * samples as a recipe: layout_suggest_hitm.c) is traced as `layout show --scenario` traces it
 * (layout_trace.c); the search (layout_suggest_search.c)
 * proposes candidates; the model (layout_suggest_model.c) judges each on the chosen virtual
 * CPUs and topology, and the one with the fewest transfers/op wins, never one worse than
 * the input. Output: the view with each moved field annotated, the three numbers (today,
 * suggested, separated reference), sizes and lines touched; -o FILE the layout file; --csv;
 * --measure: a request the layout command measures (commands/cmd_layout.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "harness.h"
#include "layout_suggest.h"
#include "num.h"
#include "outfile.h"
#include "outpath.h"
#include "util.h"

struct sg_opts {
	struct trace_req rq;
	const char *layout, *sname, *recipe, *out, *csv, *topology, *placement;
	const char *hitm, *script; /* --hitm RUN [--script FILE] */
	int measure;		   /* --measure[=DIR] */
	const char *measure_dir;
	double budget;		      /* --budget (with --measure), or 0 */
	struct sg_measure_req **mreq; /* --measure: the request made, for the command */
	int layout_tmp; /* --hitm: the layout is the run's, in a temporary directory */
	struct sg_limits lim;
	struct model_opts mo;
	char recipe_arg[4200], layout_arg[4200];
	char hitm_note[4096];
};

/*
 * sg_count - a count option in [row->min, row->max]; a bad one is exit 2 "expected" the row's
 * expect, or the range when it has none.
 */
static void sg_count(void *at, const char *v, const struct opt *row)
{
	if (num_long(v, 10, (long)row->min, (long)row->max, at)) {
		if (row->expect)
			exit(layout_usage_error("suggest: --%s: %s: expected %s", row->name, v,
						row->expect));
		exit(layout_usage_error("suggest: --%s: %s: expected %ld..%ld", row->name, v,
					(long)row->min, (long)row->max));
	}
}

/* sg_model_opt - the model's own options (seed, ops, ...), by the row's name. */
static void sg_model_opt(void *at, const char *v, const struct opt *row)
{
	char err[256];

	if (model_opt_set(at, row->name, v, err, sizeof(err)))
		exit(layout_usage_error("suggest: --%s: %s: %s", row->name, v, err));
}

static void sg_param(void *at, const char *v, const struct opt *row)
{
	struct sg_opts *o = at;

	(void)row;
	if (opt_param_twice(o->rq.params, o->rq.nparams, v))
		exit(layout_usage_error("suggest: -D: %s: parameter %.*s given twice", v,
					opt_param_twice(o->rq.params, o->rq.nparams, v), v));
	if (o->rq.nparams == TRACE_MAX_PARAMS - 2)
		exit(layout_usage_error("suggest: too many -D"));
	o->rq.params[o->rq.nparams++] = (char *)v;
}

/* sg_measure_opt - --measure, --measure=DIR. */
static void sg_measure_opt(void *at, const char *v, const struct opt *row)
{
	struct sg_opts *o = at;

	(void)row;
	if (v && !*v)
		exit(layout_usage_error("suggest: --measure=: an empty directory name"));
	o->measure = 1;
	o->measure_dir = v;
}

static void sg_keep(void *at, const char *v, const struct opt *row)
{
	struct sg_limits *lim = at;

	(void)row;
	for (char *k = strtok((char *)v, ","); k; k = strtok(NULL, ","))
		if (lim->nkeep < SG_MAX_KEEP)
			lim->keep[lim->nkeep++] = k;
}

#define SO struct sg_opts
#define SG_COUNT(l, s, a, f, lo, hi, ex, h)                                                        \
	{                                                                                          \
		l, s, a, h, OPT_K_CALL, OPT_AT(SO, f, long), 0, lo, hi, ex, sg_count               \
	}
#define SG_MODEL(l, a, h) OPT_CALL(l, 0, a, SO, mo, sg_model_opt, 0, h)
static const struct opt suggest_opts[] = {
    OPT_STR("struct", 0, "NAME", SO, sname,
	    "the struct to rearrange (default: the first traced object's)"),
    OPT_STR("scenario", 's', "S", SO, rq.scenario, "access source: this scenario's tracing build"),
    OPT_STR("preset", 'p', "P", SO, rq.preset, "the scenario's preset"),
    OPT_STR("workload", 'w', "W", SO, rq.workload, "the scenario's workload (default: its first)"),
    OPT_CALL_AT("param", 'D', "NAME=VALUE", sg_param, OPT_REPEAT,
		"set one scenario parameter (repeatable)"),
    OPT_STR("recipe", 0, "FILE", SO, recipe, "access source: a probe recipe"),
    OPT_STR("hitm", 0, "RUN", SO, hitm,
	    "access source: the samples of a hitm record run, one\n"
	    "role per CPU (docs/layouts.md: Accesses from a hitm run)"),
    OPT_STR("script", 0, "FILE", SO, script,
	    "with --hitm: perf script text (- for stdin) instead of\n"
	    "running perf script on RUN/perf.data"),
    SG_COUNT("threads", 't', "N", rq.threads, 1, TRACE_MAX_VTHREADS, NULL,
	     "virtual CPUs (default 8; --hitm: the CPUs sampled)"),
    OPT_STR("placement", 'P', "NAME", SO, placement, "placement policy (default scatter)"),
    OPT_STR("topology", 0, "SPEC", SO, topology,
	    "host | FILE.xml | synthetic:STRING (default: the built-in\n" SG_TOPO_NAME
	    ", tests/topologies/" SG_TOPO_NAME ".synthetic)"),
    SG_MODEL("line-size", "BYTES", "cache-line size (default 64)"),
    SG_MODEL("seed", "N", "the model's seed (default 1)"),
    SG_MODEL("ops", "N", "measured operations per virtual CPU (default 2000)"),
    SG_MODEL("warmup", "N", "operations per virtual CPU before those (default 200)"),
    OPT_CALL("keep", 0, "FIELD[,FIELD...]", SO, lim, sg_keep, OPT_REPEAT,
	     "pin these top-level fields where they are"),
    SG_COUNT("max-size", 0, "BYTES", lim.max_size, 1, 1L << 24, "bytes, 1..16 MiB",
	     "the suggested struct's size at most"),
    SG_COUNT("max-growth", 0, "N", lim.max_growth, 0, 1L << 16, "cache lines, 0..65536",
	     "grow by at most N cache lines (default: the lines needed\n"
	     "to give the written fields lines of their own)"),
    OPT_STR("out", 'o', "FILE", SO, out, "write the suggested layout file here"),
    OPT_STR("csv", 0, "FILE", SO, csv, "append one row of the numbers (header when new)"),
    OPT_CALL_AT("measure", 0, "DIR", sg_measure_opt, OPT_OPTIONAL,
		"then measure today's layout against the suggestion in\n"
		"blocks (-t 1,max of this host) into run directory DIR\n"
		"(default: under results/), and print the compare row"),
    OPT_DOUBLE("budget", 0, "SECONDS", SO, budget, 1, 86400, "expected seconds in [1, 86400]",
	       "with --measure: its seconds of measuring (default\n"
	       "measure's, 90)"),
    OPT_HELP,
    OPT_END,
};
#undef SG_MODEL
#undef SG_COUNT
#undef SO

const struct cmd_help layout_suggest_help = {
    .name = "layout suggest",
    .synopsis =
	"usage: pcbench layout suggest [LAYOUT] [--struct NAME] --scenario S --preset P\n"
	"                              [--workload W] [-D NAME=VALUE]... [options]\n"
	"       pcbench layout suggest LAYOUT [--struct NAME] --recipe FILE [options]\n"
	"       pcbench layout suggest [LAYOUT] [--struct NAME] --hitm RUN [--script FILE]\n"
	"                              [options]\n",
    .opts = suggest_opts,
};

static int parse(int argc, char **argv, struct sg_opts *o)
{
	int first = opt_parse(&layout_suggest_help, argc, argv, o);

	for (int i = first; i < argc; i++) {
		if (o->layout)
			return layout_usage_error(
			    "suggest: one layout only: %s and %s%s", o->layout, argv[i],
			    o->measure && !o->measure_dir
				? " (a run directory goes in as --measure=DIR)"
				: "");
		o->layout = argv[i];
	}
	if (!!o->rq.scenario + !!o->recipe + !!o->hitm != 1)
		return layout_usage_error(
		    "suggest: one access source: --scenario S --preset P, --recipe FILE, "
		    "or --hitm RUN");
	if (o->recipe && !o->layout)
		return layout_usage_error(
		    "suggest: --recipe needs a LAYOUT (a built-in name or a layout file)");
	if (!o->rq.scenario && (o->rq.preset || o->rq.workload))
		return layout_usage_error("suggest: --preset and --workload go with --scenario");
	if (o->script && !o->hitm)
		return layout_usage_error("suggest: --script %s goes with --hitm RUN", o->script);
	if (o->hitm && o->rq.threads)
		return layout_usage_error(
		    "suggest: --hitm: the virtual CPUs are the CPUs sampled, one thread "
		    "each: no -t");
	if (o->hitm && o->rq.nparams)
		return layout_usage_error(
		    "suggest: --hitm: the probe's recipe is made from the samples: no -D");
	if (!o->rq.threads)
		o->rq.threads = 8;
	if (o->budget > 0 && !o->measure)
		return layout_usage_error("suggest: --budget goes with --measure");
	o->lim.line = (size_t)o->mo.line_size;
	o->rq.ops = o->mo.ops;
	o->rq.warmup = o->mo.warmup;
	return 0;
}

/* The profile of struct @p->s over every traced object of it in layout @p->l. */
static int profile(struct sg_prof *p)
{
	long ops = tr.ops * tr.threads;

	p->lv = NULL;
	p->n = layout_leaves(p->l, p->s->name, &p->lv);
	if (p->n < 0)
		return layout_usage_error("suggest: out of memory");
	p->threads = tr.threads;
	p->leaf = xcalloc((size_t)p->n + 1, sizeof(*p->leaf));
	p->ann = xcalloc((size_t)p->n + 1, sizeof(*p->ann));
	for (int i = 0; i < tr.n; i++)
		p->nobj += tr.o[i].o.layout == p->l && tr.o[i].s == p->s;
	for (int f = 0; f < p->n; f++) {
		p->leaf[f].w = xcalloc((size_t)p->nobj + 1, sizeof(uint64_t));
		p->leaf[f].a = xcalloc((size_t)p->nobj + 1, sizeof(uint64_t));
	}
	for (int i = 0, k = 0; i < tr.n; i++) {
		const struct tobj *t = &tr.o[i];

		if (t->o.layout != p->l || t->s != p->s)
			continue;
		if (!k)
			trace_annotate(t, tr.ops, p->ann);
		for (int f = 0; f < p->n; f++)
			for (int a = 0; a < NACC; a++)
				for (int th = 0; th < tr.threads; th++) {
					long c = t->cnt[(f * NACC + a) * tr.threads + th];

					if (!c)
						continue;
					p->leaf[f].a[k] |= 1ULL << th;
					if (a != ACC_LOAD)
						p->leaf[f].w[k] |= 1ULL << th;
					p->leaf[f].per_op += (double)c / (double)ops;
				}
		k++;
	}
	return 0;
}

static void profile_free(struct sg_prof *p)
{
	for (int f = 0; f < p->n; f++) {
		free(p->leaf[f].w);
		free(p->leaf[f].a);
	}
	free(p->leaf);
	free(p->ann);
	free(p->n > 0 ? p->lv : NULL);
}

/* The target: layout @l (else the first object's) and --struct (else that object's). */
static int target(const struct sg_opts *o, const struct layout *l, struct sg_prof *p)
{
	for (int i = 0; i < tr.n; i++) {
		const struct tobj *t = &tr.o[i];

		if (l && t->o.layout != l)
			continue;
		if (o->sname && strcmp(t->s->name, o->sname))
			continue;
		p->l = t->o.layout;
		p->s = t->s;
		return 0;
	}
	if (o->sname)
		return layout_usage_error("suggest: --struct %s: no traced object of the %s is one",
					  o->sname, tr.sc->name);
	return layout_usage_error("suggest: %s: no traced object uses the layout", tr.sc->name);
}

/* The view of @p->s in @l: annotated like layout show's, each moved field's why under it. */
static void print_view(const struct sg_prof *p, const struct layout *l, const struct sg_cand *c,
		       size_t line)
{
	struct layout_leaf *lv;
	int n = layout_leaves(l, p->s->name, &lv);
	struct ann *a = xcalloc((size_t)n + 1, sizeof(*a));
	char **notes = xcalloc((size_t)n + 1, sizeof(char *));

	for (int i = 0; i < n; i++) {
		for (int j = 0; j < p->n; j++)
			if (!strcmp(p->lv[j].path, lv[i].path))
				a[i] = p->ann[j];
		for (int m = 0; c && m < c->nmv; m++) {
			const struct sg_move *mv = &c->mv[m];
			const char *name = mv->path, *colon = strstr(name, ": ");
			size_t k = strlen(name);
			int hit;

			if (colon) { /* "struct T: field": that field in every instance of T */
				hit = lv[i].owner != p->s &&
				      !strcmp(lv[i].field->name, colon + 2) &&
				      !strncmp(name + 7, lv[i].owner->name,
					       (size_t)(colon - name - 7)) &&
				      strlen(lv[i].owner->name) == (size_t)(colon - name - 7);
			} else {
				hit = !strncmp(lv[i].path, name, k) &&
				      (lv[i].path[k] == '\0' || lv[i].path[k] == '.') &&
				      (i == 0 || strncmp(lv[i - 1].path, name, k) ||
				       (lv[i - 1].path[k] != '\0' && lv[i - 1].path[k] != '.'));
			}
			if (!hit || notes[i])
				continue;
			notes[i] = xmalloc(strlen(mv->why) + 64);
			sprintf(notes[i], "%s from %zu: %s", colon ? "in its type" : "moved",
				mv->from, mv->why);
		}
	}
	view_struct(l, layout_find_struct(l, p->s->name), lv, n, a, line, 0, NULL, NULL,
		    (const char *const *)notes);
	for (int i = 0; i < n; i++)
		free(notes[i]);
	free(notes);
	free(a);
	free(n > 0 ? lv : NULL);
}

/* The command that reproduces the trace (for the header and layout show's summary). */
static void source_line(const struct sg_opts *o, char *buf, size_t len)
{
	size_t k;

	if (o->hitm) {
		snprintf(buf, len, "--hitm %s%s%s", o->hitm, o->script ? " --script " : "",
			 o->script ? o->script : "");
		return;
	}
	k = (size_t)snprintf(buf, len, "%s", o->recipe ? "--recipe " : "--scenario ");

	k += (size_t)snprintf(buf + k, len - k, "%s", o->recipe ? o->recipe : o->rq.scenario);
	if (!o->recipe)
		k += (size_t)snprintf(buf + k, len - k, " --preset %s --workload %s",
				      tr.preset->name, tr.wl->name);
	for (int i = 0; i < o->rq.nparams && k < len; i++)
		if (!o->recipe || strncmp(o->rq.params[i], "recipe=", 7))
			k += (size_t)snprintf(buf + k, len - k, " -D %s", o->rq.params[i]);
}

/* What the model ran: for the header and the CSV. */
static void model_line(const struct sg_opts *o, const struct sg_model *m, char *buf, size_t len)
{
	snprintf(buf, len,
		 "model: %d virtual CPUs, placement %s (cpus %s), topology %s, %d-byte lines, "
		 "seed %llu, %ld ops/vCPU after %ld",
		 m->threads, m->placement, m->cpus, o->topology ? o->topology : SG_TOPO_NAME,
		 o->mo.line_size, (unsigned long long)o->mo.seed, o->mo.ops, o->mo.warmup);
}

static const char *const csv_cols[] = {
    "layout",
    "struct",
    "transfers_today",
    "transfers_suggested",
    "transfers_separated",
    "size_today",
    "size_suggested",
    "lines_today",
    "lines_suggested",
    "threads",
    "placement",
    "topology",
    "line_size",
    "seed",
    "ops",
    "warmup",
};
#define NCSV (int)(sizeof(csv_cols) / sizeof(csv_cols[0]))

static int write_csv(const struct sg_opts *o, const struct sg_prof *p, const double *x,
		     const size_t *size, const int *lines)
{
	char v[NCSV][64], err[512];
	const char *cells[NCSV];
	struct csv_writer *w;
	int k = 0;

	snprintf(v[k++], 64, "%s", p->l->name);
	snprintf(v[k++], 64, "%s", p->s->name);
	for (int i = 0; i < 3; i++)
		if (x[i] >= 0)
			snprintf(v[k++], 64, "%.6f", x[i]);
		else
			v[k++][0] = '\0';
	snprintf(v[k++], 64, "%zu", size[0]);
	snprintf(v[k++], 64, "%zu", size[1]);
	snprintf(v[k++], 64, "%d", lines[0]);
	snprintf(v[k++], 64, "%d", lines[1]);
	snprintf(v[k++], 64, "%ld", o->rq.threads);
	snprintf(v[k++], 64, "%s", o->placement);
	snprintf(v[k++], 64, "%s", o->topology ? o->topology : SG_TOPO_NAME);
	snprintf(v[k++], 64, "%d", o->mo.line_size);
	snprintf(v[k++], 64, "%llu", (unsigned long long)o->mo.seed);
	snprintf(v[k++], 64, "%ld", o->mo.ops);
	snprintf(v[k++], 64, "%ld", o->mo.warmup);
	for (int i = 0; i < NCSV; i++)
		cells[i] = v[i];
	w = csv_create(o->csv, csv_cols, NCSV, 1, err, sizeof(err));
	if (!w)
		return layout_usage_error("suggest: --csv: %s", err);
	if (csv_write_row(w, cells) || csv_close(w)) {
		warn_msg("%s: could not be written", o->csv);
		return 1;
	}
	return 0;
}

/*
 * Every candidate judged; the best index into *best (-1: none): the fewest transfers/op
 * among those within the bounds, the separated reference included when it is.
 */
static int judge(struct sg_model *m, struct sg_cand *c, int nc, double *x, int *best)
{
	char err[512];

	*best = -1;
	for (int k = 1; k <= nc; k++) { /* the reference last: a tie goes to a candidate */
		int i = k % nc;

		x[i] = -1;
		if (!c[i].l)
			continue;
		if (sg_model_eval(m, c[i].l, &x[i], err, sizeof(err)))
			return layout_usage_error("suggest: the model with candidate %s: %s",
						  c[i].name, err);
		if (c[i].fits && (*best < 0 || x[i] < x[*best] - 1e-9))
			*best = i;
	}
	return 0;
}

/* read_text - the whole file @path (at most 16 MiB), or NULL after a message. */
static char *read_text(const char *path)
{
	char err[4400];
	FILE *f = fopen(path, "r");
	char *t = f ? layout_read_stream(f, path, err, sizeof(err)) : NULL;

	if (f)
		fclose(f);
	if (!t)
		layout_usage_error("suggest: --measure: %s: %s", path, f ? err : strerror(errno));
	return t;
}

/*
 * measure - --measure: what the layout command is to measure, into *o->mreq: today's layout
 * (the traced one) against @sug, through the same scenario (or the probe with the recipe).
 */
static int measure(const struct sg_opts *o, const struct layout *sug)
{
	int li = scenario_layout_param(tr.sc);
	const char *lname = li >= 0 ? scenario_param(tr.sc, li)->name : NULL;
	struct sg_measure_req *rq;

	if (!lname || !cfg_layout_name(tr.cfg)[0])
		return layout_usage_error("suggest: --measure: scenario %s takes no layout",
					  tr.sc->name);
	rq = xcalloc(1, sizeof(*rq));
	*rq = (struct sg_measure_req){.dir = o->measure_dir,
				      .budget = o->budget,
				      .scenario = tr.sc->name,
				      .preset = tr.preset->name,
				      .workload = tr.wl->name,
				      .params = xcalloc((size_t)o->rq.nparams + 1, sizeof(char *)),
				      .layout_param = xstrdup(lname),
				      .today = xstrdup(cfg_layout_name(tr.cfg)),
				      .recipe = o->recipe ? xstrdup(o->recipe) : NULL,
				      .suggested_text = layout_to_text(sug)};
	for (int i = 0; i < o->rq.nparams; i++) {
		const char *v = o->rq.params[i];
		size_t n = strlen(lname);

		if (!strncmp(v, "recipe=", 7) || (!strncmp(v, lname, n) && v[n] == '='))
			continue;
		rq->params[rq->nparams++] = o->rq.params[i];
	}
	/* what lives in --hitm's temporary directory goes with the request as text */
	if (o->layout_tmp)
		rq->today_text = read_text(rq->today);
	if (o->hitm && o->recipe)
		rq->recipe_text = read_text(o->recipe);
	if (!rq->suggested_text || (o->layout_tmp && !rq->today_text) ||
	    (o->hitm && !rq->recipe_text)) {
		int st = rq->suggested_text ? 2 : layout_usage_error("suggest: out of memory");

		sg_measure_req_free(rq);
		return st;
	}
	*o->mreq = rq;
	return 0;
}

void sg_measure_req_free(struct sg_measure_req *r)
{
	if (!r)
		return;
	free(r->params);
	free(r->layout_param);
	free(r->today);
	free(r->today_text);
	free(r->recipe);
	free(r->recipe_text);
	free(r->suggested_text);
	free(r);
}

#define MAX_CANDS 8

static int suggest(struct sg_opts *o, const struct layout *l)
{
	struct sg_prof p = {0};
	struct sg_model m = {0};
	struct sg_cand c[MAX_CANDS];
	double x[MAX_CANDS], today;
	char err[512], buf[2048], *tmpdir = NULL;
	const struct layout *pick;
	size_t size[2];
	int lines[2], best = -1, nc = 0, rc;

	rc = trace_start(&o->rq, l);
	if (!rc)
		rc = target(o, l, &p);
	if (!rc)
		rc = profile(&p);
	if (rc)
		goto out;
	m.sc = tr.sc;
	m.preset = tr.preset;
	m.wl = tr.wl;
	m.threads = (int)o->rq.threads;
	m.placement = o->placement;
	m.topo_name = o->topology ? o->topology : SG_TOPO_SPEC;
	m.mo = o->mo;
	m.computed = !scenario_takes_layout(tr.sc);
	for (int i = 0; i < o->rq.nparams; i++)
		m.user[m.nuser++] = o->rq.params[i];
	if (m.computed) {
		/* the candidates' files, removed as each is judged; tracked for a signal or die */
		if (outfile_tempdir("pcbench-suggest", &tmpdir)) {
			rc =
			    layout_usage_error("suggest: %s: cannot make a temporary directory: %s",
					       tmpdir, strerror(errno));
			goto out;
		}
		m.tmp = tmpdir;
		outfile_track(m.file, 1);
	}
	rc = sg_model_init(&m);
	if (rc)
		goto out;
	nc = sg_candidates(&p, &o->lim, c, MAX_CANDS);
	if (sg_model_eval(&m, p.l, &today, err, sizeof(err))) {
		rc = layout_usage_error("suggest: the model with the input layout: %s", err);
		goto out;
	}
	rc = judge(&m, c, nc, x, &best);
	if (rc)
		goto out;
	if (best >= 0 && x[best] >= today - 1e-9)
		best = -1;
	pick = best >= 0 ? c[best].l : p.l;

	source_line(o, buf, sizeof(buf));
	printf("/* layout suggest: struct %s of layout %s, accesses of %s */\n", p.s->name,
	       p.l->name, buf);
	if (o->hitm)
		print_esc(stdout, "/* %s */", o->hitm_note);
	model_line(o, &m, buf, sizeof(buf));
	printf("/* %s */\n", buf);
	printf(
	    "/* search: %d candidates; the fewest transfers/op wins, never more than today's */\n",
	    nc - 1);
	if (best < 0)
		printf("/* no candidate has fewer transfers/op than the input: the input is the "
		       "suggestion */\n");
	else
		for (char *s = c[best].note, *e; *s; s = e + 1) {
			e = strchr(s, '\n');
			if (!e)
				break;
			printf("/* %.*s */\n", (int)(e - s), s);
		}
	printf("\n");
	view_header(pick, o->mo.line_size);
	print_view(&p, pick, best >= 0 ? &c[best] : NULL, (size_t)o->mo.line_size);
	size[0] = p.s->size;
	size[1] = layout_find_struct(pick, p.s->name)->size;
	lines[0] = sg_lines_touched(&p, p.l, (size_t)o->mo.line_size);
	lines[1] = sg_lines_touched(&p, pick, (size_t)o->mo.line_size);
	if (x[0] >= 0)
		snprintf(buf, sizeof(buf), "%.4f (%zu B)", x[0],
			 layout_find_struct(c[0].l, p.s->name)->size);
	else
		snprintf(buf, sizeof(buf), "(none: %s)", c[0].note);
	printf("\n/* transfers/op: today %.4f, suggested %.4f, separated reference %s */\n", today,
	       best >= 0 ? x[best] : today, buf);
	printf("/* size: today %zu B, suggested %zu B; lines touched (summed over %d object%s): "
	       "today %d, suggested %d */\n",
	       size[0], size[1], p.nobj, p.nobj == 1 ? "" : "s", lines[0], lines[1]);
	for (int i = 1; i < nc; i++)
		if (c[i].l)
			printf("/*   candidate %s: %.4f transfers/op, %zu B */\n", c[i].name, x[i],
			       layout_find_struct(c[i].l, p.s->name)->size);
		else
			printf("/*   candidate %s: %.*s */\n", c[i].name,
			       (int)strcspn(c[i].note, "\n"), c[i].note);
	if (o->out) {
		char *text = layout_to_text(pick);

		rc = text ? layout_write_out(o->out, text)
			  : layout_usage_error("suggest: out of memory");
		free(text);
	}
	if (!rc && o->csv) {
		double xs[3] = {today, best >= 0 ? x[best] : today, x[0]};

		rc = write_csv(o, &p, xs, size, lines);
	}
	if (!rc && o->measure && best < 0)
		printf("/* --measure: nothing to measure, the suggestion is the input */\n");
	else if (!rc && o->measure)
		rc = measure(o, c[best].l);
out:
	for (int i = 0; i < nc; i++)
		sg_cand_free(&c[i]);
	if (m.tmp) {
		outfile_track(m.file, 0);
		outfile_tempdir_remove(tmpdir);
	}
	free(tmpdir);
	sg_model_free(&m);
	profile_free(&p);
	trace_free();
	return rc;
}

/* suggest_source - the recipe's or scenario's trace with the LAYOUT given, then suggest. */
static int suggest_source(struct sg_opts *o)
{
	struct layout *l = NULL;
	char err[1024];
	int rc;

	if (o->recipe) {
		o->rq.scenario = "probe";
		o->rq.preset = "v6.1";
		snprintf(o->recipe_arg, sizeof(o->recipe_arg), "recipe=%s", o->recipe);
		o->rq.params[o->rq.nparams++] = o->recipe_arg;
	}
	if (o->layout) {
		const struct scenario *sc = scenario_find_traced(o->rq.scenario);

		if (sc && !scenario_takes_layout(sc) && scenario_layout_param(sc) >= 0) {
			/* a computed layout (per_node): the file goes in as -D layout=FILE */
			snprintf(o->layout_arg, sizeof(o->layout_arg), "%s=%s",
				 scenario_param(sc, scenario_layout_param(sc))->name, o->layout);
			o->rq.params[o->rq.nparams++] = o->layout_arg;
		} else {
			l = layout_load(o->layout, err, sizeof(err));
			if (!l)
				return layout_usage_error("suggest: %s", err);
			o->rq.layout = o->layout;
		}
	}
	rc = suggest(o, l);
	layout_free(l);
	return rc;
}

/*
 * suggest_hitm - --hitm RUN: its samples as a probe recipe (and the run's layout, unless
 * one is given) in a temporary directory, then suggest as with --recipe, one thread per role.
 * The directory and its files are tracked (outfile_tempdir): gone on every way out, a
 * refusal that exits from deep inside (usage_error) and a signal too.
 */
static int suggest_hitm(struct sg_opts *o)
{
	struct sg_hitm_req rq = {o->hitm, o->script, o->sname, o->layout, NULL};
	struct sg_hitm_out *out = xcalloc(1, sizeof(*out));
	char *tmpdir;
	int rc;

	if (outfile_tempdir("pcbench-suggest-hitm", &tmpdir)) {
		rc = layout_usage_error("suggest: %s: cannot make a temporary directory: %s",
					tmpdir, strerror(errno));
		free(tmpdir);
		free(out);
		return rc;
	}
	rq.tmp = tmpdir;
	outfile_track(out->recipe, 1); /* empty until written */
	outfile_track(out->layout, 1);
	rc = sg_hitm_recipe(&rq, out);
	if (!rc) {
		snprintf(o->hitm_note, sizeof(o->hitm_note), "%s", out->note);
		o->recipe = out->recipe;
		if (!o->layout) {
			o->layout = out->layout;
			o->layout_tmp = 1;
		}
		if (!o->sname)
			o->sname = out->sname;
		o->rq.threads = out->nroles;
		rc = suggest_source(o);
	}
	if (out->recipe[0])
		unlink(out->recipe);
	if (out->layout[0])
		unlink(out->layout);
	outfile_track(out->recipe, 0);
	outfile_track(out->layout, 0);
	outfile_tempdir_remove(tmpdir);
	free(tmpdir);
	free(out);
	return rc;
}

int layout_suggest_cmd(int argc, char **argv, struct sg_measure_req **measure)
{
	struct sg_opts o = {.rq = {.cmd = "suggest"},
			    .mreq = measure,
			    .placement = "scatter",
			    .lim = {.max_size = -1, .max_growth = -1}};
	char err[1024];
	int rc;

	*measure = NULL;
	model_opts_default(&o.mo);
	rc = parse(argc, argv, &o);
	if (rc)
		return rc;
	/* output paths are checked before anything runs (outpath.h): exit 2, nothing created */
	if (o.out && strcmp(o.out, "-") && outpath_check_file(o.out, err, sizeof(err)))
		return layout_usage_error("suggest: -o: %s", err);
	if (o.csv && csv_check_new(o.csv, err, sizeof(err)))
		return layout_usage_error("suggest: --csv: %s", err);
	if (o.hitm)
		return suggest_hitm(&o);
	return suggest_source(&o);
}
