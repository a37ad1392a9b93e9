// SPDX-License-Identifier: MIT
/*
 * cmd_hitm.c - `pcbench hitm record|report`: the subcommand, its help and record's (the
 * measure options checked as measure checks them); the work is the hitm engine's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hitm.h"
#include "util.h"

static const struct opt record_opts[] = {
    {"help", 'h', NULL, "this text; every other option is a measurement's (pcbench help measure)",
     OPT_K_NONE, 0, 0, 0, 0, NULL, NULL},
    OPT_END,
};

static const struct cmd_help hitm_record_help = {
    .name = "hitm record",
    .synopsis = "usage: pcbench hitm record [run options]\n",
    .about = "Runs the measurement the run options describe (those of pcbench measure) under\n"
	     "`perf c2c record --clockid monotonic` (Intel load-latency sampling, AMD IBS) and\n"
	     "keeps perf.data in the run directory, next to results.csv and objects.json.\n"
	     "Counters stay off (--events none) unless --events is given: the PMU is perf's.\n",
    .opts = record_opts,
    .after = "Exit status: that of the measurement; 2 for bad options, or when perf or a PMU\n"
	     "is missing: no perf binary, no PMU that samples memory accesses, or\n"
	     "perf_event_paranoid too high (perf c2c records physical addresses: it needs\n"
	     "<= 1, or CAP_PERFMON); 3 when interrupted (SIGINT, SIGTERM, SIGHUP), perf ended\n"
	     "with it.\n"
	     "\n"
	     "Example:\n"
	     "  pcbench hitm record -s page_counter -p v6.0-rc1,+ABC -w stocked -t 8 -r 1 -o "
	     "/tmp/h1\n"
	     "  pcbench hitm report /tmp/h1\n",
};

/* record - `hitm record`: its help, or the run checked first (bad options and an existing
 * run directory are refused as by measure), then the hitm engine's record. */
static int record(int argc, char **argv)
{
	struct measure_dir dir;
	char **args;
	int st;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			opt_usage(stdout, &hitm_record_help);
			return 0;
		}
	args = xcalloc((size_t)argc + 1, sizeof(char *));
	memcpy(args, argv, (size_t)argc * sizeof(char *));
	measure_dir_check(argc, args, &dir);
	st = hitm_record(argc, argv, &dir);
	free(args);
	return st;
}

static const struct opt hitm_opts[] = {
    OPT_HELP,
    OPT_END,
};

const struct cmd_help hitm_help = {
    .name = "hitm",
    .synopsis = "usage: pcbench hitm record [run options]\n"
		"       pcbench hitm report RUN [--script FILE] [--top N]\n",
    .about = "Measured HITM per field, next to the model (docs/hitm.md). record runs a\n"
	     "measurement under perf c2c record; report maps its sampled data addresses to\n"
	     "object.field through the layouts in RUN/objects.json.\n",
    .opts = hitm_opts,
    .subs = (const struct cmd_help *const[]){&hitm_record_help, &hitm_report_help, NULL},
    .after = "Exit status: record: the measurement's (0 to 5, pcbench help measure), also 2\n"
	     "when perf or a PMU that samples memory accesses is missing, or perf's own when\n"
	     "perf c2c record fails; report: 0 printed, 1 perf script failed (what it read is\n"
	     "reported) or the report could not be written, 2 bad usage or input (no\n"
	     "objects.json, no perf), 3 interrupted.\n",
};

int hitm_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		opt_usage(argc < 2 ? stderr : stdout, &hitm_help);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "record"))
		return record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return hitm_report(argc - 1, argv + 1);
	usage_error("hitm", argv[1],
		    "unknown subcommand (want record or report; see pcbench hitm "
		    "--help)");
}
