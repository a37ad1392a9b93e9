/* SPDX-License-Identifier: MIT */
/*
 * results.h - the results.csv contract shared by its writer (main.c) and its readers
 * (compare, plot, tests): the required columns, and loading a run.
 */
#ifndef PCBENCH_RESULTS_H
#define PCBENCH_RESULTS_H

#include "csv.h"

/* The first 17 columns of results.csv, in this order (docs/results-csv.md). */
#define RESULTS_NREQ 17
extern const char *const results_required[RESULTS_NREQ];

/* A run as read back: its CSV and what its context.json says. */
struct run_file {
	const char *arg;
	char *csv_path;
	char *dir; /* the run directory when the CSV is its results.csv, else NULL */
	struct csv_table *t;
	char *run_id, *host, *cpu_model, *start; /* from context.json, or NULL */
};

/*
 * run_file_load - RUN is a run directory or a CSV file. Reads the CSV (strictly), checks the
 * required columns and that there are rows, and reads context.json when it describes this
 * CSV. Any problem exits 2 naming RUN and why.
 */
void run_file_load(struct run_file *r, const char *arg);

#endif
