// SPDX-License-Identifier: MIT
/*
 * outputs.c - the run directory and its files: choosing and making the directory, opening
 * results.csv, results.jsonl, the --csv file and profile.csv (their rows: rows.c) and
 * closing them; context.json's options and objects.json.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "outfile.h"
#include "outpath.h"
#include "run.h"
#include "util.h"
#include "work.h"

/* open_extra_csv - the --csv file, appended to only when its header is this run's. */
static struct csv_writer *open_extra_csv(struct measure_run *run, const char *path)
{
	char err[PATH_MAX + 256];
	struct csv_writer *w = csv_create(path, run->cols, run->ncols, 1, err, sizeof(err));

	if (!w)
		usage_error("--csv", path,
			    "%s (appending needs identical columns, and runs of other scenarios "
			    "or options have other param_* or event columns: write a new file, or "
			    "combine run directories with pcbench merge)",
			    err);
	return w;
}

/*
 * make_default_dir - results/<stamp>-<host or label>, made by this run: when another run
 * (started in the same second) made it first, the name gets -2, -3, ... (mkdir is atomic,
 * so two runs never share a directory).
 */
static void make_default_dir(struct measure_run *run)
{
	size_t len = strlen(run->run_dir);

	mkdir_p("results", "--out");
	for (int k = 2; mkdir(run->run_dir, 0755); k++) {
		if (errno != EEXIST || k > 1000)
			usage_error("--out", run->run_dir, "%s", strerror(errno));
		snprintf(run->run_dir + len, sizeof(run->run_dir) - len, "-%d", k);
	}
}

/*
 * The files a run creates in its directory (compare's report files are added from its
 * format table): each must be missing or a regular file there, checked before measuring.
 */
static const char *const run_files[] = {
    "results.csv",  "results.jsonl", "context.json", "objects.json",
    "topology.xml", "topology_fp",   "perf.data",    "profile.csv",
};

/* check_run_dir_files - every file the run will create in @dir may be created there. */
static void check_run_dir_files(const char *dir)
{
	enum { NRUN = sizeof(run_files) / sizeof(run_files[0]), MAXN = NRUN + 16 };
	const char *names[MAXN + 1];
	char err[PATH_MAX + 256];
	int n = 0;

	for (int i = 0; i < NRUN; i++)
		names[n++] = run_files[i];
	for (int i = 0; n < MAXN && compare_report_file(i); i++)
		names[n++] = compare_report_file(i);
	names[n] = NULL;
	if (outpath_check_dir(dir, names, err, sizeof(err)))
		usage_error("--out", dir, "%s", err);
}

void check_outputs(struct measure_run *run, const struct options *o)
{
	struct stat st;
	char path[PATH_MAX + 16], err[PATH_MAX + 128], stamp[32];

	if (o->out) {
		if (!o->out[0] || strlen(o->out) >= sizeof(run->run_dir))
			usage_error("--out", o->out, "%s",
				    strerror(o->out[0] ? ENAMETOOLONG : ENOENT));
		snprintf(run->run_dir, sizeof(run->run_dir), "%s", o->out);
		outpath_trim(run->run_dir); /* "-o r/" is the run "r" */
	} else {
		utc_now(stamp, sizeof(stamp));
		for (char *p = stamp; *p; p++)
			*p = *p == ':' ? '-' : *p;
		snprintf(run->run_dir, sizeof(run->run_dir), "results/%s-%s", stamp,
			 run->ctx.label[0] ? run->ctx.label : run->ctx.host);
	}
	check_run_dir_files(run->run_dir);
	snprintf(path, sizeof(path), "%s/results.csv", run->run_dir);
	if (o->out && !o->force && !stat(path, &st) && st.st_size > 0)
		usage_error("--out", run->run_dir,
			    "%s exists (choose a new run directory, or --force)", path);
	if (o->csv && csv_same_file(o->csv, path))
		usage_error("--csv", o->csv,
			    "is this run's own results file: every row would be written twice");
	if (o->csv && csv_check_new(o->csv, err, sizeof(err)))
		usage_error("--csv", o->csv, "%s", err);
	if (o->run_dir_file) {
		char rf[PATH_MAX + 16];

		if (outpath_check_file(o->run_dir_file, err, sizeof(err)))
			usage_error("--run-dir-file", o->run_dir_file, "%s", err);
		if (csv_same_file(o->run_dir_file, run->run_dir))
			usage_error("--run-dir-file", o->run_dir_file,
				    "is the run directory itself");
		for (size_t i = 0; i < sizeof(run_files) / sizeof(run_files[0]); i++) {
			snprintf(rf, sizeof(rf), "%s/%s", run->run_dir, run_files[i]);
			if (csv_same_file(o->run_dir_file, rf))
				usage_error("--run-dir-file", o->run_dir_file,
					    "is this run's own %s", run_files[i]);
		}
	}
}

