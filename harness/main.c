// SPDX-License-Identifier: MIT
/* main.c - the pcbench command line: resolve everything, then measure, write, report. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "context.h"
#include "csv.h"
#include "gbshim.h"
#include "harness.h"
#include "model.h"
#include "opt.h"
#include "plan.h"
#include "pmu.h"
#include "pmu_events.h"
#include "report.h"
#include "results.h"
#include "stats.h"
#include "topology.h"
#include "util.h"

#define MAX_THREAD_COUNTS 256

/* After the contract's 17 columns (results.h): these, then param_*, counters, model. */
static const char *const extra_cols[] = {"host",	"window_s",  "home",
					 "topology_fp", "layout_fp", "pair_class"};
#define NBASE (RESULTS_NREQ + (int)(sizeof(extra_cols) / sizeof(extra_cols[0])))

struct options {
	struct selection sel;
	const char *out, *csv, *filter;
	const char *home, *layout, *recipe, *events, *pmu, *matrix_cpus;
	double time_s;
	int repetitions, list, dry_run, check_host, force, events_kernel, list_events, with_model;
	int matrix;
};

/* The state of a run, shared by the measurement callback. */
static struct run {
	struct options opt;
	struct family *fams;
	int nfams;
	const char *cols[NBASE + 3 + SELECTION_MAX_PARAMS + 4 * 64 + 1 + MODEL_NCOLS];
	const char *param_cols[SELECTION_MAX_PARAMS]; /* parameter name of each param_ column */
	int ncols, nparam_cols;
	struct csv_writer *csv, *csv_extra;
	struct pmu_set *pmu;
	const char *ev_cols[64]; /* event column stems: every abstract event, then the others */
	int ev_index[64];	 /* each stem's index in the pmu set, or -1 */
	int nev_cols;
	char unmapped_note[512]; /* abstract events --events auto has no mapping for */
	struct report *report;
	struct run_context ctx;
	char run_dir[PATH_MAX], context_path[PATH_MAX + 16];
	char topology_fp[17];
	int done, total, errors, skipped, ok, write_failed, stopped;
	double t_first;
	/* Long-lived allocations, kept reachable until exit. */
	char **gb_argv, **orig_argv, **homes;
	struct topo *topo;
	struct gb_family *gbf;
} run;

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
	O_MATRIX,
	O_MATRIX_CPUS,
};

