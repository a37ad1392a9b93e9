// SPDX-License-Identifier: MIT
/* main.c - the command table: dispatch, --help, `pcbench help` and --version from its rows. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "context.h"
#include "outfile.h"
#include "stop.h"
#include "util.h"

static int help_main(int argc, char **argv);

/* The command table: dispatch, --help and `pcbench help` come from these rows. */
static const struct command commands[] = {
    {"measure", measure_main, "measure scenarios with pinned threads (the default command)",
     &measure_help},
    {"compare", compare_main, "compare presets, runs or hosts: medians, p-values, verdicts",
     &compare_help},
    {"merge", merge_main, "merge runs (hosts, scenario selections) into one results.csv",
     &merge_help},
    {"plot", plot_main, "PNG plots of a run through gnuplot", &plot_help},
    {"profile", profile_main, "top functions per family of a --profile run (perf report-like)",
     &profile_help},
    {"model", model_main, "the coherence model: line transfers per operation, no measurement",
     &model_help},
    {"layout", layout_main,
     "layouts: import from pahole or BTF, show pahole-like views, suggest a better one",
     &layout_help},
    {"hitm", hitm_main, "measured HITM per field (perf c2c) next to the model", &hitm_help},
    {"help", help_main, "the commands, or the options of one: pcbench help CMD", &help_help},
    {NULL, NULL, NULL, NULL},
};

/* help_main - `pcbench help` over this table (cmd_help.c). */
static int help_main(int argc, char **argv)
{
	return help_run(commands, argc, argv);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NO_EARLY_SIGNALS
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NO_EARLY_SIGNALS
#endif
#endif
#ifndef NO_EARLY_SIGNALS
/*
 * early_signals - INT, TERM and HUP exit 3 from before the libraries' constructors run (the
 * executable's preinit_array runs first): a signal at any moment of start-up, however slow
 * under load, ends pcbench with 3, not with the default action (130, 143, 129). main installs
 * the same again. Sanitizer builds, whose runtime must start first, install it in main only.
 */
static void early_signals(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	(void)envp;
	stop_install(STOP_EXIT, 0);
}
__attribute__((section(".preinit_array"),
	       used)) static void (*const early)(int, char **, char **) = early_signals;
#endif

int main(int argc, char **argv)
{
	const struct command *c = argc > 1 ? command_find(commands, argv[1]) : NULL;

	/*
	 * A file-size limit (ulimit -f, batch schedulers) must fail the write with EFBIG, which
	 * the checked output path reports (exit 1, temp files removed, rows whole), not kill
	 * the process with SIGXFSZ's default action mid-row.
	 */
	signal(SIGXFSZ, SIG_IGN);
	/* Every report ends with a checked stdout: a lost write is exit 1, never success. */
	outfile_stdout_init();
	atexit(outfile_check_stdout);
	stop_install(STOP_EXIT, 0); /* measure, model and plot switch to STOP_FLAG */
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		opt_usage(stdout, &measure_help);
		printf("\n");
		help_print_commands(commands, stdout);
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
