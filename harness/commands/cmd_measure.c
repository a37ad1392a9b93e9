// SPDX-License-Identifier: MIT
/*
 * cmd_measure.c - `pcbench [measure] [options]`: the option table and help, --list, parsing;
 * the run is the measure engine's (engines/measure/run.c).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "harness.h"
#include "num.h"
#include "opt.h"
#include "pmu_events.h"
#include "run.h"
#include "strbuf.h"
#include "util.h"

/* parse_noise_max - a percentage in (0, 100], or "off" (never disturbed: INFINITY). */
static double parse_noise_max(const char *what, const char *s)
{
	double v;

	if (!strcmp(s, "off"))
		return INFINITY;
	if (num_double(s, 1e-9, 100, &v))
		usage_error(what, s, "expected a percentage in (0, 100] or off");
	return v;
}

/* The rows' calls: @at is the struct options (OPT_CALL_AT) or the member (OPT_CALL). */
static void noise_max_opt(void *at, const char *v, const struct opt *row)
{
	(void)row;
	*(double *)at = parse_noise_max("--noise-max", v);
}

static void time_opt(void *at, const char *v, const struct opt *row)
{
	struct options *o = at;

	(void)row;
	if (num_double(v, 0.001, 3600, &o->time_s))
		usage_error("--time", v, "expected seconds in [0.001, 3600]");
	o->time_set = 1;
}

static void reps_opt(void *at, const char *v, const struct opt *row)
{
	struct options *o = at;

	(void)row;
	if (num_int(v, 10, 1, 1000, &o->repetitions))
		usage_error("--repetitions", v, "expected an integer in [1, 1000]");
	o->reps_set = 1;
}

/* design_opt - "blocks" or "independent". */
static void design_opt(void *at, const char *v, const struct opt *row)
{
	(void)row;
	if (strcmp(v, "blocks") && strcmp(v, "independent"))
		usage_error("--design", v, "expected blocks or independent");
	((struct options *)at)->independent = !strcmp(v, "independent");
}

static void home_pages_opt(void *at, const char *v, const struct opt *row)
{
	(void)row;
	if (strcmp(v, "shuffle") && strcmp(v, "reuse"))
		usage_error("--home-pages", v, "expected shuffle or reuse");
	((struct options *)at)->home_reuse = !strcmp(v, "reuse");
}

static void events_opt(void *at, const char *v, const struct opt *row)
{
	struct options *o = at;

	(void)row;
	o->events = v;
	o->events_set = 1;
}

static void matrix_cpus_opt(void *at, const char *v, const struct opt *row)
{
	struct options *o = at;

	(void)row;
	o->matrix = 1;
	o->matrix_cpus = v;
}

/* run_dir_file_opt - checked now, written at the end: its directory must take a file. */
static void run_dir_file_opt(void *at, const char *arg, const struct opt *row)
{
	char *dir = xstrdup(arg), *slash = strrchr(dir, '/');

	(void)row;
	if (slash)
		*slash = '\0';
	if (access(slash ? (dir[0] ? dir : "/") : ".", W_OK | X_OK))
		usage_error("--run-dir-file", arg, "its directory is not writable: %s",
			    strerror(errno));
	free(dir);
	((struct options *)at)->run_dir_file = arg;
}

/*
 * measure_more - the usage lines made from tables: the placement policies after
 * --placement's help, and --events' whole help from the event table.
 */
static const char *measure_more(const char *name)
{
	static char *events;

	if (strcmp(name, "events"))
		return selection_more(name);
	if (!events) {
		struct sb b = {0};

		sb_printf(&b,
			  "counters: auto (default: every abstract event this PMU has) | none | "
			  "a list of");
		for (int i = 0; pmu_table_abstract(i); i++)
			sb_printf(&b, "%s %s", i ? "," : "", pmu_table_abstract(i));
		sb_printf(&b, " and fully qualified libpfm4 strings (pmu::EVENT:UMASK)");
		events = opt_wrap(sb_str(&b), 56);
		free(b.p);
	}
	return events;
}

