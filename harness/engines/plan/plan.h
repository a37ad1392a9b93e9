/* SPDX-License-Identifier: MIT */
/* plan.h - what a run measures: families of (scenario, preset, workload, placement, threads). */
#ifndef PCBENCH_PLAN_H
#define PCBENCH_PLAN_H

#include <stddef.h>

#include "harness.h"
#include "topology.h"

struct measurement;

/* ST_DISTURBED: measured, but over the noise limit after every retry (not in statistics) */
enum status { ST_OK, ST_ERROR, ST_SKIPPED, ST_DISTURBED };
extern const char *const status_names[];

struct family {
	const struct scenario *sc;
	const struct bench_preset *preset;
	const struct bench_workload *wl;
	struct bench_cfg *cfg;
	const char *placement;
	int threads;
	int *pus;	/* OS PU of each thread; NULL when skipped */
	char *cpus;	/* "0;1": the OS PUs, in thread order; NULL when skipped */
	char skip[200]; /* why the family cannot run here, or "" */
	int skip_error; /* measure: the skip is an error row (its threads cannot be created) */
	const char *home_spec;	     /* first | node:N | interleave */
	const struct layout *layout; /* --layout, resolved once (layout_get), or NULL */
	const char *layout_name;     /* its name as given */
	char layout_fp[17];	     /* fingerprint of the layout the scenario uses, or "" */
	char (*model)[40];	     /* --with-model: the model_* cells, or NULL */
	double *matrix_ns;	     /* --matrix: ns per transfer of each repetition, or NULL */
	int matrix_n;
	struct topo_home home; /* resolved (valid unless skipped) */
	char name[256];	       /* Google Benchmark name, key:value style */
	struct measurement *m; /* measure: its window (measure/measure.h), NULL until set up */
	int reps_done;
};

/* The options that select what a run (or the model) covers, shared by their CLIs. */
#define SELECTION_MAX_PARAMS 64
struct selection {
	const char *scenarios, *presets, *workloads, *threads, *placement, *topology;
	char *params[SELECTION_MAX_PARAMS]; /* --param NAME=VALUE */
	int nparams;
};

/*
 * selection_add_param - -D NAME=VALUE (@arg, kept) into @s; a bad form, the same NAME twice or
 * too many exit 2 naming it. selection_param_opt - the same as an option row's call
 * (OPT_CALL, bound to the struct selection).
 */
struct opt;
void selection_add_param(struct selection *s, const char *arg);
void selection_param_opt(void *sel, const char *value, const struct opt *row);

/*
 * selection_more - the usage lines made from tables for the selection options: after
 * --placement, one line per placement policy (cmd_help.opt_more of measure and model).
 */
const char *selection_more(const char *name);

/*
 * selection_check - every scenario named in @scn exists in @table, every preset (@pre),
 * workload (@wls) and --param name belongs to a selected scenario; else exit 2 naming it.
 * NULL lists mean everything.
 */
void selection_check(const struct scenario *const *table, const struct selection *s, char **scn,
		     char **pre, char **wls);

/* in_list - @name is in the NULL-terminated @list, or @list is NULL (everything). */
int in_list(char **list, const char *name);

/*
 * scenario_selected - @sc is in the -s list @scn; with no list (the default suite), every
 * scenario but those that run only when named (BENCH_KERNEL).
 */
int scenario_selected(char **scn, const struct scenario *sc);

/* One selected (scenario, preset, workload): a family before its threads and placement. */
struct pick {
	const struct scenario *sc;
	const struct bench_preset *preset;
	const struct bench_workload *wl;
};

/*
 * selection_each - call @fn(pick, @arg) for every preset of @sc in @pre and workload of @sc
 * in @wls (NULL lists mean everything), in table order: each preset's workloads in turn.
 * Stops at @fn's first nonzero return and returns it; else 0. The one walk over what a
 * selection covers: measure's families and its --layout check, model's families.
 */
int selection_each(const struct scenario *sc, char **pre, char **wls,
		   int (*fn)(const struct pick *k, void *arg), void *arg);

/*
 * parse_threads - "1,2", "1-8", "max" or a mix; "max" is @max. Values are >= 1, kept in
 * order without duplicates. Returns how many were stored in @out (at most @cap), or -1
 * with the bad item in @err.
 */
int parse_threads(const char *s, int max, int *out, int cap, char *err, size_t errlen);

/*
 * split_list - split a comma-separated list into a NULL-terminated array of strings
 * (one allocation; free() the result). Empty items are dropped.
 */
char **split_list(const char *s);

/*
 * family_place - resolve the PUs of @f on @t; a placement that does not fit leaves
 * @f->skip set. Returns -1 (reason in @err) only for an unknown placement.
 */
int family_place(struct family *f, const struct topo *t, char *err, size_t errlen);

/*
 * family_config - @f's configuration: its scenario, preset, workload and threads, with the
 * --param values of @s and its --layout (f->layout). -1 with the reason in @err.
 */
int family_config(struct family *f, const struct selection *s, char *err, size_t errlen);

/*
 * family_resolve - @f's configuration (its scenario, preset, workload and threads, with the
 * --param values of @s) and its PUs on @t; exits 2 naming @name (a bad configuration) or
 * the placement (unknown). What measure and model both do to each family they select.
 */
void family_resolve(struct family *f, const struct selection *s, const struct topo *t,
		    const char *name);

#endif
