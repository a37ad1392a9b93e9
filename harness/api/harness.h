/* SPDX-License-Identifier: MIT */
/*
 * harness.h - the harness's internal API (scenarios never include this): resolved
 * configurations, the scenario table, measurement plans.
 */
#ifndef PCBENCH_HARNESS_H
#define PCBENCH_HARNESS_H

#include "bench.h"

/*
 * The generated scenario table, terminated by NULL, and the same scenarios compiled with
 * the tracing accessor layer (every shared access reported to pc_trace), for the model.
 * Code compiled against pcbench_scenarios_trace alone gets the traced names through
 * trace_names.h, under the plain names.
 */
extern const struct scenario *const all_scenarios[];
const struct scenario *scenario_find(const char *name);
extern const struct scenario *const all_scenarios_traced[];
const struct scenario *scenario_find_traced(const char *name);
const struct bench_preset *preset_find(const struct scenario *sc, const char *name);
const struct bench_workload *workload_find(const struct scenario *sc, const char *name);

/*
 * cfg_new - resolve every parameter of @sc for one (preset, workload, threads):
 * defaults < workload set < preset set < @user (one "name=value" each, the value all after
 * the first '=', spaces included; names the scenario does not declare are skipped: check
 * them first with param_arg_known). Validates every value, loads layouts and runs the
 * scenario's check(). Returns NULL with "what: value: why" in @err.
 */
struct bench_cfg *cfg_new(const struct scenario *sc, const struct bench_preset *preset,
			  const struct bench_workload *wl, int threads, char *const *user,
			  int nuser, char *err, size_t errlen);
void cfg_free(struct bench_cfg *cfg);
/* param_arg_known - @sc has the parameter named by "NAME=VALUE" @arg (or a bare NAME). */
int param_arg_known(const struct scenario *sc, const char *arg);
const struct scenario *cfg_scenario(const struct bench_cfg *cfg);
const struct bench_preset *cfg_preset(const struct bench_cfg *cfg);
/*
 * harness_params - the parameters every scenario accepts after its own ({NULL}-terminated):
 * `work`. scenario_param - parameter number @i of @sc: its own params[], then these; NULL
 * past the end. Loop over parameters with it, not over sc->params.
 */
extern const struct bench_param harness_params[];
const struct bench_param *scenario_param(const struct scenario *sc, int i);
/* cfg_value - value of parameter number @i (numbered as scenario_param does). */
const char *cfg_value(const struct bench_cfg *cfg, int i);
/* cfg_layout_name - the value of the "layout" parameter, or "" when there is none. */
const char *cfg_layout_name(const struct bench_cfg *cfg);
/* cfg_layout - the loaded layout of a BENCH_LAYOUT "layout" parameter, or NULL. */
const struct layout *cfg_layout(const struct bench_cfg *cfg);

#endif