static const struct opt measure_opts[] = {
    OPT_STR("scenario", 's', "LIST", struct options, sel.scenarios, "scenarios (default: all)"),
    OPT_STR("preset", 'p', "LIST", struct options, sel.presets,
	    "presets (default: all of each scenario)"),
    OPT_STR("workload", 'w', "LIST", struct options, sel.workloads,
	    "scenario workloads (default: all)"),
    OPT_STR("threads", 't', "LIST", struct options, sel.threads,
	    "e.g. 1,2 | 1-8 | max (default: 1,max)"),
    OPT_STR("placement", 'P', "NAME", struct options, sel.placement,
	    "a policy (a list of policies: one family each), or an\n"
	    "hwloc location such as core:0-3.pu:even or\n"
	    "package:0.core:0-3.pu:0 (default: scatter):"),
    OPT_STR("topology", 0, "SPEC", struct options, sel.topology,
	    "host (default) | FILE (lstopo --of xml, or a synthetic\n"
	    "description after # comments) | synthetic:STRING; a\n"
	    "topology that is not this machine's can only be planned,\n"
	    "with --dry-run"),
    OPT_FLAG("check-host", 0, struct options, check_host,
	     "with --topology FILE.xml: verify that this host matches\n"
	     "it, then measure here"),
    OPT_FLAG("dry-run", 0, struct options, dry_run,
	     "print the plan (thread, PU, core, L3, package, NUMA node,\n"
	     "pair classes, memory home; every family of a sweep) and\n"
	     "measure nothing; with --csv FILE also write the plan as\n"
	     "CSV, a row per family and thread"),
    OPT_STR("home", 0, "SPEC", struct options, home,
	    "memory home of the shared structs: first (thread 0's\n"
	    "NUMA node, default) | node:N | interleave | each"),
    OPT_CALL_AT("home-pages", 0, "HOW", home_pages_opt, 0,
		"shuffle (default): each window's shared structs take\n"
		"consecutive pages from a random page of a 64 MiB arena\n"
		"at their home, so a run averages over placements | reuse:\n"
		"each maps its own pages (one placement for a whole run;\n"
		"docs/measuring.md: Memory placement)"),
    OPT_CALL_AT("design", 0, "NAME", design_opt, 0,
		"blocks (default): each block measures every preset of a\n"
		"table once, back to back, in a fresh random order, and\n"
		"presets are compared within blocks | independent: -r\n"
		"repetitions of each, interleaved at random (see\n"
		"docs/measuring.md: when each fits)"),
    OPT_DOUBLE("precision", 0, "PCT", struct options, precision, 1e-9, 1000,
	       "expected a percentage in (0, 1000]",
	       "blocks: add blocks until every comparison's 95% ci\n"
	       "half-width is at most PCT %change points (default 5,\n"
	       "in (0, 1000])..."),
    OPT_DOUBLE("budget", 0, "SECONDS", struct options, budget_s, 1, 86400,
	       "expected seconds in [1, 86400]",
	       "...or this much measuring is spent (default 90, in\n"
	       "[1, 86400]); without --time the window is chosen so\n"
	       "that the fewest blocks fill half of it"),
    OPT_INT("max-blocks", 0, "N", struct options, max_blocks, 2, 10000,
	    "expected an integer in [2, 10000]",
	    "...or N blocks were measured (default 50, in [2, 10000])"),
    OPT_CALL_AT("time", 0, "SECONDS", time_opt, 0,
		"one measurement window (default 0.2, or with blocks the\n"
		"budget's choice; in [0.001, 3600]), after a warm-up of\n"
		"a tenth of it"),
    OPT_CALL("noise-max", 0, "PCT", struct options, noise_max_pct, noise_max_opt, 0,
	     "a window whose thread waited for its CPU (run delay) or\n"
	     "lost time in gaps (batches over 10x its median), or\n"
	     "whose planned CPU had steal, for more than PCT% of it, or\n"
	     "whose transfer probes before and after differ over 2x,\n"
	     "is disturbed and measured again (default 10, or\n"
	     "PCBENCH_NOISE_MAX; off: record the noise, judge nothing)"),
    OPT_DOUBLE("imbalance-min", 0, "R", struct options, imbalance_min, 0, 1,
	       "expected a ratio in [0, 1] (0: never)",
	       "...also, only when asked (R > 0), a window of a symmetric\n"
	       "workload (--list) whose ops_min_thread/ops_max_thread is\n"
	       "under R (default 0: off; in [0, 1]). Threads at unequal\n"
	       "speeds are a result (compare's fairness), not noise"),
    OPT_INT("noise-retries", 0, "N", struct options, noise_retries, 0, 100,
	    "expected an integer in [0, 100]",
	    "...at most N times (default 2, in [0, 100]); a row still\n"
	    "disturbed gets status disturbed, kept out of statistics;\n"
	    "with blocks no window is measured again on its own: its\n"
	    "block is left out (the reason counted), another added"),
    OPT_CALL_AT("repetitions", 'r', "N", reps_opt, 0,
		"independent: repetitions of each (default 5: the fewest\n"
		"that can reach p < 0.05 after the correction); blocks:\n"
		"exactly N blocks per table, no precision target (the\n"
		"budget still stops it); in [1, 1000]"),
    OPT_CALL("param", 'D', "NAME=VALUE", struct options, sel, selection_param_opt, OPT_REPEAT,
	     "set one scenario parameter (repeatable; VALUE may hold spaces);\n"
	     "V1,V2 of an integer or choice parameter: one family per value"),
    OPT_STR("layout", 0, "NAME|FILE", struct options, layout,
	    "run every selected scenario whose structs the layout\n"
	    "describes with it (the presets keep their algorithm\n"
	    "knobs); a built-in name or a layout file"),
    OPT_STR("recipe", 0, "FILE", struct options, recipe,
	    "the probe scenario's accesses (same as -D recipe=FILE)"),
    OPT_STR("out", 'o', "DIR", struct options, out,
	    "run directory (default: results/<UTC date-time>-<host>);\n"
	    "an existing one is never overwritten..."),
    OPT_FLAG("force", 0, struct options, force, "...unless this is given"),
    OPT_STR("csv", 0, "FILE", struct options, csv,
	    "also write the CSV here (appends only when the columns\n"
	    "are identical; otherwise use pcbench merge)"),
    OPT_STR("label", 0, "NAME", struct options, label,
	    "the lab's name for this host ([A-Za-z0-9._-], up to 64):\n"
	    "the label column and context.json; compare --by host\n"
	    "groups by it; the default run directory ends with it"),
    OPT_CALL_AT("run-dir-file", 0, "FILE", run_dir_file_opt, 0,
		"when the run ends, write its directory's path to FILE\n"
		"(for scripts: make run plots the run it just made)"),
    OPT_FLAG("list", 0, struct options, list, "scenarios, presets, workloads, parameters"),
    OPT_CALL_AT("events", 0, "SPEC", events_opt, 0, NULL),
    OPT_FLAG("events-kernel", 0, struct options, events_kernel,
	     "count kernel mode too (needs perf_event_paranoid <= 1)"),
    OPT_FLAG("matrix", 0, struct options, matrix,
	     "with -s c2c: measure every pair of PUs (the diagonal with\n"
	     "one thread); rows get cpu_a, cpu_b, ns_per_transfer"),
    OPT_CALL_AT("matrix-cpus", 0, "LIST", matrix_cpus_opt, 0,
		"the PUs of the matrix (OS indexes: 0-3,8), not all"),
    OPT_FLAG("with-model", 0, struct options, with_model,
	     "also run the coherence model for every measurement and\n"
	     "add its model_*_per_op columns (see pcbench model -h)"),
    OPT_FLAG("profile", 0, struct options, profile,
	     "sample the measuring threads in the window (cycles, else\n"
	     "cpu-clock; kernel symbols from /proc/kallsyms): profile.csv,\n"
	     "the memcg charge path's share per row; pcbench profile RUN"),
    OPT_STR("cgroup", 0, "DIR", struct options, cgroup,
	    "measure in a memory cgroup hierarchy of pcbench's own: three\n"
	    "levels under DIR (cgroup v2, delegated to you, memory in its\n"
	    "cgroup.subtree_control), memory.min/low on the top one as in\n"
	    "seed 000; removed at the end. Without it pcbench writes no\n"
	    "cgroup and runs in the one it was started in"),
    OPT_FLAG("list-events", 0, struct options, list_events,
	     "the event table for this machine's PMU, or --pmu NAME\n"
	     "(an unknown NAME lists the known ones)"),
    OPT_STR(
	"pmu", 0, "NAME", struct options, pmu,
	"with --list-events: the PMU whose table to print; with --dry-run: plan the counters as\n"
	"encoded for that PMU (e.g. emr, gnr, amd64_fam1ah_zen5)"),
    OPT_HELP,
    OPT_END,
};

