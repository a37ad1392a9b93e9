// SPDX-License-Identifier: MIT
/*
 * run.c - the measure engine's run: resolve everything the options ask for (commands/
 * cmd_measure.c parses them), measure, write, and the closing report (the compare engine).
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "compare_run.h"
#include "harness.h"
#include "outfile.h"
#include "pmu_events.h"
#include "run.h"
#include "num.h"
#include "stats.h"
#include "stop.h"
#include "util.h"

/*
 * set_current - @f's repetition @rep is being set up or measured (NULL: none): a fatal
 * error now (out of memory) becomes its status=error row (fail_after_create).
 */
static void set_current(struct measure_run *run, struct family *f, int rep)
{
	run->cur_fam = f;
	run->cur_rep = rep;
}

/*
 * readers_gone - stdout or stderr is a pipe whose reader went away (poll's POLLERR on a
 * pipe without readers). pcbench writes nothing there while it measures (stderr not a
 * terminal), so it looks after each row instead of learning it at the end.
 */
static int readers_gone(void)
{
	struct pollfd p[2] = {{.fd = STDOUT_FILENO}, {.fd = STDERR_FILENO}};

	return poll(p, 2, 0) > 0 && ((p[0].revents | p[1].revents) & POLLERR);
}

/* One family of a run, as Google Benchmark hands it to family_thread. */
struct job {
	struct measure_run *run;
	struct family *f;
	struct bl_table *tb; /* blocks: its table, where it is preset @k; else NULL */
	int k;
};

/* Each thread of each repetition of each family runs this, from Google Benchmark. */
static void family_thread(void *arg, int tid, struct gb_result *res)
{
	struct job *job = arg;
	struct measure_run *run = job->run;
	struct family *f = job->f;
	struct meas_result r;
	char what[64], home[256];
	const char *why;
	enum status st;
	double ops_s; /* the window's ops/s, as results.csv's ops_per_s; 0 when it failed */
	int rep;

	/* Flags read here are only written by thread 0 between measurements. */
	if (run->write_failed || run->stopped)
		return;
	/* thread 0 sets it; the others allocate (thread setup) after a barrier with it */
	if (!tid)
		set_current(run, f, f->reps_done + 1);
	meas_thread(f->m, tid);
	if (tid)
		return;
	meas_result(f->m, &r);
	set_current(run, NULL, 0); /* from here on, this repetition's row says how it ended */
	/* interrupted: abandon this measurement, write no partial row */
	if (r.aborted) {
		run->stopped = 1;
		meas_reset(f->m);
		return;
	}
	rep = ++f->reps_done;
	if (!r.failed && !r.ops && !r.disturbed) { /* not starved (measure.c starved_check) */
		r.failed = 1;
		r.reason = "no operation completed in the window";
	}
	/* a window still disturbed after its retries is kept, but out of the statistics */
	st = r.failed ? ST_ERROR : r.disturbed ? ST_DISTURBED : ST_OK;
	ops_s = r.failed ? 0 : (double)r.ops / r.duration_s;
	why = st == ST_ERROR ? r.reason : st == ST_DISTURBED ? r.noise_reason : "";
	home_cell(f, home, sizeof(home));
	write_row(run, f, rep, st, why, &r, home);
	if (job->tb) /* the stopping rule's view of this block (blocks.c) */
		blocks_record(job->tb, job->k, run->block - 1, st == ST_OK ? ops_s : NAN,
			      st == ST_DISTURBED && !strcmp(r.disturbed_by, "remap") ? NULL
										     : r.xfer_ns);
	objects_log_add(run->objects, f, rep, &r);
	if (f->matrix_ns && st == ST_OK) /* ns per one-way transfer, for the matrix table */
		f->matrix_ns[f->matrix_n++] = r.duration_s * 1e9 / (double)r.ops;
	*res = (struct gb_result){
	    1, st == ST_OK,
	    r.failed || !r.ops ? 0 : r.duration_s * 1e9 * f->threads / (double)r.ops, ops_s, why};
	snprintf(what, sizeof(what), "%.4g ops/s", ops_s);
	progress(run, f, rep, st, st == ST_OK ? what : why);
	if (!stop_requested && readers_gone()) /* as SIGPIPE: the next window stops at once */
		raise(SIGPIPE);
	meas_reset(f->m);
}

