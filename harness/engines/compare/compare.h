/* SPDX-License-Identifier: MIT */
/*
 * compare.h - the compare engine: what its files share (harness/engines/compare/), and what
 * `pcbench compare` (commands/cmd_compare.c) and plot call.
 *
 * The data model: every CSV row belongs to a side (one-run mode: the only one; several
 * RUNs: its RUN; --by host: its host and topology_fp), a group (scenario, workload,
 * placement, threads, home) and an entry (scenario, preset, layout, every param_* value).
 * A cell is the rows of one (side, group, entry): the repetitions of one measurement.
 * A block is what one table shows together: one-run mode, a group with one column per
 * entry (the base entry first); several runs, a (group, entry) with one column per side
 * (the first side is the base). Every non-base column is compared with the base column,
 * metric by metric (verdict.c), and rendered by one of the report formats (formats.c).
 *
 * The files: compare.c (the engine's entry points: build, report, the run's closing report),
 * load.c (runs, columns, the string map),
 * group.c (sides, groups, entries, cells, blocks), verdict.c (statistics and verdicts),
 * report.c (the header and what every format shares), explain.c (explained numbers),
 * formats.c (the format table) and one fmt_<name>.c per report format.
 */
#ifndef PCBENCH_COMPARE_H
#define PCBENCH_COMPARE_H

#include <stdio.h>

#include "results.h"
#include "stats.h"
#include "strbuf.h"
#include "util.h"

struct compare;
struct header;

/*
 * A report format: `--format NAME` renders the comparison @c, under the header @h, on
 * @out. Adding a format is one fmt_<name>.c defining its function and one row of
 * compare_formats[] (formats.c).
 */
struct report_format {
	const char *name;
	void (*fn)(const struct compare *c, const struct header *h, FILE *out);
	const char *help; /* one line for --help */
	const char *file; /* the file `compare -o DIR` writes it to, or NULL */
};
/* The format table, ending with a row whose name is NULL; the first row is the default. */
extern const struct report_format compare_formats[];
/* compare_format_find - the row named @name, or NULL. */
const struct report_format *compare_format_find(const char *name);

enum {
	C_RUN_ID = COL_RUN_ID,
	C_SCENARIO = COL_SCENARIO,
	C_PRESET = COL_PRESET,
	C_LAYOUT = COL_LAYOUT,
	C_WORKLOAD = COL_WORKLOAD,
	C_THREADS = COL_THREADS,
	C_PLACEMENT = COL_PLACEMENT,
	C_NS_PER_OP = COL_NS_PER_OP,
	C_STATUS = COL_STATUS,
	C_REASON = COL_REASON,
	NREQ = RESULTS_NREQ
};

#define CI_ITERS 10000
#define CI_SEED 1
#define LKP_SD_MIN 2.0 /* lkp shows "± NN%" only above this relative stddev */

/* Multiple-testing corrections, named by cmp_correction_names[]. */
enum correction { CORR_HOLM, CORR_BH, CORR_NONE };
extern const char *const cmp_correction_names[];
extern const char *const cmp_correction_short[]; /* "Holm-corrected", for short headers */

struct cmp_options {
	const char *base, *metrics, *out_dir;
	const struct report_format *fmt;
	double alpha, min_change;
	int ci;
	int by_host;   /* sides from a row key: its host (--by host) or its kernel (--by kernel) */
	int by_kernel; /* --by kernel: the key is kernel_release and kernel_layout_fp */
	enum correction correction;
};

/* One RUN argument: a results CSV and what its context.json says. */
struct cmp_run {
	const char *arg;
	char *csv_path;
	char *label;			/* run_id from context.json, else the directory name */
	char *host, *cpu_model, *start; /* from context.json, or NULL */
	char *machine;			/* machine.summary from context.json, or NULL */
	const char *incomplete;		/* why the run is incomplete (struct run_file), or NULL */
	char *design;			/* options.design from context.json, or NULL */
	char *layouts;	  /* options.param's layout=A,B from context.json ("A,B"), or NULL */
	double precision; /* options.precision from context.json, or NaN */
	struct csv_table *t;
	int col[NREQ];
	int c_host, c_home, c_topo;
	int c_krel, c_kfp;		    /* kernel_release, kernel_layout_fp (-s kernel) */
	int c_block, c_dist_by, c_xb, c_xa; /* block, disturbed_by, xfer_before/after_ns */
	int c_omin, c_omax;		    /* ops_min_thread, ops_max_thread (fairness) */
	int *param_col;			    /* per global parameter: column, or -1 */
	int *metric_col;		    /* per global metric: column, or -1 */
	int *mux_col;			    /* per global metric: its <stem>_mux column, or -1 */
};

