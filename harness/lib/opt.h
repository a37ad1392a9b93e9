/* SPDX-License-Identifier: MIT */
/*
 * opt.h - a command's options as one table: the same rows feed getopt_long and the usage
 * text (and `pcbench help --options`, from which completions and the man page are made).
 */
#ifndef PCBENCH_OPT_H
#define PCBENCH_OPT_H

#include <getopt.h>
#include <stdio.h>

/* OPT_LONG - the first key of long-only options (keys below are their short letter). */
#define OPT_LONG 256
#define OPT_MAX 48

/* One option. A table ends with a row whose name is NULL. */
struct opt {
	const char *name; /* long name, without "--" */
	int key;	  /* its short letter, or OPT_LONG + n for a long-only option */
	const char *arg;  /* the value's name in the usage ("LIST"); NULL for a flag */
	const char *help; /* the usage text; "\n" continues it on the next line */
};

/*
 * A command's help: "usage: ..." lines, what it does, its option table, and what follows
 * (exit status, examples). @subs: the help of its own subcommands (pcbench layout import),
 * NULL-terminated, or NULL.
 */
struct cmd_help {
	const char *name; /* "compare", "layout import"; "" for the measure command */
	const char *synopsis;
	const char *about;
	const struct opt *opts;
	void (*more)(FILE *out); /* optional: text made from the command's own tables */
	const char *after;
	const struct cmd_help *const *subs;
	/* optional: usage lines made from a table to print under option @name's help (the
	 * placement policies), or NULL */
	const char *(*opt_more)(const char *name);
};

/* An option parser over one table, for one pass over argv (opt_init resets getopt). */
struct opt_parser {
	const struct cmd_help *cmd;
	struct option lo[OPT_MAX + 1];
	char so[2 * OPT_MAX + 2];
};

/* opt_init - build getopt_long's tables from @cmd->opts and start a new pass. */
void opt_init(struct opt_parser *p, const struct cmd_help *cmd);

/*
 * opt_next - the next option's key (optarg holds its value), or -1 after the last one
 * (optind is then the first operand). A missing value or an unknown option exits 2 naming
 * it; -h/--help prints the command's help on stdout and exits 0.
 */
int opt_next(struct opt_parser *p, int argc, char **argv);

/* opt_usage - @cmd's help: synopsis, about, the option table, after, then its subs'. */
void opt_usage(FILE *out, const struct cmd_help *cmd);

/* opt_print_table - one line per option of @cmd: "  -s, --scenario LIST      help". */
void opt_print_table(FILE *out, const struct cmd_help *cmd);

#endif