const struct cmd_help measure_help = {
    .name = "",
    .synopsis = "usage: pcbench [measure] [options] [--benchmark_filter=REGEX]\n",
    .about = "Measures models of the Linux memcg charge paths with threads pinned by hwloc,\n"
	     "one equal-time window per repetition, and writes one CSV row per measurement.\n",
    .opts = measure_opts,
    .opt_more = measure_more,
    .after =
	"  --benchmark_filter=REGEX selects families whose name it matches (an extended\n"
	"                           regex, found anywhere in the name), e.g.\n"
	"                           'preset:v6.0-rc1/workload:direct/placement:scatter/threads:2'\n"
	"  --benchmark_enable_random_interleaving=false  runs repetitions in order\n"
	"                           (blocks: every block in the order of -p)\n"
	"  --benchmark_out=FILE --benchmark_out_format=json|csv\n"
	"                           Google Benchmark's own report: ns/op as the manual\n"
	"                           time, ops as items, a ns_per_op counter\n"
	"                           (other --benchmark_* flags are refused)\n"
	"\n"
	"Exit status: 0 all measured ok, 1 some measurement failed (rows say why) or a\n"
	"result could not be written, 2 bad usage or environment (nothing measured),\n"
	"3 interrupted (SIGINT/SIGTERM: finished rows are kept), 4 everything was skipped\n"
	"(nothing on this machine could run what was asked), 5 measured, but some\n"
	"comparison has too few clean blocks (--design independent: ok repetitions) for a\n"
	"verdict (its row says \"no verdict\" and why; the last line how long to run for\n"
	"one; make run ends 0). When several apply: 3, then 1, then 5, then 4.\n"
	"\n"
	"Examples:\n"
	"  pcbench                                   the default suite\n"
	"  pcbench --list                            what can be measured\n"
	"  pcbench -s page_counter -p v6.0-rc1,+ABC -w stocked -t 1-2 -r 5\n"
	"                                            the seed's before/after, 5 repetitions\n"
	"  pcbench -p +A -D batch=128 -t max         patch A with a larger charge batch\n"
	"  pcbench --time 2 -P compact -o /tmp/run1  longer windows, compact placement\n"
	"  pcbench --dry-run -P cross-socket -t 8 --topology \\\n"
	"      'synthetic:pack:2 l3:1 group:4 [numa] l2:14 core:1 pu:2(indexes=core:package)'\n"
	"                                            plan a run for a 2-socket SPR box\n"
	"  pcbench --topology lab1.xml --check-host  run a plan made for lab1, on lab1\n",
};

