/* SPDX-License-Identifier: MIT */
/*
 * run.h - the measure engine's state, shared by its files: run.c (the run),
 * families.c (what is measured), outputs.c (the run directory and its files, context.json's
 * options), rows.c (results.csv columns and rows, the progress lines) and tables.c (the
 * --dry-run plan and the --matrix table).
 */
#ifndef PCBENCH_RUN_H
#define PCBENCH_RUN_H

#include <limits.h>

#include "context.h"
#include "csv.h"
#include "gbshim.h"
#include "kcontext.h"
#include "machine.h"
#include "measure.h"
#include "model.h"
#include "objects.h"
#include "plan.h"
#include "pmu.h"
#include "cgroup.h"
#include "profile.h"
#include "results.h"
#include "topology.h"
#include "measure_dir.h"
#include "blocks.h"

#define MAX_THREAD_COUNTS 256

struct options {
	struct selection sel;
	const char *out, *csv, *filter, *label, *run_dir_file;
	const char *home, *layout, *recipe, *events, *pmu, *matrix_cpus;
	const char *cgroup; /* --cgroup DIR (cgroup.h), or NULL: no cgroup is written */
	/* --benchmark_out=FILE and its format (json, csv, console): Google Benchmark's report,
	 * written by pcbench (gbshim_out_text) through the checked output path */
	const char *gb_out, *gb_out_format;
	double time_s, noise_max_pct, imbalance_min;
	int noise_retries;
	/* The design (blocks.h): blocks (default) or independent repetitions; the precision
	 * target (% ci half-width), the budget (s) and the maximum block count. */
	int independent;
	double precision, budget_s;
	int max_blocks;
	int time_set, reps_set; /* --time, -r given (else chosen for the budget) */
	int threads_set;	/* -t given (--matrix says that it does not use it) */
	int gb_shuffle;		/* 0: --benchmark_enable_random_interleaving=false */
	int home_reuse;		/* --home-pages reuse: no arena (alloc_shuffle) */
	int repetitions, list, dry_run, check_host, force, events_kernel, list_events, with_model;
	int matrix;
	int profile;	/* --profile: sample the measuring threads (profile.h) */
	int events_set; /* --events was given */
	/* stderr not a terminal: a progress line every progress_s seconds (PCBENCH_PROGRESS_S,
	 * 10 by default; 0: after every window) */
	double progress_s;
};

/*
 * The state of one measure run: measure_main (commands/cmd_measure.c) owns it and passes it to
 * every function of run.c, families.c, outputs.c, rows.c and tables.c that reads or writes it (no
 * global).
 */
struct measure_run {
	struct options opt;
	uint64_t seed; /* the block order's generator (alloc_shuffle draws from its own) */
	struct family *fams;
	int nfams;
	const char
	    *cols[RESULTS_NFIXED + 3 + SELECTION_MAX_PARAMS + 4 * 64 + 1 + MODEL_NCOLS + 3 + 6];
	const char *param_cols[SELECTION_MAX_PARAMS]; /* parameter name of each param_ column */
	int ncols, nparam_cols;
	struct csv_writer *csv, *csv_extra;
	FILE *jsonl; /* results.jsonl: the same rows as JSON objects */
	char jsonl_path[PATH_MAX + 16];
	struct pmu_set *pmu;
	const char *ev_cols[64]; /* event column stems: every abstract event, then the others */
	int ev_index[64];	 /* each stem's index in the pmu set, or -1 */
	int nev_cols;
	char unmapped_note[1024]; /* abstract events --events auto has no mapping for, and why */
	struct run_context ctx;
	struct objects_log *objects; /* objects.json */
	struct machine machine;	     /* context.json's "machine", the warnings */
	struct kernel_ctx kctx;	     /* a real-kernel run: context.json's "real_kernel" */
	struct profile_cfg prof;     /* --profile: the event and kallsyms */
	struct cg_run cg;	     /* --cgroup: the hierarchy this process measures in */
	struct csv_writer *prof_csv; /* --profile: profile.csv, a row per window and symbol */
	char run_dir[PATH_MAX], context_path[PATH_MAX + 16];
	char *run_dir_shown;	       /* run_dir escaped for printing (esc.h) */
	char lock_path[PATH_MAX + 16]; /* RUN_LOCK in the run directory (outputs.c) */
	int lock_fd;		       /* its descriptor while the run holds it, else 0 */
	char topology_fp[17];
	int done, total, errors, skipped, ok, write_failed, stopped;
	int gb_failed; /* Google Benchmark threw (gbshim_run): the run stopped, exit 1 */
	int disturbed; /* rows left disturbed (status disturbed) */
	int windows, disturbed_windows, retries; /* every window measured, for the summary */
	/* The block design (blocks.h): the block being measured (1-based, 0: none), the windows
	 * the budget plans at most, the tables and how many reached the target. */
	int block, planned_windows, min_windows, ntables;
	char matrix_plan[256]; /* --matrix: its windows within the budget (run_plan.c
				  run_plan_matrix) */
	struct bl_table *tables;
	double budget_end;		/* now_s() at which the budget is spent */
	int kind_windows[NOISE_NKINDS]; /* disturbed windows by kind (noise.h) */
	double t_first;
	double progress_last; /* now_s() of the last plain progress line (rows.c), or 0 */
	/* The family and repetition being set up or measured, or NULL: a fatal error after
	 * creation (out of memory) is written as its status=error row (run.c). */
	struct family *cur_fam;
	int cur_rep;
	/* Long-lived allocations, kept reachable until exit. */
	char **gb_argv, **orig_argv, **homes;
	char **placements; /* the -P values (a list of policies, or the one value) */
	int orig_argc;
	struct topo *topo;
	struct gb_family *gbf;
	struct job *jobs; /* each gbf[i]'s run and family (run.c) */
};