/* model_family - the coherence model's prediction for @f (--with-model), kept for its rows. */
static void model_family(struct family *f, const struct topo *topo)
{
	const struct scenario *traced = scenario_find_traced(f->sc->name);
	struct model_opts mo;
	struct model_result mr;

	model_opts_default(&mo);
	f->model = xcalloc(MODEL_NCOLS, sizeof(*f->model));
	if (!traced) {
		warn_msg("--with-model: %s: no traced build", f->name);
		return;
	}
	model_run(traced, f->cfg, topo, f->pus, f->threads, &mo, &mr);
	if (!mr.ok)
		warn_msg("--with-model: %s: %s", f->name, mr.reason);
	model_csv_values(&mr, f->model);
	model_result_free(&mr);
}

/* error_row - @f's repetition @rep failed with @msg: its status=error row, and the progress. */
static void error_row(struct measure_run *run, struct family *f, int rep, const char *msg)
{
	char home[256];

	set_current(run, NULL, 0);
	home_cell(f, home, sizeof(home));
	write_row(run, f, rep, ST_ERROR, msg, NULL, home);
	progress(run, f, rep, ST_ERROR, msg);
}

/*
 * fail_after_create - a fatal error (@msg, die's "what: value: why") once the run
 * directory exists: the family in progress, if any, gets a status=error row with @msg as
 * its reason, and the run its end (context.json's end time, whole files).
 */
static void fail_after_create(void *arg, const char *msg)
{
	struct measure_run *run = arg;
	struct family *f = run->cur_fam;

	if (f)
		error_row(run, f, run->cur_rep, msg);
	utc_now(run->ctx.end, sizeof(run->ctx.end));
	write_context(run);
	close_outputs(run);
	warn_msg("the run stopped on that error: %d of %d measurements kept in %s%s", run->done,
		 run->total, run->run_dir_shown, f ? " (the last one as a status=error row)" : "");
	outputs_unlock(run);
}

/* load_topology - the --topology source; a foreign one only plans (or is checked). */
static struct topo *load_topology(struct measure_run *run, const struct options *o)
{
	struct topo *t, *host;
	char err[PATH_MAX + 128], fp[17];

	t = run->topo = topo_load(o->sel.topology, err, sizeof(err));
	if (!t)
		usage_error("--topology", o->sel.topology, "%s", err);
	topo_fingerprint(t, run->topology_fp);
	if (!o->check_host) {
		if (!topo_is_host(t) && !o->dry_run)
			usage_error(
			    "--topology", o->sel.topology,
			    "not this machine: hwloc cannot bind threads on it, so it can "
			    "only be planned with --dry-run (or verified with --check-host)");
		return t;
	}
	host = topo_load_host(err, sizeof(err));
	if (!host)
		usage_error("topology", "host", "%s", err);
	topo_fingerprint(host, fp);
	if (strcmp(fp, run->topology_fp))
		usage_error("--check-host", o->sel.topology,
			    "this host's topology (fingerprint %s, %d PUs) differs from the file's "
			    "(fingerprint %s, %d PUs)",
			    fp, topo_npus(host), run->topology_fp, topo_npus(t));
	warn_msg("--check-host: this host matches %s (fingerprint %s)", o->sel.topology, fp);
	topo_free(t);
	return host;
}

/* write_run_dir_file - --run-dir-file FILE: the run directory's path and a newline. */
static int write_run_dir_file(struct measure_run *run)
{
	char *line;
	int rc;

	if (!run->opt.run_dir_file)
		return 0;
	line = xasprintf("%s\n", run->run_dir);
	rc = outfile_write_named(run->opt.run_dir_file, line, strlen(line));
	free(line);
	return rc;
}

/*
 * check_machine - read the machine's state into context.json and print the warnings about
 * what biases contention results, one line each, before anything is measured.
 */
static void check_machine(struct measure_run *run, const struct topo *topo)
{
	int *pus = xcalloc((size_t)topo_npus(topo) + 1, sizeof(int)), n = 0;
	char list[512], excluded[2048];

	for (int i = 0; i < run->nfams; i++)
		for (int t = 0; run->fams[i].pus && t < run->fams[i].threads; t++) {
			int dup = 0;

			for (int k = 0; k < n; k++)
				dup |= pus[k] == run->fams[i].pus[t];
			if (!dup && n < topo_npus(topo))
				pus[n++] = run->fams[i].pus[t];
		}
	machine_read(&run->machine);
	if (topo_allowed_list(topo, list, sizeof(list)) == 0)
		json_object_set_new(run->machine.json, "allowed_pus", json_string(list));
	topo_excluded(topo, excluded, sizeof(excluded));
	json_object_set_new(run->machine.json, "excluded_pus",
			    excluded[0] ? json_string(excluded) : json_null());
	machine_check(&run->machine, topo, pus, n);
	for (int i = 0; i < run->machine.nwarnings; i++)
		warn_msg("warning: %s", run->machine.warnings[i]);
	run->ctx.machine = run->machine.json;
	free(pus);
}