static void print_line(void *arg, const char *line)
{
	printf("%s%s\n", (const char *)arg, line);
}

/* list_scenarios - --list: scenarios, presets, workloads and parameters on stdout. */
static void list_scenarios(void)
{
	char err[512];

	for (int i = 0; all_scenarios[i]; i++) {
		const struct scenario *sc = all_scenarios[i];

		printf("%s\n    %s\n", sc->name, sc->desc);
		if (sc->flags & BENCH_KERNEL)
			printf("    (the real kernel: runs only when selected, -s %s; not in the "
			       "default suite, the model, hitm or layout show)\n",
			       sc->name);
		printf("  presets:\n");
		for (int j = 0; sc->presets[j].name; j++) {
			struct bench_cfg *cfg;

			printf("    %-10s %s\n    %-10s   {%s}\n", sc->presets[j].name,
			       sc->presets[j].desc, "", sc->presets[j].set);
			if (!sc->describe)
				continue;
			cfg = cfg_new(sc, &sc->presets[j], &sc->workloads[0], 1, NULL, 0, err,
				      sizeof(err));
			if (cfg)
				sc->describe(cfg, print_line, "                 ");
			else
				printf("                 (%s)\n", err);
			cfg_free(cfg);
		}
		printf("  workloads:\n");
		for (int j = 0; sc->workloads[j].name; j++) {
			const char *em = sc->emulates ? sc->emulates(sc->workloads[j].name) : NULL;

			printf("    %-10s %s {%s}%s\n", sc->workloads[j].name,
			       sc->workloads[j].desc, sc->workloads[j].set,
			       sc->workloads[j].flags & BENCH_SYMMETRIC ? " (symmetric)" : "");
			if (sc->emulates)
				printf("    %-10s   emulated by: %s\n", "", em ? em : "none");
		}
		printf("  parameters:\n");
		for (int j = 0; scenario_param(sc, j); j++) {
			const struct bench_param *p = scenario_param(sc, j);

			printf("    %-10s %s (default %s", p->name, p->help, p->def);
			if (p->choices && !strcmp(p->choices, BENCH_LAYOUT)) {
				const char *names[32];
				int n = layout_builtin_names(NULL, names, 32);

				printf("; a layout file or one of");
				for (int k = 0; k < n; k++)
					printf(" %s", names[k]);
			} else if (p->choices && !strcmp(p->choices, BENCH_FILE)) {
				printf("; a file or a built-in name");
			} else if (p->choices) {
				printf("; one of %s", p->choices);
			} else {
				printf("; %ld..%ld", p->min, p->max);
			}
			printf(")\n");
		}
		printf("\n");
	}
}