static const struct opt measure_opts[] = {
    {"scenario", 's', "LIST", "scenarios (default: all)"},
    {"preset", 'p', "LIST", "presets (default: all of each scenario)"},
    {"workload", 'w', "LIST", "scenario workloads (default: all)"},
    {"threads", 't', "LIST", "e.g. 1,2 | 1-8 | max (default: 1,max)"},
    {"placement", 'P', "NAME",
     "compact | scatter | cores | smt | same-l3 | cross-l3 |\n"
     "cross-socket, or an hwloc location such as core:0-7,\n"
     "pu:even, package:0.core:0-3.pu:0 (default: scatter)"},
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
    {"time", O_TIME, "SECONDS",
     "one measurement window (default 0.3, in [0.001, 3600]),\n"
     "after a warm-up of a tenth of it"},
    {"repetitions", 'r', "N", "(default 3), in [1, 1000]"},
    {"param", 'D', "NAME=VALUE", "override a scenario parameter (repeatable)"},
    {"layout", O_LAYOUT, "NAME|FILE",
     "run every selected scenario whose structs the layout\n"
     "describes with it (the presets keep their algorithm\n"
     "knobs); a built-in name or a layout file"},
    {"recipe", O_RECIPE, "FILE", "the probe scenario's accesses (same as -D recipe=FILE)"},
    {"out", 'o', "DIR",
     "run directory (default: results/<UTC date-time>-<host>);\n"
     "an existing one is never overwritten..."},
    {"force", O_FORCE, NULL, "...unless this is given"},
    {"csv", O_CSV, "FILE", "also write the CSV here (appends if the header matches)"},
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
    {"list-events", O_LIST_EVENTS, NULL,
     "the event table for this machine's PMU, or --pmu NAME\n"
     "(skx, clx, icx, spr, amd64_fam17h_zen2,\n"
     "amd64_fam19h_zen3, amd64_fam19h_zen4)"},
    {"pmu", O_PMU, "NAME", "with --list-events: the PMU whose table to print"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};

const struct cmd_help measure_help = {
    .name = "",
    .synopsis = "usage: pcbench [measure] [options] [--benchmark_*=...]\n",
    .about = "Measures models of the Linux memcg charge paths with threads pinned by hwloc,\n"
	     "one equal-time window per repetition, and writes one CSV row per measurement.\n",
    .opts = measure_opts,
    .after =
	"  --benchmark_*            passed to Google Benchmark (--benchmark_filter=REGEX\n"
	"                           selects families by name, e.g.\n"
	"                           page_counter/preset:v6.0-rc1/workload:direct/"
	"placement:scatter/threads:2)\n"
	"\n"
	"Exit status: 0 all measured ok, 1 some measurement failed (rows say why) or a\n"
	"result could not be written, 2 bad usage or environment (nothing measured),\n"
	"3 interrupted (SIGINT/SIGTERM: finished rows are kept), 4 everything was skipped\n"
	"(nothing on this machine could run what was asked).\n"
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

static void list_scenarios(void)
{
	char err[512];

	for (int i = 0; all_scenarios[i]; i++) {
		const struct scenario *sc = all_scenarios[i];

		printf("%s\n    %s\n  presets:\n", sc->name, sc->desc);
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
		for (int j = 0; sc->workloads[j].name; j++)
			printf("    %-10s %s {%s}\n", sc->workloads[j].name, sc->workloads[j].desc,
			       sc->workloads[j].set);
		printf("  parameters:\n");
		for (int j = 0; sc->params[j].name; j++) {
			const struct bench_param *p = &sc->params[j];

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

	gb[n++] = argv[0];
	for (int i = 1; i < *argc; i++) {
		if (!strncmp(argv[i], "--benchmark_filter=", 19)) {
			o->filter = argv[i] + 19;
		} else if (!strncmp(argv[i], "--benchmark_", 12)) {
			user_interleave |= !strncmp(argv[i], interleave, 38);
			gb[n++] = argv[i];
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
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0.001 && v <= 3600))
		usage_error("--time", s, "expected seconds in [0.001, 3600]");
	return v;
}

static int parse_reps(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 1000)
		usage_error("--repetitions", s, "expected an integer in [1, 1000]");
	return (int)v;
}

/* add_param - an option that stands for --param NAME=VALUE. */
static void add_param(struct options *o, const char *name, const char *value)
{
	if (o->sel.nparams == SELECTION_MAX_PARAMS)
		usage_error("--param", value, "more than %d parameters", SELECTION_MAX_PARAMS);
	o->sel.params[o->sel.nparams++] = xasprintf("%s=%s", name, value);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	struct opt_parser op;
	int c;

	o->sel.threads = "1,max";
	o->sel.placement = "scatter";
	o->time_s = 0.3;
	o->repetitions = 3;
	o->sel.topology = "host";
	o->events = "auto";
	o->home = "first";
	opt_init(&op, &measure_help);
	while ((c = opt_next(&op, argc, argv)) != -1) {
		if (selection_option(&o->sel, c, optarg))
			continue;
		switch (c) {
		case O_TIME:
			o->time_s = parse_seconds(optarg);
			break;
		case 'r':
			o->repetitions = parse_reps(optarg);
			break;
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
		}
	}
	if (optind < argc)
		usage_error("argument", argv[optind], "unexpected (see --help)");
	if (o->layout)
		add_param(o, "layout", o->layout);
	if (o->recipe)
		add_param(o, "recipe", o->recipe);
	if (o->check_host &&
	    (!strcmp(o->sel.topology, "host") || !strncmp(o->sel.topology, "synthetic:", 10)))
		usage_error("--check-host", o->sel.topology,
			    "needs --topology FILE.xml, the export of a lab machine");
}

static void add_param_col(const char *name)
{
	for (int i = 0; i < run.nparam_cols; i++)
		if (!strcmp(run.param_cols[i], name))
			return;
	if (run.nparam_cols < SELECTION_MAX_PARAMS)
		run.param_cols[run.nparam_cols++] = name;
}

/* build_families - every (scenario, preset, workload, threads) selected, resolved. */
/* add_family - one (scenario, preset, workload, threads, home), resolved and placed. */
static void add_family(const struct options *o, const struct topo *topo, struct family f,
		       regex_t *re, int negate)
{
	char err[512], *p = f.name, *end = f.name + sizeof(f.name);

	p += snprintf(p, (size_t)(end - p), "%s/preset:%s/workload:%s/placement:%s/threads:%d",
		      f.sc->name, f.preset->name, f.wl->name, f.placement, f.threads);
	if (strcmp(f.home_spec, "first"))
		snprintf(p, (size_t)(end - p), "/home:%s", f.home_spec);
	if (re && (regexec(re, f.name, 0, NULL, 0) == 0) == negate)
		return;
	f.cfg = cfg_new(f.sc, f.preset, f.wl, f.threads, o->sel.params, o->sel.nparams, err,
			sizeof(err));
	if (!f.cfg)
		usage_error("configuration", f.name, "%s", err);
	if (cfg_layout(f.cfg)) {
		snprintf(f.layout_fp, sizeof(f.layout_fp), "%016llx",
			 (unsigned long long)layout_fingerprint(cfg_layout(f.cfg)));
	} else if (f.sc->computed_layout) {
		struct layout *l = f.sc->computed_layout(f.cfg);

		if (l)
			snprintf(f.layout_fp, sizeof(f.layout_fp), "%016llx",
				 (unsigned long long)layout_fingerprint(l));
		layout_free(l);
	}
	if (family_place(&f, topo, err, sizeof(err)))
		usage_error("--placement", o->sel.placement, "%s", err);
	if (f.pus && topo_home_parse(topo, f.home_spec, f.pus[0], &f.home, err, sizeof(err)))
		usage_error("--home", f.home_spec, "%s", err);
	run.fams = realloc(run.fams, (size_t)(run.nfams + 1) * sizeof(f));
	if (!run.fams)
		usage_error("memory", "families", "out of memory");
	run.fams[run.nfams++] = f;
}

/*
 * takes_layout - with --layout, whether scenario @sc describes its structs with it (its
 * check() accepts it). Not taking it is an error when the scenario was asked for by name.
 */
static int takes_layout(const struct options *o, const struct scenario *sc, int named)
{
	struct bench_cfg *cfg;
	char err[1024];

	if (!o->layout)
		return 1;
	cfg = cfg_new(sc, &sc->presets[0], &sc->workloads[0], 1, (char *const *)o->sel.params,
		      o->sel.nparams, err, sizeof(err));
	if (cfg) {
		cfg_free(cfg);
		return 1;
	}
	if (named)
		usage_error("--layout", o->layout, "scenario %s cannot use it: %s", sc->name, err);
	fprintf(stderr, "pcbench: --layout %s: not for scenario %s (%s)\n", o->layout, sc->name,
		err);
	return 0;
}

/* home_specs - the --home values a run measures: "each" is one per NUMA node. */
static char **home_specs(const char *spec, const struct topo *topo)
{
	struct topo_home h;
	char err[512], **v;
	int nodes[64], n;

	if (strcmp(spec, "each")) {
		if (topo_home_parse(topo, spec, 0, &h, err, sizeof(err)))
			usage_error("--home", spec, "%s", err);
		v = xcalloc(2, sizeof(char *));
		v[0] = xstrdup(spec);
		return v;
	}
	n = topo_nodes(topo, nodes, 64);
	v = xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++) {
		v[i] = xmalloc(24);
		snprintf(v[i], 24, "node:%d", nodes[i]);
	}
	return v;
}

/* build_families - every (scenario, preset, workload, threads, home) selected, resolved. */
static void build_matrix(const struct options *o, const struct topo *topo);

static void build_families(const struct options *o, const struct topo *topo)
{
	char **scn = o->sel.scenarios ? split_list(o->sel.scenarios) : NULL;
	char **pre = o->sel.presets ? split_list(o->sel.presets) : NULL;
	char **wls = o->sel.workloads ? split_list(o->sel.workloads) : NULL;
	char **homes = run.homes = home_specs(o->home, topo);
	int counts[MAX_THREAD_COUNTS], ncounts;
	char err[512];
	regex_t re;
	int negate = 0;

	selection_check(all_scenarios, &o->sel, scn, pre, wls);
	if (o->matrix) {
		free(scn);
		free(pre);
		free(wls);
		build_matrix(o, topo);
		return;
	}
	ncounts = parse_threads(o->sel.threads, topo_npus(topo), counts, MAX_THREAD_COUNTS, err,
				sizeof(err));
	if (ncounts < 0)
		usage_error("--threads", o->sel.threads, "%s", err);
	if (o->filter) {
		const char *pat = o->filter;

		negate = pat[0] == '-';
		pat += negate;
		if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB))
			usage_error("--benchmark_filter", o->filter, "not a valid extended regex");
	}

	for (int s = 0; all_scenarios[s]; s++) {
		const struct scenario *sc = all_scenarios[s];

		if (!in_list(scn, sc->name) || !takes_layout(o, sc, scn != NULL))
			continue;
		for (int p = 0; sc->presets[p].name; p++) {
			if (!in_list(pre, sc->presets[p].name))
				continue;
			for (int w = 0; sc->workloads[w].name; w++) {
				if (!in_list(wls, sc->workloads[w].name))
					continue;
				for (int t = 0; t < ncounts; t++)
					for (int h = 0; homes[h]; h++)
						add_family(o, topo,
							   (struct family){
							       .sc = sc,
							       .preset = &sc->presets[p],
							       .wl = &sc->workloads[w],
							       .placement = o->sel.placement,
							       .threads = counts[t],
							       .home_spec = homes[h],
							   },
							   o->filter ? &re : NULL, negate);
			}
		}
		for (int i = 0; sc->params[i].name; i++)
			if (strcmp(sc->params[i].name, "layout"))
				add_param_col(sc->params[i].name);
	}
	if (o->filter)
		regfree(&re);
	free(scn);
	free(pre);
	free(wls);
	if (!run.nfams)
		usage_error("selection", o->filter ? o->filter : "", "selects nothing to measure");
}

