// SPDX-License-Identifier: MIT
/*
 * outputs.c - the run directory and its files: choosing and making the directory, opening
 * results.csv, results.jsonl, the --csv file and profile.csv (their rows: rows.c) and
 * closing them; context.json's options and objects.json.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/utsname.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare_run.h"
#include "esc.h"
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

/* The default run directories' parent (a name outfile_track keeps). */
static char results[] = "results";

/*
 * make_default_dir - results/<stamp>-<host or label>, made by this run: when another run
 * (started in the same second) made it first, the name gets -2, -3, ... (mkdir is atomic,
 * so two runs never share a directory).
 */
static void make_default_dir(struct measure_run *run)
{
	size_t len = strlen(run->run_dir);
	struct stat st;

	if (stat(results, &st)) /* made here: removed (when empty) by a refusal */
		outfile_track(results, 1);
	mkdir_p(results, "--out");
	for (int k = 2; mkdir(run->run_dir, 0755); k++) {
		if (errno != EEXIST || k > 1000)
			usage_error("--out", run->run_dir, "%s", strerror(errno));
		snprintf(run->run_dir + len, sizeof(run->run_dir) - len, "-%d", k);
	}
	outfile_track(run->run_dir, 1);
}

/*
 * The files a run creates in its directory (compare's report files are added from its
 * format table): each must be missing or a regular file there, checked before measuring.
 * RUN_LOCK is the lock a live run holds (lock_run_dir).
 */
#define RUN_LOCK "run.lock"
static const char *const run_files[] = {
    "results.csv", "results.jsonl", "context.json", "objects.json", "topology.xml",
    "topology_fp", "perf.data",	    "profile.csv",  RUN_LOCK,
};

/* The plots `make run` and `pcbench plot RUN` write into a run directory (plot.h). */
static const char *const run_plot_files[] = {"*.png", "*.gp", "*.dat"};

/*
 * run_own_file - the name of the run directory's own file that @path (an output the user
 * names) would be: one of run_files, compare's report files or the plots; else NULL.
 */
static const char *run_own_file(const char *run_dir, const char *path)
{
	static char name[256];
	char *p = outpath_resolve(path), *d = realpath(run_dir, NULL), *slash;
	const char *own = NULL;

	slash = p ? strrchr(p, '/') : NULL;
	if (d && slash && (size_t)(slash - p) == strlen(d) && !strncmp(p, d, strlen(d))) {
		snprintf(name, sizeof(name), "%s", slash + 1);
		for (size_t i = 0; !own && i < sizeof(run_files) / sizeof(run_files[0]); i++)
			own = strcmp(name, run_files[i]) ? NULL : name;
		for (int i = 0; !own && compare_report_file(i); i++)
			own = strcmp(name, compare_report_file(i)) ? NULL : name;
		for (size_t i = 0; !own && i < sizeof(run_plot_files) / sizeof(run_plot_files[0]);
		     i++)
			own = fnmatch(run_plot_files[i], name, 0) ? NULL : name;
	}
	free(p);
	free(d);
	return own;
}

/*
 * latest_dir - results/latest is this run's (its directory is under ./results/: the
 * default, or -o results/NAME; a run elsewhere leaves results/ alone): 1, else 0.
 */
static int latest_dir(const struct measure_run *run)
{
	char *dir = outpath_resolve(run->run_dir), *res = realpath(results, NULL);
	size_t n = res ? strlen(res) : 0;
	int mine = dir && res && !strncmp(dir, res, n) && dir[n] == '/';

	free(dir);
	free(res);
	return mine;
}

/* latest_check - results/latest is missing or a symlink (never replace anything else). */
static int latest_check(char *err, size_t errlen)
{
	struct stat st;

	if (lstat("results/latest", &st) || S_ISLNK(st.st_mode))
		return 0;
	set_err(err, errlen,
		"results/latest: not a symbolic link (pcbench links the newest run there and "
		"replaces nothing else: move it away)");
	return -1;
}

int link_latest(struct measure_run *run)
{
	char dir[PATH_MAX], res[PATH_MAX], err[256];
	size_t n;

	if (!latest_dir(run) || !realpath(run->run_dir, dir) || !realpath(results, res))
		return 0;
	n = strlen(res);
	if (latest_check(err, sizeof(err))) { /* made since the check before measuring */
		warn_msg("%s", err);
		return -1;
	}
	unlink("results/latest.tmp");
	if (symlink(dir + n + 1, "results/latest.tmp") ||
	    rename("results/latest.tmp", "results/latest")) {
		warn_msg("results/latest: %s", strerror(errno));
		unlink("results/latest.tmp");
		return -1; /* an output that could not be written: exit 1 */
	}
	return 0;
}

/*
 * check_named_file - @path, the output file of option @opt: writable (outpath_check_file)
 * and not the run directory itself or one of its own files. Exit 2 naming it otherwise.
 */