/*
 * probe_threads - a family whose threads cannot be created here (a resource limit) is not
 * measured: it gets status=error rows saying why (setup_families), and the run exit 1.
 */
static void probe_threads(struct measure_run *run)
{
	int ok_upto = 1, bad_from = INT_MAX;

	for (int i = 0; i < run->nfams; i++) {
		struct family *f = &run->fams[i];

		if (f->skip[0] || f->threads <= ok_upto)
			continue;
		if (f->threads < bad_from &&
		    !meas_threads_probe(f->threads, f->skip, sizeof(f->skip))) {
			ok_upto = f->threads;
			continue;
		}
		if (f->threads < bad_from)
			bad_from = f->threads;
		else
			snprintf(f->skip, sizeof(f->skip),
				 "cannot start %d threads: %d could not start (a resource limit?)",
				 f->threads, bad_from);
		f->skip_error = 1;
	}
}

int measure_prepare(struct measure_run *run, int gb_argc, int check)
{
	char **gb_argv = run->gb_argv;
	char err[PATH_MAX + 128];

	if (run->opt.pmu && !run->opt.list_events && !run->opt.dry_run)
		usage_error("--pmu", run->opt.pmu, "only with --list-events or --dry-run");
	if (run->opt.list_events) {
		if (pmu_list_events(stdout, run->opt.pmu, err, sizeof(err)))
			usage_error("--list-events", run->opt.pmu ? run->opt.pmu : "", "%s", err);
		return 0;
	}
	switch (gbshim_init(&gb_argc, gb_argv)) {
	case 1:
		usage_error("option", gb_argv[1], "not a Google Benchmark flag");
		break;
	case -1:
		usage_error("Google Benchmark", "", "%s", gbshim_error());
		break;
	}
	if (run->opt.gb_out)
		gbshim_out_begin(run->opt.gb_out_format);
	run->pmu = pmu_resolve_for(run->opt.events, run->opt.events_kernel, run->opt.pmu, err,
				   sizeof(err));
	if (!run->pmu) {
		warn_msg("%s", err);
		return 2;
	}
	event_columns(run, &run->opt);

	run->topo = load_topology(run, &run->opt);
	if (!run->opt.dry_run && topo_excluded(run->topo, err, sizeof(err)))
		warn_msg("plans use %d of the host's PUs: excluded %s", topo_npus(run->topo), err);
	build_families(run, &run->opt, run->topo);
	if (!run->opt.dry_run)
		probe_threads(run);
	if (run->opt.matrix) { /* every pair of PUs is its own family: nothing to block */
		run->opt.independent = 1;
		run_plan_matrix(run);
	}
	if (!run->opt.independent)
		run_plan_blocks(run);
	run_warn_too_few(run);
	for (int i = 0; (check || run->opt.with_model) && i < run->nfams; i++)
		if (bench_unmodelled(run->fams[i].sc))
			usage_error(check ? "hitm record" : "--with-model", run->fams[i].sc->name,
				    "%s", bench_unmodelled(run->fams[i].sc));
	if (run->opt.dry_run) {
		print_plan(run, &run->opt, run->topo);
		if (run->opt.pmu)
			pmu_print_set(stdout, run->pmu);
		topo_free(run->topo);
		return 0;
	}
	return -1;
}

/* init_context - context.json's facts, the label with them (it names the run directory). */
static void init_context(struct measure_run *run)
{
	context_init(&run->ctx, run->orig_argc, run->orig_argv);
	if (run->opt.label)
		snprintf(run->ctx.label, sizeof(run->ctx.label), "%s", run->opt.label);
}

void measure_dir_init(struct measure_run *run, struct measure_dir *d)
{
	d->run = run;
	init_context(run);
	check_outputs(run, &run->opt);
	snprintf(d->path, sizeof(d->path), "%.*s", PATH_MAX - 1, run->run_dir);
	d->made_here = !run->opt.out;
	d->events_set = run->opt.events_set;
}