/*
 * build_matrix - the c2c probe on every pair of PUs (--matrix): one family per pair
 * (a, b) with a >= b, two threads pinned to a and b, one thread on the diagonal.
 */
static void build_matrix(const struct options *o, const struct topo *topo)
{
	const struct scenario *sc = scenario_find("c2c");
	const char *wl = o->sel.workloads ? o->sel.workloads : "pingpong";
	int *cpus = xcalloc((size_t)topo_npus(topo), sizeof(int)), n;
	char err[512];

	if (!sc || (o->sel.scenarios && strcmp(o->sel.scenarios, "c2c")))
		usage_error("--matrix", o->sel.scenarios ? o->sel.scenarios : "",
			    "only for the c2c probe (-s c2c)");
	if (!workload_find(sc, wl))
		usage_error("--workload", wl, "c2c has no such workload (see --list)");
	n = topo_cpu_list(topo, o->matrix_cpus, cpus, topo_npus(topo), err, sizeof(err));
	if (n < 1)
		usage_error("--matrix-cpus", o->matrix_cpus ? o->matrix_cpus : "", "%s", err);
	for (int i = 0; i < n; i++) {
		for (int j = 0; j <= i; j++) {
			struct family f = {
			    .sc = sc,
			    .preset = &sc->presets[0],
			    .wl = workload_find(sc, wl),
			    .placement = "pair",
			    .threads = i == j ? 1 : 2,
			    .home_spec = "first",
			};

			f.matrix_ns = xcalloc((size_t)o->repetitions, sizeof(double));
			f.pus = xcalloc(2, sizeof(int));
			f.pus[0] = cpus[i];
			f.pus[1] = cpus[j];
			f.cpus = xcalloc(2, 12);
			snprintf(f.cpus, 24, i == j ? "%d" : "%d;%d", cpus[i], cpus[j]);
			snprintf(f.name, sizeof(f.name), "c2c/workload:%s/pair:%d-%d", wl, cpus[i],
				 cpus[j]);
			f.cfg = cfg_new(sc, f.preset, f.wl, f.threads, o->sel.params,
					o->sel.nparams, err, sizeof(err));
			if (!f.cfg)
				usage_error("configuration", f.name, "%s", err);
			if (topo_home_parse(topo, "first", f.pus[0], &f.home, err, sizeof(err)))
				usage_error("--home", "first", "%s", err);
			run.fams = realloc(run.fams, (size_t)(run.nfams + 1) * sizeof(f));
			if (!run.fams)
				usage_error("memory", "families", "out of memory");
			run.fams[run.nfams++] = f;
		}
	}
	for (int i = 0; sc->params[i].name; i++)
		add_param_col(sc->params[i].name);
	free(cpus);
}

