// SPDX-License-Identifier: MIT
/*
 * cmd_compare.c - `pcbench compare RUN [RUN...]`: medians, spread and a Mann-Whitney U test
 * per metric, between presets of one run or between the same keys of several runs (or
 * hosts). Its options (one table, lib/opt.h); the comparison is the compare engine's
 * (engines/compare/compare.c: load, group, compare, report).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare.h"
#include "num.h"
#include "opt.h"
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

static void parse_args(int argc, char **argv, struct cmp_options *o, const char ***args, int *nargs)
{
	int first;

	compare_options_init(o);
	first = opt_parse(&compare_help, argc, argv, o);
	*args = (const char **)argv + first;
	*nargs = argc - first;
	if (o->out_dir) /* checked before anything is read or made (outpath.h) */
		compare_check_out_dir(o->out_dir);
	if (!*nargs)
		usage_error("RUN", "",
			    "missing: give a run directory or a results CSV (see "
			    "pcbench compare --help)");
}

int compare_main(int argc, char **argv)
{
	struct cmp_options o;
	const char **args;
	int nargs;

	parse_args(argc, argv, &o, &args, &nargs);
	return compare_run(&o, args, nargs);
}
