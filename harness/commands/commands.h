/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the subcommands of pcbench: their entry points and their help (option
 * tables, lib/opt.h), one cmd_NAME.c each in harness/commands/. main.c's command table lists
 * them; argv[0] is the command's name.
 */
#ifndef PCBENCH_COMMANDS_H
#define PCBENCH_COMMANDS_H

#include <stdio.h>

#include "measure_dir.h"
#include "opt.h"

struct scenario;

/* One subcommand: main.c's table drives dispatch, --help and `pcbench help`. */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const struct cmd_help *help; /* NULL: the command prints its own --help */
};

/* measure_main - `pcbench [measure] [options]`, the default command (cmd_measure.c). */
int measure_main(int argc, char **argv);
extern const struct cmd_help measure_help;
/*
 * measure_dir_check - for `hitm record`, which runs a measurement under perf: parses and
 * resolves the measure options in @argv as measure_main does (it reorders @argv; the
 * options point into its strings), refusing those that measure nothing (--list, --dry-run,
 * --list-events), and chooses the run directory into @d (none is created; measure_dir.h);
 * exit 2 on any bad input (cmd_measure.c).
 */
void measure_dir_check(int argc, char **argv, struct measure_dir *d);
/* compare_main - `pcbench compare RUN [RUN2] [options]` (cmd_compare.c). */
int compare_main(int argc, char **argv);
extern const struct cmd_help compare_help;
/* merge_main - `pcbench merge RUN... -o DIR` (cmd_merge.c). */
int merge_main(int argc, char **argv);
extern const struct cmd_help merge_help;
/* plot_main - `pcbench plot RUN [-o DIR]` (cmd_plot.c). */
int plot_main(int argc, char **argv);
extern const struct cmd_help plot_help;
/* profile_main - `pcbench profile RUN [--top N]` (cmd_profile.c). */
int profile_main(int argc, char **argv);
extern const struct cmd_help profile_help;
/* model_main - `pcbench model [run options]` (cmd_model.c): model_cli over all_scenarios_traced
 * (the pcbench binary links them). */
int model_main(int argc, char **argv);
extern const struct cmd_help model_help;
/*
 * model_cli - `pcbench model [options]` over the scenario table @table (the tracing
 * build); argv[0] is "model". Exit status like pcbench's: 0, 1 (a family failed),
 * 2 (usage), 4 (everything skipped) (cmd_model.c).
 */
int model_cli(const struct scenario *const *table, int argc, char **argv);
/* layout_main - `pcbench layout import|show|suggest ...` (cmd_layout.c). */
int layout_main(int argc, char **argv);
extern const struct cmd_help layout_help;
/* hitm_main - `pcbench hitm record|report ...` (cmd_hitm.c). */
int hitm_main(int argc, char **argv);
extern const struct cmd_help hitm_help;
/*
 * help_run - `pcbench help [CMD | --commands | --options]` over the command table @table
 * (main.c's, ended by a NULL name); help_print_commands - its list of commands, as `pcbench
 * --help` ends (cmd_help.c).
 */
int help_run(const struct command *table, int argc, char **argv);
void help_print_commands(const struct command *table, FILE *out);
/* command_find - the row of @table named @name, or NULL. */
const struct command *command_find(const struct command *table, const char *name);
extern const struct cmd_help help_help;

#endif