struct side {
	char *name;   /* "A", "B", ... or the host (--by host), "release#fp" (--by kernel) */
	char *runs;   /* run labels, ';'-separated */
	char *host;   /* for the header: machine */
	char *cpu;    /* may be NULL */
	char *state;  /* the machine summary line, may be NULL */
	int last_run; /* 1 + the last run appended to runs */
};

struct group {
	char *scenario, *workload, *placement, *threads, *home, *host;
	char *sweep; /* the swept parameters' values ("batch=32"), "" when none */
	long nthreads;
	long sc_rank, wl_rank, pl_rank, home_rank, host_rank, sweep_rank;
};

struct entry {
	char *scenario, *preset, *layout;
	char **pv; /* value of every global parameter ("" when absent) */
	/* layout_rank: the layout's place in the run's -D layout=A,B (A first; else after) */
	long sc_rank, preset_rank, layout_rank, first;
	char *label;
};

struct rowref {
	int run, row;
};

struct cell {
	int side, group, entry;
	struct rowref *rows;
	int nrows, cap;
	int nok, nerr, nskip, ndist; /* ndist: status disturbed (noise over --noise-max) */
	const char *err_reason, *skip_reason, *dist_reason;
};

struct summary {
	size_t n;
	double median, mean, sd, cv, mux; /* mux: smallest <stem>_mux, 1 when none */
};

struct result {
	int block, col, metric;
	struct summary b, o;
	double change, min_p, ci_lo, ci_hi;
	double p_adj; /* mwu.p corrected within its family (NaN without a p) */
	int family;   /* the family's size: the p-values of its metric in its table */
	int have_p;
	struct stats_mwu mwu; /* paired: .p the signed-rank p, .exact; no U */
	const char *verdict;
	char *flags;
	int paired; /* from blocks (blocks.c): change, ci and p within blocks */
	int nclean; /* paired: the blocks compared (its two windows clean in each) */
	/* Fairness (blocks.c, cmp_fairness): the median over the ok rows of each side of
	 * ops_min_thread / ops_max_thread (NaN: one thread, or not in the run); the p of its
	 * per-block differences (signed-rank; independent: Mann-Whitney U), NaN untested;
	 * fair_changed: |change| >= FAIR_MIN_CHANGE and p < alpha (uncorrected). */
	double fair_b, fair_o, fair_p;
	int fair_changed;
	int need; /* no verdict: the clean blocks (paired) or ok repetitions a side needed */
};

/* A fairness change is flagged from this difference of the medians on (and p < alpha). */
#define FAIR_MIN_CHANGE 0.10

/*
 * A table's blocks under the block design (blocks.c). Each comparison (a column against the
 * base) uses the blocks in which both of its windows are clean, unless the block's windows
 * were measured on two host mappings (remap in block): that leaves out the whole block.
 */
struct tblocks {
	int nb, ncap, cap;
	char **name;	    /* [j]: block j's number, as text */
	signed char *state; /* [col * cap + j]: 0 no row, 1 a clean row, 2 rows, none clean */
	const char **why;   /* [col * cap + j]: with state 2, why not clean (cmp_row_reason) */
	char *remap;	    /* [j]: block j's windows' probes span two host mappings */
	int *mapping;	    /* [j]: block j's host mapping, or -1 */
};

/* The change of one comparison within the blocks of one host mapping. */
struct mchange {
	int res, mapping;
	struct block_change bc;
};

/* Host mappings: clusters of the transfer probe's values (blocks.c, cmp_find_mappings). */
#define MAP_GAP 2.0	 /* clusters are apart where one value is over twice the last */
#define MAP_MIN_PROBES 3 /* and hold at least this many probes (and 5% of them) */
#define MAP_MAX 8

struct block {
	int group, entry; /* entry: several-runs mode only, else -1 */
	int ncols;
	int *cell; /* per column: cell index or -1; column 0 is the base */
	char **label;
	int *res; /* [col * nmetrics + metric]: result index or -1 */
};

struct unmatched {
	int group, entry;
	char *what;
};

/* A string -> int hash map (open addressing, FNV-1a). */
struct map {
	char **keys;
	int *vals;
	size_t cap, n;
};