void make_run_dir(struct measure_run *run, const struct options *o)
{
	const char *base;

	if (o->out)
		mkdir_p(run->run_dir, "--out");
	else
		make_default_dir(run);
	base = strrchr(run->run_dir, '/');
	snprintf(run->ctx.run_id, sizeof(run->ctx.run_id), "%.127s",
		 base && base[1] ? base + 1 : run->run_dir);
}

void open_outputs(struct measure_run *run, const struct options *o)
{
	struct stat st;
	int fd;
	char path[PATH_MAX + 16], err[PATH_MAX + 128];

	columns_build(run);
	/* Check what exists before creating anything, so that a refusal leaves no trace. */
	check_outputs(run, o);
	if (o->csv && !stat(o->csv, &st) && !(run->csv_extra = open_extra_csv(run, o->csv)))
		usage_error("--csv", o->csv, "cannot append");
	make_run_dir(run, o);
	snprintf(path, sizeof(path), "%s/results.csv", run->run_dir);
	if (o->force && unlink(path) && errno != ENOENT)
		usage_error("--force", path, "%s", strerror(errno));
	run->csv = csv_create(path, run->cols, run->ncols, CSV_INSIDE, err, sizeof(err));
	if (!run->csv)
		usage_error("--out", run->run_dir, "%s (choose a new run directory, or --force)",
			    err);
	snprintf(run->jsonl_path, sizeof(run->jsonl_path), "%s/results.jsonl", run->run_dir);
	fd = outpath_open_inside(run->jsonl_path, O_TRUNC, err, sizeof(err));
	if (fd < 0 || !(run->jsonl = fdopen(fd, "w")))
		usage_error("--out", run->jsonl_path, "%s", fd < 0 ? err : strerror(errno));
	if (o->csv && !run->csv_extra)
		run->csv_extra = open_extra_csv(run, o->csv);
	if (o->profile && run->prof.ok) {
		static const char *const pcols[] = {"scenario",	 "preset",  "layout",  "workload",
						    "placement", "threads", "home",    "repetition",
						    "event",	 "symbol",  "samples", "memcg"};

		snprintf(path, sizeof(path), "%s/profile.csv", run->run_dir);
		run->prof_csv = csv_create(path, pcols, PROF_NCOLS, CSV_INSIDE, err, sizeof(err));
		if (!run->prof_csv)
			usage_error("--out", path, "%s", err);
	}
	snprintf(run->context_path, sizeof(run->context_path), "%s/context.json", run->run_dir);
}

/*
 * work_json - the calibration of -D work=N, done here (once per run, before the first
 * measurement) when some family asks for work; null when none does.
 */
static json_t *work_json(struct measure_run *run)
{
	const struct work_cal *c;
	json_t *w, *trials;
	int any = 0;

	for (int i = 0; i < run->nfams; i++)
		any |= run->fams[i].cfg && bench_long(run->fams[i].cfg, "work") > 0;
	if (!any)
		return json_null();
	c = work_calibration();
	w = json_object();
	trials = json_array();
	json_object_set_new(w, "ns_per_iteration", json_real(c->ns_per_iter));
	json_object_set_new(w, "calibration_iterations", json_integer((json_int_t)c->iters));
	for (int k = 0; k < c->trials; k++)
		json_array_append_new(trials, json_real(c->trial_ns[k]));
	json_object_set_new(w, "trial_ns_per_iteration", trials);
	json_object_set_new(w, "calibration_s", json_real(c->seconds));
	json_object_set_new(
	    w, "method",
	    json_string("register-only loop on the unpinned main thread, median "
			"of the trials; iterations = round(work / ns_per_iteration)"));
	return w;
}

/*
 * layouts_json - each layout the families use, once: name, fingerprint, source, desc; for a
 * layout read from BTF also its path and the kernel release of this run (the running
 * kernel is the one /sys/kernel/btf/vmlinux describes).
 */
static json_t *layouts_json(struct measure_run *run)
{
	json_t *a = json_array();

	for (int i = 0; i < run->nfams; i++) {
		const struct layout *l = cfg_layout(run->fams[i].cfg);
		int dup = 0;
		json_t *o;

		for (int k = 0; l && k < i; k++)
			dup |= cfg_layout(run->fams[k].cfg) == l;
		if (!l || dup)
			continue;
		o = json_object();
		json_object_set_new(o, "name", json_string(l->name));
		json_object_set_new(o, "fingerprint", json_string(run->fams[i].layout_fp));
		json_object_set_new(o, "source", json_string(l->source));
		json_object_set_new(o, "desc", json_string(l->desc));
		if (!strncmp(l->source, "btf:", 4)) {
			struct utsname u;
			json_t *b = json_object();

			json_object_set_new(b, "path", json_string(l->source + 4));
			json_object_set_new(b, "kernel_release",
					    json_string(uname(&u) ? "" : u.release));
			json_object_set_new(o, "btf", b);
		}
		json_array_append_new(a, o);
	}
	return a;
}

