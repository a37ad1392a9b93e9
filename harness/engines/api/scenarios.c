// SPDX-License-Identifier: MIT
/*
 * scenarios.c - the scenario table, generated from benches/CMakeLists.txt. Compiled with
 * each scenario object library; in the tracing one, trace_names.h renames the table and
 * the scenario symbols (all_scenarios_traced, ...) so that both can live in one binary.
 */
#include <string.h>

#include "harness.h"

#define SCENARIO(n) extern const struct scenario n##_scenario;
#include "scenarios.def"
#undef SCENARIO

const struct scenario *const all_scenarios[] = {
#define SCENARIO(n) &n##_scenario,
#include "scenarios.def"
#undef SCENARIO
    NULL,
};

const struct scenario *scenario_find(const char *name)
{
	for (int i = 0; all_scenarios[i]; i++)
		if (!strcmp(all_scenarios[i]->name, name))
			return all_scenarios[i];
	return NULL;
}