/* print_matrix - the lower-triangular table of median ns per transfer (--matrix). */
static void print_matrix(void)
{
	int n = 0, *cpus = xcalloc((size_t)run.nfams + 1, sizeof(int));

	for (int i = 0; i < run.nfams; i++)
		if (run.fams[i].threads == 1)
			cpus[n++] = run.fams[i].pus[0];
	printf("\nc2c %s: median ns per one-way transfer (diagonal: one thread, no transfer)\n%6s",
	       run.nfams ? run.fams[0].wl->name : "", "");
	for (int j = 0; j < n; j++)
		printf(" %7d", cpus[j]);
	printf("\n");
	for (int i = 0; i < n; i++) {
		printf("%6d", cpus[i]);
		for (int j = 0; j <= i; j++) {
			const struct family *f = NULL;

			for (int k = 0; k < run.nfams && !f; k++)
				if (run.fams[k].pus[0] == cpus[i] &&
				    (run.fams[k].threads == 1 ? cpus[i] == cpus[j]
							      : run.fams[k].pus[1] == cpus[j]))
					f = &run.fams[k];
			if (f && f->matrix_n)
				printf(" %7.1f", stats_median(f->matrix_ns, (size_t)f->matrix_n));
			else
				printf(" %7s", "-");
		}
		printf("\n");
	}
	free(cpus);
}