void measure_dir_make(struct measure_dir *d)
{
	make_run_dir(d->run, &d->run->opt);
	snprintf(d->path, sizeof(d->path), "%.*s", PATH_MAX - 1, d->run->run_dir);
}

/*
 * gb_terminated - Google Benchmark could not go on and called std::terminate (a thread it
 * could not start; gbshim_on_terminate): the family it was starting (@arg, a job) gets its
 * status=error row with @why (fail_after_create), context.json its end; exit 1.
 */
static void gb_terminated(void *arg, const char *why)
{
	struct job *job = arg;

	if (job)
		set_current(job->run, job->f, job->f->reps_done + 1);
	die("Google Benchmark", "threads", "%s", why);
}

/*
 * gb_run - @n families of run->gbf through Google Benchmark (@reps repetitions each), then
 * --benchmark_out's file rewritten (temp file and rename) with every run so far. A C++
 * exception caught at the shim's boundary stops the run: its reason on stderr, exit 1.
 */
static void gb_run(struct measure_run *run, int n, int reps)
{
	const char *out = run->opt.gb_out;
	size_t len;
	char *text;

	gbshim_on_terminate(gb_terminated);
	if (gbshim_run(run->gbf, n, reps, family_thread)) {
		struct job *job = gbshim_failed_arg();
		char *msg = xasprintf("Google Benchmark: %s", gbshim_error());

		warn_msg("%s: the run stops here", msg);
		if (job) /* the family it was starting (its threads): a status=error row */
			error_row(run, job->f, job->f->reps_done + 1, msg);
		free(msg);
		run->gb_failed = 1;
	}
	if (!out)
		return;
	text = gbshim_out_text(&len);
	if (!text)
		warn_msg("--benchmark_out: %s: %s", out, gbshim_error());
	if (!text || outfile_write_named(out, text, len))
		run->write_failed = 1;
	free(text);
}

/*
 * run_blocks - the block design: block after block, each measuring every preset of every
 * table that is not done, the presets of a table back to back in a fresh random order
 * (Google Benchmark runs each table's presets once per block: one gbshim_run, one
 * repetition each, in that order), until every table is done or the budget (its time, or
 * the windows it planned) is spent.
 */
static void run_blocks(struct measure_run *run)
{
	const struct options *o = &run->opt;
	uint64_t state = run->seed;
	int *order = xcalloc((size_t)run->nfams + 1, sizeof(int));
	int windows = 0, spent = 0;

	run->budget_end = run->t_first + o->budget_s;
	warn_msg("blocks: %d table%s, at least %d windows (%s); window %g s%s; the budget "
		 "of %g s plans at most %d windows",
		 run->ntables, run->ntables == 1 ? "" : "s", run->min_windows,
		 o->reps_set ? "-r blocks each" : "the fewest blocks for p < 0.05 after Holm",
		 o->time_s, o->time_set ? "" : " (chosen for the budget)", o->budget_s,
		 run->planned_windows);
	for (int b = 1;
	     !spent && !stop_requested && !run->write_failed && !run->stopped && !run->gb_failed;
	     b++) {
		int measured = 0;

		run->block = b;
		for (int ti = 0;
		     ti < run->ntables && !run->write_failed && !run->stopped && !run->gb_failed;
		     ti++) {
			struct bl_table *t = &run->tables[ti];
			/* the cost of a window so far (set-up included), or as planned */
			double cost = windows ? (now_s() - run->t_first) / windows
					      : blocks_window_cost(o->time_s);

			if (t->done)
				continue;
			if (windows + t->n > run->planned_windows ||
			    now_s() + t->n * cost > run->budget_end) {
				spent = 1;
				break;
			}
			for (int k = 0; k < t->n; k++)
				order[k] = t->fam[k];
			if (o->gb_shuffle)
				blocks_shuffle(order, t->n, &state);
			for (int k = 0; k < t->n; k++)
				run->gbf[k] = (struct gb_family){run->fams[order[k]].name,
								 run->fams[order[k]].threads,
								 &run->jobs[order[k]]};
			gb_run(run, t->n, 1);
			windows += t->n;
			measured++;
			blocks_judge(t, o->precision, o->reps_set ? o->repetitions : 0,
				     o->max_blocks);
		}
		if (!measured)
			break;
		progress_block(run, b, measured, spent);
	}
	run->block = 0;
	free(order);
}

/*
 * begin_outputs - from here on a signal leaves a consistent run directory: the outputs,
 * context.json, topology.xml and topology_fp, results/latest. Returns 1 when results/latest
 * could not be linked (measured anyway; exit 1 at the end).
 */
