// SPDX-License-Identifier: MIT
/*
 * hitm_report.c - `pcbench hitm report RUN`: every sampled load and store whose data
 * address falls inside a modelled object during a measured window, mapped to object.field
 * through the layout (layout_leaf_at), counted by snoop result per field, per 64-byte line
 * of the object and per absolute cache line; beside it the coherence model's prediction
 * for the same family (model_run on the run's topology and PUs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hitm.h"
#include "model.h"
#include "table.h"
#include "util.h"

#define LINE 64

/* hitm report's options. */
struct report_args {
	const char *script;
	int top;
};

static const struct opt report_opts[] = {
    OPT_STR("script", 0, "FILE", struct report_args, script,
	    "read `perf script` text from FILE (- for stdin) instead of\n"
	    "running perf script on RUN/perf.data"),
    OPT_INT("top", 0, "N", struct report_args, top, 0, 100000, "expected an integer in [0, 100000]",
	    "cache lines in the top-lines list (default 10)"),
    OPT_HELP,
    OPT_END,
};

const struct cmd_help hitm_report_help = {
    .name = "hitm report",
    .synopsis = "usage: pcbench hitm report RUN [--script FILE] [--top N]\n",
    .about = "Maps every sampled load and store of RUN/perf.data (or --script FILE) whose data\n"
	     "address falls inside a modelled object during a measured window (RUN/objects.json)\n"
	     "to object.field through the layout, and prints per family: snoop results per field\n"
	     "and per 64-byte line beside the model's prediction, and the top cache lines in\n"
	     "perf c2c's terms (cache line address, offset, HITM).\n",
    .opts = report_opts,
};

/* The counts of one field, line or offset. */
struct counts {
	long samples, loads, stores, src[HSRC_COUNT];
};

static void count(struct counts *c, const struct hitm_sample *s)
{
	c->samples++;
	c->loads += s->op == HOP_LOAD;
	c->stores += s->op == HOP_STORE;
	c->src[s->src]++;
}

static long hitm_of(const struct counts *c)
{
	return c->src[HSRC_HITM_LOCAL] + c->src[HSRC_HITM_REMOTE];
}

/* A row of a table: a field ("L1.memory.usage"), a line ("L1 line 3") or an offset. */
struct row {
	char name[192];
	int obj;       /* index of the object in its window (the order objects() gives) */
	uint64_t off;  /* from the object's base; for absolute lines, the address */
	char line[96]; /* absolute lines: the object line; offsets: the field */
	struct counts c;
	double model_hitm, model_xfer; /* per op, from the model; -1 when it has none */
};

/* The rows of one table, found by name. */
struct rowset {
	struct row *r;
	int n, cap;
};

static struct row *row_get(struct rowset *t, const char *name, int obj, uint64_t off)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->r[i].name, name))
			return &t->r[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->r = xrealloc(t->r, (size_t)t->cap * sizeof(*t->r));
	}
	memset(&t->r[t->n], 0, sizeof(t->r[t->n]));
	snprintf(t->r[t->n].name, sizeof(t->r[t->n].name), "%s", name);
	t->r[t->n].obj = obj;
	t->r[t->n].off = off;
	t->r[t->n].model_hitm = t->r[t->n].model_xfer = -1;
	return &t->r[t->n++];
}