struct compare {
	struct cmp_options o;
	struct cmp_run *runs;
	int nruns, one_run;
	char **params; /* parameter names (the part after "param_") */
	int nparams;
	int *sweep; /* per parameter: 1 when one run's family has several values (a sweep) */
	char **metrics;
	int nmetrics, nhosts;
	int has_home; /* some row has a non-empty home */
	struct side *sides;
	int nsides;
	struct group *groups;
	int ngroups;
	struct entry *entries;
	int nentries;
	struct cell *cells;
	int ncells;
	struct block *blocks;
	int nblocks;
	struct result *res;
	int nres;
	struct unmatched *um;
	int num;
	struct map gmap, emap, cmap, smap, first;
	long nrows_seen;
	char *base_desc;
	char *fallback;	     /* why --by host fell back to another comparison, or NULL */
	int paired;	     /* the block design's analysis (cmp_choose_design) */
	char *design;	     /* the header's design line */
	struct tblocks **tb; /* per block (table): its design blocks, built when first needed */
	int nmap;	     /* host mappings seen by the transfer probe */
	double map_lo[MAP_MAX], map_hi[MAP_MAX], xfer_lo, xfer_hi;
	struct mchange *mc; /* per comparison and mapping (ops_per_s), when nmap > 1 */
	int nmc, mc_cap;
	char **sc_base; /* per entry's scenario: the base preset; parallel to sc_names */
	char **sc_names;
	int nsc;
};

/* GROW - make room for one more element of @arr. */
#define GROW(arr, n, cap)                                                                          \
	do {                                                                                       \
		if ((n) == (cap)) {                                                                \
			(cap) = (cap) ? 2 * (cap) : 16;                                            \
			(arr) = xrealloc((arr), (size_t)(cap) * sizeof(*(arr)));                   \
		}                                                                                  \
	} while (0)

/* Header lines: (key, value) pairs, rendered by each format. */
struct header {
	char *key[32], *val[32];
	int n;
};

/*
 * compare.c: compare_one_run - what `pcbench compare RUN` computes (every table of the one RUN,
 * every metric, its default options), judged, nothing printed; for the forest plots of
 * `pcbench plot` (forest.c). Bad input exits 2, as compare does.
 */
const struct compare *compare_one_run(const char *run);
/* compare.c: compare_options_init - @o zeroed, then the defaults of compare's options. */
void compare_options_init(struct cmp_options *o);
/* compare.c: compare_check_out_dir - -o DIR checked before anything is read or made
 * (outpath.h): exit 2 when DIR holds files compare does not write. */
void compare_check_out_dir(const char *dir);
/*
 * compare.c: compare_run - the comparison of the @nruns RUNs with options @o: built,
 * printed on stdout in o->fmt, written into o->out_dir (when set). Bad input exits 2.
 * Returns 0, or 1 when the report could not be written.
 */
int compare_run(const struct cmp_options *o, const char *const *runs, int nruns);

/* load.c */
int cmp_map_get(const struct map *m, const char *key);
void cmp_map_put(struct map *m, const char *key, int val);
/* cmp_first_seen - the order in which a (dimension, value) first appeared in the input. */
long cmp_first_seen(struct compare *c, const char *dim, const char *value);
const char *cmp_cell_at(const struct cmp_run *r, int row, int col);
void cmp_load_run(struct cmp_run *r, const char *arg);
/* cmp_collect_columns - the union of the param_* and metric columns over all runs. */
void cmp_collect_columns(struct compare *c);

/* group.c */
/*
 * cmp_count_hosts - the distinct sides of --by host (host, topology_fp) or --by kernel
 * (kernel_release, kernel_layout_fp) over all rows; *@first: the first host or release.
 */
int cmp_count_hosts(const struct compare *c, char **first);
/*
 * cmp_find_sweeps - one RUN: the parameters that take several values within one family
 * (same scenario, preset, layout, workload, placement, threads, home, host): -D sweeps.
 * Their values become part of the group, so families of other values stay apart.
 */
void cmp_find_sweeps(struct compare *c);
void cmp_add_row(struct compare *c, int ri, int row);
int cmp_find_cell(const struct compare *c, int side, int group, int entry);
char *cmp_key_text(const struct compare *c, const struct group *g, const struct entry *e);
void cmp_build_blocks(struct compare *c);

/* blocks.c */
/* cmp_choose_design - blocks or independent repetitions, and the header's line saying why. */
void cmp_choose_design(struct compare *c);
/*
 * cmp_find_mappings - the host mappings of a run: its transfer probe values sorted, split
 * where one is over MAP_GAP times the one before; a cluster of fewer than MAP_MIN_PROBES
 * (and 5% of the probes) is a stray probe and counts as none.
 */
