/* SPDX-License-Identifier: MIT */
/*
 * results.h - the results.csv contract shared by its writer (measure/rows.c) and its readers
 * (compare, plot, tests): the column table, and loading a run.
 */
#ifndef PCBENCH_RESULTS_H
#define PCBENCH_RESULTS_H

#include <stdio.h>

#include "csv.h"

/*
 * The fixed columns of results.csv, in order: X(ENUM, "name", TYPE), TYPE the cell's type in
 * results.jsonl (enum results_type; docs/results-csv.md). The first RESULTS_NREQ
 * (run_id .. reason) are the contract every results CSV must have (docs/results-csv.md).
 * After them come the variable families, each named by one function of measure/rows.c:
 * cpu_a/cpu_b/ns_per_transfer (--matrix), param_*, the event columns, counters_note and
 * model_* (--with-model). Adding a fixed column is one row here plus its cell in
 * measure/rows.c's fixed_cell() (the compiler names a column without one: -Wswitch).
 */
#define RESULTS_COLUMNS(X)                                                                         \
	X(RUN_ID, "run_id", RT_TEXT)                                                               \
	X(SCENARIO, "scenario", RT_TEXT)                                                           \
	X(PRESET, "preset", RT_TEXT)                                                               \
	X(LAYOUT, "layout", RT_TEXT)                                                               \
	X(WORKLOAD, "workload", RT_TEXT)                                                           \
	X(THREADS, "threads", RT_INT)                                                              \
	X(PLACEMENT, "placement", RT_TEXT)                                                         \
	X(CPUS, "cpus", RT_TEXT)                                                                   \
	X(REPETITION, "repetition", RT_INT)                                                        \
	X(DURATION_S, "duration_s", RT_NUM)                                                        \
	X(OPS, "ops", RT_INT)                                                                      \
	X(OPS_PER_S, "ops_per_s", RT_NUM)                                                          \
	X(NS_PER_OP, "ns_per_op", RT_NUM)                                                          \
	X(OPS_MIN_THREAD, "ops_min_thread", RT_INT)                                                \
	X(OPS_MAX_THREAD, "ops_max_thread", RT_INT)                                                \
	X(STATUS, "status", RT_TEXT)                                                               \
	X(REASON, "reason", RT_TEXT)                                                               \
	X(HOST, "host", RT_TEXT)                                                                   \
	X(LABEL, "label", RT_TEXT)                                                                 \
	X(WINDOW_S, "window_s", RT_NUM)                                                            \
	X(HOME, "home", RT_TEXT)                                                                   \
	X(TOPOLOGY_FP, "topology_fp", RT_TEXT)                                                     \
	X(LAYOUT_FP, "layout_fp", RT_TEXT)                                                         \
	X(PAIR_CLASS, "pair_class", RT_TEXT)                                                       \
	X(NIVCSW, "nivcsw", RT_INT)                                                                \
	X(RUN_DELAY_NS, "run_delay_ns", RT_INT)                                                    \
	X(MIGRATIONS, "migrations", RT_INT)                                                        \
	X(STEAL_PCT, "steal_pct", RT_NUM)                                                          \
	X(RETRIES, "retries", RT_INT)                                                              \
	X(BLOCK, "block", RT_INT)                                                                  \
	X(LOST_PCT, "lost_pct", RT_NUM)                                                            \
	X(XFER_BEFORE_NS, "xfer_before_ns", RT_NUM)                                                \
	X(XFER_AFTER_NS, "xfer_after_ns", RT_NUM)                                                  \
	X(XFER_NOTE, "xfer_note", RT_TEXT)                                                         \
	X(DISTURBED_BY, "disturbed_by", RT_TEXT)

/*
 * The type of a column's cells in results.jsonl: text (a JSON string), an integer or a
 * number (JSON numbers), or a parameter's value (an integer when the cell is one, as for
 * -D batch=32, else text, as for cgroup=v1). An empty cell is null whatever the type; a cell
 * that does not read as its type (never written by pcbench) stays a string.
 */
enum results_type { RT_TEXT, RT_INT, RT_NUM, RT_PARAM };

enum results_col {
#define RESULTS_ENUM(e, name, type) COL_##e,
	RESULTS_COLUMNS(RESULTS_ENUM)
#undef RESULTS_ENUM
	    RESULTS_NFIXED
};

/*
 * The transfer probe's columns (xfer_before_ns, xfer_after_ns): probes whose lowest and
 * highest, of one window or of one block's windows, are over RESULTS_REMAP_RATIO apart were
 * taken on two host mappings (the host moved the vCPUs). The run measures such a window
 * again (remap) and does not count such a block as clean; compare leaves such a block out
 * ("remap in block").
 */
