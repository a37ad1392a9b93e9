// SPDX-License-Identifier: MIT
/*
 * fuzz_param - libFuzzer target: one -D NAME=VALUE resolved by cfg_new against a scenario
 * with an integer and a choice parameter. The input is ONE parameter, spaces and '='
 * included: whatever it holds, at most the parameter it names changes, and a value that
 * is accepted is exactly the text after the first '='.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct bench_param params[] = {
    {"batch", "4", "an integer", NULL, 1, 1024},
    {"mode", "a", "a choice", "a|b", 0, 0},
    {0},
};
static const struct bench_preset presets[] = {{"base", "", "batch=8"}, {0}};
static const struct bench_workload workloads[] = {{"w", "", "mode=b", 0}, {0}};
static const struct scenario fuzz_sc = {
    .name = "fuzz", .desc = "", .params = params, .presets = presets, .workloads = workloads};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *arg = malloc(size + 1), err[256];
	struct bench_cfg *cfg;

	memcpy(arg, data, size);
	arg[size] = '\0';
	cfg = cfg_new(&fuzz_sc, &presets[0], &workloads[0], 1, &arg, 1, err, sizeof(err));
	if (cfg) {
		size_t len = strcspn(arg, "=");

		for (int i = 0; scenario_param(&fuzz_sc, i); i++) {
			const char *name = scenario_param(&fuzz_sc, i)->name;
			int named =
			    arg[len] == '=' && strlen(name) == len && !strncmp(name, arg, len);
			const char *want = named		    ? arg + len + 1
					   : !strcmp(name, "batch") ? "8"
					   : !strcmp(name, "mode")  ? "b"
								    : NULL;

			if (want && strcmp(cfg_value(cfg, i), want))
				abort(); /* a value other than the one -D set (or the preset's) */
		}
		cfg_free(cfg);
	}
	free(arg);
	return 0;
}
