// SPDX-License-Identifier: MIT
/* cmd.c - the measure command: options, then resolve everything, measure, write, report. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "harness.h"
#include "opt.h"
#include "outfile.h"
#include "pmu_events.h"
#include "run.h"
#include "num.h"
#include "outfile.h"
#include "stop.h"
#include "util.h"

struct run run;

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
	O_LABEL,
	O_RUN_DIR_FILE,
	O_NOISE_MAX,
	O_NOISE_RETRIES,
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
	"a policy, or an hwloc location such as core:0-7,\n"
	"pu:even, package:0.core:0-3.pu:0 (default: scatter):",
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
    {"time", O_TIME, "SECONDS",
     "one measurement window (default 0.2, in [0.001, 3600]),\n"
     "after a warm-up of a tenth of it"},
    {"noise-max", O_NOISE_MAX, "PCT",
     "a window whose thread waited for its CPU (run delay) or\n"
     "whose planned CPU had steal for more than PCT% of it is\n"
     "disturbed and measured again (default 10, or\n"
     "PCBENCH_NOISE_MAX; off: record the noise, judge nothing)"},
    {"noise-retries", O_NOISE_RETRIES, "N",
     "...at most N times (default 2, in [0, 100]); a row still\n"
     "disturbed gets status disturbed, kept out of statistics"},
    {"repetitions", 'r', "N",
     "(default 5: the fewest that can reach p < 0.05 after the\n"
     "correction, see pcbench compare), in [1, 1000]"},
    {"param", 'D', "NAME=VALUE", "set one scenario parameter (repeatable; VALUE may hold spaces)"},
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
	"  --benchmark_filter=REGEX selects families by name, e.g.\n"
	"                           page_counter/preset:v6.0-rc1/workload:direct/"
	"placement:scatter/threads:2\n"
	"  --benchmark_enable_random_interleaving=false  runs repetitions in order\n"
	"  --benchmark_out=FILE --benchmark_out_format=json|csv\n"
	"                           Google Benchmark's own report: ns/op as the manual\n"
	"                           time, ops as items, a ns_per_op counter\n"
	"                           (other --benchmark_* flags are refused)\n"
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

	gb[n++] = argv[0];
	for (int i = 1; i < *argc; i++) {
		if (!strncmp(argv[i], "--benchmark_filter=", 19)) {
			o->filter = argv[i] + 19;
		} else if (!strncmp(argv[i], "--benchmark_enable_random_interleaving", 38)) {
			user_interleave = 1;
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

static void parse_options(int argc, char **argv, struct options *o)
{
	struct opt_parser op;
	int c;

	o->sel.threads = "1,max";
	o->sel.placement = "scatter";
	o->time_s = 0.2;
	o->repetitions = 5;
	o->noise_max_pct = getenv("PCBENCH_NOISE_MAX")
			       ? parse_noise_max("PCBENCH_NOISE_MAX", getenv("PCBENCH_NOISE_MAX"))
			       : NOISE_DEFAULT_MAX_PCT;
	o->noise_retries = NOISE_DEFAULT_RETRIES;
	o->sel.topology = "host";
	o->events = "auto";
	o->home = "first";
	opt_init(&op, &measure_help);
	while ((c = opt_next(&op, argc, argv)) != -1) {
		if (selection_option(&o->sel, c, optarg))
			continue;
		switch (c) {
		case O_NOISE_MAX:
			o->noise_max_pct = parse_noise_max("--noise-max", optarg);
			break;
		case O_NOISE_RETRIES:
			if (num_int(optarg, 10, 0, 100, &o->noise_retries))
				usage_error("--noise-retries", optarg,
					    "expected an integer in [0, 100]");
			break;
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
		case O_RUN_DIR_FILE: {
			/* checked now, written at the end: its directory must take a new file */
			char *dir = xstrdup(optarg), *slash = strrchr(dir, '/');

			if (slash)
				*slash = '\0';
			if (access(slash ? (dir[0] ? dir : "/") : ".", W_OK | X_OK))
				usage_error("--run-dir-file", optarg,
					    "its directory is not writable: %s", strerror(errno));
			free(dir);
			o->run_dir_file = optarg;
			break;
		}
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
	if (o->layout)
		add_param(o, "layout", o->layout);
	if (o->recipe)
		add_param(o, "recipe", o->recipe);
	if (o->check_host &&
	    (!strcmp(o->sel.topology, "host") || !strncmp(o->sel.topology, "synthetic:", 10)))
		usage_error("--check-host", o->sel.topology,
			    "needs --topology FILE.xml, the export of a lab machine");
}