void cmp_find_mappings(struct compare *c);
/* cmp_pair_result - @r (column @col of table @bi) from the clean blocks of its table. */
void cmp_pair_result(struct compare *c, int bi, int col, struct result *r, struct sb *flags);
/* cmp_mapping_changes - with several host mappings: each comparison within each (c->mc). */
void cmp_mapping_changes(struct compare *c);
/* cmp_blocks_left - how many blocks of table @bi the comparison of column @col leaves out. */
int cmp_blocks_left(struct compare *c, int bi, int col);
/* cmp_fairness - the fairness of @r (column @col of table @bi) and its test (struct result). */
void cmp_fairness(struct compare *c, int bi, int col, struct result *r);
/* cmp_row_fairness - ops_min_thread / ops_max_thread of @row of @r, or NaN (one thread,
 * no such columns, no operation). */
double cmp_row_fairness(const struct cmp_run *r, int row);

/*
 * cmp_row_reason - why @row of @r is not clean: its disturbed_by kind (run_delay, ...),
 * else "noise" for a disturbed row, else its status (error, skipped).
 */
const char *cmp_row_reason(const struct cmp_run *r, int row);

/*
 * cmp_left_text - "14 of 15 blocks disturbed (12 run delay, 2 host preemption)": the @nleft
 * of @n @unit (block, repetition) left out, counted by their reasons @why (cmp_row_reason,
 * or "missing"), the most frequent first; "left out" when a reason is not a disturbance.
 */
char *cmp_left_text(const char **why, int nleft, int n, const char *unit);
/* cmp_reasons_text - "(12 run delay, 2 host preemption)" onto @b: the @n reasons @why, each
 * once with its count, the most frequent first. */
void cmp_reasons_text(struct sb *b, const char **why, int n);

/* verdict.c */
/* cmp_parse_num - the number in @row, @col of @r; a cell that is not one exits 2. */
double cmp_parse_num(const struct cmp_run *r, int row, int col);
int cmp_higher_is_better(const char *metric);
/* cmp_cell_summary - median, mean, sd, cv of @metric over the ok rows of cell @cell. */
void cmp_cell_summary(const struct compare *c, int cell, int metric, struct summary *s);
/* cmp_status_flags - "WHO k/n error: reason; WHO k/n skipped: reason" of cell @cl (WHO may
 * be ""). */
void cmp_status_flags(struct sb *f, const char *who, const struct cell *cl);
/* cmp_compare_cells - column @col of block @bi against its base column, every metric. */
void cmp_compare_cells(struct compare *c, int bi, int col);
/*
 * cmp_judge - after every cmp_compare_cells: correct the p-values per family (one metric's
 * comparisons in one table: a group) and give each result its verdict.
 */
void cmp_judge(struct compare *c);

/*
 * realemu.c: cmp_fmt_real_vs_emulated - one RUN holding a `kernel` family and the emulated
 * families its workload stands for (same placement, threads, host): the real kernel beside
 * its emulation, one table and a sentence per pair; nothing otherwise.
 */
void cmp_fmt_real_vs_emulated(const struct compare *c, FILE *out);

/*
 * compare.csv's own columns, after its key columns (results.csv's scenario, workload,
 * placement, threads, home, host): X(ENUM, "name"), in file order. fmt_csv.c writes them;
 * a reader of compare.csv finds one with cmp_csv_col (never by a name string).
 */