static int begin_outputs(struct measure_run *run)
{
	char err[PATH_MAX + 128], path[2 * PATH_MAX + 256]; /* gcc -Wformat-truncation */
	char fp[sizeof(run->topology_fp) + 1];		    /* with its newline */
	int latest_failed;

	/* From here on a signal (or stdout/stderr closed: SIGPIPE) leaves a consistent run
	 * directory: rows whole, context.json interrupted, exit 3; a second one ends it at once. */
	stop_install(STOP_FLAG, 1);
	open_outputs(run, &run->opt);
	die_after_create(fail_after_create, run);
	outputs_started(run);
	write_context(run);
	run->objects = objects_log_new("topology.xml", run->opt.sel.params, run->opt.sel.nparams,
				       run->opt.layout);
	snprintf(path, sizeof(path), "%s/topology.xml", run->run_dir);
	if (topo_export_xml(run->topo, path, err, sizeof(err)))
		run->write_failed = 1; /* said why; the run stops before measuring */
	snprintf(path, sizeof(path), "%s/topology_fp", run->run_dir);
	snprintf(fp, sizeof(fp), "%s\n", run->topology_fp);
	if (outfile_write_all(path, fp, strlen(fp)))
		run->write_failed = 1;
	latest_failed = link_latest(run); /* measured anyway; exit 1 at the end */
	if (pmu_absent_note(run->pmu)[0])
		warn_msg("counters: %s (those cells stay empty)", pmu_absent_note(run->pmu));
	run->total =
	    run->opt.independent ? run->nfams * run->opt.repetitions : run->planned_windows;
	run->t_first = now_s();

	return latest_failed;
}

/*
 * setup_families - each family's measurement (or its skipped rows), and its job for Google
 * Benchmark: the families registered with it under --design independent (returns how many).
 */
static int setup_families(struct measure_run *run)
{
	struct gb_family *gbf;
	struct job *jobs;
	int ngb = 0;

	gbf = run->gbf = xcalloc((size_t)run->nfams, sizeof(*gbf));
	jobs = run->jobs = xcalloc((size_t)run->nfams, sizeof(*jobs));
	for (int i = 0; i < run->nfams; i++) {
		struct family *f = &run->fams[i];
		char home[32] = "";

		jobs[i] = (struct job){run, f, NULL, 0};
		if (f->skip[0]) {
			/* blocks: one row says why (no block measured it) */
			int reps = run->opt.independent ? run->opt.repetitions : 1;

			if (f->pus)
				topo_home_name(&f->home, home, sizeof(home));
			for (int rep = 1; rep <= reps && !run->write_failed; rep++) {
				enum status st = f->skip_error ? ST_ERROR : ST_SKIPPED;

				write_row(run, f, rep, st, f->skip, NULL, home);
				progress(run, f, rep, st, f->skip);
			}
			continue;
		}
		set_current(run, f, 1); /* its model and state: a failure is its first row */
		if (run->opt.with_model)
			model_family(f, run->topo);
		f->m = xcalloc(1, sizeof(*f->m));
		meas_init(f->m, f->sc, f->cfg, run->topo, f->threads, f->pus, run->opt.time_s,
			  run->opt.time_s / 10, &f->home);
		meas_set_counters(f->m, run->pmu);
		if (run->opt.profile && run->prof.ok)
			meas_set_profile(f->m, &run->prof);
		/* blocks: a disturbed window is not measured again alone; its block is left out */
		meas_set_noise(f->m, run->opt.noise_max_pct / 100,
			       run->opt.independent ? run->opt.noise_retries : 0);
		meas_set_imbalance(f->m, run->opt.imbalance_min);
		set_current(run, NULL, 0);
		if (run->opt.independent)
			gbf[ngb++] = (struct gb_family){f->name, f->threads, &jobs[i]};
	}
	for (int t = 0; t < run->ntables; t++)
		for (int k = 0; k < run->tables[t].n; k++)
			jobs[run->tables[t].fam[k]].tb = &run->tables[t],
			jobs[run->tables[t].fam[k]].k = k;
	return ngb;
}

/*
 * more_line - the last line of a run that exits 5: "2 of 66 comparisons without a verdict
 * (too few clean blocks): run longer with --budget 180", the budget (or -r) scaled by the
 * worst comparison's clean blocks needed over obtained, a budget rounded up to 10 s.
 */
