// SPDX-License-Identifier: MIT
/* fuzz_pahole - libFuzzer target: pahole text import; what it emits must parse as a layout. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "pahole.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[512], *out;
	struct pahole_opts opts = {0};

	memcpy(text, data, size);
	text[size] = '\0';
	out = pahole_to_layout(text, "fuzz", &opts, err, sizeof(err));
	if (out) {
		struct layout *l = layout_parse(out, "imported", err, sizeof(err));

		if (!l)
			abort(); /* import wrote a layout its own parser rejects */
		layout_free(l);
		free(out);
	}
	free(text);
	return 0;
}