/* take_gb_args - move --benchmark_* arguments out of argv; keep --benchmark_filter. */
static int take_gb_args(int *argc, char **argv, char **gb, struct options *o)
{
	static char interleave[] = "--benchmark_enable_random_interleaving=true";
	int n = 0, k = 1, user_interleave = 0;

	o->gb_shuffle = 1;

	gb[n++] = argv[0];
	for (int i = 1; i < *argc; i++) {
		if (!strncmp(argv[i], "--benchmark_filter=", 19)) {
			o->filter = argv[i] + 19;
		} else if (!strncmp(argv[i], "--benchmark_enable_random_interleaving", 38)) {
			const char *v = argv[i][38] == '=' ? argv[i] + 39 : "true";

			user_interleave = 1;
			o->gb_shuffle = strcmp(v, "false") && strcmp(v, "0");
			gb[n++] = argv[i];
		} else if (!strncmp(argv[i], "--benchmark_out=", 16) ||
			   !strncmp(argv[i], "--benchmark_out_format=", 23)) {
			/*
			 * Google Benchmark's own report of ns/op (gbshim.cc), but written by
			 * pcbench: its path checked before measuring as every output's, the file
			 * written through a temp file and a rename. Google Benchmark never sees
			 * the flag, so it never opens the path itself.
			 */
			int fmt = argv[i][15] == '_';
			const char **to = fmt ? &o->gb_out_format : &o->gb_out;

			if (*to)
				usage_error(fmt ? "--benchmark_out_format" : "--benchmark_out",
					    argv[i] + (fmt ? 23 : 16),
					    "given twice: it takes one value");
			*to = argv[i] + (fmt ? 23 : 16);
			if (fmt && strcmp(*to, "json") && strcmp(*to, "csv") &&
			    strcmp(*to, "console"))
				usage_error("--benchmark_out_format", *to,
					    "expected json, csv or console");
		} else if (!strncmp(argv[i], "--benchmark_", 12)) {
			/*
			 * The others would change what is run or reported behind pcbench's back
			 * (list_tests ran nothing and left an empty run directory, exit 4).
			 */
			usage_error("option", argv[i],
				    "not supported: pcbench's own options do that (--dry-run lists "
				    "the families, -r repeats, --time sets the window; "
				    "--benchmark_filter, --benchmark_out, --benchmark_out_format "
				    "and --benchmark_enable_random_interleaving are passed on)");
		} else {
			argv[k++] = argv[i];
		}
	}
	/* Interleave repetitions of all families by default, so drift hits every preset. */
	if (!user_interleave)
		gb[n++] = interleave;
	*argc = k;
	argv[k] = NULL;
	gb[n] = NULL;
	return n;
}