char *options_json(struct measure_run *run, const struct options *o)
{
	json_t *j = json_object(), *params = json_array();
	char *s;

	json_object_set_new(j, "scenario",
			    o->sel.scenarios ? json_string(o->sel.scenarios) : json_null());
	json_object_set_new(j, "preset",
			    o->sel.presets ? json_string(o->sel.presets) : json_null());
	json_object_set_new(j, "workload",
			    o->sel.workloads ? json_string(o->sel.workloads) : json_null());
	json_object_set_new(j, "threads", json_string(o->sel.threads));
	json_object_set_new(j, "placement", json_string(o->sel.placement));
	json_object_set_new(j, "topology", json_string(o->sel.topology));
	json_object_set_new(j, "topology_fp", json_string(run->topology_fp));
	json_object_set_new(j, "home", json_string(o->home));
	json_object_set_new(j, "home_pages", json_string(o->home_reuse ? "reuse" : "shuffle"));
	json_object_set_new(j, "time_s", json_real(o->time_s));
	json_object_set_new(j, "warmup_s", json_real(o->time_s / 10));
	json_object_set_new(j, "repetitions", json_integer(o->repetitions));
	json_object_set_new(j, "design", json_string(o->independent ? "independent" : "blocks"));
	if (!o->independent) {
		json_object_set_new(j, "precision", json_real(o->precision));
		json_object_set_new(j, "budget_s", json_real(o->budget_s));
		json_object_set_new(j, "max_blocks", json_integer(o->max_blocks));
		json_object_set_new(j, "blocks_fixed",
				    o->reps_set ? json_integer(o->repetitions) : json_null());
		json_object_set_new(j, "planned_windows", json_integer(run->planned_windows));
		json_object_set_new(j, "min_windows", json_integer(run->min_windows));
	}
	json_object_set_new(j, "noise_max_pct",
			    isinf(o->noise_max_pct) ? json_null() : json_real(o->noise_max_pct));
	json_object_set_new(j, "noise_retries", json_integer(o->noise_retries));
	json_object_set_new(j, "imbalance_min", json_real(o->imbalance_min));
	for (int i = 0; i < o->sel.nparams; i++)
		json_array_append_new(params, json_string(o->sel.params[i]));
	json_object_set_new(j, "param", params);
	json_object_set_new(j, "counters", pmu_set_json(run->pmu));
	json_object_set_new(j, "work_calibration", work_json(run));
	json_object_set_new(j, "layouts", layouts_json(run));
	if (o->cgroup)
		json_object_set_new(j, "cgroup", cg_json(&run->cg));
	if (o->profile)
		json_object_set_new(j, "profile",
				    json_pack("{s:s?, s:s, s:s?}", "event",
					      run->prof.ok ? run->prof.plan.event : NULL, "note",
					      run->prof.plan.note, "kallsyms",
					      run->prof.ks ? NULL : run->prof.ks_why));
	s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(j);
	return s;
}

/* close_csv - close @w (a header-only file it created is removed); message on failure. */
static int close_csv(struct measure_run *run, struct csv_writer *w)
{
	char *path = w ? xstrdup(csv_path(w)) : NULL;
	int failed = w && run->write_failed, ret = csv_close_or_remove(w);

	if (ret && !failed) /* a failed row was reported when it happened */
		fprintf(stderr, "pcbench: %s: %s\n", path, strerror(errno));
	free(path);
	return ret;
}

int close_outputs(struct measure_run *run)
{
	int bad = close_csv(run, run->csv) | close_csv(run, run->csv_extra) |
		  close_csv(run, run->prof_csv);
	/* The same rows as results.csv: synced the same way before success is reported, and
	 * like it removed when it got no row (no empty file claims a run's rows). */
	int empty = run->jsonl && ftello(run->jsonl) == 0;
	int e = run->jsonl ? outfile_fclose_sync(run->jsonl) : 0;

	if (empty && !e)
		unlink(run->jsonl_path);
	if (e) {
		if (!run->write_failed) /* a failed row was reported when it happened */
			fprintf(stderr, "pcbench: %s: %s\n", run->jsonl_path, strerror(e));
		bad = -1;
	}
	run->csv = run->csv_extra = run->prof_csv = NULL;
	run->jsonl = NULL;
	return bad ? -1 : 0;
}

void write_context(struct measure_run *run)
{
	char err[PATH_MAX + 128];

	if (!context_write(&run->ctx, run->context_path, err, sizeof(err)))
		return;
	fprintf(stderr, "pcbench: %s\n", err);
	run->write_failed = 1; /* the run's record is not on disk: exit 1 */
}

/* write_objects - objects.json (objects.h); a failed write fails the run. */
void write_objects(struct measure_run *run)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/objects.json", run->run_dir);
	if (run->objects && objects_log_write(run->objects, path))
		run->write_failed = 1;
}
