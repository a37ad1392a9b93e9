// SPDX-License-Identifier: MIT
/*
 * compare.c - the compare engine: the comparison of runs built (loaded, grouped, compared,
 * judged), its report printed and written, the run's closing report, one run's comparison
 * for plot. `pcbench compare` (commands/cmd_compare.c) parses the options and calls it;
 * measure's end of a run calls compare_run_report.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_run.h"
#include "outfile.h"
#include "outpath.h"

void compare_options_init(struct cmp_options *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->min_change = 1;
	o->fmt = &compare_formats[0];
}

void compare_check_out_dir(const char *dir)
{
	const char *names[16];
	char err[PATH_MAX + 256];
	int n = 0;

	while (n < 15 && compare_report_file(n))
		names[n] = compare_report_file(n), n++;
	names[n] = NULL;
	if (outpath_check_dir(dir, names, err, sizeof(err)))
		usage_error("--out", dir, "%s", err);
}

/*
 * The state of one comparison. File-scope, so that what it owns stays reachable until the
 * process exits (pcbench compare is a one-shot command; nothing is freed piecemeal).
 */
static struct compare state;
static struct header header;

/*
 * write_files - every format with a file, into @dir, through the checked output path
 * (lib/outfile.h: whole or not at all); then one line on stdout saying where they are.
 * Returns 0, or 1 when a file could not be written (named on stderr).
 */
static int write_files(const struct compare *c, const struct header *h, const char *dir)
{
	struct sb names = {0};
	int status = 0;

	mkdir_p(dir, "--out");
	for (const struct report_format *f = compare_formats; f->name; f++) {
		struct outfile o;
		char *path;

		if (!f->file)
			continue;
		path = xasprintf("%s/%s", dir, f->file);
		if (outfile_open(&o, path)) {
			status = 1;
		} else {
			f->fn(c, h, o.f);
			if (outfile_close(&o))
				status = 1;
			else
				sb_printf(&names, " %s", f->file);
		}
		free(path);
	}
	if (names.n)
		printf("\nfull report (every metric) in %s:%s\n", dir, sb_str(&names));
	free(names.p);
	return status;
}

/*
 * by_host_fallback - --by host (kernel) with one host and topology (one kernel) in the RUNs has
 * nothing to put side by side: compare the presets within the run (one RUN) or the runs (several),
 * and say so in the header. A --base naming that host is dropped.
 */
static void by_host_fallback(struct compare *cp)
{
	const char *by = cp->o.by_kernel ? "kernel" : "host";
	char *host;

	if (cmp_count_hosts(cp, &host) > 1) {
		free(host);
		return;
	}
	cp->o.by_host = cp->o.by_kernel = 0;
	cp->one_run = cp->nruns == 1;
	if (cp->o.base && !strcmp(cp->o.base, host))
		cp->o.base = NULL;
	cp->fallback = xasprintf("--by %s: one %s (%s) in the RUN%s: %s instead", by, by, host,
				 cp->nruns > 1 ? "s" : "",
				 cp->one_run ? "the presets within the run are compared"
					     : "the runs are compared side by side");
	free(host);
}

/* side_named - --base @base names @sd: its name, its host (--by host), its release (--by kernel).
 */
static int side_named(const struct compare *cp, const struct side *sd, const char *base)
{
	size_t n = strlen(base);

	if (!strcmp(sd->name, base))
		return 1;
	if (cp->o.by_kernel)
		return !strncmp(sd->name, base, n) && sd->name[n] == '#';
	return !strcmp(sd->host, base);
}

/*
 * build - the comparison of @args with options @o, into the file-scope state: runs loaded, rows
 * grouped, every column compared with its base and judged, the header built; nothing
 * printed.
 */
static struct compare *build(const struct cmp_options *o, const char *const *args, int nargs)
{
	struct compare *const cp = &state;
	struct header *const h = &header;

	memset(cp, 0, sizeof(*cp));
	memset(h, 0, sizeof(*h));