/* print_plan - the --dry-run table for every thread count, and the plan CSV. */
static void print_plan(const struct options *o, const struct topo *topo)
{
	static const char *const cols[] = {"threads", "thread",	 "pu",	"core",
					   "l3",      "package", "numa"};
	struct csv_writer *csv = NULL;
	char err[PATH_MAX + 128];
	const struct family *seen[MAX_THREAD_COUNTS * 4];
	int nseen = 0;

	if (o->csv && !(csv = csv_create(o->csv, cols, 7, 0, err, sizeof(err))))
		usage_error("--csv", o->csv, "%s", err);
	printf("topology %s (fingerprint %s)%s\nplacement %s, memory home %s\n", topo_source(topo),
	       run.topology_fp, topo_is_host(topo) ? "" : ", not this machine: plan only",
	       o->sel.placement, o->home);
	for (int i = 0; i < run.nfams; i++) {
		const struct family *f = &run.fams[i];
		int dup = 0, pairs[PAIR_COUNT] = {0};
		char home[32];

		/* the plan depends only on the thread count and the home, not the scenario */
		for (int j = 0; j < nseen; j++)
			dup |= seen[j]->threads == f->threads && seen[j]->home_spec == f->home_spec;
		if (dup || nseen == (int)(sizeof(seen) / sizeof(seen[0])))
			continue;
		seen[nseen++] = f;
		printf("\nthreads=%d", f->threads);
		if (strcmp(f->home_spec, "first"))
			printf(" home=%s", f->home_spec);
		if (f->skip[0]) {
			printf(": skipped: %s\n", f->skip);
			continue;
		}
		printf("\n%6s %6s %6s %4s %8s %5s\n", "thread", "pu", "core", "l3", "package",
		       "numa");
		for (int t = 0; t < f->threads; t++) {
			struct topo_pu pu;
			char v[6][16];
			const char *row[7];

			topo_pu_info(topo, f->pus[t], &pu);
			printf("%6d %6d %6d %4d %8d %5d\n", t, pu.os, pu.core, pu.l3, pu.package,
			       pu.numa);
			snprintf(v[0], 16, "%d", t);
			snprintf(v[1], 16, "%d", pu.os);
			snprintf(v[2], 16, "%d", pu.core);
			snprintf(v[3], 16, "%d", pu.l3);
			snprintf(v[4], 16, "%d", pu.package);
			snprintf(v[5], 16, "%d", pu.numa);
			snprintf(err, sizeof(err), "%d", f->threads);
			row[0] = err;
			for (int c = 0; c < 6; c++)
				row[c + 1] = v[c];
			if (csv && csv_write_row(csv, row))
				usage_error("--csv", o->csv, "%s", strerror(errno));
			for (int u = 0; u < t; u++)
				pairs[topo_pair_class(topo, f->pus[u], f->pus[t])] = 1;
		}
		printf("pair classes:");
		for (int c = PAIR_SMT; c < PAIR_COUNT; c++)
			if (pairs[c])
				printf(" %s", topo_pair_names[c]);
		topo_home_name(&f->home, home, sizeof(home));
		printf("%s\nmemory home: %s%s\n", f->threads < 2 ? " none (one thread)" : "",
		       f->home.interleave ? "interleaved over every NUMA node" : "NUMA node ",
		       f->home.interleave ? "" : home);
	}
	if (csv && csv_close(csv))
		usage_error("--csv", o->csv, "%s", strerror(errno));
}