#define RESULTS_REMAP_RATIO 2.0

/* results_remapped - probes from @lo to @hi ns span two host mappings; false for NaN. */
static inline int results_remapped(double lo, double hi)
{
	return hi > RESULTS_REMAP_RATIO * lo;
}

/* The required columns: run_id .. reason. */
#define RESULTS_NREQ (COL_REASON + 1)

/* The version of results.jsonl's objects (their "schema_version" member). */
#define RESULTS_SCHEMA_VERSION 2

/* The name of each fixed column, indexed by enum results_col. */
extern const char *const results_cols[RESULTS_NFIXED];
#define results_required results_cols
/* The type of each fixed column, indexed by enum results_col. */
extern const enum results_type results_types[RESULTS_NFIXED];

/*
 * The variable families' columns a reader looks up by name: X(ENUM, "name"), each a member
 * of a family above (results.c's col_kinds[] has their types): the --matrix columns, the
 * real-kernel scenario's (kernel_release, kernel_layout_fp: -s kernel), its memcg share.
 */
#define RESULTS_VAR_COLUMNS(X)                                                                     \
	X(CPU_A, "cpu_a")                                                                          \
	X(CPU_B, "cpu_b")                                                                          \
	X(NS_PER_TRANSFER, "ns_per_transfer")                                                      \
	X(KERNEL_RELEASE, "kernel_release")                                                        \
	X(KERNEL_LAYOUT_FP, "kernel_layout_fp")                                                    \
	X(MEMCG_SHARE_PCT, "memcg_share_pct")                                                      \
	X(MEMCG_NS_PER_OP, "memcg_ns_per_op")

enum results_var {
#define RESULTS_VAR_ENUM(e, name) VCOL_##e,
	RESULTS_VAR_COLUMNS(RESULTS_VAR_ENUM)
#undef RESULTS_VAR_ENUM
	    RESULTS_NVAR
};
/* The name of each of those columns, indexed by enum results_var. */
extern const char *const results_var_cols[RESULTS_NVAR];

/*
 * The typed access of a reader: a column by its enum, never by a name string (no name of
 * RESULTS_COLUMNS is a string literal outside this library; tests/layering.sh checks the
 * lookups). results_col - the index of fixed column @c in @t's header, or -1 when @t has
 * no such column; results_var_col - the same for a named variable column.
 */
int results_col(const struct csv_table *t, enum results_col c);
int results_var_col(const struct csv_table *t, enum results_var c);

/*
 * profile.csv's columns (measure --profile writes them, pcbench profile reads them): the
 * family's fixed columns, then the event, the symbol, its samples and whether it is memcg's.
 */
#define RESULTS_PROFILE_NCOLS 12
extern const char *const results_profile_cols[RESULTS_PROFILE_NCOLS];

/*
 * results_col_type - the type of column @name: a fixed column's from RESULTS_COLUMNS; the
 * variable families by name (results.c, col_kinds[]): cpu_a, cpu_b integers,
 * ns_per_transfer, *_per_op, *_mux and model_* numbers, param_* parameters; anything else
 * (counters_note, a column this build does not know) text.
 */
enum results_type results_col_type(const char *name);

/* A run as read back: its CSV and what its context.json says. */
struct run_file {
	const char *arg;
	char *csv_path;
	char *dir; /* the run directory when the CSV is its results.csv, else NULL */
	struct csv_table *t;
	char *run_id, *host, *label, *cpu_model, *start; /* from context.json, or NULL */
	char *machine; /* context.json's machine.summary (the robot-style line), or NULL */
	/*
	 * Why the run is incomplete, from context.json: "interrupted" (it says so), "no end
	 * time" (killed, or still running); NULL when complete or without a context.json.
	 */
	const char *incomplete;
	char *design;	  /* options.design ("blocks", "independent"), or NULL */
	double precision; /* options.precision: the CI half-width target in %, or NaN */
	/* options.param's "layout=A,B" (a list of layouts, one family each): "A,B", or NULL */
	char *layouts;
};

/*
 * run_file_note - one line on stderr when @r is an incomplete run (interrupted, or killed:
 * no end time), saying how many rows it has; @cmd names the command. Nothing otherwise.
 */
void run_file_note(const struct run_file *r, const char *cmd);

/*
 * results_jsonl_row - write one results.jsonl line to @f and flush it: {"schema_version":
 * RESULTS_SCHEMA_VERSION, then @cols[i]: @vals[i] for i < @n}, each value the CSV cell as
 * its column's type (results_col_type), an empty cell null, a NULL cell (a column this
 * row's run does not have) left out.
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