/*
 * set_current - @f's repetition @rep is being set up or measured (NULL: none): a fatal
 * error now (out of memory) becomes its status=error row (fail_after_create).
 */
static void set_current(struct family *f, int rep)
{
	run.cur_fam = f;
	run.cur_rep = rep;
}

/* Each thread of each repetition of each family runs this, from Google Benchmark. */
static void family_thread(void *arg, int tid, struct gb_result *res)
{
	struct family *f = arg;
	struct meas_result r;
	char what[64], home[256];
	const char *why;
	enum status st;
	int rep;

	/* Flags read here are only written by thread 0 between measurements. */
	if (run.write_failed || run.stopped)
		return;
	/* thread 0 sets it; the others allocate (thread setup) after a barrier with it */
	if (!tid)
		set_current(f, f->reps_done + 1);
	meas_thread(&f->m, tid);
	if (tid)
		return;
	meas_result(&f->m, &r);
	set_current(NULL, 0); /* from here on, this repetition's row says how it ended */
	/* interrupted: abandon this measurement, write no partial row */
	if (r.aborted) {
		run.stopped = 1;
		meas_reset(&f->m);
		return;
	}
	rep = ++f->reps_done;
	if (!r.failed && !r.ops && !r.disturbed) { /* not starved (measure.c starved_check) */
		r.failed = 1;
		r.reason = "no operation completed in the window";
	}
	/* a window still disturbed after its retries is kept, but out of the statistics */
	st = r.failed ? ST_ERROR : r.disturbed ? ST_DISTURBED : ST_OK;
	why = st == ST_ERROR ? r.reason : st == ST_DISTURBED ? r.noise_reason : "";
	home_cell(f, home, sizeof(home));
	write_row(f, rep, st, why, &r, home);
	objects_log_add(run.objects, f, rep, &r);
	if (f->matrix_ns && st == ST_OK) /* ns per one-way transfer, for the matrix table */
		f->matrix_ns[f->matrix_n++] = r.duration_s * 1e9 / (double)r.ops;
	*res = (struct gb_result){
	    1, st == ST_OK,
	    r.failed || !r.ops ? 0 : r.duration_s * 1e9 * f->threads / (double)r.ops, (double)r.ops,
	    why};
	snprintf(what, sizeof(what), "%.4g ops/s", r.failed ? 0 : (double)r.ops / r.duration_s);
	progress(f, rep, st, st == ST_OK ? what : why);
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

/*
 * on_signal - the first SIGINT, SIGTERM, SIGHUP or SIGPIPE (stdout or stderr closed) stops
 * the run cleanly (rows whole, context.json interrupted, exit 3), a second one at once.
 */
static void on_signal(int sig)
{
	if (meas_abort) {
		outfile_cleanup();
		_exit(3);
	}
	meas_abort = 1;
	stop_requested = sig; /* a --with-model run in progress stops too */
}

/*
 * fail_after_create - a fatal error (@msg, usage_error's "what: value: why") once the run
 * directory exists: the family in progress, if any, gets a status=error row with @msg as
 * its reason, and the run its end (context.json's end time, whole files).
 */
static void fail_after_create(const char *msg)
{
	struct family *f = run.cur_fam;
	int rep = run.cur_rep;
	char home[256];

	if (f) {
		set_current(NULL, 0);
		home_cell(f, home, sizeof(home));
		write_row(f, rep, ST_ERROR, msg, NULL, home);
		progress(f, rep, ST_ERROR, msg);
	}
	utc_now(run.ctx.end, sizeof(run.ctx.end));
	write_context();
	close_outputs();
	fprintf(stderr,
		"pcbench: the run stopped on that error: %d of %d measurements kept in %s%s\n",
		run.done, run.total, run.run_dir, f ? " (the last one as a status=error row)" : "");
}

static void stop_on_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};

	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
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

/*
 * link_latest - results/latest points at the newest run directory, but only for a run
 * directory under ./results/ (the default, or -o results/NAME): a run elsewhere leaves
 * this directory alone.
 */
