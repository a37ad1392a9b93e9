// SPDX-License-Identifier: MIT
/*
 * rows.c - results.csv's columns and one row per measurement (results.csv, results.jsonl,
 * the --csv file, profile.csv's lines), the progress lines; the files themselves: outputs.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "pmu_events.h"
#include "run.h"
#include "util.h"

/*
 * counter_cells - the four cells of every event column from @r (NULL: all empty) into
 * @v[k...] using @cells for the text; the row's counters_note into @note. Returns the next k.
 * An event that is absent on any thread stays empty, never zero.
 */
static int counter_cells(struct measure_run *run, const char **v, int k,
			 const struct meas_result *r, char (*cells)[40], char *note, size_t len)
{
	size_t used = (size_t)snprintf(note, len, "%s", run->pmu ? pmu_absent_note(run->pmu) : "");

	if (run->unmapped_note[0] && used < len)
		used += (size_t)snprintf(note + used, len - used, "%s%s", used ? "; " : "",
					 run->unmapped_note);
	for (int i = 0; i < run->nev_cols; i++) {
		const struct meas_event *e =
		    r && r->ev && run->ev_index[i] >= 0 ? &r->ev[run->ev_index[i]] : NULL;
		char(*c)[40] = &cells[4 * i];

		for (int j = 0; j < 4; j++)
			c[j][0] = '\0';
		if (e && e->present) {
			fmt_double(c[0], 40, e->per_op);
			fmt_double(c[1], 40, e->mux);
			fmt_double(c[2], 40, e->min_per_op);
			fmt_double(c[3], 40, e->max_per_op);
		} else if (e && e->absent_threads && used < len &&
			   !strstr(pmu_absent_note(run->pmu), run->ev_cols[i])) {
			used += (size_t)snprintf(
			    note + used, len - used, "%s%s: not counted on %d of the threads",
			    used ? "; " : "", run->ev_cols[i], e->absent_threads);
		}
		for (int j = 0; j < 4; j++)
			v[k++] = c[j];
	}
	return k;
}

/* event_columns - every abstract event, then the set's other events (libpfm strings). */
void event_columns(struct measure_run *run, const struct options *o)
{
	const char *a;
	size_t used = 0;

	for (int i = 0; (a = pmu_table_abstract(i)) && run->nev_cols < 64; i++)
		run->ev_cols[run->nev_cols++] = a;
	for (int j = 0; j < pmu_nevents(run->pmu) && run->nev_cols < 64; j++) {
		int dup = 0;

		for (int i = 0; i < run->nev_cols; i++)
			dup |= !strcmp(run->ev_cols[i], pmu_event_name(run->pmu, j));
		if (!dup)
			run->ev_cols[run->nev_cols++] = pmu_event_name(run->pmu, j);
	}
	for (int i = 0; i < run->nev_cols; i++) {
		run->ev_index[i] = -1;
		for (int j = 0; j < pmu_nevents(run->pmu); j++)
			if (!strcmp(run->ev_cols[i], pmu_event_name(run->pmu, j)))
				run->ev_index[i] = j;
		if (run->ev_index[i] < 0 && !strcmp(o->events, "auto") &&
		    used < sizeof(run->unmapped_note) - 80)
			used += (size_t)snprintf(run->unmapped_note + used,
						 sizeof(run->unmapped_note) - used, "%s%s",
						 used ? "," : "", run->ev_cols[i]);
	}
	if (used)
		snprintf(run->unmapped_note + used, sizeof(run->unmapped_note) - used,
			 ": no mapping for this PMU");
	else if (!strcmp(o->events, "none"))
		snprintf(run->unmapped_note, sizeof(run->unmapped_note),
			 "counters off (--events none)");
}

/* One row being written: what the cells are made of. */
struct row {
	const struct family *f;
	int rep;
	enum status st;
	const char *reason;
	const struct meas_result *r; /* NULL unless st is ST_OK */
	const char *home;
	char note[2048]; /* counters_note, made with the event cells */
};

