// SPDX-License-Identifier: MIT
/* rows.c - results.csv: its columns and one row per measurement; context.json. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmu_events.h"
#include "run.h"
#include "util.h"

/* open_extra_csv - the --csv file, appended to only when its header is this run's. */
static struct csv_writer *open_extra_csv(const char *path)
{
	char err[PATH_MAX + 256];
	struct csv_writer *w = csv_create(path, run.cols, run.ncols, 1, err, sizeof(err));

	if (!w)
		usage_error("--csv", path, "%s", err);
	return w;
}

void open_outputs(const struct options *o)
{
	struct stat st;
	char path[PATH_MAX + 16], err[PATH_MAX + 128], stamp[32];
	const char *base;

	if (o->out) {
		snprintf(run.run_dir, sizeof(run.run_dir), "%s", o->out);
	} else {
		utc_now(stamp, sizeof(stamp));
		for (char *p = stamp; *p; p++)
			*p = *p == ':' ? '-' : *p;
		snprintf(run.run_dir, sizeof(run.run_dir), "results/%s-%s", stamp, run.ctx.host);
	}
	base = strrchr(run.run_dir, '/');
	snprintf(run.ctx.run_id, sizeof(run.ctx.run_id), "%.127s",
		 base && base[1] ? base + 1 : run.run_dir);

	run.ncols = 0;
	for (int i = 0; i < RESULTS_NREQ; i++)
		run.cols[run.ncols++] = results_required[i];
	for (int i = 0; i < NBASE - RESULTS_NREQ; i++)
		run.cols[run.ncols++] = extra_cols[i];
	if (o->matrix) {
		run.cols[run.ncols++] = "cpu_a";
		run.cols[run.ncols++] = "cpu_b";
		run.cols[run.ncols++] = "ns_per_transfer";
	}
	for (int i = 0; i < run.nparam_cols; i++) {
		char *c = xmalloc(strlen(run.param_cols[i]) + 7);

		sprintf(c, "param_%s", run.param_cols[i]);
		run.cols[run.ncols++] = c;
	}
	for (int i = 0; i < run.nev_cols; i++) {
		static const char *const suffix[] = {"_per_op", "_mux", "_min_thread_per_op",
						     "_max_thread_per_op"};

		for (int k = 0; k < 4; k++) {
			char *c = xmalloc(strlen(run.ev_cols[i]) + 24);

			sprintf(c, "%s%s", run.ev_cols[i], suffix[k]);
			run.cols[run.ncols++] = c;
		}
	}
	run.cols[run.ncols++] = "counters_note";
	for (int i = 0; o->with_model && i < MODEL_NCOLS; i++)
		run.cols[run.ncols++] = model_csv_cols[i];
	/* Check what exists before creating anything, so that a refusal leaves no trace. */
	snprintf(path, sizeof(path), "%s/results.csv", run.run_dir);
	if (!o->force && !stat(path, &st) && st.st_size > 0)
		usage_error("--out", run.run_dir,
			    "%s exists (choose a new run directory, or --force)", path);
	if (o->csv && !stat(o->csv, &st) && !(run.csv_extra = open_extra_csv(o->csv)))
		usage_error("--csv", o->csv, "cannot append");
	mkdir_p(run.run_dir, "--out");
	if (o->force && unlink(path) && errno != ENOENT)
		usage_error("--force", path, "%s", strerror(errno));
	run.csv = csv_create(path, run.cols, run.ncols, 0, err, sizeof(err));
	if (!run.csv)
		usage_error("--out", run.run_dir, "%s (choose a new run directory, or --force)",
			    err);
	if (o->csv && !run.csv_extra)
		run.csv_extra = open_extra_csv(o->csv);
	snprintf(run.context_path, sizeof(run.context_path), "%s/context.json", run.run_dir);
}

char *options_json(const struct options *o)
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
	json_object_set_new(j, "topology_fp", json_string(run.topology_fp));
	json_object_set_new(j, "home", json_string(o->home));
	json_object_set_new(j, "time_s", json_real(o->time_s));
	json_object_set_new(j, "warmup_s", json_real(o->time_s / 10));
	json_object_set_new(j, "repetitions", json_integer(o->repetitions));
	for (int i = 0; i < o->sel.nparams; i++)
		json_array_append_new(params, json_string(o->sel.params[i]));
	json_object_set_new(j, "param", params);
	s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(j);
	return s;
}