static void link_latest(void)
{
	char dir[PATH_MAX], results[PATH_MAX];
	size_t n;

	if (!realpath(run.run_dir, dir) || !realpath("results", results))
		return;
	n = strlen(results);
	if (strncmp(dir, results, n) || dir[n] != '/')
		return;
	unlink("results/latest.tmp");
	if (symlink(dir + n + 1, "results/latest.tmp") ||
	    rename("results/latest.tmp", "results/latest"))
		fprintf(stderr, "pcbench: results/latest: %s\n", strerror(errno));
}

/* write_run_dir_file - --run-dir-file FILE: the run directory's path and a newline. */
static int write_run_dir_file(void)
{
	char *line;
	int rc;

	if (!run.opt.run_dir_file)
		return 0;
	line = xasprintf("%s\n", run.run_dir);
	rc = outfile_write_all(run.opt.run_dir_file, line, strlen(line));
	free(line);
	return rc;
}

/*
 * check_machine - read the machine's state into context.json and print the warnings about
 * what biases contention results, one line each, before anything is measured.
 */
static void check_machine(const struct topo *topo)
{
	int *pus = xcalloc((size_t)topo_npus(topo) + 1, sizeof(int)), n = 0;
	char list[512], excluded[2048];

	for (int i = 0; i < run.nfams; i++)
		for (int t = 0; run.fams[i].pus && t < run.fams[i].threads; t++) {
			int dup = 0;

			for (int k = 0; k < n; k++)
				dup |= pus[k] == run.fams[i].pus[t];
			if (!dup && n < topo_npus(topo))
				pus[n++] = run.fams[i].pus[t];
		}
	machine_read(&run.machine);
	if (topo_allowed_list(topo, list, sizeof(list)) == 0)
		json_object_set_new(run.machine.json, "allowed_pus", json_string(list));
	topo_excluded(topo, excluded, sizeof(excluded));
	json_object_set_new(run.machine.json, "excluded_pus",
			    excluded[0] ? json_string(excluded) : json_null());
	machine_check(&run.machine, topo, pus, n);
	for (int i = 0; i < run.machine.nwarnings; i++)
		fprintf(stderr, "pcbench: warning: %s\n", run.machine.warnings[i]);
	run.ctx.machine = run.machine.json;
	free(pus);
}

/*
 * prepare - parse and resolve everything a measurement needs (exit 2 on bad input). Returns
 * -1 to measure, or the exit status of a mode that measures nothing (--list, --list-events,
 * --dry-run); @check refuses those instead (hitm record).
 */
static int prepare(int argc, char **argv, int check)
{
	char **gb_argv = run.gb_argv = xcalloc((size_t)argc + 2, sizeof(char *));
	char err[PATH_MAX + 128];
	int gb_argc;

	run.orig_argv = xcalloc((size_t)argc + 1, sizeof(char *));
	run.orig_argc = argc;
	memcpy(run.orig_argv, argv, (size_t)argc * sizeof(char *));
	gb_argc = take_gb_args(&argc, argv, gb_argv, &run.opt);
	parse_options(argc, argv, &run.opt);
	if (check && (run.opt.list || run.opt.list_events || run.opt.dry_run))
		usage_error("hitm record",
			    run.opt.list      ? "--list"
			    : run.opt.dry_run ? "--dry-run"
					      : "--list-events",
			    "measures nothing (use it with pcbench measure)");
	if (run.opt.list) {
		list_scenarios();
		return 0;
	}
	if (run.opt.pmu && !run.opt.list_events && !run.opt.dry_run)
		usage_error("--pmu", run.opt.pmu, "only with --list-events or --dry-run");
	if (run.opt.list_events) {
		if (pmu_list_events(stdout, run.opt.pmu, err, sizeof(err)))
			usage_error("--list-events", run.opt.pmu ? run.opt.pmu : "", "%s", err);
		return 0;
	}
	if (gbshim_init(&gb_argc, gb_argv))
		usage_error("option", gb_argv[1], "not a Google Benchmark flag");
	run.pmu =
	    pmu_resolve_for(run.opt.events, run.opt.events_kernel, run.opt.pmu, err, sizeof(err));
	if (!run.pmu) {
		fprintf(stderr, "pcbench: %s\n", err);
		return 2;
	}
	event_columns(&run.opt);

	run.topo = load_topology(&run.opt);
	if (!run.opt.dry_run && topo_excluded(run.topo, err, sizeof(err)))
		fprintf(stderr, "pcbench: plans use %d of the host's PUs: excluded %s\n",
			topo_npus(run.topo), err);
	build_families(&run.opt, run.topo);
	if (run.opt.dry_run) {
		print_plan(&run.opt, run.topo);
		if (run.opt.pmu)
			pmu_print_set(stdout, run.pmu);
		topo_free(run.topo);
		return 0;
	}
	return -1;
}