static void check_named_file(const struct measure_run *run, const char *opt, const char *path)
{
	char err[PATH_MAX + 128];
	const char *own;

	if (outpath_check_file(path, err, sizeof(err)))
		usage_error(opt, path, "%s", err);
	if (csv_same_file(path, run->run_dir))
		usage_error(opt, path, "is the run directory itself");
	own = run_own_file(run->run_dir, path);
	if (own)
		usage_error(opt, path, "is this run's own %s", own);
}

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
	const char *base;

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
	base = strrchr(run->run_dir, '/');
	base = base && base[1] ? base + 1 : run->run_dir;
	if (strcmp(base, "/") && outpath_name_check(base, err, sizeof(err)))
		usage_error("--out", run->run_dir,
			    "its name %s is the run_id, which names files (merge): %s", base, err);
	if (latest_dir(run) && latest_check(err, sizeof(err)))
		usage_error("--out", run->run_dir, "%s", err);
	snprintf(path, sizeof(path), "%s/results.csv", run->run_dir);
	if (o->out && !o->force && !stat(path, &st) && st.st_size > 0)
		usage_error("--out", run->run_dir,
			    "%s exists (choose a new run directory, or --force)", path);
	if (o->csv && csv_same_file(o->csv, path))
		usage_error("--csv", o->csv,
			    "is this run's own results file: every row would be written twice");
	if (o->csv && csv_check_new(o->csv, err, sizeof(err)))
		usage_error("--csv", o->csv, "%s", err);
	if (o->csv)
		check_named_file(run, "--csv", o->csv);
	if (o->run_dir_file)
		check_named_file(run, "--run-dir-file", o->run_dir_file);
	if (o->gb_out)
		check_named_file(run, "--benchmark_out", o->gb_out);
}

void make_run_dir(struct measure_run *run, const struct options *o)
{
	const char *base;

	struct stat st;

	if (o->out && stat(run->run_dir, &st)) /* made here: removed (when empty) by a refusal */
		outfile_track(run->run_dir, 1);
	if (o->out)
		mkdir_p(run->run_dir, "--out");
	else
		make_default_dir(run);
	base = strrchr(run->run_dir, '/');
	snprintf(run->ctx.run_id, sizeof(run->ctx.run_id), "%.127s",
		 base && base[1] ? base + 1 : run->run_dir);
	run->run_dir_shown = esc_text(run->run_dir);
}

/*
 * lock_run_dir - hold the run directory's lock (RUN_LOCK, flock) until the run ends: a run
 * into a directory another live run holds (--force) is refused, exit 2, before it removes
 * or writes anything there. The lock file is removed when the run ends (outputs_unlock);
 * one left by a killed run is taken over (its flock went with its process).
 */
static void lock_run_dir(struct measure_run *run)
{
	char err[PATH_MAX + 128];
	struct stat a, b;

	snprintf(run->lock_path, sizeof(run->lock_path), "%s/" RUN_LOCK, run->run_dir);
	for (int tries = 0;; tries++) {
		int made = lstat(run->lock_path, &a) != 0;
		int fd = outpath_open_inside(run->lock_path, 0, err, sizeof(err));

		if (fd < 0)
			usage_error("--out", run->run_dir, "%s", err);
		if (made)
			outfile_track(run->lock_path, 1); /* a refusal removes it */
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;

			close(fd);
			usage_error(
			    "--out", run->run_dir, "%s",
			    e == EWOULDBLOCK
				? "another pcbench run is writing into it (it holds " RUN_LOCK
				  "): choose another run directory"
				: strerror(e));
		}
		/* still the lock file of that name (not one an ending run just removed)? */
		if (!fstat(fd, &a) && !lstat(run->lock_path, &b) && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev) {
			run->lock_fd = fd;
			return;
		}
		close(fd);
		if (tries == 10)
			usage_error("--out", run->lock_path, "keeps being replaced");
	}
}

void outputs_unlock(struct measure_run *run)
{
	if (run->lock_fd <= 0)
		return;
	unlink(run->lock_path);
	close(run->lock_fd);
	run->lock_fd = 0;
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
	lock_run_dir(run);
	snprintf(path, sizeof(path), "%s/results.csv", run->run_dir);
	if (o->force && unlink(path) && errno != ENOENT)
		usage_error("--force", path, "%s", strerror(errno));
	run->csv = csv_create(path, run->cols, run->ncols, CSV_INSIDE, err, sizeof(err));
	if (!run->csv)
		usage_error("--out", run->run_dir, "%s (choose a new run directory, or --force)",
			    err);
	snprintf(run->jsonl_path, sizeof(run->jsonl_path), "%s/results.jsonl", run->run_dir);
	fd = outpath_open_inside(run->jsonl_path, O_TRUNC, err, sizeof(err));
	if (fd >= 0) /* empty until the first row: removed by a refusal (begin_run_files) */
		outfile_track(run->jsonl_path, 1);
	if (fd < 0 || !(run->jsonl = fdopen(fd, "w")))
		usage_error("--out", run->jsonl_path, "%s", fd < 0 ? err : strerror(errno));
	if (o->csv && !run->csv_extra)
		run->csv_extra = open_extra_csv(run, o->csv);
	if (o->profile && run->prof.ok) {
		snprintf(path, sizeof(path), "%s/profile.csv", run->run_dir);
		run->prof_csv = csv_create(path, results_profile_cols, PROF_NCOLS, CSV_INSIDE, err,
					   sizeof(err));
		if (!run->prof_csv)
			usage_error("--out", path, "%s", err);
	}
	snprintf(run->context_path, sizeof(run->context_path), "%s/context.json", run->run_dir);
}

void outputs_started(struct measure_run *run)
{
	outfile_track(run->lock_path, 0);
	outfile_track(run->jsonl_path, 0);
	outfile_track(run->run_dir, 0);
	outfile_track(results, 0);
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
		warn_msg("%s: %s", path, strerror(errno));
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
			warn_msg("%s: %s", run->jsonl_path, strerror(e));
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
	warn_msg("%s", err);
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
