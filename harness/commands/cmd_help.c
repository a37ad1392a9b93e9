// SPDX-License-Identifier: MIT
/*
 * cmd_help.c - `pcbench help [CMD | --commands | --options]`: the commands of a command
 * table (main.c's), or the options and usage of one, from its rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "opt.h"
#include "util.h"

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
const struct cmd_help help_help = {
    .name = "help",
    .synopsis = "usage: pcbench help [CMD | --commands | --options]\n",
    .about = "The commands, or the options and usage of command CMD (as CMD --help prints\n"
	     "them); --commands and --options print them for scripts (completion, man pages).\n",
    .opts = help_opts,
    .after = "Exit status: 0 printed, 1 stdout could not be written, 2 bad usage (no such\n"
	     "CMD).\n",
};

const struct command *command_find(const struct command *table, const char *name)
{
	for (const struct command *c = table; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void help_print_commands(const struct command *table, FILE *out)
{
	fprintf(out, "Commands (pcbench help CMD: its options):\n");
	for (const struct command *c = table; c->name; c++)
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

int help_run(const struct command *table, int argc, char **argv)
{
	struct help_args a = {0, 0};
	const struct command *c;
	int first = opt_parse(&help_help, argc, argv, &a);

	for (c = table; a.commands && c->name; c++)
		printf("%s\t%s\n", c->name, c->summary);
	for (c = table; a.options && c->name; c++)
		print_options(c->help, c->name);
	if (a.commands || a.options)
		return 0;
	if (first >= argc) {
		printf("usage: pcbench [CMD] [options]   (CMD is measure when left out)\n\n");
		help_print_commands(table, stdout);
		return 0;
	}
	if (first + 1 < argc)
		usage_error("argument", argv[first + 1], "unexpected: help takes one CMD");
	c = command_find(table, argv[first]);
	if (!c)
		usage_error("help", argv[first], "no such command (see pcbench help)");
	if (!c->help) /* a command without an option table prints its own help */
		return c->fn(2, (char *[]){argv[first], "--help", NULL});
	opt_usage(stdout, c->help);
	return 0;
}