/* option_defaults - measure's options before the command line. */
static void option_defaults(struct options *o)
{
	o->sel.threads = "1,max";
	o->sel.placement = "scatter";
	o->time_s = 0.2;
	o->repetitions = 5;
	o->precision = BLOCKS_DEFAULT_PRECISION;
	o->budget_s = BLOCKS_DEFAULT_BUDGET;
	o->max_blocks = BLOCKS_DEFAULT_MAX;
	o->noise_max_pct = getenv("PCBENCH_NOISE_MAX")
			       ? parse_noise_max("PCBENCH_NOISE_MAX", getenv("PCBENCH_NOISE_MAX"))
			       : NOISE_DEFAULT_MAX_PCT;
	o->noise_retries = NOISE_DEFAULT_RETRIES;
	o->progress_s = 10;
	if (getenv("PCBENCH_PROGRESS_S") &&
	    num_double(getenv("PCBENCH_PROGRESS_S"), 0, 86400, &o->progress_s))
		usage_error("PCBENCH_PROGRESS_S", getenv("PCBENCH_PROGRESS_S"),
			    "expected seconds between progress lines, 0 to 86400");
	o->imbalance_min = NOISE_DEFAULT_IMBALANCE_MIN;
	o->sel.topology = "host";
	o->events = "auto";
	o->home = "first";
}

/* parse_options - argv into @o; every bad value is a usage error (exit 2). */
static void parse_options(int argc, char **argv, struct options *o)
{
	int first;

	option_defaults(o);
	first = opt_parse(&measure_help, argc, argv, o);
	if (first < argc)
		usage_error("argument", argv[first], "unexpected (see --help)");
	if (o->label && (!o->label[0] || strlen(o->label) > 64 ||
			 strspn(o->label, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					  "0123456789._-") != strlen(o->label) ||
			 o->label[0] == '.'))
		usage_error("--label", o->label,
			    "expected 1 to 64 of A-Z a-z 0-9 . _ - (not starting with .)");
	if (o->recipe)
		selection_add_param(&o->sel, xasprintf("recipe=%s", o->recipe));
	if (o->check_host &&
	    (!strcmp(o->sel.topology, "host") || !strncmp(o->sel.topology, "synthetic:", 10)))
		usage_error("--check-host", o->sel.topology,
			    "needs --topology FILE.xml, the export of a lab machine");
}

/*
 * parse - the options in @argv into run->opt (exit 2 on bad input), then the run resolved
 * (measure_prepare). Returns -1 to measure, or the exit status of a mode that measures
 * nothing (--list, --list-events, --dry-run); @check refuses those instead (hitm record).
 */
static int parse(struct measure_run *run, int argc, char **argv, int check)
{
	char **gb_argv = run->gb_argv = xcalloc((size_t)argc + 2, sizeof(char *));
	int gb_argc;

	run->orig_argv = xcalloc((size_t)argc + 1, sizeof(char *));
	run->orig_argc = argc;
	memcpy(run->orig_argv, argv, (size_t)argc * sizeof(char *));
	gb_argc = take_gb_args(&argc, argv, gb_argv, &run->opt);
	parse_options(argc, argv, &run->opt);
	if (check && (run->opt.list || run->opt.list_events || run->opt.dry_run))
		usage_error("hitm record",
			    run->opt.list      ? "--list"
			    : run->opt.dry_run ? "--dry-run"
					       : "--list-events",
			    "measures nothing (use it with pcbench measure)");
	if (run->opt.list) {
		list_scenarios();
		return 0;
	}
	return measure_prepare(run, gb_argc, check);
}

void measure_dir_check(int argc, char **argv, struct measure_dir *d)
{
	/* static, as in measure_main: what it holds stays reachable until exit (leak checks) */
	static struct measure_run state;
	struct measure_run *run = &state;

	if (parse(run, argc, argv, 1) >= 0)
		exit(2); /* pmu_resolve said why */
	measure_dir_init(run, d);
}

int measure_main(int argc, char **argv)
{
	/* static: what it holds stays reachable until exit (leak checks); only passed on */
	static struct measure_run state;
	struct measure_run *run = &state;
	int st = parse(run, argc, argv, 0);

	if (st >= 0)
		return st;
	return measure_execute(run);
}
