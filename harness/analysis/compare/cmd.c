// SPDX-License-Identifier: MIT
/*
 * cmd.c - `pcbench compare RUN [RUN...]`: medians, spread and a Mann-Whitney U test per
 * metric, between presets of one run or between the same keys of several runs (or hosts).
 * Its options (one table, lib/opt.h) and the command: load, group, compare, report.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare.h"
#include "num.h"
#include "opt.h"
#include "outfile.h"
#include "outpath.h"
/* The rows' calls (compare's options). */
static double parse_double(const char *opt, const char *s, double lo, double hi, int open_lo)
{
	double v;

	if (num_double(s, lo, hi, &v) || (open_lo && v == lo) || v == hi)
		usage_error(opt, s, "expected a number in %s%g, %g)", open_lo ? "(" : "[", lo, hi);
	return v;
}

static void alpha_opt(void *at, const char *v, const struct opt *row)
{
	(void)row;
	*(double *)at = parse_double("--alpha", v, 0, 1, 1);
}

static void min_change_opt(void *at, const char *v, const struct opt *row)
{
	(void)row;
	*(double *)at = parse_double("--min-change", v, 0, 1e9, 0);
}

static void by_opt(void *at, const char *v, const struct opt *row)
{
	struct cmp_options *o = at;

	(void)row;
	if (strcmp(v, "host") && strcmp(v, "kernel"))
		usage_error("--by", v, "expected host or kernel");
	o->by_host = 1;
	o->by_kernel = !strcmp(v, "kernel");
}

static void format_opt(void *at, const char *v, const struct opt *row)
{
	const struct report_format **fmt = at;

	(void)row;
	*fmt = compare_format_find(v);
	if (!*fmt) {
		struct sb names = {0};

		for (const struct report_format *f = compare_formats; f->name; f++)
			sb_printf(&names, "%s%s", f == compare_formats ? "" : ", ", f->name);
		usage_error("--format", v, "expected one of %s", sb_str(&names));
	}
}

static void correction_opt(void *at, const char *v, const struct opt *row)
{
	int k = 0;

	(void)row;
	while (cmp_correction_names[k] && strcmp(cmp_correction_names[k], v))
		k++;
	if (!cmp_correction_names[k])
		usage_error("--correction", v, "expected holm, bh or none");
	*(enum correction *)at = (enum correction)k;
}

#define CO struct cmp_options
static const struct opt compare_opts[] = {
    OPT_STR("base", 'b', "PRESET", CO, base,
	    "one RUN: the base preset (default: each scenario's first\n"
	    "preset); with --by host: the base host; with --by kernel:\n"
	    "the base kernel (RELEASE or RELEASE#FP)"),
    OPT_CALL_AT("by", 0, "host|kernel", by_opt, 0,
		"put hosts (and topology_fp), or kernels (kernel_release and\n"
		"kernel_layout_fp of -s kernel runs), side by side, from one or\n"
		"several RUNs"),
    OPT_CALL("format", 'f', "FMT", CO, fmt, format_opt, 0,
	     "the report format on stdout (below; default: the first)"),
    OPT_STR("metric", 'm', "LIST", CO, metrics,
	    "compare only these metric columns (default: ops_per_s,\n"
	    "ns_per_op and every *_per_op column measured on both sides)"),
    OPT_CALL("alpha", 0, "A", CO, alpha, alpha_opt, 0,
	     "significance level of the Mann-Whitney U test (default 0.05)"),
    OPT_CALL("min-change", 0, "PCT", CO, min_change, min_change_opt, 0,
	     "smallest |%change| called significant (default 1)"),
    OPT_FLAG("ci", 0, CO, ci,
	     "bootstrap confidence interval of the ratio of medians for\n"
	     "every metric (ops_per_s always has one)"),
    OPT_CALL("correction", 0, "NAME", CO, correction, correction_opt, 0,
	     "multiple-testing correction per family (one metric's\n"
	     "comparisons in one table): holm (default), bh\n"
	     "(Benjamini-Hochberg) or none"),
    OPT_STR("out", 'o', "DIR", CO, out_dir,
	    "also write the full report into DIR (created if missing):\n"
	    "the formats below that name a file, every metric;\n"
	    "without -o, compare writes no file"),
    OPT_HELP,
    OPT_END,
};
#undef CO