/* open_extra_csv - the --csv file, appended to only when its header is this run's. */
static struct csv_writer *open_extra_csv(const char *path)
{
	char err[PATH_MAX + 256];
	struct csv_writer *w = csv_create(path, run.cols, run.ncols, 1, err, sizeof(err));

	if (!w)
		usage_error("--csv", path, "%s", err);
	return w;
}

static void open_outputs(const struct options *o)
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

static char *options_json(const struct options *o)
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

static void write_context(void)
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
static void event_columns(const struct options *o)
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
static void write_row(const struct family *f, int rep, enum status st, const char *reason,
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

static void progress(const struct family *f, int rep, enum status st, const char *what)
{
	double elapsed = now_s() - run.t_first;
	int left = run.total - run.done;
	double eta = run.done ? elapsed / run.done * left : 0;

	fprintf(stderr, "[%d/%d] %s rep %d/%d: %s  ETA %dm%02ds\n", run.done, run.total, f->name,
		rep, run.opt.repetitions, st == ST_OK ? what : status_names[st], (int)eta / 60,
		(int)eta % 60);
}

/* home_cell - the `home` column: the NUMA nodes that held the shared state, as verified. */
static void home_cell(const struct family *f, char *buf, size_t len)
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

/* Each thread of each repetition of each family runs this, from Google Benchmark. */
static void family_thread(void *arg, int tid)
{
	struct family *f = arg;
	struct meas_result r;
	char what[64], home[256];
	int rep;

	/* Flags read here are only written by thread 0 between measurements. */
	if (run.write_failed || run.stopped)
		return;
	meas_thread(&f->m, tid);
	if (tid)
		return;
	meas_result(&f->m, &r);
	if (r.aborted) { /* interrupted: abandon this measurement, write no partial row */
		run.stopped = 1;
		meas_reset(&f->m);
		return;
	}
	rep = ++f->reps_done;
	if (!r.failed && !r.ops) {
		r.failed = 1;
		r.reason = "no operation completed in the window";
	}
	home_cell(f, home, sizeof(home));
	write_row(f, rep, r.failed ? ST_ERROR : ST_OK, r.failed ? r.reason : "", &r, home);
	if (f->matrix_ns && !r.failed) /* ns per one-way transfer, for the matrix table */
		f->matrix_ns[f->matrix_n++] = r.duration_s * 1e9 / (double)r.ops;
	snprintf(what, sizeof(what), "%.4g ops/s", r.failed ? 0 : (double)r.ops / r.duration_s);
	progress(f, rep, r.failed ? ST_ERROR : ST_OK, r.failed ? r.reason : what);
	meas_reset(&f->m);
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
		fprintf(stderr, "pcbench: --with-model: %s: no traced build\n", f->name);
		return;
	}
	model_run(traced, f->cfg, topo, f->pus, f->threads, &mo, &mr);
	if (!mr.ok)
		fprintf(stderr, "pcbench: --with-model: %s: %s\n", f->name, mr.reason);
	model_csv_values(&mr, f->model);
	model_result_free(&mr);
}

/* on_signal - the first SIGINT/SIGTERM stops the run cleanly, a second one at once. */
static void on_signal(int sig)
{
	(void)sig;
	if (meas_abort)
		_exit(3);
	meas_abort = 1;
}

/* load_topology - the --topology source; a foreign one only plans (or is checked). */
static struct topo *load_topology(const struct options *o)
{
	struct topo *t, *host;
	char err[PATH_MAX + 128], fp[17];

	t = run.topo = topo_load(o->sel.topology, err, sizeof(err));
	if (!t)
		usage_error("--topology", o->sel.topology, "%s", err);
	topo_fingerprint(t, run.topology_fp);
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
	if (strcmp(fp, run.topology_fp))
		usage_error("--check-host", o->sel.topology,
			    "this host's topology (fingerprint %s, %d PUs) differs from the file's "
			    "(fingerprint %s, %d PUs)",
			    fp, topo_npus(host), run.topology_fp, topo_npus(t));
	fprintf(stderr, "pcbench: --check-host: this host matches %s (fingerprint %s)\n",
		o->sel.topology, fp);
	topo_free(t);
	return host;
}

