// SPDX-License-Identifier: MIT
/*
 * cmd_model.c - `pcbench model`: its options, the families (selection and placement, plan.h), one
 * model run each, the tables (lib/table) and the CSV.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "results.h"
#include "commands.h"
#include "model.h"
#include "plan.h"
#include "num.h"
#include "outpath.h"
#include "stop.h"
#include "strbuf.h"
#include "table.h"
#include "util.h"

/* ---- pcbench model ---- */

#define MAX_COUNTS 256
#define MAX_PARAMS 64

struct mfam {
	struct family f; /* its scenario, preset, workload and placement (plan.h) */
	struct model_result r;
	int order[4]; /* scenario, workload, thread count, preset: the tables' order */
};

struct mopts {
	struct selection sel;
	const char *out, *csv;
	int lines, quiet;
	struct model_opts mo;
};

/* model_opt - the model's own options (seed, interleave, ops, ...), by the row's name. */
static void model_opt(void *at, const char *v, const struct opt *row)
{
	char err[256], opt[32];

	if (model_opt_set(at, row->name, v, err, sizeof(err))) {
		snprintf(opt, sizeof(opt), "--%s", row->name);
		usage_error(opt, v, "%s", err);
	}
}

static void lines_opt(void *at, const char *v, const struct opt *row)
{
	long n;

	(void)row;
	if (!strcmp(v, "all"))
		*(int *)at = -1;
	else if (num_long(v, 10, 0, INT_MAX, &n))
		usage_error("--lines", v, "expected a count or all");
	else
		*(int *)at = (int)n;
}

#define MO struct mopts
static const struct opt model_opts[] = {
    OPT_STR("scenario", 's', "LIST", MO, sel.scenarios, "scenarios (default: all)"),
    OPT_STR("preset", 'p', "LIST", MO, sel.presets, "presets (default: all of each scenario)"),
    OPT_STR("workload", 'w', "LIST", MO, sel.workloads, "workloads (default: all)"),
    OPT_STR("threads", 't', "LIST", MO, sel.threads,
	    "virtual CPUs, e.g. 2 | 2,8 | 1-4 | max (default: 2,8)"),
    OPT_STR("placement", 'P', "NAME", MO, sel.placement,
	    "a policy or an hwloc location (default: scatter):"),
    OPT_STR("topology", 0, "SPEC", MO, sel.topology,
	    "host (default) | FILE (hwloc XML, or a synthetic\n"
	    "description after # comments) | synthetic:STRING"),
    OPT_CALL("param", 'D', "NAME=VALUE", MO, sel, selection_param_opt, OPT_REPEAT,
	     "set one scenario parameter (repeatable; VALUE may hold spaces)"),
    OPT_CALL("seed", 0, "N", MO, mo, model_opt, 0, "seed of the random interleaving (default 1)"),
    OPT_CALL("interleave", 0, "MODE", MO, mo, model_opt, 0,
	     "random (default: a seeded random virtual CPU executes\n"
	     "each next access) | rr-access (lockstep, one access\n"
	     "each) | rr-op (whole operations in turn: a lower bound)"),
    OPT_CALL("ops", 0, "N", MO, mo, model_opt, 0,
	     "measured operations per virtual CPU (default 2000)"),
    OPT_CALL("warmup", 0, "N", MO, mo, model_opt, 0,
	     "operations per virtual CPU before those (default 200)"),
    OPT_CALL("line-size", 0, "BYTES", MO, mo, model_opt, 0,
	     "coherence granule (default 64; 128 models the adjacent-\n"
	     "line prefetcher pairing lines)"),
    OPT_CALL("lines", 0, "N|all", MO, lines, lines_opt, 0,
	     "shared-cache-line blocks per family (default 10; 0: none)"),
    OPT_STR("out", 'o', "DIR", MO, out, "write DIR/model.csv (DIR is created; must not hold one)"),
    OPT_STR("csv", 0, "FILE", MO, csv, "write the CSV here (appends when the header matches)"),
    OPT_FLAG("quiet", 'q', MO, quiet, "no tables"),
    OPT_HELP,
    OPT_END,
};
#undef MO