/* The report formats, from their table (formats.c). */
static void print_formats(FILE *out)
{
	fprintf(out, "\nFormats (--format; -o DIR writes those with a file):\n");
	for (const struct report_format *f = compare_formats; f->name; f++) {
		fprintf(out, "  %-10s %s", f->name, f->help);
		if (f->file)
			fprintf(out, " (-o: %s)", f->file);
		fprintf(out, "\n");
	}
}

const struct cmd_help compare_help = {
    .name = "compare",
    .synopsis = "usage: pcbench compare RUN [RUN...] [options]\n",
    .about = "RUN is a run directory (results.csv and context.json) or a results CSV.\n"
	     "One RUN: each preset against the scenario's base preset, per scenario, workload,\n"
	     "placement, threads and home. Several RUNs: the same keys (scenario, preset,\n"
	     "layout, workload, placement, threads, home, every param_*) across runs, each\n"
	     "against the first; keys found on one side only are listed.\n",
    .opts = compare_opts,
    .more = print_formats,
    .after = "\n"
	     "Exit status: 0 compared, 1 the report could not be written (stdout, or a file of\n"
	     "-o), 2 bad usage or input (nothing compared), 3 interrupted.\n"
	     "\n"
	     "Examples:\n"
	     "  pcbench compare results/latest\n"
	     "  pcbench compare results/latest --base +A --format lkp\n"
	     "  pcbench compare /tmp/before /tmp/after -o /tmp/report\n"
	     "  pcbench compare RUN --metric ns_per_op,llc_miss_per_op --correction bh\n"
	     "  pcbench compare lab1/ lab2/ lab3/ --by host --metric ops_per_s\n"
	     "  pcbench compare kernelA/ kernelB/ --by kernel\n",
};

const char *compare_report_file(int i)
{
	for (const struct report_format *f = compare_formats; f->name; f++)
		if (f->file && i-- == 0)
			return f->file;
	return NULL;
}

static void parse_args(int argc, char **argv, struct cmp_options *o, const char ***args, int *nargs)
{
	int first;

	o->alpha = 0.05;
	o->min_change = 1;
	o->fmt = &compare_formats[0];
	first = opt_parse(&compare_help, argc, argv, o);
	*args = (const char **)argv + first;
	*nargs = argc - first;
	if (o->out_dir) { /* checked before anything is read or made (outpath.h) */
		const char *names[16];
		char err[PATH_MAX + 256];
		int n = 0;

		while (n < 15 && compare_report_file(n))
			names[n] = compare_report_file(n), n++;
		names[n] = NULL;
		if (outpath_check_dir(o->out_dir, names, err, sizeof(err)))
			usage_error("--out", o->out_dir, "%s", err);
	}
	if (!*nargs)
		usage_error("RUN", "",
			    "missing: give a run directory or a results CSV (see "
			    "pcbench compare --help)");
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
 * build - the comparison @argv asks for, into the file-scope state: runs loaded, rows
 * grouped, every column compared with its base and judged, the header built; nothing
 * printed.
 */
static struct compare *build(int argc, char **argv)
{
	struct compare *const cp = &state;
	struct header *const h = &header;
	const char **args;
	int nargs;

	memset(cp, 0, sizeof(*cp));
	memset(h, 0, sizeof(*h));

	parse_args(argc, argv, &cp->o, &args, &nargs);
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

int compare_main(int argc, char **argv)
{
	struct compare *const cp = build(argc, argv);
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
	/* The directory after "--": a run named like an option (-o -dash) is still a run. */
	char *argv[] = {"compare", "-o", (char *)dir, "--", (char *)dir, NULL};
	int status = compare_main(5, argv);

	if (v)
		cmp_count_verdicts(&state, v);
	return status;
}

const struct compare *compare_one_run(const char *run)
{
	char *argv[] = {"compare", "--", (char *)run, NULL};

	return build(3, argv);
}