#define COMPARE_CSV_COLUMNS(X)                                                                     \
	X(TESTCASE, "testcase")                                                                    \
	X(BASE, "base")                                                                            \
	X(WITH_PATCH, "with_patch")                                                                \
	X(BASE_RUNS, "base_runs")                                                                  \
	X(WITH_PATCH_RUNS, "with_patch_runs")                                                      \
	X(METRIC, "metric")                                                                        \
	X(HIGHER_IS_BETTER, "higher_is_better")                                                    \
	X(N_BASE, "n_base")                                                                        \
	X(MEDIAN_BASE, "median_base")                                                              \
	X(MEAN_BASE, "mean_base")                                                                  \
	X(STDDEV_BASE, "stddev_base")                                                              \
	X(CV_BASE, "cv_base")                                                                      \
	X(MUX_BASE, "mux_base")                                                                    \
	X(N_WITH_PATCH, "n_with_patch")                                                            \
	X(MEDIAN_WITH_PATCH, "median_with_patch")                                                  \
	X(MEAN_WITH_PATCH, "mean_with_patch")                                                      \
	X(STDDEV_WITH_PATCH, "stddev_with_patch")                                                  \
	X(CV_WITH_PATCH, "cv_with_patch")                                                          \
	X(MUX_WITH_PATCH, "mux_with_patch")                                                        \
	X(CHANGE_PCT, "change_pct")                                                                \
	X(U, "u")                                                                                  \
	X(P_VALUE, "p_value")                                                                      \
	X(P_METHOD, "p_method")                                                                    \
	X(P_ADJUSTED, "p_adjusted")                                                                \
	X(CORRECTION, "correction")                                                                \
	X(FAMILY_SIZE, "family_size")                                                              \
	X(MIN_P, "min_p")                                                                          \
	X(CI_LO_PCT, "ci_lo_pct")                                                                  \
	X(CI_HI_PCT, "ci_hi_pct")                                                                  \
	X(ALPHA, "alpha")                                                                          \
	X(MIN_CHANGE_PCT, "min_change_pct")                                                        \
	X(FAIRNESS_BASE, "fairness_base")                                                          \
	X(FAIRNESS_WITH_PATCH, "fairness_with_patch")                                              \
	X(FAIRNESS_P, "fairness_p")                                                                \
	X(FAIRNESS_CHANGED, "fairness_changed")                                                    \
	X(VERDICT, "verdict")                                                                      \
	X(FLAGS, "flags")

enum cmp_csv_col {
#define CCSV_ENUM(e, name) CCSV_##e,
	COMPARE_CSV_COLUMNS(CCSV_ENUM)
#undef CCSV_ENUM
	    CCSV_N
};
extern const char *const cmp_csv_cols[CCSV_N];
/* cmp_csv_col - the index of compare.csv column @c in @t's header, or -1. */
int cmp_csv_col(const struct csv_table *t, enum cmp_csv_col c);

/* report.c: the header and the pieces every format shares. */
void cmp_build_header(struct compare *c, struct header *h);
/*
 * cmp_count_comparisons - how many comparisons (a column against its base in one table,
 * whatever the metrics) have a result @want accepts: the one way the header and the
 * summary's last list count comparisons.
 */
int cmp_count_comparisons(const struct compare *c,
			  int (*want)(const struct compare *c, const struct result *r));
/* cmp_count_verdicts - the comparisons without a verdict, of those measured, and how far
 * each fell short (struct run_verdicts, compare_run.h). */
struct run_verdicts;
void cmp_count_verdicts(const struct compare *c, struct run_verdicts *v);
/* cmp_half_width - half the width of @r's ci, in %change points. */
double cmp_half_width(const struct result *r);
/* cmp_correction_desc - what the p-values are, for headers (allocated). */
char *cmp_correction_desc(const struct compare *c);
void cmp_fmt_val(char *buf, size_t len, double v);
void cmp_fmt_pct(char *buf, size_t len, double v);
/* cmp_fmt_fair - a fairness (ops_min_thread / ops_max_thread) as "0.45", or "-". */
void cmp_fmt_fair(char *buf, size_t len, double v);
void cmp_fmt_change(char *buf, size_t len, double v);
void cmp_fmt_p(char *buf, size_t len, const struct result *r);
void cmp_fmt_ci(char *buf, size_t len, const struct result *r);
char *cmp_group_title(const struct compare *c, const struct group *g, const char *sep);
const char *cmp_testcase_label(const struct compare *c, const struct block *b, int col, char *buf,
			       size_t len);
char *cmp_base_note(const struct compare *c, const struct block *b);
void cmp_fmt_unmatched(const struct compare *c, FILE *out, int markdown);

/* explain.c */
void cmp_explain(const struct compare *c, FILE *out);

/*
 * fmt_summary.c: cmp_verdict_cells - the cells of a comparison as the summary shows them:
 * %change ("+12.3%"), its ci ("[+5.1%, +20.2%]"), the corrected p and the verdict ("-" for
 * what it lacks).
 */
void cmp_verdict_cells(const struct result *r, char *change, char *ci, char *p, char *verdict,
		       size_t len);
/* fmt_summary.c: cmp_metric_index - the index of metric @name in c->metrics, or -1. */
int cmp_metric_index(const struct compare *c, const char *name);

/* fmt_table.c: the text table, also rendered as markdown (fmt_markdown.c). */
void cmp_fmt_text_table(const struct compare *c, const struct header *h, FILE *out, int md);

#endif