const struct cmd_help model_help = {
    .name = "model",
    .synopsis = "usage: pcbench model [options]\n",
    .about = "Predicts cache-line transfers and HITM per operation with a MESI model: runs the\n"
	     "tracing build of each scenario on virtual CPUs interleaved per access, on any\n"
	     "topology (nothing is measured or bound), and charges every event to the struct\n"
	     "field and the code site that caused it.\n",
    .opts = model_opts,
    .opt_more = selection_more,
    .after = "Same options, same output, byte for byte. Exit status: 0 ok, 1 a family\n"
	     "or a write failed, 2 bad usage, 3 interrupted, 4 everything skipped (placement does\n"
	     "not fit the topology).\n"
	     "\n"
	     "Example:\n"
	     "  pcbench model -s page_counter -w stocked -t 2,8 -P scatter --topology \\\n"
	     "      'synthetic:pack:2 l3:1 group:4 [numa] l2:14 core:1 "
	     "pu:2(indexes=core:package)'\n",
};

static void parse_model_options(int argc, char **argv, struct mopts *o)
{
	int first;

	memset(o, 0, sizeof(*o));
	o->sel.threads = "2,8";
	o->sel.placement = "scatter";
	o->sel.topology = "host";
	o->lines = 10;
	model_opts_default(&o->mo);
	first = opt_parse(&model_help, argc, argv, o);
	if (first < argc)
		usage_error("argument", argv[first], "unexpected (see model --help)");
}

/* The table of one (scenario, workload, threads): a row per preset, numbers per operation;
 * a skipped or failed preset says why in the last column, whose heading is empty. */
enum { MT_PRESET, MT_NUM, MT_NOTE = MT_NUM + 7, MT_N };

static const struct table_col mt_cols[MT_N] = {
    {"preset", 0},     {"hitm_local", 1}, {"hitm_remote", 1}, {"clean_c2c", 1}, {"transfers", 1},
    {"invalidate", 1}, {"upgrades", 1},	  {"to_memory", 1},   {"", 0},
};

/* group_table - a new table whose section title says what the model ran. */
static struct table *group_table(const struct mfam *f, const struct mopts *o)
{
	struct table *t = table_new(MT_N, mt_cols);
	struct sb title = {0};

	sb_printf(&title,
		  "%s  workload=%s  placement=%s  threads=%d  (model, per operation: %s "
		  "interleaving",
		  f->f.sc->name, f->f.wl->name, f->f.placement, f->f.threads,
		  model_interleave_names[o->mo.interleave]);
	if (o->mo.interleave == MODEL_RANDOM)
		sb_printf(&title, " seed %llu", (unsigned long long)o->mo.seed);
	sb_printf(&title, ", %ld ops/vCPU after %ld, %d-byte lines)", o->mo.ops, o->mo.warmup,
		  o->mo.line_size);
	table_section(t, sb_str(&title));
	free(title.p);
	return t;
}

static void add_row(struct table *t, const struct mfam *f)
{
	const struct model_result *r = &f->r;
	double v[MT_NOTE - MT_NUM] = {
	    model_per_op(r, MEV_HITM_LOCAL), model_per_op(r, MEV_HITM_REMOTE),
	    model_per_op(r, MEV_CLEAN_C2C),  model_transfers_per_op(r),
	    model_per_op(r, MEV_INVAL),	     model_per_op(r, MEV_UPGRADE),
	    model_per_op(r, MEV_MISS),
	};
	char num[MT_N][24], note[300];
	const char *cells[MT_N] = {f->f.preset->name};
	int ok = !f->f.skip[0] && r->ok;

	for (int k = MT_NUM; ok && k < MT_NOTE; k++) {
		snprintf(num[k], sizeof(num[k]), "%.4f", v[k - MT_NUM]);
		cells[k] = num[k];
	}
	if (f->f.skip[0])
		snprintf(note, sizeof(note), "skipped: %s", f->f.skip);
	else if (!r->ok)
		snprintf(note, sizeof(note), "error: %s", r->reason);
	cells[MT_NOTE] = ok ? NULL : note;
	table_add(t, cells);
}

/* print_group - the table of the presets run so far, then nothing more in it. */
static void print_group(struct table **t)
{
	if (*t && table_rows(*t))
		table_print(*t, stdout, TABLE_TEXT);
	table_free(*t);
	*t = NULL;
}

/* model.csv's first columns: results.csv's that name a family, then the model's options. */
static const enum results_col key_cols[] = {COL_SCENARIO, COL_PRESET,	  COL_LAYOUT,
					    COL_WORKLOAD, COL_THREADS,	  COL_PLACEMENT,
					    COL_CPUS,	  COL_TOPOLOGY_FP};
static const char *const option_cols[] = {"model_interleave", "model_seed", "model_ops",
					  "model_warmup", "model_line_size"};