void write_context(void)
{
	char err[PATH_MAX + 128];

	if (context_write(&run.ctx, run.context_path, err, sizeof(err)))
		fprintf(stderr, "pcbench: context.json: %s\n", err);
}

/*
 * counter_cells - the four cells of every event column from @r (NULL: all empty) into
 * @v[k...] using @cells for the text; the row's counters_note into @note. Returns the next k.
 * An event that is absent on any thread stays empty, never zero.
 */
static int counter_cells(const char **v, int k, const struct meas_result *r, char (*cells)[32],
			 char *note, size_t len)
{
	size_t used = (size_t)snprintf(note, len, "%s", run.pmu ? pmu_absent_note(run.pmu) : "");

	if (run.unmapped_note[0] && used < len)
		used += (size_t)snprintf(note + used, len - used, "%s%s", used ? "; " : "",
					 run.unmapped_note);
	for (int i = 0; i < run.nev_cols; i++) {
		const struct meas_event *e =
		    r && r->ev && run.ev_index[i] >= 0 ? &r->ev[run.ev_index[i]] : NULL;
		char(*c)[32] = &cells[4 * i];

		for (int j = 0; j < 4; j++)
			c[j][0] = '\0';
		if (e && e->present) {
			fmt_double(c[0], 32, e->per_op);
			fmt_double(c[1], 32, e->mux);
			fmt_double(c[2], 32, e->min_per_op);
			fmt_double(c[3], 32, e->max_per_op);
		} else if (e && e->absent_threads && used < len &&
			   !strstr(pmu_absent_note(run.pmu), run.ev_cols[i])) {
			used += (size_t)snprintf(
			    note + used, len - used, "%s%s: not counted on %d of the threads",
			    used ? "; " : "", run.ev_cols[i], e->absent_threads);
		}
		for (int j = 0; j < 4; j++)
			v[k++] = c[j];
	}
	return k;
}

/* event_columns - every abstract event, then the set's other events (libpfm strings). */
void event_columns(const struct options *o)
{
	const char *a;
	size_t used = 0;

	for (int i = 0; (a = pmu_table_abstract(i)) && run.nev_cols < 64; i++)
		run.ev_cols[run.nev_cols++] = a;
	for (int j = 0; j < pmu_nevents(run.pmu) && run.nev_cols < 64; j++) {
		int dup = 0;

		for (int i = 0; i < run.nev_cols; i++)
			dup |= !strcmp(run.ev_cols[i], pmu_event_name(run.pmu, j));
		if (!dup)
			run.ev_cols[run.nev_cols++] = pmu_event_name(run.pmu, j);
	}
	for (int i = 0; i < run.nev_cols; i++) {
		run.ev_index[i] = -1;
		for (int j = 0; j < pmu_nevents(run.pmu); j++)
			if (!strcmp(run.ev_cols[i], pmu_event_name(run.pmu, j)))
				run.ev_index[i] = j;
		if (run.ev_index[i] < 0 && !strcmp(o->events, "auto") &&
		    used < sizeof(run.unmapped_note) - 80)
			used += (size_t)snprintf(run.unmapped_note + used,
						 sizeof(run.unmapped_note) - used, "%s%s",
						 used ? "," : "", run.ev_cols[i]);
	}
	if (used)
		snprintf(run.unmapped_note + used, sizeof(run.unmapped_note) - used,
			 ": no mapping for this PMU");
	else if (!strcmp(o->events, "none"))
		snprintf(run.unmapped_note, sizeof(run.unmapped_note),
			 "counters off (--events none)");
}

