// SPDX-License-Identifier: MIT
/* fuzz_layout - libFuzzer target: the layout-file parser, and the text writer round trip. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[512];
	struct layout *l;

	memcpy(text, data, size);
	text[size] = '\0';
	l = layout_parse(text, "fuzz", err, sizeof(err));
	if (l) {
		/* a parsed layout must survive its own text form with the same fingerprint */
		char *again = layout_to_text(l);
		struct layout *l2 = again ? layout_parse(again, "again", err, sizeof(err)) : NULL;

		if (!l2 || layout_fingerprint(l2) != layout_fingerprint(l))
			abort();
		layout_free(l2);
		free(again);
		layout_offset(l, l->structs[0].name, "a.b.c");
		layout_free(l);
	}
	free(text);
	return 0;
}