/*
 * run.c: a run after commands/cmd_measure.c has parsed its options into run->opt (and
 * run->orig_argv, run->gb_argv: the --benchmark_* arguments, @gb_argc of them).
 * measure_prepare - resolve everything the measurement needs (exit 2 on bad input). Returns
 * -1 to measure, or the exit status of a mode that measures nothing (--list-events,
 * --dry-run); @check refuses what hitm record cannot measure (unmodelled scenarios).
 */
int measure_prepare(struct measure_run *run, int gb_argc, int check);
/* measure_execute - a prepared run measured, written and reported; its exit status. */
int measure_execute(struct measure_run *run);
/* measure_dir_init - a prepared run's directory chosen into @d (hitm record; none made). */
void measure_dir_init(struct measure_run *run, struct measure_dir *d);

/* families.c: build_families - every (scenario, preset, workload, threads, home) selected,
 * resolved and placed, into run->fams (with --matrix: every pair of PUs). */
void build_families(struct measure_run *run, const struct options *o, const struct topo *topo);
/* family_param - the value of the run's @i-th param_ column in family @f ("" when its
 * scenario has no such parameter). */
const char *family_param(const struct measure_run *run, const struct family *f, int i);

/* tables.c */
void print_matrix(struct measure_run *run);
void print_plan(struct measure_run *run, const struct options *o, const struct topo *topo);

/* outputs.c */
/* check_outputs - choose run->run_dir; exit 2 if its results.csv exists (creates nothing). */
void check_outputs(struct measure_run *run, const struct options *o);
/* make_run_dir - create run->run_dir (-o DIR, or a new results/<stamp>-<host>[-N]). */
void make_run_dir(struct measure_run *run, const struct options *o);
void open_outputs(struct measure_run *run, const struct options *o);
/*
 * outputs_started - the run's files now get their end (die_after_create): no longer
 * removed as a refusal's leftovers (a new run directory, results/, an empty results.jsonl).
 */
void outputs_started(struct measure_run *run);
/*
 * link_latest - results/latest points at the newest run directory, but only for a run
 * directory under ./results/ (the default, or -o results/NAME), and replaces only a link
 * there (checked before measuring too). 0, or -1 after the message (exit 1).
 */
int link_latest(struct measure_run *run);
/* outputs_unlock - the run has ended: its lock file removed, the lock released. */
void outputs_unlock(struct measure_run *run);
char *options_json(struct measure_run *run, const struct options *o);
void write_context(struct measure_run *run);
/* close_outputs - close results.csv, results.jsonl and the --csv file; -1 if any failed. */
int close_outputs(struct measure_run *run);
void write_objects(struct measure_run *run);

/* rows.c */
/* columns_build - run->cols and run->ncols: the fixed columns, then every family's. */
void columns_build(struct measure_run *run);
void event_columns(struct measure_run *run, const struct options *o);
void write_row(struct measure_run *run, const struct family *f, int rep, enum status st,
	       const char *reason, const struct meas_result *r, const char *home);
void progress(struct measure_run *run, const struct family *f, int rep, enum status st,
	      const char *what);
void progress_end(struct measure_run *run);
/* progress_block - blocks: one line per block (also when stderr is not a terminal). */
void progress_block(struct measure_run *run, int block, int tables, int spent);
void home_cell(const struct family *f, char *buf, size_t len);

/* run_plan.c, called by measure_prepare: the block design (tables, window, planned windows),
 * --matrix within --budget, and the warning when -r or --max-blocks is too few. */
void run_plan_blocks(struct measure_run *run);
void run_plan_matrix(struct measure_run *run);
void run_warn_too_few(const struct measure_run *run);

#endif
