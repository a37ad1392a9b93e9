// SPDX-License-Identifier: MIT
/* options.c - the measure command's options: the option table and help, --list, parsing. */
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
#include "util.h"

/* Long-only options of the measure command. */
enum {
	O_TIME = OPT_LONG,
	O_CSV,
	O_LIST,
	O_TOPOLOGY,
	O_HOME,
	O_DRY_RUN,
	O_CHECK_HOST,
	O_LAYOUT,
	O_RECIPE,
	O_FORCE,
	O_EVENTS,
	O_EVENTS_KERNEL,
	O_LIST_EVENTS,
	O_PMU,
	O_WITH_MODEL,
	O_PROFILE,
	O_CGROUP,
	O_MATRIX,
	O_MATRIX_CPUS,
	O_LABEL,
	O_RUN_DIR_FILE,
	O_NOISE_MAX,
	O_NOISE_RETRIES,
	O_DESIGN,
	O_PRECISION,
	O_BUDGET,
	O_MAX_BLOCKS,
	O_IMBALANCE_MIN,
	O_HOME_PAGES,
};

static const struct opt measure_opts[] = {
    {"scenario", 's', "LIST", "scenarios (default: all)"},
    {"preset", 'p', "LIST", "presets (default: all of each scenario)"},
    {"workload", 'w', "LIST", "scenario workloads (default: all)"},
    {"threads", 't', "LIST", "e.g. 1,2 | 1-8 | max (default: 1,max)"},
    {
	"placement",
	'P',
	"NAME",
	"a policy (a list of policies: one family each), or an\n"
	"hwloc location such as core:0-7,pu:even,\n"
	"package:0.core:0-3.pu:0 (default: scatter):",
    },
    {"topology", O_TOPOLOGY, "SPEC",
     "host (default) | FILE.xml (lstopo --of xml) |\n"
     "synthetic:STRING; a topology that is not this machine's\n"
     "can only be planned, with --dry-run"},
    {"check-host", O_CHECK_HOST, NULL,
     "with --topology FILE.xml: verify that this host matches\n"
     "it, then measure here"},
    {"dry-run", O_DRY_RUN, NULL,
     "print the plan (thread, PU, core, L3, package, NUMA node,\n"
     "pair classes, memory home) and measure nothing; with\n"
     "--csv FILE also write the plan as CSV"},
    {"home", O_HOME, "SPEC",
     "memory home of the shared structs: first (thread 0's\n"
     "NUMA node, default) | node:N | interleave | each"},
    {"home-pages", O_HOME_PAGES, "HOW",
     "shuffle (default): each window's shared structs take\n"
     "consecutive pages from a random page of a 64 MiB arena\n"
     "at their home, so a run averages over placements | reuse:\n"
     "each maps its own pages (one placement for a whole run;\n"
     "docs/measuring.md: Memory placement)"},
    {"design", O_DESIGN, "NAME",
     "blocks (default): each block measures every preset of a\n"
     "table once, back to back, in a fresh random order, and\n"
     "presets are compared within blocks | independent: -r\n"
     "repetitions of each, interleaved at random (see\n"
     "docs/measuring.md: when each fits)"},
    {"precision", O_PRECISION, "PCT",
     "blocks: add blocks until every comparison's 95% ci\n"
     "half-width is at most PCT %change points (default 5,\n"
     "in (0, 1000])..."},
    {"budget", O_BUDGET, "SECONDS",
     "...or this much measuring is spent (default 90, in\n"
     "[1, 86400]); without --time the window is chosen so\n"
     "that the fewest blocks fill half of it"},
    {"max-blocks", O_MAX_BLOCKS, "N", "...or N blocks were measured (default 50, in [2, 10000])"},
    {"time", O_TIME, "SECONDS",
     "one measurement window (default 0.2, or with blocks the\n"
     "budget's choice; in [0.001, 3600]), after a warm-up of\n"
     "a tenth of it"},
    {"noise-max", O_NOISE_MAX, "PCT",
     "a window whose thread waited for its CPU (run delay) or\n"
     "lost time in gaps (batches over 10x its median), or\n"
     "whose planned CPU had steal, for more than PCT% of it, or\n"
     "whose transfer probes before and after differ over 2x,\n"
     "is disturbed and measured again (default 10, or\n"
     "PCBENCH_NOISE_MAX; off: record the noise, judge nothing)"},
    {"imbalance-min", O_IMBALANCE_MIN, "R",
     "...also a window of a symmetric workload (--list) whose\n"
     "ops_min_thread/ops_max_thread is under R (default 0.5,\n"
     "in [0, 1]; 0: never)"},
    {"noise-retries", O_NOISE_RETRIES, "N",
     "...at most N times (default 2, in [0, 100]); a row still\n"
     "disturbed gets status disturbed, kept out of statistics;\n"
     "with blocks no window is measured again on its own: its\n"
     "block is left out (the reason counted), another added"},
    {"repetitions", 'r', "N",
     "independent: repetitions of each (default 5: the fewest\n"
     "that can reach p < 0.05 after the correction); blocks:\n"
     "exactly N blocks per table, no precision target (the\n"
     "budget still stops it); in [1, 1000]"},
    {"param", 'D', "NAME=VALUE",
     "set one scenario parameter (repeatable; VALUE may hold spaces);\n"
     "V1,V2 of an integer or choice parameter: one family per value"},
    {"layout", O_LAYOUT, "NAME|FILE",
     "run every selected scenario whose structs the layout\n"
     "describes with it (the presets keep their algorithm\n"
     "knobs); a built-in name or a layout file"},
    {"recipe", O_RECIPE, "FILE", "the probe scenario's accesses (same as -D recipe=FILE)"},
    {"out", 'o', "DIR",
     "run directory (default: results/<UTC date-time>-<host>);\n"
     "an existing one is never overwritten..."},
    {"force", O_FORCE, NULL, "...unless this is given"},
    {"csv", O_CSV, "FILE",
     "also write the CSV here (appends only when the columns\n"
     "are identical; otherwise use pcbench merge)"},
    {"label", O_LABEL, "NAME",
     "the lab's name for this host ([A-Za-z0-9._-], up to 64):\n"
     "the label column and context.json; compare --by host\n"
     "groups by it; the default run directory ends with it"},
    {"run-dir-file", O_RUN_DIR_FILE, "FILE",
     "when the run ends, write its directory's path to FILE\n"
     "(for scripts: make run plots the run it just made)"},
    {"list", O_LIST, NULL, "scenarios, presets, workloads, parameters"},
    {"events", O_EVENTS, "SPEC",
     "counters: auto (default: every abstract event this PMU\n"
     "has) | none | a list of cycles, instructions, llc_miss,\n"
     "hitm_local, hitm_remote, c2c_fill_local,\n"
     "c2c_fill_remote, rfo_hitm, task_clock, page_faults and\n"
     "fully qualified libpfm4 strings (pmu::EVENT:UMASK)"},
    {"events-kernel", O_EVENTS_KERNEL, NULL,
     "count kernel mode too (needs perf_event_paranoid <= 1)"},
    {"matrix", O_MATRIX, NULL,
     "with -s c2c: measure every pair of PUs (the diagonal with\n"
     "one thread); rows get cpu_a, cpu_b, ns_per_transfer"},
    {"matrix-cpus", O_MATRIX_CPUS, "LIST", "the PUs of the matrix (OS indexes: 0-3,8), not all"},
    {"with-model", O_WITH_MODEL, NULL,
     "also run the coherence model for every measurement and\n"
     "add its model_*_per_op columns (see pcbench model -h)"},
    {"profile", O_PROFILE, NULL,
     "sample the measuring threads in the window (cycles, else\n"
     "cpu-clock; kernel symbols from /proc/kallsyms): profile.csv,\n"
     "the memcg charge path's share per row; pcbench profile RUN"},
    {"cgroup", O_CGROUP, "DIR",
     "measure in a memory cgroup hierarchy of pcbench's own: three\n"
     "levels under DIR (cgroup v2, delegated to you, memory in its\n"
     "cgroup.subtree_control), memory.min/low on the top one as in\n"
     "seed 000; removed at the end. Without it pcbench writes no\n"
     "cgroup and runs in the one it was started in"},
    {"list-events", O_LIST_EVENTS, NULL,
     "the event table for this machine's PMU, or --pmu NAME\n"
     "(an unknown NAME lists the known ones)"},
    {"pmu", O_PMU, "NAME",
     "with --list-events: the PMU whose table to print; with --dry-run: plan the counters as\n"
     "encoded for that PMU (e.g. emr, gnr, amd64_fam1ah_zen5)"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};

const struct cmd_help measure_help = {
    .name = "",
    .synopsis = "usage: pcbench [measure] [options] [--benchmark_filter=REGEX]\n",
    .about = "Measures models of the Linux memcg charge paths with threads pinned by hwloc,\n"
	     "one equal-time window per repetition, and writes one CSV row per measurement.\n",
    .opts = measure_opts,
    .opt_more = selection_more,
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
	"verdict (its row says \"no verdict\" and why). When several apply: 3, then 1, then\n"
	"5, then 4.\n"
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

void list_scenarios(void)
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
int take_gb_args(int *argc, char **argv, char **gb, struct options *o)
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
			gb[n++] = argv[i]; /* Google Benchmark's own report of ns/op: gbshim.cc */
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

static double parse_seconds(const char *s)
{
	double v;

	if (num_double(s, 0.001, 3600, &v))
		usage_error("--time", s, "expected seconds in [0.001, 3600]");
	return v;
}

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

/* parse_design - "blocks" (0) or "independent" (1). */
static int parse_design(const char *s)
{
	if (!strcmp(s, "blocks"))
		return 0;
	if (!strcmp(s, "independent"))
		return 1;
	usage_error("--design", s, "expected blocks or independent");
	return 0;
}

static int parse_reps(const char *s)
{
	int v;

	if (num_int(s, 10, 1, 1000, &v))
		usage_error("--repetitions", s, "expected an integer in [1, 1000]");
	return v;
}

/* add_param - an option that stands for --param NAME=VALUE. */
static void add_param(struct options *o, const char *name, const char *value)
{
	if (o->sel.nparams == SELECTION_MAX_PARAMS)
		usage_error("--param", value, "more than %d parameters", SELECTION_MAX_PARAMS);
	o->sel.params[o->sel.nparams++] = xasprintf("%s=%s", name, value);
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

/*
 * measuring_option - the options of the windows, the noise judging and the blocks (@c, with
 * @arg): 1 when @c is one of them, 0 otherwise.
 */
static int measuring_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case O_NOISE_MAX:
		o->noise_max_pct = parse_noise_max("--noise-max", arg);
		break;
	case O_NOISE_RETRIES:
		if (num_int(arg, 10, 0, 100, &o->noise_retries))
			usage_error("--noise-retries", arg, "expected an integer in [0, 100]");
		break;
	case O_IMBALANCE_MIN:
		if (num_double(arg, 0, 1, &o->imbalance_min))
			usage_error("--imbalance-min", arg,
				    "expected a ratio in [0, 1] (0: never)");
		break;
	case O_TIME:
		o->time_s = parse_seconds(arg);
		o->time_set = 1;
		break;
	case 'r':
		o->repetitions = parse_reps(arg);
		o->reps_set = 1;
		break;
	case O_DESIGN:
		o->independent = parse_design(arg);
		break;
	case O_HOME_PAGES:
		if (strcmp(arg, "shuffle") && strcmp(arg, "reuse"))
			usage_error("--home-pages", arg, "expected shuffle or reuse");
		o->home_reuse = !strcmp(arg, "reuse");
		break;
	case O_PRECISION:
		if (num_double(arg, 1e-9, 1000, &o->precision))
			usage_error("--precision", arg, "expected a percentage in (0, 1000]");
		break;
	case O_BUDGET:
		if (num_double(arg, 1, 86400, &o->budget_s))
			usage_error("--budget", arg, "expected seconds in [1, 86400]");
		break;
	case O_MAX_BLOCKS:
		if (num_int(arg, 10, 2, 10000, &o->max_blocks))
			usage_error("--max-blocks", arg, "expected an integer in [2, 10000]");
		break;
	default:
		return 0;
	}
	return 1;
}

/* run_dir_file_option - checked now, written at the end: its directory must take a file. */
static void run_dir_file_option(struct options *o, char *arg)
{
	char *dir = xstrdup(arg), *slash = strrchr(dir, '/');

	if (slash)
		*slash = '\0';
	if (access(slash ? (dir[0] ? dir : "/") : ".", W_OK | X_OK))
		usage_error("--run-dir-file", arg, "its directory is not writable: %s",
			    strerror(errno));
	free(dir);
	o->run_dir_file = arg;
}

void parse_options(int argc, char **argv, struct options *o)
{
	struct opt_parser op;
	int c;

	option_defaults(o);
	opt_init(&op, &measure_help);
	while ((c = opt_next(&op, argc, argv)) != -1) {
		if (selection_option(&o->sel, c, optarg) || measuring_option(o, c, optarg))
			continue;
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case O_CSV:
			o->csv = optarg;
			break;
		case O_LIST:
			o->list = 1;
			break;
		case O_TOPOLOGY:
			o->sel.topology = optarg;
			break;
		case O_HOME:
			o->home = optarg;
			break;
		case O_DRY_RUN:
			o->dry_run = 1;
			break;
		case O_CHECK_HOST:
			o->check_host = 1;
			break;
		case O_LAYOUT:
			o->layout = optarg;
			break;
		case O_RECIPE:
			o->recipe = optarg;
			break;
		case O_FORCE:
			o->force = 1;
			break;
		case O_EVENTS:
			o->events = optarg;
			o->events_set = 1;
			break;
		case O_EVENTS_KERNEL:
			o->events_kernel = 1;
			break;
		case O_LIST_EVENTS:
			o->list_events = 1;
			break;
		case O_PMU:
			o->pmu = optarg;
			break;
		case O_CGROUP:
			o->cgroup = optarg;
			break;
		case O_PROFILE:
			o->profile = 1;
			break;
		case O_WITH_MODEL:
			o->with_model = 1;
			break;
		case O_MATRIX:
			o->matrix = 1;
			break;
		case O_MATRIX_CPUS:
			o->matrix = 1;
			o->matrix_cpus = optarg;
			break;
		case O_LABEL:
			o->label = optarg;
			break;
		case O_RUN_DIR_FILE:
			run_dir_file_option(o, optarg);
			break;
		}
	}
	if (optind < argc)
		usage_error("argument", argv[optind], "unexpected (see --help)");
	if (o->label && (!o->label[0] || strlen(o->label) > 64 ||
			 strspn(o->label, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					  "0123456789._-") != strlen(o->label) ||
			 o->label[0] == '.'))
		usage_error("--label", o->label,
			    "expected 1 to 64 of A-Z a-z 0-9 . _ - (not starting with .)");
	if (o->recipe)
		add_param(o, "recipe", o->recipe);
	if (o->check_host &&
	    (!strcmp(o->sel.topology, "host") || !strncmp(o->sel.topology, "synthetic:", 10)))
		usage_error("--check-host", o->sel.topology,
			    "needs --topology FILE.xml, the export of a lab machine");
}