#define NKEY (int)(sizeof(key_cols) / sizeof(key_cols[0]))
#define NFIXED (NKEY + (int)(sizeof(option_cols) / sizeof(option_cols[0])))

struct csv_out {
	struct csv_writer *w[2];
	const char *cols[NFIXED + MODEL_NCOLS + 2 + MAX_PARAMS];
	const char *param_names[MAX_PARAMS];
	int ncols, nparam;
	const char *made_dir; /* -o DIR when this run created it */
};

static void open_csv(struct csv_out *c, const struct mopts *o, const struct scenario *const *table,
		     char **scn)
{
	char err[PATH_MAX + 256], path[PATH_MAX + 16];

	for (int i = 0; i < NKEY; i++)
		c->cols[c->ncols++] = results_cols[key_cols[i]];
	for (int i = NKEY; i < NFIXED; i++)
		c->cols[c->ncols++] = option_cols[i - NKEY];
	for (int i = 0; i < MODEL_NCOLS; i++)
		c->cols[c->ncols++] = model_csv_cols[i];
	c->cols[c->ncols++] = results_cols[COL_STATUS];
	c->cols[c->ncols++] = results_cols[COL_REASON];
	for (int s = 0; table[s]; s++) {
		if (!scenario_selected(scn, table[s]))
			continue;
		for (int j = 0; table[s]->params[j].name; j++) {
			const char *n = table[s]->params[j].name;
			int dup = !strcmp(n, results_cols[COL_LAYOUT]);

			for (int k = 0; k < c->nparam; k++)
				dup |= !strcmp(c->param_names[k], n);
			if (dup || c->nparam == MAX_PARAMS)
				continue;
			c->param_names[c->nparam++] = n;
			char *col = xmalloc(strlen(n) + 7);

			sprintf(col, "param_%s", n);
			c->cols[c->ncols++] = col;
		}
	}
	/* Checked before anything is created: a refused run leaves no trace. */
	if (o->out &&
	    outpath_check_dir(o->out, (const char *const[]){"model.csv", NULL}, err, sizeof(err)))
		usage_error("--out", o->out, "%s", err);
	if (o->csv && csv_check_new(o->csv, err, sizeof(err)))
		usage_error("--csv", o->csv, "%s", err);
	/* An existing --csv file is validated whole (opening it creates nothing). */
	if (o->csv && !access(o->csv, F_OK) &&
	    !(c->w[1] = csv_create(o->csv, c->cols, c->ncols, 1, err, sizeof(err))))
		usage_error("--csv", o->csv, "%s", err);
	if (o->out) {
		snprintf(path, sizeof(path), "%s/model.csv", o->out);
		if (o->csv && csv_same_file(o->csv, path))
			usage_error("--csv", o->csv, "is this run's own model.csv");
		if (!mkdir(o->out, 0755))
			c->made_dir = o->out;
		else if (errno != EEXIST)
			usage_error("--out", o->out, "%s", strerror(errno));
		if (!(c->w[0] = csv_create(path, c->cols, c->ncols, CSV_INSIDE, err, sizeof(err))))
			usage_error("--out", o->out, "%s", err);
	}
	if (o->csv && !c->w[1] &&
	    !(c->w[1] = csv_create(o->csv, c->cols, c->ncols, 1, err, sizeof(err))))
		usage_error("--csv", o->csv, "%s", err);
}

static int write_csv_row(struct csv_out *c, const struct mfam *f, const struct mopts *o,
			 const char *fp)
{
	char num[6][40], mv[MODEL_NCOLS][40];
	const char *v[NFIXED + MODEL_NCOLS + 2 + MAX_PARAMS] = {0};
	int k = 0, ret = 0;
	int ok = !f->f.skip[0] && f->r.ok;

	snprintf(num[0], 40, "%d", f->f.threads);
	snprintf(num[1], 40, "%llu", (unsigned long long)o->mo.seed);
	snprintf(num[2], 40, "%ld", o->mo.ops);
	snprintf(num[3], 40, "%ld", o->mo.warmup);
	snprintf(num[4], 40, "%d", o->mo.line_size);
	v[k++] = f->f.sc->name;
	v[k++] = f->f.preset->name;
	v[k++] = f->f.cfg ? cfg_layout_name(f->f.cfg) : "";
	v[k++] = f->f.wl->name;
	v[k++] = num[0];
	v[k++] = f->f.placement;
	v[k++] = f->f.cpus ? f->f.cpus : "";
	v[k++] = fp;
	v[k++] = model_interleave_names[o->mo.interleave];
	v[k++] = o->mo.interleave == MODEL_RANDOM ? num[1] : "";
	v[k++] = num[2];
	v[k++] = num[3];
	v[k++] = num[4];
	if (ok)
		model_csv_values(&f->r, mv);
	for (int i = 0; i < MODEL_NCOLS; i++)
		v[k++] = ok ? mv[i] : "";
	v[k++] = f->f.skip[0] ? "skipped" : f->r.ok ? "ok" : "error";
	v[k++] = f->f.skip[0] ? f->f.skip : f->r.reason;
	for (int i = 0; i < c->nparam; i++, k++)
		for (int j = 0; f->f.sc->params[j].name; j++)
			if (!strcmp(f->f.sc->params[j].name, c->param_names[i]))
				v[k] = cfg_value(f->f.cfg, j);
	for (int i = 0; i < 2; i++) {
		if (c->w[i] && csv_write_row(c->w[i], v)) {
			warn_msg("%s: %s: stopping; the rows already written are intact",
				 csv_path(c->w[i]), strerror(errno));
			ret = -1;
		}
	}
	return ret;
}

