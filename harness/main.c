// SPDX-License-Identifier: MIT
/* main.c - the command table: dispatch, --help, `pcbench help` and --version from its rows. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "context.h"
#include "layout_cmd.h"
#include "opt.h"
#include "outfile.h"
#include "stop.h"
#include "util.h"

static int help_main(int argc, char **argv);
struct help_args {
	int commands, options;
};
static const struct opt help_opts[] = {
    OPT_FLAG("commands", 'c', struct help_args, commands,
	     "the commands, one a line: NAME<TAB>SUMMARY"),
    OPT_FLAG("options", 'O', struct help_args, options,
	     "every command's options, one a line:\n"
	     "COMMAND<TAB>-S<TAB>--LONG<TAB>ARG<TAB>HELP (empty fields: none)"),
    OPT_HELP,
    OPT_END,
};
static const struct cmd_help help_help = {
    .name = "help",
    .synopsis = "usage: pcbench help [CMD | --commands | --options]\n",
    .about = "The commands, or the options and usage of command CMD (as CMD --help prints\n"
	     "them); --commands and --options print them for scripts (completion, man pages).\n",
    .opts = help_opts,
    .after = "Exit status: 0 printed, 1 stdout could not be written, 2 bad usage (no such\n"
	     "CMD).\n",
};

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
		const char *help = opt_help(h, o), *nl = strchr(help, '\n');

		printf("%s\t", name);
		if (o->key)
			printf("-%c", o->key);
		printf("\t--%s\t%s\t%.*s\n", o->name, o->arg ? o->arg : "",
		       nl ? (int)(nl - help) : (int)strlen(help), help);
	}
	for (int i = 0; h && h->subs && h->subs[i]; i++)
		print_options(h->subs[i], h->subs[i]->name);
}

static int help_main(int argc, char **argv)
{
	struct help_args a = {0, 0};
	const struct command *c;
	int first = opt_parse(&help_help, argc, argv, &a);

	for (c = commands; a.commands && c->name; c++)
		printf("%s\t%s\n", c->name, c->summary);
	for (c = commands; a.options && c->name; c++)
		print_options(c->help, c->name);
	if (a.commands || a.options)
		return 0;
	if (first >= argc) {
		printf("usage: pcbench [CMD] [options]   (CMD is measure when left out)\n\n");
		print_commands(stdout);
		return 0;
	}
	if (first + 1 < argc)
		usage_error("argument", argv[first + 1], "unexpected: help takes one CMD");
	c = command_find(argv[first]);
	if (!c)
		usage_error("help", argv[first], "no such command (see pcbench help)");
	if (!c->help) /* a command without an option table prints its own help */
		return c->fn(2, (char *[]){argv[first], "--help", NULL});
	opt_usage(stdout, c->help);
	return 0;
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
	const struct command *c = argc > 1 ? command_find(argv[1]) : NULL;

	/*
	 * A file-size limit (ulimit -f, batch schedulers) must fail the write with EFBIG, which
	 * the checked output path reports (exit 1, temp files removed, rows whole), not kill
	 * the process with SIGXFSZ's default action mid-row.
	 */
	signal(SIGXFSZ, SIG_IGN);
	/* Every report ends with a checked stdout: a lost write is exit 1, never success. */
	outfile_stdout_init();
	atexit(outfile_check_stdout);
	stop_install(STOP_EXIT, 0);	    /* measure, model and plot switch to STOP_FLAG */
	layout_measure_main = measure_main; /* layout suggest --measure's engine */
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