/* fixed_cell - the cell of fixed column @c (results.h) for @x, formatted into @buf. */
static const char *fixed_cell(struct measure_run *run, enum results_col c, struct row *x, char *buf,
			      size_t len)
{
	const struct family *f = x->f;
	const struct meas_result *r = x->r;

	buf[0] = '\0';
	switch (c) {
	case COL_RUN_ID:
		return run->ctx.run_id;
	case COL_SCENARIO:
		return f->sc->name;
	case COL_PRESET:
		return f->preset->name;
	case COL_LAYOUT:
		return cfg_layout_name(f->cfg);
	case COL_WORKLOAD:
		return f->wl->name;
	case COL_THREADS:
		snprintf(buf, len, "%d", f->threads);
		return buf;
	case COL_PLACEMENT:
		return f->placement;
	case COL_CPUS:
		return f->cpus ? f->cpus : "";
	case COL_REPETITION:
		snprintf(buf, len, "%d", x->rep);
		return buf;
	case COL_DURATION_S:
		if (r)
			fmt_double(buf, len, r->duration_s);
		return buf;
	case COL_OPS:
		if (r)
			snprintf(buf, len, "%llu", (unsigned long long)r->ops);
		return buf;
	case COL_OPS_PER_S:
		if (r)
			fmt_double(buf, len, (double)r->ops / r->duration_s);
		return buf;
	case COL_NS_PER_OP:
		if (r && r->ops) /* a starved window (status disturbed) may have none */
			fmt_double(buf, len, r->duration_s * 1e9 * f->threads / (double)r->ops);
		return buf;
	case COL_OPS_MIN_THREAD:
		if (r)
			snprintf(buf, len, "%llu", (unsigned long long)r->ops_min);
		return buf;
	case COL_OPS_MAX_THREAD:
		if (r)
			snprintf(buf, len, "%llu", (unsigned long long)r->ops_max);
		return buf;
	case COL_STATUS:
		return status_names[x->st];
	case COL_REASON:
		return x->reason;
	case COL_HOST:
		return run->ctx.host;
	case COL_LABEL:
		return run->ctx.label;
	case COL_WINDOW_S:
		fmt_double(buf, len, run->opt.time_s);
		return buf;
	case COL_HOME:
		return x->home;
	case COL_TOPOLOGY_FP:
		return run->topology_fp;
	case COL_LAYOUT_FP:
		return f->layout_fp;
	case COL_PAIR_CLASS:
		return f->pus && f->threads >= 2
			   ? topo_pair_names[topo_pair_class(run->topo, f->pus[0], f->pus[1])]
			   : "";
	case COL_NIVCSW:
		if (r)
			snprintf(buf, len, "%.0f", r->nivcsw);
		return buf;
	case COL_RUN_DELAY_NS:
		if (r && r->run_delay_ns >= 0)
			snprintf(buf, len, "%.0f", r->run_delay_ns);
		return buf;
	case COL_MIGRATIONS:
		if (r && r->migrations >= 0)
			snprintf(buf, len, "%.0f", r->migrations);
		return buf;
	case COL_STEAL_PCT:
		if (r)
			fmt_double(buf, len, r->steal_pct); /* NaN (window too short): empty */
		return buf;
	case COL_RETRIES:
		if (r)
			snprintf(buf, len, "%d", r->retries);
		return buf;
	case COL_BLOCK: /* the block design's block (1-based); empty for independent runs */
		if (run->block)
			snprintf(buf, len, "%d", run->block);
		return buf;
	case COL_LOST_PCT:
		if (r)
			fmt_double(buf, len, r->lost_pct);
		return buf;
	case COL_XFER_BEFORE_NS:
	case COL_XFER_AFTER_NS:
		if (r && r->xfer_ns[c == COL_XFER_AFTER_NS] > 0)
			fmt_double(buf, len, r->xfer_ns[c == COL_XFER_AFTER_NS]);
		return buf;
	case COL_XFER_NOTE:
		return r ? r->xfer_note : "";
	case COL_DISTURBED_BY:
		return r && r->disturbed ? r->disturbed_by : "";
	case RESULTS_NFIXED:
		break;
	}
	return buf;
}

/*
 * The variable families after the fixed columns, in this order. names() appends the
 * family's column names to @cols and returns how many; cells() fills as many cells, each
 * formatted into its own @buf row. The header and every row come from this one table.
 */
struct col_family {
	int (*names)(struct measure_run *run, const char **cols);
	int (*cells)(struct measure_run *run, struct row *x, const char **v, char (*buf)[40]);
};

/* --matrix: the pair of PUs and ns per one-way transfer. */
static int matrix_names(struct measure_run *run, const char **cols)
{
	if (!run->opt.matrix)
		return 0;
	cols[0] = results_var_cols[VCOL_CPU_A];
	cols[1] = results_var_cols[VCOL_CPU_B];
	cols[2] = results_var_cols[VCOL_NS_PER_TRANSFER];
	return 3;
}