/* write_row - one CSV row for repetition @rep of @f (r is NULL for skipped rows). */
void write_row(const struct family *f, int rep, enum status st, const char *reason,
	       const struct meas_result *r, const char *home)
{
	char num[9][40], (*cells)[32] = xcalloc((size_t)run.nev_cols * 4 + 1, 32), note[2048];
	char mx[3][40];
	const char **v = xcalloc((size_t)run.ncols, sizeof(char *));
	int k = 0;

	snprintf(num[0], sizeof(num[0]), "%d", f->threads);
	snprintf(num[1], sizeof(num[1]), "%d", rep);
	for (int i = 2; i < 9; i++)
		num[i][0] = '\0';
	if (st == ST_OK) {
		fmt_double(num[2], sizeof(num[2]), r->duration_s);
		snprintf(num[3], sizeof(num[3]), "%llu", (unsigned long long)r->ops);
		fmt_double(num[4], sizeof(num[4]), (double)r->ops / r->duration_s);
		fmt_double(num[5], sizeof(num[5]),
			   r->duration_s * 1e9 * f->threads / (double)r->ops);
		snprintf(num[6], sizeof(num[6]), "%llu", (unsigned long long)r->ops_min);
		snprintf(num[7], sizeof(num[7]), "%llu", (unsigned long long)r->ops_max);
	}
	fmt_double(num[8], sizeof(num[8]), run.opt.time_s);
	v[k++] = run.ctx.run_id;
	v[k++] = f->sc->name;
	v[k++] = f->preset->name;
	v[k++] = cfg_layout_name(f->cfg);
	v[k++] = f->wl->name;
	v[k++] = num[0];
	v[k++] = f->placement;
	v[k++] = f->cpus ? f->cpus : "";
	v[k++] = num[1];
	v[k++] = num[2];
	v[k++] = num[3];
	v[k++] = num[4];
	v[k++] = num[5];
	v[k++] = num[6];
	v[k++] = num[7];
	v[k++] = status_names[st];
	v[k++] = reason;
	v[k++] = run.ctx.host;
	v[k++] = num[8];
	v[k++] = home;
	v[k++] = run.topology_fp;
	v[k++] = f->layout_fp;
	v[k++] = f->pus && f->threads >= 2
		     ? topo_pair_names[topo_pair_class(run.topo, f->pus[0], f->pus[1])]
		     : "";
	if (run.opt.matrix) {
		snprintf(mx[0], sizeof(mx[0]), "%d", f->pus[0]);
		snprintf(mx[1], sizeof(mx[1]), "%d", f->pus[f->threads - 1]);
		mx[2][0] = '\0';
		if (st == ST_OK)
			fmt_double(mx[2], sizeof(mx[2]), r->duration_s * 1e9 / (double)r->ops);
		for (int i = 0; i < 3; i++)
			v[k++] = mx[i];
	}
	for (int i = 0; i < run.nparam_cols; i++, k++)
		for (int j = 0; f->sc->params[j].name; j++)
			if (!strcmp(f->sc->params[j].name, run.param_cols[i]))
				v[k] = cfg_value(f->cfg, j);
	k = counter_cells(v, k, st == ST_OK ? r : NULL, cells, note, sizeof(note));
	v[k++] = note;
	for (int i = 0; run.opt.with_model && i < MODEL_NCOLS; i++)
		v[k++] = f->model ? f->model[i] : "";

	for (int i = 0; i < 2; i++) {
		struct csv_writer *w = i ? run.csv_extra : run.csv;

		if (w && !run.write_failed && csv_write_row(w, v)) {
			fprintf(stderr,
				"pcbench: write: %s: %s: stopping; the rows already written "
				"are intact\n",
				csv_path(w), strerror(errno));
			run.write_failed = 1;
		}
	}
	free(v);
	free(cells);
	report_add(run.report, f, st, st == ST_OK ? (double)r->ops / r->duration_s : 0);
	run.done++;
	run.ok += st == ST_OK;
	run.errors += st == ST_ERROR;
	run.skipped += st == ST_SKIPPED;
}

void progress(const struct family *f, int rep, enum status st, const char *what)
{
	double elapsed = now_s() - run.t_first;
	int left = run.total - run.done;
	double eta = run.done ? elapsed / run.done * left : 0;

	fprintf(stderr, "[%d/%d] %s rep %d/%d: %s  ETA %dm%02ds\n", run.done, run.total, f->name,
		rep, run.opt.repetitions, st == ST_OK ? what : status_names[st], (int)eta / 60,
		(int)eta % 60);
}

/* home_cell - the `home` column: the NUMA nodes that held the shared state, as verified. */
void home_cell(const struct family *f, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (!f->pus)
		return;
	if (!f->m.home_known || !f->m.home_nodes) {
		topo_home_name(&f->home, buf, len); /* the OS could not tell: as planned */
		return;
	}
	for (int i = 0; i < 64 && used + 4 < len; i++)
		if (f->m.home_nodes & (1ULL << i))
			used +=
			    (size_t)snprintf(buf + used, len - used, "%s%d", used ? ";" : "", i);
}