/* init_context - context.json's facts, the label with them (it names the run directory). */
static void init_context(void)
{
	context_init(&run.ctx, run.orig_argc, run.orig_argv);
	if (run.opt.label)
		snprintf(run.ctx.label, sizeof(run.ctx.label), "%s", run.opt.label);
}

void measure_check(int argc, char **argv)
{
	if (prepare(argc, argv, 1) >= 0)
		exit(2); /* pmu_resolve said why */
	init_context();
	check_outputs(&run.opt);
}

int measure_main(int argc, char **argv)
{
	struct gb_family *gbf;
	struct topo *topo;
	char err[PATH_MAX + 128], path[PATH_MAX + 32];
	int ngb = 0, st = prepare(argc, argv, 0);

	if (st >= 0)
		return st;
	topo = run.topo;
	init_context();
	run.ctx.options_json = options_json(&run.opt);
	check_machine(run.topo);
	stop_on_signals(); /* from here on a signal leaves a consistent run directory */
	open_outputs(&run.opt);
	usage_error_after_create(fail_after_create);
	write_context();
	run.objects = objects_log_new("topology.xml", run.opt.sel.params, run.opt.sel.nparams);
	snprintf(path, sizeof(path), "%s/topology.xml", run.run_dir);
	if (topo_export_xml(topo, path, err, sizeof(err)))
		run.write_failed = 1; /* said why; the run stops before measuring */
	snprintf(path, sizeof(path), "%s/topology_fp", run.run_dir);
	snprintf(err, sizeof(err), "%s\n", run.topology_fp);
	if (outfile_write_all(path, err, strlen(err)))
		run.write_failed = 1;
	link_latest();
	if (pmu_absent_note(run.pmu)[0])
		fprintf(stderr, "pcbench: counters: %s (those cells stay empty)\n",
			pmu_absent_note(run.pmu));
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
		set_current(f, 1); /* its model and state: a failure is its first row */
		if (run.opt.with_model)
			model_family(f, topo);
		meas_init(&f->m, f->sc, f->cfg, topo, f->threads, f->pus, run.opt.time_s,
			  run.opt.time_s / 10, &f->home);
		meas_set_counters(&f->m, run.pmu);
		meas_set_noise(&f->m, run.opt.noise_max_pct / 100, run.opt.noise_retries);
		set_current(NULL, 0);
		gbf[ngb++] = (struct gb_family){f->name, f->threads, f};
	}
	if (!run.write_failed && !meas_abort)
		gbshim_run(gbf, ngb, run.opt.repetitions, family_thread);
	if (meas_abort) {
		run.ctx.interrupted = 1;
		utc_now(run.ctx.end, sizeof(run.ctx.end));
		write_context();
		write_objects();
		close_outputs();
		fprintf(stderr, "pcbench: interrupted: %d of %d measurements kept in %s\n",
			run.done, run.total, run.run_dir);
		write_run_dir_file();
		return 3;
	}

	progress_end();
	machine_load_end(&run.machine);
	utc_now(run.ctx.end, sizeof(run.ctx.end));
	write_context();
	write_objects();
	if (close_outputs())
		run.write_failed = 1;
	/* The verdict: compare's report of this run, on stdout and into the run directory. */
	if (run.opt.matrix)
		print_matrix();
	else if (run.done && !run.write_failed && compare_run_report(run.run_dir))
		run.write_failed = 1;
	printf("\nrun directory: %s (%d ok, %d error, %d skipped", run.run_dir, run.ok, run.errors,
	       run.skipped);
	if (run.disturbed)
		printf(", %d disturbed", run.disturbed);
	printf(")\n");
	if (write_run_dir_file())
		run.write_failed = 1;
	if (run.errors || run.write_failed)
		return 1;
	return run.ok || run.disturbed ? 0 : 4;
}
