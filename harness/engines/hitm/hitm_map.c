// SPDX-License-Identifier: MIT
/*
 * hitm_map.c - a hitm run's samples, read and mapped: perf script text (a file, stdin, or
 * `perf script` run on the run's perf.data) line by line (hitm_script.c), each sample
 * placed in its measured window, object and field through objects.json's layouts
 * (hitm_objects.c). The library `hitm report` (per field, line and cache line) and
 * `layout suggest --hitm` (per CPU and field) read runs with.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitm.h"
#include "infile.h"
#include "run_command.h"
#include "util.h"

void hitm_locate(const struct hitm_run *r, const struct hitm_sample *s, struct hitm_hit *h)
{
	memset(h, 0, sizeof(*h));
	h->obj = -1;
	for (int i = 0; i < r->nw && !h->w; i++)
		if (r->w[i].ok && s->time_ns >= r->w[i].start_ns && s->time_ns <= r->w[i].end_ns)
			h->w = &r->w[i];
	for (int i = 0; h->w && i < h->w->nobjs; i++) {
		const struct hitm_object *o = &h->w->objs[i];

		if (s->addr < o->base || s->addr - o->base >= o->size)
			continue;
		h->obj = i;
		h->off = s->addr - o->base;
		h->leaf = layout_leaf_at(o->leaves, o->nleaves, (size_t)h->off);
		return;
	}
}

/* read_stream - every line of @in: each readable sample located and passed to @fn. */
static void read_stream(const struct hitm_run *r, FILE *in, struct hitm_read_stats *st,
			hitm_hit_fn fn, void *ctx)
{
	char *line = NULL;
	size_t cap = 0;
	struct hitm_sample s;
	struct hitm_hit h;

	while (getline(&line, &cap, in) > 0) {
		int k = hitm_parse_line(line, &s);

		st->lines++;
		st->sample_lines += k != 0;
		if (k < 0) {
			st->unreadable++;
			continue;
		}
		if (!k)
			continue;
		st->samples++;
		hitm_locate(r, &s, &h);
		st->outside_windows += !h.w;
		fn(ctx, &s, &h);
	}
	free(line);
}

/*
 * perf_script - run perf script on @data (with the cpu field when @cpu; perf's complaints
 * then are captured and dropped) and read its output; exit status of perf, 127 when there
 * is no perf binary (said on stderr).
 */
static int perf_script(const char *who, const char *data, int cpu, const struct hitm_run *r,
		       struct hitm_read_stats *st, hitm_hit_fn fn, void *ctx)
{
	char *argv[] = {"perf",
			"script",
			"-i",
			(char *)data,
			"--ns",
			"-F",
			cpu ? "tid,cpu,time,event,addr,data_src" : "tid,time,event,addr,data_src",
			NULL};
	struct run_cmd c = {.argv = argv, .out = RUN_PIPE, .err = cpu ? RUN_CAPTURE : RUN_INHERIT};
	char why[PATH_MAX + 128];
	FILE *in;

	/* a signal that ends us ends perf script too (run_command.h) */
	if (run_start(&c, why, sizeof(why))) {
		if (c.spawn_errno != ENOENT && c.spawn_errno != EACCES)
			die(who, "perf", "%s", strerror(c.spawn_errno));
		warn_msg("%s: no perf binary: perf: %s (Debian linux-perf, Fedora perf)", who,
			 strerror(c.spawn_errno));
		return 127;
	}
	in = fdopen(c.out_fd, "r");
	if (!in)
		die(who, "pipe", "%s", strerror(errno));
	read_stream(r, in, st, fn, ctx);
	fclose(in);
	c.out_fd = -1; /* closed with in */
	if (run_finish(&c, why, sizeof(why))) {
		run_cmd_free(&c);
		return -1;
	}
	run_cmd_free(&c);
	return run_exit_code(c.status);
}

int hitm_samples(const char *who, const char *dir, const char *script, const struct hitm_run *r,
		 struct hitm_read_stats *st, hitm_hit_fn fn, void *ctx)
{
	char err[PATH_MAX + 256], path[PATH_MAX + 16];
	FILE *in;

	memset(st, 0, sizeof(*st));
	if (!script) {
		int ps;

		snprintf(path, sizeof(path), "%s/perf.data", dir);
		{ /* a FIFO or a device would keep perf script (and us) waiting (infile.h) */
			FILE *f = infile_open(path, 0, "perf.data", err, sizeof(err));

			if (!f)
				usage_error(who, path,
					    "%s (record with pcbench hitm record, or give --script "
					    "FILE)",
					    err);
			fclose(f);
		}
		/* the CPU of each sample, unless perf.data has none (perf then refuses -F cpu) */
		ps = perf_script(who, path, 1, r, st, fn, ctx);
		if (ps && ps != 127 && !st->lines)
			ps = perf_script(who, path, 0, r, st, fn, ctx);
		return ps;
	}
	in = strcmp(script, "-") ? infile_open(script, 0, "perf script output", err, sizeof(err))
				 : stdin;
	if (!in)
		usage_error(who, "--script", "%s", err);
	read_stream(r, in, st, fn, ctx);
	if (in != stdin)
		fclose(in);
	if (!st->sample_lines) /* /etc/passwd is not perf script output */
		usage_error(who, script,
			    "no perf sample line in it (%ld lines; expected the output of "
			    "perf script -F tid,cpu,time,event,addr,data_src)",
			    st->lines);
	return 0;
}