static int matrix_cells(struct measure_run *run, struct row *x, const char **v, char (*buf)[40])
{
	const struct family *f = x->f;

	if (!run->opt.matrix)
		return 0;
	snprintf(buf[0], 40, "%d", f->pus[0]);
	snprintf(buf[1], 40, "%d", f->pus[f->threads - 1]);
	buf[2][0] = '\0';
	if (x->r && x->r->ops)
		fmt_double(buf[2], 40, x->r->duration_s * 1e9 / (double)x->r->ops);
	for (int i = 0; i < 3; i++)
		v[i] = buf[i];
	return 3;
}

/* param_NAME: every parameter of the selected scenarios but layout (its own column). */
static int param_names(struct measure_run *run, const char **cols)
{
	for (int i = 0; i < run->nparam_cols; i++)
		cols[i] = xasprintf("param_%s", run->param_cols[i]);
	return run->nparam_cols;
}

static int param_cells(struct measure_run *run, struct row *x, const char **v, char (*buf)[40])
{
	(void)buf;
	for (int i = 0; i < run->nparam_cols; i++)
		v[i] = family_param(run, x->f, i);
	return run->nparam_cols;
}

/* Four columns per event (event_columns), then counters_note. */
static int event_names(struct measure_run *run, const char **cols)
{
	static const char *const suffix[] = {"_per_op", "_mux", "_min_thread_per_op",
					     "_max_thread_per_op"};
	int n = 0;

	for (int i = 0; i < run->nev_cols; i++)
		for (int k = 0; k < 4; k++)
			cols[n++] = xasprintf("%s%s", run->ev_cols[i], suffix[k]);
	cols[n++] = "counters_note";
	return n;
}

static int event_cells(struct measure_run *run, struct row *x, const char **v, char (*buf)[40])
{
	int n = counter_cells(run, v, 0, x->r, buf, x->note, sizeof(x->note));

	v[n++] = x->note;
	return n;
}

/* --with-model: the coherence model's model_*_per_op columns. */
static int model_names(struct measure_run *run, const char **cols)
{
	if (!run->opt.with_model)
		return 0;
	memcpy(cols, model_csv_cols, MODEL_NCOLS * sizeof(*cols));
	return MODEL_NCOLS;
}

static int model_cells(struct measure_run *run, struct row *x, const char **v, char (*buf)[40])
{
	(void)buf;
	for (int i = 0; run->opt.with_model && i < MODEL_NCOLS; i++)
		v[i] = x->f->model ? x->f->model[i] : "";
	return run->opt.with_model ? MODEL_NCOLS : 0;
}

/*
 * A run of a BENCH_KERNEL scenario: the scenario's note on each window (window_end) and the
 * kernel measured (compare --by kernel tells merged runs' kernels apart by these).
 */
static int kernel_names(struct measure_run *run, const char **cols)
{
	if (!run->kctx.present)
		return 0;
	cols[0] = "note";
	cols[1] = results_var_cols[VCOL_KERNEL_RELEASE];
	cols[2] = results_var_cols[VCOL_KERNEL_LAYOUT_FP];
	return 3;
}

static int kernel_cells(struct measure_run *run, struct row *x, const char **v, char (*buf)[40])
{
	(void)buf;
	if (!run->kctx.present)
		return 0;
	v[0] = x->r && x->r->note ? x->r->note : "";
	v[1] = run->kctx.release;
	v[2] = run->kctx.layout_fp;
	return 3;
}

/*
 * --profile: the sampling event, the window's samples and those lost, the memcg charge
 * path's share of them and its ns per operation (share x ns_per_op); empty with
 * profile_note saying why where nothing could be sampled.
 */
static int profile_names(struct measure_run *run, const char **cols)
{
	static const char *const names[] = {
	    "profile_event", "profile_samples", "profile_lost", NULL, NULL, "profile_note"};

	if (!run->opt.profile)
		return 0;
	memcpy(cols, names, sizeof(names));
	cols[3] = results_var_cols[VCOL_MEMCG_SHARE_PCT];
	cols[4] = results_var_cols[VCOL_MEMCG_NS_PER_OP];
	return 6;
}