static int by_place(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int by_hitm(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	long hx = hitm_of(&x->c), hy = hitm_of(&y->c);

	if (hx != hy)
		return hx > hy ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void sort_rows(struct rowset *t, int (*cmp)(const void *, const void *))
{
	if (t->n)
		qsort(t->r, (size_t)t->n, sizeof(*t->r), cmp);
}

/* One family: its windows' samples by field, object line, cache line and offset. */
struct fam {
	const struct hitm_window *w; /* the first window of the family */
	int nwindows;
	long in_window, outside_objects;
	struct rowset fields, lines, cls, offs;
};

struct report {
	struct hitm_run run;
	struct fam *f;
	int nf;
	struct hitm_read_stats st;
};

static struct fam *fam_of(struct report *rp, const struct hitm_window *w)
{
	for (int i = 0; i < rp->nf; i++)
		if (!strcmp(rp->f[i].w->family, w->family))
			return &rp->f[i];
	return NULL;
}

/* field_name - object.path of the leaf at @off, or object+0xOFF for a hole. */
static void field_name(const struct hitm_object *o, uint64_t off, char *buf, size_t len)
{
	const struct layout_leaf *lf = layout_leaf_at(o->leaves, o->nleaves, (size_t)off);

	if (lf)
		snprintf(buf, len, "%.60s.%.120s", o->name, lf->path);
	else
		snprintf(buf, len, "%.60s+0x%llx", o->name, (unsigned long long)off);
}

/* add_sample - one sample where hitm_locate placed it (hitm_hit_fn). */
static void add_sample(void *ctx, const struct hitm_sample *s, const struct hitm_hit *h)
{
	struct report *rp = ctx;
	struct fam *f;
	char name[192], line[96];

	if (!h->w)
		return;
	f = fam_of(rp, h->w);
	f->in_window++;
	if (h->obj >= 0) {
		const struct hitm_object *o = &h->w->objs[h->obj];
		uint64_t off = h->off, cl = s->addr & ~(uint64_t)(LINE - 1);
		struct row *r;

		field_name(o, off, name, sizeof(name));
		count(&row_get(&f->fields, name, h->obj, off)->c, s);
		snprintf(line, sizeof(line), "%.60s line %llu", o->name,
			 (unsigned long long)(off / LINE));
		count(&row_get(&f->lines, line, h->obj, off / LINE * LINE)->c, s);
		/* perf c2c's terms: the absolute cache line, the offset inside it */
		snprintf(name, sizeof(name), "0x%llx", (unsigned long long)cl);
		r = row_get(&f->cls, name, 0, cl);
		snprintf(r->line, sizeof(r->line), "%s", line);
		count(&r->c, s);
		snprintf(line, sizeof(line), "0x%llx+0x%02llx", (unsigned long long)cl,
			 (unsigned long long)(s->addr - cl));
		field_name(o, off, name, sizeof(name));
		r = row_get(&f->offs, line, 0, s->addr);
		snprintf(r->line, sizeof(r->line), "%.95s", name);
		count(&r->c, s);
		return;
	}
	f->outside_objects++;
}

/* ---- the model beside it ---- */

/*
 * model_fill - the model's HITM and transfers per op for every field and object line of
 * @f (rows added for those without samples). Returns 0, or -1 with the reason in @why.
 */
static int model_fill(struct report *rp, struct fam *f, const char *dir, char *why, size_t len)
{
	const struct hitm_window *w = f->w;
	const struct scenario *sc = scenario_find(w->scenario);
	const struct scenario *traced = scenario_find_traced(w->scenario);
	char err[1024], spec[8192];
	const struct layout *layout;
	struct bench_cfg *cfg;
	struct model_opts mo;
	struct model_result mr;
	struct topo *topo;
	int ok;

	if (!sc || !traced || !preset_find(sc, w->preset) || !workload_find(sc, w->workload)) {
		snprintf(why, len, "no scenario %s with preset %s and workload %s here",
			 w->scenario, w->preset, w->workload);
		return -1;
	}
	layout = rp->run.layout[0] ? layout_get(rp->run.layout, err, sizeof(err)) : NULL;
	cfg = rp->run.layout[0] && !layout
		  ? NULL
		  : cfg_new_layout(sc, preset_find(sc, w->preset), workload_find(sc, w->workload),
				   w->threads, rp->run.params, rp->run.nparams, layout,
				   rp->run.layout, err, sizeof(err));
	if (!cfg) {
		snprintf(why, len, "%s", err);
		return -1;
	}
	if (!strncmp(rp->run.topology, "synthetic:", 10) || rp->run.topology[0] == '/')
		snprintf(spec, sizeof(spec), "%s", rp->run.topology);
	else
		snprintf(spec, sizeof(spec), "%s/%s", dir, rp->run.topology);
	topo = topo_load(spec, err, sizeof(err));
	if (!topo) {
		snprintf(why, len, "topology %.500s: %.500s", spec, err);
		cfg_free(cfg);
		return -1;
	}
	model_opts_default(&mo);
	model_run(traced, cfg, topo, w->pus, w->threads, &mo, &mr);
	if (!mr.ok) {
		snprintf(why, len, "%s", mr.reason);
	} else {
		double *fh = xcalloc((size_t)mr.nfields + 1, sizeof(double));
		double *fx = xcalloc((size_t)mr.nfields + 1, sizeof(double));

		for (int i = 0; i < mr.nattrs; i++) {
			const struct model_attr *a = &mr.attrs[i];
			double h = (double)(a->ev[MEV_HITM_LOCAL] + a->ev[MEV_HITM_REMOTE]);

			fh[a->field] += h;
			fx[a->field] += h + (double)a->ev[MEV_CLEAN_C2C];
		}
		for (int i = 0; i < f->fields.n; i++) /* the model knows every field: 0 */
			f->fields.r[i].model_hitm = f->fields.r[i].model_xfer = 0;
		for (int i = 0; i < f->lines.n; i++)
			f->lines.r[i].model_hitm = f->lines.r[i].model_xfer = 0;
		for (int i = 0; i < mr.nfields; i++) {
			const struct model_field *mf = &mr.fields[i];
			struct row *r;

			if (mf->object < 0 || !fx[i])
				continue;
			r = row_get(&f->fields, mf->name, mf->object, (uint64_t)mf->offset);
			r->model_hitm = fh[i] / (double)mr.ops;
			r->model_xfer = fx[i] / (double)mr.ops;
		}
		for (int i = 0; i < mr.nlines; i++) {
			const struct model_line *ml = &mr.lines[i];
			double h = (double)(ml->ev[MEV_HITM_LOCAL] + ml->ev[MEV_HITM_REMOTE]);
			struct row *r;

			if (ml->object < 0 || h + (double)ml->ev[MEV_CLEAN_C2C] == 0)
				continue;
			r = row_get(&f->lines, ml->name, ml->object, (uint64_t)ml->offset);
			r->model_hitm = h / (double)mr.ops;
			r->model_xfer = (h + (double)ml->ev[MEV_CLEAN_C2C]) / (double)mr.ops;
		}
		free(fh);
		free(fx);
	}
	ok = mr.ok;
	model_result_free(&mr);
	topo_free(topo);
	cfg_free(cfg);
	return ok ? 0 : -1;
}

/* ---- printing ---- */

static void pct(char *buf, size_t len, double part, double whole)
{
	if (whole > 0 && part >= 0)
		snprintf(buf, len, "%.1f%%", 100 * part / whole);
	else
		snprintf(buf, len, "-");
}

static void num6(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4f", v);
}

/* The columns of the field and object-line tables: perf's counts, then the model's. */
enum {
	C_NAME,
	C_SAMPLES,
	C_LOADS,
	C_STORES,
	C_LCL,
	C_RMT,
	C_SNP,
	C_MEM,
	C_PCT,
	C_BAR,
	C_MHITM,
	C_MXFER,
	C_MPCT,
	C_N
};

/* print_table - fields or object lines, measured beside the model, in object order. */
static void print_table(const char *title, struct rowset *rs, int model)
{
	const struct table_col cols[C_N] = {
	    {title, 0},		  {"samples", 1}, {"loads", 1},	 {"stores", 1}, {"lcl_hitm", 1},
	    {"rmt_hitm", 1},	  {"snp_hit", 1}, {"memory", 1}, {"hitm%", 1},	{"|", 0},
	    {"model hitm/op", 1}, {"xfer/op", 1}, {"hitm%", 1}};
	/* one blank between columns and two before the bar, in fixed least widths */
	static const int width[C_N] = {0, 7, 7, 7, 8, 8, 7, 7, 6, 1, 13, 12, 6};
	struct table *t = table_new(C_N, cols);
	long tot = 0;
	double mtot = 0;

	for (int k = 1; k < C_N; k++) {
		table_width(t, k, width[k]);
		table_gap(t, k, k == C_BAR ? 2 : 1);
		if (!model && k >= C_BAR)
			table_hide(t, k);
	}
	table_keep_heading(t);
	sort_rows(rs, by_place);
	for (int i = 0; i < rs->n; i++) {
		tot += hitm_of(&rs->r[i].c);
		mtot += rs->r[i].model_hitm > 0 ? rs->r[i].model_hitm : 0;
	}
	for (int i = 0; i < rs->n; i++) {
		const struct row *r = &rs->r[i];
		char n[C_N][24];
		const char *cell[C_N] = {r->name};

		snprintf(n[C_SAMPLES], sizeof(n[0]), "%ld", r->c.samples);
		snprintf(n[C_LOADS], sizeof(n[0]), "%ld", r->c.loads);
		snprintf(n[C_STORES], sizeof(n[0]), "%ld", r->c.stores);
		snprintf(n[C_LCL], sizeof(n[0]), "%ld", r->c.src[HSRC_HITM_LOCAL]);
		snprintf(n[C_RMT], sizeof(n[0]), "%ld", r->c.src[HSRC_HITM_REMOTE]);
		snprintf(n[C_SNP], sizeof(n[0]), "%ld", r->c.src[HSRC_SNOOP_HIT]);
		snprintf(n[C_MEM], sizeof(n[0]), "%ld", r->c.src[HSRC_MEMORY]);
		pct(n[C_PCT], sizeof(n[0]), (double)hitm_of(&r->c), (double)tot);
		snprintf(n[C_BAR], sizeof(n[0]), "|");
		num6(n[C_MHITM], sizeof(n[0]), r->model_hitm);
		num6(n[C_MXFER], sizeof(n[0]), r->model_xfer);
		pct(n[C_MPCT], sizeof(n[0]), r->model_hitm, mtot);
		for (int k = 1; k < C_N; k++)
			cell[k] = n[k];
		table_add(t, cell);
	}
	table_print(t, stdout, TABLE_TEXT);
	table_free(t);
}

enum { T_LINE, T_TOT, T_LCL, T_RMT, T_WHAT, T_N };

/* One row of the top lines: a cache line or an offset in it, its HITM and what is there. */
static void top_row(struct table *t, const char *where, const struct counts *c, const char *what)
{
	char n[3][24];

	snprintf(n[0], sizeof(n[0]), "%ld", hitm_of(c));
	snprintf(n[1], sizeof(n[1]), "%ld", c->src[HSRC_HITM_LOCAL]);
	snprintf(n[2], sizeof(n[2]), "%ld", c->src[HSRC_HITM_REMOTE]);
	table_add(t, (const char *const[T_N]){where, n[0], n[1], n[2], what});
}

/* print_top - the cache lines with the most HITM, each with its offsets (perf c2c terms). */
static void print_top(struct fam *f, int top)
{
	static const struct table_col cols[T_N] = {{"cacheline", 0},
						   {"tot_hitm", 1},
						   {"lcl_hitm", 1},
						   {"rmt_hitm", 1},
						   {"object line / field", 0}};
	struct table *t = table_new(T_N, cols);

	table_width(t, T_LINE, 20);
	for (int k = T_TOT; k <= T_RMT; k++)
		table_gap(t, k, 1);
	sort_rows(&f->cls, by_hitm);
	sort_rows(&f->offs, by_place);
	table_section(t, "top cache lines by HITM (perf c2c report: Cacheline, then Offset)");
	for (int i = 0; i < f->cls.n && i < top && hitm_of(&f->cls.r[i].c); i++) {
		const struct row *c = &f->cls.r[i];

		top_row(t, c->name, &c->c, c->line);
		for (int j = 0; j < f->offs.n; j++) {
			const struct row *o = &f->offs.r[j];
			char off[24];

			if ((o->off & ~(uint64_t)(LINE - 1)) != c->off)
				continue;
			snprintf(off, sizeof(off), "  offset 0x%02llx",
				 (unsigned long long)(o->off - c->off));
			top_row(t, off, &o->c, o->line);
		}
	}
	table_print(t, stdout, TABLE_TEXT);
	table_free(t);
}

int hitm_report(int argc, char **argv)
{
	struct report_args a = {NULL, 10};
	struct report rp;
	const char *script, *dir;
	char path[8192], err[8192];
	int st = 0, top, first;

	memset(&rp, 0, sizeof(rp));
	first = opt_parse(&hitm_report_help, argc, argv, &a);
	script = a.script;
	top = a.top;
	if (first != argc - 1)
		usage_error("hitm report", first < argc ? argv[first + 1] : "",
			    "expected one run directory (see pcbench hitm report --help)");
	dir = argv[first];
	snprintf(path, sizeof(path), "%s/objects.json", dir);
	if (hitm_run_load(path, &rp.run, err, sizeof(err)))
		usage_error("hitm report", dir, "%s", err);
	rp.f = xcalloc((size_t)rp.run.nw + 1, sizeof(*rp.f));
	for (int i = 0; i < rp.run.nw; i++) {
		struct fam *f = fam_of(&rp, &rp.run.w[i]);

		if (!f) {
			f = &rp.f[rp.nf++];
			f->w = &rp.run.w[i];
		}
		f->nwindows += rp.run.w[i].ok;
	}
	st = hitm_samples("hitm report", dir, script, &rp.run, &rp.st, add_sample, &rp);
	if (st == 127)
		return 2;
	if (st)
		fprintf(stderr, "pcbench: hitm report: perf script exited with %d\n", st);

	printf("run %s: %ld lines, %ld samples: %ld outside every measured window, %ld unreadable "
	       "lines\n",
	       dir, rp.st.lines, rp.st.samples, rp.st.outside_windows, rp.st.unreadable);
	for (int i = 0; i < rp.nf; i++) {
		struct fam *f = &rp.f[i];
		char why[1024] = "";
		int model = !model_fill(&rp, f, dir, why, sizeof(why));

		printf("\n%s  (%d windows; %ld samples in them, %ld outside every object)\n",
		       f->w->family, f->nwindows, f->in_window, f->outside_objects);
		if (!model)
			printf("model: not available: %s\n", why);
		print_table("field", &f->fields, model);
		printf("\n");
		print_table("object line", &f->lines, model);
		print_top(f, top); /* a section: a blank line, its title */
		free(f->fields.r);
		free(f->lines.r);
		free(f->cls.r);
		free(f->offs.r);
	}
	free(rp.f);
	hitm_run_free(&rp.run);
	return st ? 1 : 0;
}
