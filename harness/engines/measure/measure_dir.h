/* SPDX-License-Identifier: MIT */
/*
 * measure_dir.h - the run directory of a measurement that `hitm record` starts under perf:
 * the measure command's measure_dir_check (commands.h) parses and resolves the options and
 * chooses the directory (none is created); measure_dir_make (engines/measure/run.c) then
 * creates it.
 */
#ifndef PCBENCH_MEASURE_DIR_H
#define PCBENCH_MEASURE_DIR_H

#include <limits.h>

struct measure_dir {
	char path[PATH_MAX];
	int made_here;	/* no -o: the measure must be given -o path */
	int events_set; /* --events was given */
	struct measure_run *run;
};
void measure_dir_make(struct measure_dir *d);

#endif
