/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the subcommands of pcbench: their entry points and their help (option
 * tables, lib/opt.h). main.c's command table lists them; argv[0] is the command's name.
 */
#ifndef PCBENCH_COMMANDS_H
#define PCBENCH_COMMANDS_H

#include <limits.h>

#include "opt.h"

/* measure_main - `pcbench [measure] [options]`, the default command. */
int measure_main(int argc, char **argv);
extern const struct cmd_help measure_help;
/*
 * The run directory of a measurement that `hitm record` starts under perf: measure_dir_check
 * parses and resolves the measure options in @argv as measure_main does (it reorders @argv;
 * the options point into its strings), refusing those that measure nothing (--list,
 * --dry-run, --list-events), and chooses the run directory into @d (none is created); exit
 * 2 on any bad input. measure_dir_make then creates it.
 */
struct measure_dir {
	char path[PATH_MAX];
	int made_here;	/* no -o: the measure must be given -o path */
	int events_set; /* --events was given */
	struct measure_run *run;
};
void measure_dir_check(int argc, char **argv, struct measure_dir *d);
void measure_dir_make(struct measure_dir *d);
/* compare_main - `pcbench compare RUN [RUN2] [options]`. */
int compare_main(int argc, char **argv);
extern const struct cmd_help compare_help;
/* What the end-of-run report found: how many comparisons have no verdict, of how many. */
struct run_verdicts {
	int no_verdict; /* ended "no verdict" (too few clean blocks or ok repetitions): exit 5 */
	int total;	/* comparisons measured */
	int paired;	/* the block design's analysis (else independent repetitions) */
	/* the largest, over the comparisons without a verdict, of the clean blocks (or ok
	 * repetitions a side) needed over those obtained (at least 1); 0 when none */
	double more;
};
/*
 * compare_run_report - `pcbench compare DIR -o DIR`: the end-of-run report of the run in
 * DIR (the summary tables and significant changes on stdout, the full report into DIR).
 * Returns compare_main's status; fills *@v (when not NULL).
 */
int compare_run_report(const char *dir, struct run_verdicts *v);
/* profile_main - `pcbench profile RUN [--top N]`. */
int profile_main(int argc, char **argv);
extern const struct cmd_help profile_help;
/* compare_report_file - the name of the @i-th file compare -o DIR writes, or NULL past the end. */
const char *compare_report_file(int i);
/* plot_main - `pcbench plot RUN [-o DIR]`. */
int plot_main(int argc, char **argv);
extern const struct cmd_help plot_help;
/* merge_main - `pcbench merge RUN... -o DIR` (analysis/merge.c). */
int merge_main(int argc, char **argv);
extern const struct cmd_help merge_help;
/* layout_main - `pcbench layout import|show ...` (layout_cmd.c). */
int layout_main(int argc, char **argv);
extern const struct cmd_help layout_help;
/* model_main - `pcbench model [run options]` (model.c). */
int model_main(int argc, char **argv);
extern const struct cmd_help model_help;
/* hitm_main - `pcbench hitm record|report ...` (hitm/hitm_cmd.c). */
int hitm_main(int argc, char **argv);
extern const struct cmd_help hitm_help;

/* One subcommand: main.c's table drives dispatch, --help and `pcbench help`. */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const struct cmd_help *help; /* NULL: the command prints its own --help */
};

#endif
