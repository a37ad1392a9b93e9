// SPDX-License-Identifier: MIT
/* hitm_cmd.c - `pcbench hitm record|report`: the subcommand and its help. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "hitm.h"
#include "util.h"

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
		return hitm_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return hitm_report(argc - 1, argv + 1);
	usage_error("hitm", argv[1],
		    "unknown subcommand (want record or report; see pcbench hitm "
		    "--help)");
}