/* What add_mfams gives the families it adds: the thread counts and the scenario's rank. */
struct mbuild {
	struct mfam *fams;
	int nfams, counts[MAX_COUNTS], ncounts, rank;
	const char *placement;
};

/* add_mfams - the families of pick @k, one per thread count, each with its place in the tables. */
static int add_mfams(const struct pick *k, void *arg)
{
	struct mbuild *b = arg;

	b->fams = xrealloc(b->fams, (size_t)(b->nfams + b->ncounts) * sizeof(*b->fams));
	for (int t = 0; t < b->ncounts; t++)
		b->fams[b->nfams++] = (struct mfam){
		    .f = {.sc = k->sc,
			  .preset = k->preset,
			  .wl = k->wl,
			  .placement = b->placement,
			  .threads = b->counts[t]},
		    .order = {b->rank, (int)(k->wl - k->sc->workloads), t,
			      (int)(k->preset - k->sc->presets)},
		};
	return 0;
}

/* table_order - one table per (scenario, workload, threads), a row per preset. */
static int table_order(const void *a, const void *b)
{
	const struct mfam *x = a, *y = b;

	for (int i = 0; i < 4; i++)
		if (x->order[i] != y->order[i])
			return x->order[i] < y->order[i] ? -1 : 1;
	return 0;
}

/*
 * build_mfams - the selected families (selection_each, as measure's), ordered for the
 * tables, then resolved and placed in that order (a bad one exits 2 naming it).
 */
static struct mfam *build_mfams(const struct scenario *const *table, const struct mopts *o,
				const struct topo *topo, char **scn, char **pre, char **wls,
				int *nfams)
{
	struct mbuild b = {.placement = o->sel.placement};
	char err[512], name[256];

	b.ncounts =
	    parse_threads(o->sel.threads, topo_npus(topo), b.counts, MAX_COUNTS, err, sizeof(err));
	if (b.ncounts < 0)
		usage_error("--threads", o->sel.threads, "%s", err);
	for (int i = 0; i < b.ncounts; i++)
		if (model_memory_bytes(b.counts[i]) > MODEL_MEMORY_MAX)
			usage_error(
			    "--threads", o->sel.threads,
			    "%d virtual CPUs would need %llu MiB (%llu KiB each: a coroutine "
			    "stack and its state), over the model's %llu MiB: at most %llu",
			    b.counts[i], model_memory_bytes(b.counts[i]) >> 20,
			    model_memory_bytes(1) >> 10, MODEL_MEMORY_MAX >> 20,
			    MODEL_MEMORY_MAX / model_memory_bytes(1));
	for (int s = 0; table[s]; s++)
		if (scenario_selected(scn, table[s])) {
			b.rank = s;
			selection_each(table[s], pre, wls, add_mfams, &b);
		}
	if (!b.nfams)
		usage_error("selection", "", "selects nothing to model");
	qsort(b.fams, (size_t)b.nfams, sizeof(*b.fams), table_order);
	for (int i = 0; i < b.nfams; i++) {
		struct mfam *m = &b.fams[i];

		snprintf(name, sizeof(name), "%s/preset:%s/workload:%s/threads:%d", m->f.sc->name,
			 m->f.preset->name, m->f.wl->name, m->f.threads);
		family_resolve(&m->f, &o->sel, topo, name);
	}
	*nfams = b.nfams;
	return b.fams;
}