	cp->o = *o;
	cp->nruns = nargs;
	cp->runs = xcalloc((size_t)nargs, sizeof(*cp->runs));
	for (int i = 0; i < nargs; i++)
		cmp_load_run(&cp->runs[i], args[i]);
	cp->one_run = nargs == 1 && !cp->o.by_host;
	if (cp->o.by_host)
		by_host_fallback(cp);
	if (cp->o.base && !cp->one_run && !cp->o.by_host)
		usage_error("--base", cp->o.base,
			    "with several RUNs the first RUN is the base (--base names a preset "
			    "with one RUN, a host with --by host, a kernel with --by kernel)");
	cmp_collect_columns(cp);
	if (cp->one_run) {
		cp->nsides = 1;
		cp->sides = xcalloc(1, sizeof(*cp->sides));
		cp->sides[0].name = xstrdup("base");
	} else if (!cp->o.by_host) {
		cp->nsides = nargs;
		cp->sides = xcalloc((size_t)nargs, sizeof(*cp->sides));
		for (int i = 0; i < nargs; i++) {
			cp->sides[i].name =
			    i < 26 ? xasprintf("%c", 'A' + i) : xasprintf("R%d", i + 1);
			cp->sides[i].runs = xstrdup(cp->runs[i].label);
			cp->sides[i].host = cp->runs[i].host;
			cp->sides[i].cpu = cp->runs[i].cpu_model;
			cp->sides[i].state = cp->runs[i].machine;
		}
	}
	cmp_find_sweeps(cp);
	for (int ri = 0; ri < cp->nruns; ri++)
		for (int row = 0; row < cp->runs[ri].t->nrows; row++)
			cmp_add_row(cp, ri, row);
	{
		/* distinct hosts over all rows */
		struct map hosts = {0};

		for (int ri = 0; ri < cp->nruns; ri++)
			for (int row = 0; row < cp->runs[ri].t->nrows; row++)
				if (cp->runs[ri].c_host >= 0) {
					const char *hn =
					    cmp_cell_at(&cp->runs[ri], row, cp->runs[ri].c_host);

					if (cmp_map_get(&hosts, hn) < 0)
						cmp_map_put(&hosts, hn, 1);
				}
		cp->nhosts = (int)hosts.n;
		for (size_t i = 0; i < hosts.cap; i++)
			free(hosts.keys[i]);
		free(hosts.keys);
		free(hosts.vals);
	}
	if (cp->o.by_host) {
		if (cp->o.base) {
			int b = -1;

			for (int s = 0; s < cp->nsides; s++)
				if (b < 0 && side_named(cp, &cp->sides[s], cp->o.base))
					b = s;
			if (b < 0)
				usage_error("--base", cp->o.base, "no such %s in the RUNs",
					    cp->o.by_kernel ? "kernel" : "host");
			if (b) {
				struct side t = cp->sides[b];

				/* Move the base host to the front; remap the cells' sides. */
				memmove(&cp->sides[1], &cp->sides[0], (size_t)b * sizeof(t));
				cp->sides[0] = t;
				for (int i = 0; i < cp->ncells; i++)
					cp->cells[i].side = cp->cells[i].side == b ? 0
							    : cp->cells[i].side < b
								? cp->cells[i].side + 1
								: cp->cells[i].side;
				for (size_t i = 0; i < cp->cmap.cap; i++)
					free(cp->cmap.keys[i]);
				free(cp->cmap.keys);
				free(cp->cmap.vals);
				memset(&cp->cmap, 0, sizeof(cp->cmap));
				for (int i = 0; i < cp->ncells; i++) {
					char *key =
					    xasprintf("%d\x1f%d\x1f%d", cp->cells[i].side,
						      cp->cells[i].group, cp->cells[i].entry);

					cmp_map_put(&cp->cmap, key, i);
					free(key);
				}
			}
		}
	}
	cmp_choose_design(cp);
	cmp_find_mappings(cp);
	cmp_build_blocks(cp);
	for (int bi = 0; bi < cp->nblocks; bi++)
		for (int col = 1; col < cp->blocks[bi].ncols; col++)
			if (cp->blocks[bi].cell[col] >= 0)
				cmp_compare_cells(cp, bi, col);
	cmp_judge(cp);
	cmp_mapping_changes(cp);
	cmp_build_header(cp, h);
	return cp;
}

int compare_run(const struct cmp_options *o, const char *const *runs, int nruns)
{
	struct compare *const cp = build(o, runs, nruns);
	struct header *const h = &header;
	int status;

	cp->o.fmt->fn(cp, h, stdout);
	status = cp->o.out_dir ? write_files(cp, h, cp->o.out_dir) : 0;
	if (fflush(stdout) || ferror(stdout)) {
		warn_msg("compare: writing the report: %s", strerror(errno));
		return 1;
	}
	return status;
}

int compare_run_report(const char *dir, struct run_verdicts *v)
{
	struct cmp_options o;
	int status;

	compare_options_init(&o);
	o.out_dir = dir;
	compare_check_out_dir(dir);
	status = compare_run(&o, &dir, 1);
	if (v)
		cmp_count_verdicts(&state, v);
	return status;
}

const struct compare *compare_one_run(const char *run)
{
	struct cmp_options o;

	compare_options_init(&o);
	return build(&o, &run, 1);
}