static int profile_cells(struct measure_run *run, struct row *x, const char **v, char (*buf)[40])
{
	const struct prof_window *w = x->r ? x->r->prof : NULL;

	if (!run->opt.profile)
		return 0;
	for (int i = 0; i < 6; i++)
		v[i] = "";
	if (!x->r)
		return 6;
	if (!w || !w->present || !w->samples) {
		v[5] = !run->prof.ok ? run->prof.plan.note
		       : w && w->why ? w->why
				     : "no sample in the window";
		return 6;
	}
	v[0] = run->prof.plan.event;
	snprintf(buf[1], 40, "%llu", (unsigned long long)w->samples);
	snprintf(buf[2], 40, "%llu", (unsigned long long)w->lost);
	fmt_double(buf[3], 40, 100.0 * (double)w->memcg / (double)w->samples);
	if (x->r->ops)
		fmt_double(buf[4], 40,
			   (double)w->memcg / (double)w->samples * x->r->duration_s * 1e9 *
			       x->f->threads / (double)x->r->ops);
	for (int i = 1; i < 5; i++)
		v[i] = buf[i];
	v[5] = run->prof.ks ? "" : run->prof.ks_why;
	return 6;
}

static const struct col_family col_families[] = {
    {matrix_names, matrix_cells}, {param_names, param_cells},	{event_names, event_cells},
    {model_names, model_cells},	  {kernel_names, kernel_cells}, {profile_names, profile_cells},
};
#define NFAMILIES (int)(sizeof(col_families) / sizeof(col_families[0]))

/* columns_build - the header: the fixed columns, then every family's. */
void columns_build(struct measure_run *run)
{
	run->ncols = 0;
	for (int i = 0; i < RESULTS_NFIXED; i++)
		run->cols[run->ncols++] = results_cols[i];
	for (int i = 0; i < NFAMILIES; i++)
		run->ncols += col_families[i].names(run, run->cols + run->ncols);
}

/*
 * write_profile - profile.csv: a line per symbol of window @w, keyed by the row's cells
 * @v (its family and repetition).
 */
static void write_profile(struct measure_run *run, const char **v, const struct prof_window *w)
{
	static const enum results_col key[] = {COL_SCENARIO, COL_PRESET,    COL_LAYOUT,
					       COL_WORKLOAD, COL_PLACEMENT, COL_THREADS,
					       COL_HOME,     COL_REPETITION};
	const char *pv[PROF_NCOLS];
	char n[24];

	for (int i = 0; i < 8; i++)
		pv[i] = v[key[i]];
	pv[8] = run->prof.plan.event;
	pv[10] = n;
	for (size_t i = 0; i < w->n && !run->write_failed; i++) {
		int memcg;

		pv[9] = prof_symbol(&run->prof, w, i, &memcg);
		snprintf(n, sizeof(n), "%llu", (unsigned long long)w->cnt[i]);
		pv[11] = memcg ? "1" : "0";
		if (csv_write_row(run->prof_csv, pv)) {
			warn_msg("%s: %s: stopping; the rows already written are intact",
				 csv_path(run->prof_csv), strerror(errno));
			run->write_failed = 1;
		}
	}
}

/* x_r_windows - @r counts windows (a measured row, not a skipped or failed one). */
static int x_r_windows(enum status st, const struct meas_result *r)
{
	return r && (st == ST_OK || st == ST_DISTURBED);
}

/* write_row - one CSV row for repetition @rep of @f (r is NULL for skipped rows). */
void write_row(struct measure_run *run, const struct family *f, int rep, enum status st,
	       const char *reason, const struct meas_result *r, const char *home)
{
	struct row *x = xcalloc(1, sizeof(*x));
	char(*buf)[40] = xcalloc((size_t)run->ncols, 40);
	const char **v = xcalloc((size_t)run->ncols, sizeof(char *));
	int k = 0;

	*x = (struct row){f,	rep, st, reason, st == ST_OK || st == ST_DISTURBED ? r : NULL,
			  home, ""};
	for (int i = 0; i < RESULTS_NFIXED; i++, k++)
		v[k] = fixed_cell(run, (enum results_col)i, x, buf[k], sizeof(buf[k]));
	for (int i = 0; i < NFAMILIES; i++)
		k += col_families[i].cells(run, x, v + k, buf + k);
	if (run->prof_csv && x->r && x->r->prof)
		write_profile(run, v, x->r->prof);

	for (int i = 0; i < 2; i++) {
		struct csv_writer *w = i ? run->csv_extra : run->csv;

		if (w && !run->write_failed && csv_write_row(w, v)) {
			warn_msg("%s: %s: stopping; the rows already written are "
				 "intact",
				 csv_path(w), strerror(errno));
			run->write_failed = 1;
		}
	}
	if (run->jsonl && !run->write_failed &&
	    results_jsonl_row(run->jsonl, run->cols, v, run->ncols)) {
		warn_msg("%s: %s: stopping; the rows already written are intact", run->jsonl_path,
			 strerror(errno));
		run->write_failed = 1;
	}
	free(v);
	free(buf);
	free(x);
	run->done++;
	run->ok += st == ST_OK;
	run->errors += st == ST_ERROR;
	run->skipped += st == ST_SKIPPED;
	run->disturbed += st == ST_DISTURBED;
	if (x_r_windows(st, r)) {
		run->windows += r->windows;
		run->disturbed_windows += r->disturbed_windows;
		run->retries += r->retries;
		for (int k = 0; k < NOISE_NKINDS; k++)
			run->kind_windows[k] += r->kind_windows[k];
	}
}

