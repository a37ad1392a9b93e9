/* SPDX-License-Identifier: MIT */
/*
 * results.h - the results.csv contract shared by its writer (run/rows.c) and its readers
 * (compare, plot, tests): the column table, and loading a run.
 */
#ifndef PCBENCH_RESULTS_H
#define PCBENCH_RESULTS_H

#include <stdio.h>

#include "csv.h"

/*
 * The fixed columns of results.csv, in order: X(ENUM, "name"). The first RESULTS_NREQ
 * (run_id .. reason) are the contract every results CSV must have (docs/results-csv.md).
 * After them come the variable families, each named by one function of run/rows.c:
 * cpu_a/cpu_b/ns_per_transfer (--matrix), param_*, the event columns, counters_note and
 * model_* (--with-model). Adding a fixed column is one row here plus its cell in
 * run/rows.c's fixed_cell() (the compiler names a column without one: -Wswitch).
 */
#define RESULTS_COLUMNS(X)                                                                         \
	X(RUN_ID, "run_id")                                                                        \
	X(SCENARIO, "scenario")                                                                    \
	X(PRESET, "preset")                                                                        \
	X(LAYOUT, "layout")                                                                        \
	X(WORKLOAD, "workload")                                                                    \
	X(THREADS, "threads")                                                                      \
	X(PLACEMENT, "placement")                                                                  \
	X(CPUS, "cpus")                                                                            \
	X(REPETITION, "repetition")                                                                \
	X(DURATION_S, "duration_s")                                                                \
	X(OPS, "ops")                                                                              \
	X(OPS_PER_S, "ops_per_s")                                                                  \
	X(NS_PER_OP, "ns_per_op")                                                                  \
	X(OPS_MIN_THREAD, "ops_min_thread")                                                        \
	X(OPS_MAX_THREAD, "ops_max_thread")                                                        \
	X(STATUS, "status")                                                                        \
	X(REASON, "reason")                                                                        \
	X(HOST, "host")                                                                            \
	X(LABEL, "label")                                                                          \
	X(WINDOW_S, "window_s")                                                                    \
	X(HOME, "home")                                                                            \
	X(TOPOLOGY_FP, "topology_fp")                                                              \
	X(LAYOUT_FP, "layout_fp")                                                                  \
	X(PAIR_CLASS, "pair_class")                                                                \
	X(NIVCSW, "nivcsw")                                                                        \
	X(RUN_DELAY_NS, "run_delay_ns")                                                            \
	X(MIGRATIONS, "migrations")                                                                \
	X(STEAL_PCT, "steal_pct")                                                                  \
	X(RETRIES, "retries")

enum results_col {
#define RESULTS_ENUM(e, name) COL_##e,
	RESULTS_COLUMNS(RESULTS_ENUM)
#undef RESULTS_ENUM
	    RESULTS_NFIXED
};

/* The required columns: run_id .. reason. */
#define RESULTS_NREQ (COL_REASON + 1)

/* The version of results.jsonl's objects (their "schema_version" member). */
#define RESULTS_SCHEMA_VERSION 1

/* The name of each fixed column, indexed by enum results_col. */
extern const char *const results_cols[RESULTS_NFIXED];
#define results_required results_cols

/* A run as read back: its CSV and what its context.json says. */
struct run_file {
	const char *arg;
	char *csv_path;
	char *dir; /* the run directory when the CSV is its results.csv, else NULL */
	struct csv_table *t;
	char *run_id, *host, *label, *cpu_model, *start; /* from context.json, or NULL */
	char *machine; /* context.json's machine.summary (the robot-style line), or NULL */
};

/*
 * results_jsonl_row - write one results.jsonl line to @f and flush it: {"schema_version":
 * RESULTS_SCHEMA_VERSION, then @cols[i]: @vals[i] for i < @n}, each value the CSV cell's
 * text, an empty cell null, a NULL cell (a column this row's run does not have) left out.
 * Returns 0, or -1 with errno set.
 */
int results_jsonl_row(FILE *f, const char *const *cols, const char *const *vals, int n);

/*
 * run_file_load - RUN is a run directory or a CSV file. Reads the CSV (strictly), checks the
 * required columns and that there are rows, and reads context.json when it describes this
 * CSV. Any problem exits 2 naming RUN and why.
 */
void run_file_load(struct run_file *r, const char *arg);

#endif
