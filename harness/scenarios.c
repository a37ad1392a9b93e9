// SPDX-License-Identifier: MIT
/* scenarios.c - the scenario table, generated from benches/CMakeLists.txt. */
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

const struct bench_preset *preset_find(const struct scenario *sc, const char *name)
{
	for (int i = 0; sc->presets[i].name; i++)
		if (!strcmp(sc->presets[i].name, name))
			return &sc->presets[i];
	return NULL;
}

const struct bench_workload *workload_find(const struct scenario *sc, const char *name)
{
	for (int i = 0; sc->workloads[i].name; i++)
		if (!strcmp(sc->workloads[i].name, name))
			return &sc->workloads[i];
	return NULL;
}