/* fmt_min_s - @s seconds as "1m05s" into @buf. */
static const char *fmt_min_s(double s, char *buf, size_t len)
{
	int t = s > 0 ? (int)(s + 0.5) : 0;

	snprintf(buf, len, "%dm%02ds", t / 60, t % 60);
	return buf;
}

/* eta_s - the seconds left for @total measurements at the rate of those done so far. */
static double eta_s(const struct measure_run *run, int total, double now)
{
	return run->done ? (now - run->t_first) / run->done * (total - run->done) : 0;
}

/*
 * progress_plain - stderr not a terminal (a log, CI): at the end of the first window after
 * opt.progress_s seconds (10) since the start or the last such line, one plain line: done
 * of total, the ETA and the rows disturbed so far. Independent repetitions: measurements,
 * the ETA from the rate so far. Blocks: windows; with -r (a fixed number of blocks) the
 * ETA from the rate, else (open-ended: blocks until the precision target) the windows and
 * the time the budget leaves, at most.
 */
static void progress_plain(struct measure_run *run)
{
	const struct options *o = &run->opt;
	double now = now_s(), left = run->budget_end - now;
	int total = run->total;
	char eta[32], blk[32] = "";

	if (now - (run->progress_last ? run->progress_last : run->t_first) < o->progress_s)
		return;
	run->progress_last = now;
	if (!o->independent) {
		if (o->reps_set && run->min_windows < total)
			total = run->min_windows;
		snprintf(blk, sizeof(blk), " (block %d)", run->block);
	}
	if (o->independent || o->reps_set) {
		double est = eta_s(run, total, now);

		fmt_min_s(o->independent || est < left ? est : left, eta, sizeof(eta));
	} else {
		char b[16];

		snprintf(eta, sizeof(eta), "<= %s (budget)", fmt_min_s(left, b, sizeof(b)));
	}
	warn_msg("progress: %d/%d %s%s, ETA %s, %d disturbed", run->done, total,
		 o->independent ? "measurements" : "windows", blk, eta, run->disturbed);
}

/*
 * progress - on a terminal, one line updated in place ([done/total] family, rep, ops/s or
 * status, ETA); elsewhere (a log, CI) a plain line every 10 s (progress_plain). A failed
 * measurement is always one line of its own, with its reason.
 */
void progress(struct measure_run *run, const struct family *f, int rep, enum status st,
	      const char *what)
{
	static int tty = -1;
	char eta[32], name[1024], where[512];

	if (tty < 0)
		tty = isatty(2);
	/* a layout path or placement given by the user: control and bidi characters escaped */
	esc_buf(name, sizeof(name), f->name);
	esc_buf(where, sizeof(where), f->placement);
	if (st == ST_ERROR) {
		char why[1024];

		esc_buf(why, sizeof(why), what);
		fprintf(stderr, "%spcbench: %s rep %d/%d: error: %s\n", tty ? "\r\033[K" : "", name,
			rep, run->opt.repetitions, why);
		if (!tty)
			progress_plain(run);
		return;
	}
	if (!tty) {
		if (st != ST_SKIPPED)
			progress_plain(run);
		return;
	}
	if (!run->opt.independent) { /* blocks: the block and the budget left */
		double left = run->budget_end - now_s();

		fprintf(stderr, "\r\033[K[block %d, %d windows] %s %s %s t=%d: %s  budget left %ds",
			run->block, run->done, f->sc->name, f->preset->name, f->wl->name,
			f->threads, st == ST_OK ? what : status_names[st],
			left > 0 ? (int)left : 0);
		return;
	}
	/* short, so that it fits a terminal's line and \r can rewrite it */
	fprintf(stderr, "\r\033[K[%d/%d] %s %s %s %s t=%d rep %d/%d: %s  ETA %s", run->done,
		run->total, f->sc->name, f->preset->name, f->wl->name, where, f->threads, rep,
		run->opt.repetitions, st == ST_OK ? what : status_names[st],
		fmt_min_s(eta_s(run, run->total, now_s()), eta, sizeof(eta)));
}