static void more_line(const struct measure_run *run, const struct run_verdicts *v)
{
	const struct options *o = &run->opt;

	printf("%d of %d comparisons without a verdict (too few %s): ", v->no_verdict, v->total,
	       v->paired ? "clean blocks" : "ok repetitions");
	if (!v->paired || o->reps_set)
		printf("run with -r %d\n", (int)ceil(o->repetitions * v->more));
	else
		printf("run longer with --budget %.0f\n", ceil(o->budget_s * v->more / 10) * 10);
}

/* end_run - the end of a measured run: context.json, the report, the exit status. */
static int end_run(struct measure_run *run, int latest_failed)
{
	struct run_verdicts v = {0};

	/* Measured: a reader going away now loses only messages (stdout is checked at exit). */
	signal(SIGPIPE, SIG_IGN);

	progress_end(run);
	machine_load_end(&run->machine);
	utc_now(run->ctx.end, sizeof(run->ctx.end));
	write_context(run);
	write_objects(run);
	if (close_outputs(run))
		run->write_failed = 1;
	/* The verdict: compare's report of this run, on stdout and into the run directory. */
	if (run->opt.matrix)
		print_matrix(run);
	else if (run->done && !run->write_failed && compare_run_report(run->run_dir, &v))
		run->write_failed = 1;
	printf("\nrun directory: %s (%d ok, %d error, %d skipped", run->run_dir_shown, run->ok,
	       run->errors, run->skipped);
	if (run->disturbed)
		printf(", %d disturbed", run->disturbed);
	printf(")\n");
	if (write_run_dir_file(run))
		run->write_failed = 1;
	/* 3 (above), then 1, then 5, then 4, then 0 */
	if (run->errors || run->write_failed || run->gb_failed || latest_failed)
		return 1;
	if (v.no_verdict > 0) {
		more_line(run, &v);
		return 5;
	}
	return run->ok || run->disturbed ? 0 : 4;
}

int measure_execute(struct measure_run *run)
{
	char err[PATH_MAX + 128];
	int ngb, latest_failed, st;

	if (run->opt.cgroup) {
		/* refused: exit 2 with nothing created; else the rest runs in a forked child */
		if (cg_check(&run->cg, run->opt.cgroup, err, sizeof(err)))
			usage_error("--cgroup", run->opt.cgroup, "%s", err);
		init_context(run);
		check_outputs(run, &run->opt);
		cg_enter(&run->cg);
	}
	init_context(run);
	for (int i = 0; i < run->nfams && !run->kctx.present; i++)
		if (run->fams[i].sc->flags & BENCH_KERNEL) {
			kernel_context_read(&run->kctx);
			run->ctx.real_kernel = run->kctx.json;
			if (run->opt.cgroup) /* its leaf: memcg.path is where this child is */
				json_object_set_new(json_object_get(run->kctx.json, "memcg"),
						    "pcbench_writes",
						    json_string("the hierarchy of --cgroup "
								"(options.cgroup: every write)"));
		}
	if (run->opt.profile) {
		profile_cfg_init(&run->prof, run->opt.time_s);
		warn_msg("--profile: %s%s%s", run->prof.plan.note,
			 run->prof.ks ? "" : "; kernel addresses unnamed: ", run->prof.ks_why);
	}
	run->ctx.options_json = options_json(run, &run->opt);
	check_machine(run, run->topo);
	/* the block order and the home pages: a fresh draw per run, not a statistic */
	run->seed = ((uint64_t)(now_s() * 1e9)) ^ ((uint64_t)getpid() << 32) ^ 0x9e3779b9;
	alloc_shuffle(!run->opt.home_reuse, splitmix64(&run->seed));
	latest_failed = begin_outputs(run);
	ngb = setup_families(run);
	if (!run->write_failed && !stop_requested) {
		if (run->opt.independent)
			gb_run(run, ngb, run->opt.repetitions);
		else
			run_blocks(run);
	}
	if (stop_requested) {
		run->ctx.interrupted = 1;
		utc_now(run->ctx.end, sizeof(run->ctx.end));
		write_context(run);
		write_objects(run);
		close_outputs(run);
		warn_msg("interrupted: %d of %d measurements kept in %s", run->done, run->total,
			 run->run_dir_shown);
		write_run_dir_file(run);
		outputs_unlock(run);
		return 3;
	}
	st = end_run(run, latest_failed);
	outputs_unlock(run);
	return st;
}