int model_cli(const struct scenario *const *table, int argc, char **argv)
{
	struct mopts o;
	struct csv_out csv = {0};
	struct mfam *fams;
	int nfams, ok = 0, errors = 0, write_failed = 0, group = 0;
	char err[512], fp[17];
	char **scn, **pre, **wls;
	struct topo *topo;
	struct table *tbl = NULL;

	parse_model_options(argc, argv, &o);
	scn = o.sel.scenarios ? split_list(o.sel.scenarios) : NULL;
	pre = o.sel.presets ? split_list(o.sel.presets) : NULL;
	wls = o.sel.workloads ? split_list(o.sel.workloads) : NULL;
	selection_check(table, &o.sel, scn, pre, wls);
	for (int s = 0; table[s]; s++)
		if (scenario_selected(scn, table[s]) && bench_unmodelled(table[s]))
			usage_error("--scenario", table[s]->name, "the model cannot run it: %s",
				    bench_unmodelled(table[s]));
	topo = topo_load(o.sel.topology, err, sizeof(err));
	if (!topo)
		usage_error("--topology", o.sel.topology, "%s", err);
	topo_fingerprint(topo, fp);
	fams = build_mfams(table, &o, topo, scn, pre, wls, &nfams);
	open_csv(&csv, &o, table, scn);
	stop_install(STOP_FLAG, 1);

	/* A failed write stops the run, as in measure: the rows written stay whole. */
	for (int i = 0; i < nfams && !stop_requested && !write_failed; i++) {
		struct mfam *f = &fams[i];
		int first = !i || fams[i - 1].f.sc != f->f.sc || fams[i - 1].f.wl != f->f.wl ||
			    fams[i - 1].f.threads != f->f.threads;
		int last = i + 1 == nfams || fams[i + 1].f.sc != f->f.sc ||
			   fams[i + 1].f.wl != f->f.wl || fams[i + 1].f.threads != f->f.threads;

		if (!f->f.skip[0]) {
			model_run(f->f.sc, f->f.cfg, topo, f->f.pus, f->f.threads, &o.mo, &f->r);
			if (stop_requested) /* cut short: no row for it */
				break;
			ok += f->r.ok;
			errors += !f->r.ok;
		}
		if (write_csv_row(&csv, f, &o, fp))
			write_failed = 1;
		if (o.quiet)
			continue;
		if (first) {
			group = i;
			tbl = group_table(f, &o);
		}
		add_row(tbl, f);
		if (!last)
			continue;
		print_group(&tbl);
		/* the shared-cache-line view of every preset of this table */
		for (int k = group; o.lines && k <= i; k++) {
			if (fams[k].f.skip[0] || !fams[k].r.ok)
				continue;
			printf("\n--- %s/%s/%s threads=%d placement=%s cpus=%s ---\n",
			       fams[k].f.sc->name, fams[k].f.wl->name, fams[k].f.preset->name,
			       fams[k].f.threads, fams[k].f.placement, fams[k].f.cpus);
			model_print_lines(stdout, &fams[k].r, o.lines);
		}
	}
	print_group(&tbl); /* an interrupted table: its presets done */
	for (int i = 0; i < 2; i++)
		if (csv_close_or_remove(csv.w[i]))
			write_failed = 1;
	if (csv.made_dir)
		rmdir(csv.made_dir); /* only when empty: an interrupted run's only trace */
	if (stop_requested)
		warn_msg("model: interrupted (%s): the rows written are whole",
			 strsignal(stop_requested));
	for (int i = 0; i < nfams; i++) {
		model_result_free(&fams[i].r);
		cfg_free(fams[i].f.cfg);
		free(fams[i].f.pus);
		free(fams[i].f.cpus);
	}
	for (int i = NFIXED + MODEL_NCOLS + 2; i < csv.ncols; i++)
		free((char *)csv.cols[i]);
	free(fams);
	free(scn);
	free(pre);
	free(wls);
	topo_free(topo);
	if (stop_requested)
		return 3;
	if (errors || write_failed)
		return 1;
	return ok ? 0 : 4;
}

/* The tracing build's table; weak, so that programs without it still link. */
extern const struct scenario *const all_scenarios_traced[] __attribute__((weak));

int model_main(int argc, char **argv)
{
	if (!all_scenarios_traced) {
		fprintf(stderr, "pcbench: model: this program was linked without the tracing build "
				"of the scenarios\n");
		return 2;
	}
	return model_cli(all_scenarios_traced, argc, argv);
}