void progress_block(struct measure_run *run, int block, int tables, int spent)
{
	int done = 0, met = 0, cmp = 0;
	double left = run->budget_end - now_s();

	for (int i = 0; i < run->ntables; i++) {
		const struct bl_table *t = &run->tables[i];

		done += t->done;
		met += t->met;
		cmp += t->n - 1;
	}
	fprintf(stderr,
		"%spcbench: block %d: %d table%s measured, %d windows so far; %d of %d "
		"comparisons within +-%g%%; %d of %d tables done; budget left %.0f s%s\n",
		isatty(2) ? "\r\033[K" : "", block, tables, tables == 1 ? "" : "s", run->done, met,
		cmp, run->opt.precision, done, run->ntables, left > 0 ? left : 0,
		spent ? " (spent: no more blocks)" : "");
}

/* progress_end - the progress line becomes one summary line (also when not a terminal). */
void progress_end(struct measure_run *run)
{
	fprintf(stderr, "%spcbench: %d measurements in %.0f s: %d ok, %d error, %d skipped",
		isatty(2) ? "\r\033[K" : "", run->done, now_s() - run->t_first, run->ok,
		run->errors, run->skipped);
	if (run->disturbed)
		fprintf(stderr, ", %d disturbed", run->disturbed);
	fputc('\n', stderr);
	if (!run->opt.independent && run->ntables) {
		int blocks = 0;

		for (int i = 0; i < run->ntables; i++)
			blocks = run->tables[i].blocks > blocks ? run->tables[i].blocks : blocks;
		fprintf(
		    stderr,
		    "pcbench: blocks: %d (window %g s), %d windows of the %d the budget of %g s "
		    "planned (%d for the fewest blocks)\n",
		    blocks, run->opt.time_s, run->windows, run->planned_windows, run->opt.budget_s,
		    run->min_windows);
	}
	if (run->windows && !isinf(run->opt.noise_max_pct)) {
		fprintf(stderr, "pcbench: noise: %d of %d windows disturbed",
			run->disturbed_windows, run->windows);
		for (int k = 1, n = 0; k < NOISE_NKINDS;
		     k++) /* by kind: "(2 run delay, 1 remap)" */
			if (run->kind_windows[k]) {
				fprintf(stderr, "%s%d ", n++ ? ", " : " (", run->kind_windows[k]);
				for (const char *p = noise_kind_names[k]; *p; p++)
					fputc(*p == '_' ? ' ' : *p, stderr);
			}
		fprintf(stderr, "%s (limits: run delay, steal or gaps over %g%%, ",
			run->disturbed_windows ? ")" : "", run->opt.noise_max_pct);
		if (run->opt.imbalance_min > 0)
			fprintf(stderr, "imbalance under %g, ", run->opt.imbalance_min);
		fprintf(stderr,
			"transfer cost changed over %gx): %d measured again, %d rows left "
			"disturbed (status disturbed, not in the statistics)\n",
			RESULTS_REMAP_RATIO, run->retries, run->disturbed);
	} else if (run->disturbed_windows) /* --noise-max off: only starved windows (measure.c) */
		fprintf(stderr,
			"pcbench: noise: %d of %d windows starved (no operation completed, a "
			"thread off its CPU most of the time): %d measured again, %d rows left "
			"disturbed (status disturbed, not in the statistics)\n",
			run->disturbed_windows, run->windows, run->retries, run->disturbed);
}

/* home_cell - the `home` column: the NUMA nodes that held the shared state, as verified. */
void home_cell(const struct family *f, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (!f->pus)
		return;
	if (!f->m || !f->m->home_known || !f->m->home_nodes) {
		topo_home_name(&f->home, buf, len); /* the OS could not tell: as planned */
		return;
	}
	for (int i = 0; i < 64 && used + 9 < len; i++)
		if (f->m->home_nodes & (1ULL << i))
			used += (size_t)snprintf(buf + used, len - used, "%snode:%d",
						 used ? ";" : "", i);
}