/* link_latest - results/latest points at the newest run directory (make run reports it). */
static void link_latest(void)
{
	char target[PATH_MAX];
	const char *base = strrchr(run.run_dir, '/');

	if (!run.opt.out && base) {
		snprintf(target, sizeof(target), "%s", base + 1); /* results/<stamp>-<host> */
	} else if (!realpath(run.run_dir, target)) {
		return;
	}
	if (mkdir("results", 0755) && errno != EEXIST)
		return;
	unlink("results/latest.tmp");
	if (symlink(target, "results/latest.tmp") || rename("results/latest.tmp", "results/latest"))
		fprintf(stderr, "pcbench: results/latest: %s\n", strerror(errno));
}

int measure_main(int argc, char **argv)
{
	char **gb_argv = run.gb_argv = xcalloc((size_t)argc + 2, sizeof(char *));
	char **orig_argv = run.orig_argv = xcalloc((size_t)argc + 1, sizeof(char *));
	int gb_argc, orig_argc = argc;
	struct gb_family *gbf;
	struct topo *topo;
	char err[PATH_MAX + 128], path[PATH_MAX + 32];
	int ngb = 0;

	memcpy(orig_argv, argv, (size_t)argc * sizeof(char *));
	gb_argc = take_gb_args(&argc, argv, gb_argv, &run.opt);
	parse_options(argc, argv, &run.opt);
	if (run.opt.list) {
		list_scenarios();
		return 0;
	}
	if (run.opt.pmu && !run.opt.list_events)
		usage_error("--pmu", run.opt.pmu, "only with --list-events");
	if (run.opt.list_events) {
		if (pmu_list_events(stdout, run.opt.pmu, err, sizeof(err)))
			usage_error("--list-events", run.opt.pmu ? run.opt.pmu : "", "%s", err);
		return 0;
	}
	if (gbshim_init(&gb_argc, gb_argv))
		usage_error("option", gb_argv[1], "not a Google Benchmark flag");
	run.pmu = pmu_resolve(run.opt.events, run.opt.events_kernel, err, sizeof(err));
	if (!run.pmu) {
		fprintf(stderr, "pcbench: %s\n", err);
		return 2;
	}
	event_columns(&run.opt);

	topo = run.topo = load_topology(&run.opt);
	build_families(&run.opt, topo);
	if (run.opt.dry_run) {
		print_plan(&run.opt, topo);
		topo_free(topo);
		return 0;
	}

	context_init(&run.ctx, orig_argc, orig_argv);
	run.ctx.options_json = options_json(&run.opt);
	open_outputs(&run.opt);
	write_context();
	snprintf(path, sizeof(path), "%s/topology.xml", run.run_dir);
	if (topo_export_xml(topo, path, err, sizeof(err)))
		fprintf(stderr, "pcbench: topology.xml: %s\n", err);
	snprintf(path, sizeof(path), "%s/topology_fp", run.run_dir);
	{
		FILE *f = fopen(path, "w");

		if (!f || fprintf(f, "%s\n", run.topology_fp) < 0 || fclose(f))
			fprintf(stderr, "pcbench: %s: %s\n", path, strerror(errno));
	}
	link_latest();
	if (pmu_absent_note(run.pmu)[0])
		fprintf(stderr, "pcbench: counters: %s (those cells stay empty)\n",
			pmu_absent_note(run.pmu));
	run.report = report_new();
	run.total = run.nfams * run.opt.repetitions;
	run.t_first = now_s();

	gbf = run.gbf = xcalloc((size_t)run.nfams, sizeof(*gbf));
	for (int i = 0; i < run.nfams; i++) {
		struct family *f = &run.fams[i];
		char home[32] = "";

		if (f->skip[0]) {
			if (f->pus)
				topo_home_name(&f->home, home, sizeof(home));
			for (int rep = 1; rep <= run.opt.repetitions && !run.write_failed; rep++) {
				write_row(f, rep, ST_SKIPPED, f->skip, NULL, home);
				progress(f, rep, ST_SKIPPED, f->skip);
			}
			continue;
		}
		if (run.opt.with_model)
			model_family(f, topo);
		meas_init(&f->m, f->sc, f->cfg, topo, f->threads, f->pus, run.opt.time_s,
			  run.opt.time_s / 10, &f->home);
		meas_set_counters(&f->m, run.pmu);
		gbf[ngb++] = (struct gb_family){f->name, f->threads, f};
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (!run.write_failed && !meas_abort)
		gbshim_run(gbf, ngb, run.opt.repetitions, family_thread);
	if (meas_abort) {
		run.ctx.interrupted = 1;
		utc_now(run.ctx.end, sizeof(run.ctx.end));
		write_context();
		csv_close(run.csv);
		csv_close(run.csv_extra);
		fprintf(stderr, "pcbench: interrupted: %d of %d measurements kept in %s\n",
			run.done, run.total, run.run_dir);
		return 3;
	}

	if (run.opt.matrix)
		print_matrix();
	else
		report_print(run.report, stdout);
	printf("\nrun directory: %s (%d ok, %d error, %d skipped)\n", run.run_dir, run.ok,
	       run.errors, run.skipped);
	utc_now(run.ctx.end, sizeof(run.ctx.end));
	write_context();
	if (csv_close(run.csv) || csv_close(run.csv_extra))
		run.write_failed = 1;
	if (run.errors || run.write_failed)
		return 1;
	return run.ok ? 0 : 4;
}

static int help_main(int argc, char **argv);
static const struct opt help_opts[] = {
    {"commands", 'c', NULL, "the commands, one a line: NAME<TAB>SUMMARY"},
    {"options", 'O', NULL,
     "every command's options, one a line:\n"
     "COMMAND<TAB>-S<TAB>--LONG<TAB>ARG<TAB>HELP (empty fields: none)"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};
static const struct cmd_help help_help = {
    .name = "help",
    .synopsis = "usage: pcbench help [CMD | --commands | --options]\n",
    .about = "The commands, or the options and usage of command CMD (as CMD --help prints\n"
	     "them); --commands and --options print them for scripts (completion, man page).\n",
    .opts = help_opts,
};

/* The command table: dispatch, --help and `pcbench help` come from these rows. */
static const struct command commands[] = {
    {"measure", measure_main, "measure scenarios with pinned threads (the default command)",
     &measure_help},
    {"compare", compare_main, "compare presets, runs or hosts: medians, p-values, verdicts",
     NULL /* compare.c still parses its own options: `compare --help` */},
    {"plot", plot_main, "PNG plots of a run through gnuplot", &plot_help},
    {"model", model_main, "the coherence model: line transfers per operation, no measurement",
     &model_help},
    {"layout", layout_main, "layouts from pahole (import); pahole-like views (show)", &layout_help},
    {"help", help_main, "the commands, or the options of one: pcbench help CMD", &help_help},
    {NULL, NULL, NULL, NULL},
};

static const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void print_commands(FILE *out)
{
	fprintf(out, "Commands (pcbench help CMD: its options):\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-9s %s\n", c->name, c->summary);
}

/* print_options - one line per option of @h and its subcommands, for scripts. */
static void print_options(const struct cmd_help *h, const char *name)
{
	for (const struct opt *o = h ? h->opts : NULL; o && o->name; o++) {
		const char *nl = strchr(o->help, '\n');

		printf("%s\t", name);
		if (o->key < OPT_LONG)
			printf("-%c", o->key);
		printf("\t--%s\t%s\t%.*s\n", o->name, o->arg ? o->arg : "",
		       nl ? (int)(nl - o->help) : (int)strlen(o->help), o->help);
	}
	for (int i = 0; h && h->subs && h->subs[i]; i++)
		print_options(h->subs[i], h->subs[i]->name);
}

static int help_main(int argc, char **argv)
{
	struct opt_parser op;
	const struct command *c;
	int ch;

	opt_init(&op, &help_help);
	while ((ch = opt_next(&op, argc, argv)) != -1) {
		for (c = commands; ch == 'c' && c->name; c++)
			printf("%s\t%s\n", c->name, c->summary);
		for (c = commands; ch == 'O' && c->name; c++)
			print_options(c->help, c->name);
		return 0;
	}
	if (optind >= argc) {
		printf("usage: pcbench [CMD] [options]   (CMD is measure when left out)\n\n");
		print_commands(stdout);
		return 0;
	}
	if (optind + 1 < argc)
		usage_error("argument", argv[optind + 1], "unexpected: help takes one CMD");
	c = command_find(argv[optind]);
	if (!c)
		usage_error("help", argv[optind], "no such command (see pcbench help)");
	if (!c->help) /* a command without an option table prints its own help */
		return c->fn(2, (char *[]){argv[optind], "--help", NULL});
	opt_usage(stdout, c->help);
	return 0;
}

int main(int argc, char **argv)
{
	const struct command *c = argc > 1 ? command_find(argv[1]) : NULL;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		opt_usage(stdout, &measure_help);
		printf("\n");
		print_commands(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		context_print_version(stdout);
		return 0;
	}
	if (c)
		return c->fn(argc - 1, argv + 1);
	return measure_main(argc, argv);
}
