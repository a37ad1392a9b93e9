// SPDX-License-Identifier: MIT
/* fuzz_recipe - libFuzzer target: the probe's recipe parser, binder and thread assignment. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "recipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct layout *l;
	char *text = malloc(size + 1), err[512];
	struct recipe *r;

	if (!l)
		l = layout_load("v6.1", err, sizeof(err));
	memcpy(text, data, size);
	text[size] = '\0';
	r = recipe_parse(text, "fuzz", err, sizeof(err));
	if (r && l && !recipe_bind(r, l, err, sizeof(err))) {
		int role[64];

		for (int t = 1; t <= 64; t *= 4)
			recipe_assign(r, t, role, err, sizeof(err));
	}
	recipe_free(r);
	free(text);
	return 0;
}
