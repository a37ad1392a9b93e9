/* SPDX-License-Identifier: MIT */
/*
 * compare_run.h - what the other engines ask of the compare engine (compare.c): measure's
 * closing report of a run and the names of the files it writes into a run directory. The
 * data model and the rest of the engine: compare.h.
 */
#ifndef PCBENCH_COMPARE_RUN_H
#define PCBENCH_COMPARE_RUN_H

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
 * compare_run_report - the end-of-run report of the run in DIR, as `pcbench compare DIR -o
 * DIR` prints and writes it (the summary tables and significant changes on stdout, the full
 * report into DIR). Returns the status compare exits with; fills *@v (when not NULL).
 */
int compare_run_report(const char *dir, struct run_verdicts *v);
/* compare_report_file - the name of the @i-th file compare -o DIR writes, or NULL past the end. */
const char *compare_report_file(int i);

#endif
