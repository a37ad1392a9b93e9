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
/*
 * The scenario's hooks, with the harness's defaults for the optional ones (bench.h):
 * scenario_thread_setup, scenario_thread_teardown, scenario_teardown, scenario_objects.
 */
static inline void *scenario_thread_setup(const struct scenario *sc, void *shared, int t)
{
	return sc->thread_setup ? sc->thread_setup(shared, t) : bench_alloc(BENCH_PAD, BENCH_PAD);
}

static inline void scenario_thread_teardown(const struct scenario *sc, void *shared, void *ts)
{
	if (sc->thread_teardown)
		sc->thread_teardown(shared, ts);
	else
		bench_free(ts);
}

static inline void scenario_teardown(const struct scenario *sc, void *shared)
{
	if (sc->teardown)
		sc->teardown(shared);
	else
		bench_free(shared);
}

static inline int scenario_objects(const struct scenario *sc, void *shared,
				   struct bench_object *out, int max)
{
	return sc->objects ? sc->objects(shared, out, max) : 0;
}

const struct bench_preset *preset_find(const struct scenario *sc, const char *name);
const struct bench_workload *workload_find(const struct scenario *sc, const char *name);

/*
 * cfg_new - resolve every parameter of @sc for one (preset, workload, threads):
 * defaults < workload set < preset set < @user (one "name=value" each, the value all after
 * the first '=', spaces included; names the scenario does not declare are skipped: check
 * them first with param_arg_known). Validates every value, loads the layout of the
 * BENCH_LAYOUT parameter (layout_get) and runs the scenario's check(). Returns NULL with
 * "what: value: why" in @err.
 * cfg_new_layout - the same, with @layout (from layout_get, named @layout_name: --layout)
 * as the scenario's layout whatever its presets and @user say; a scenario without a
 * BENCH_LAYOUT parameter is refused. NULL @layout: as cfg_new.
 */
struct bench_cfg *cfg_new(const struct scenario *sc, const struct bench_preset *preset,
			  const struct bench_workload *wl, int threads, char *const *user,
			  int nuser, char *err, size_t errlen);
struct bench_cfg *cfg_new_layout(const struct scenario *sc, const struct bench_preset *preset,
				 const struct bench_workload *wl, int threads, char *const *user,
				 int nuser, const struct layout *layout, const char *layout_name,
				 char *err, size_t errlen);
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
/*
 * scenario_layout_param - the number (as scenario_param) of @sc's layout parameter, found by
 * its type, never by its name: the one with choices == BENCH_LAYOUT, else the scenario's
 * layout_param (a computed layout); -1 if none. scenario_takes_layout - @sc's layout
 * parameter is a BENCH_LAYOUT one: --layout and `layout show --scenario` can give it one.
 */
int scenario_layout_param(const struct scenario *sc);
int scenario_takes_layout(const struct scenario *sc);
/* cfg_layout_name - the value of the layout parameter (the layout column), or "". */
const char *cfg_layout_name(const struct bench_cfg *cfg);
/* cfg_layout - the loaded layout of the BENCH_LAYOUT parameter, or NULL. */
const struct layout *cfg_layout(const struct bench_cfg *cfg);
/*
 * layout_get - the layout @name (a built-in name, a layout file or btf:), loaded once per
 * process and shared by every configuration that names it (never freed). NULL with @err.
 */
const struct layout *layout_get(const char *name, char *err, size_t errlen);

#endif
