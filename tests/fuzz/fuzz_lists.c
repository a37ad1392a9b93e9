// SPDX-License-Identifier: MIT
/* fuzz_lists - libFuzzer target: the thread-list and comma-list option parsers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256], **list;
	int out[256], n;

	memcpy(text, data, size);
	text[size] = '\0';
	n = parse_threads(text, 192, out, 256, err, sizeof(err));
	for (int i = 0; i < n; i++)
		if (out[i] < 1)
			abort(); /* a thread count below 1 got through */
	list = split_list(text);
	for (int i = 0; list[i]; i++)
		if (!list[i][0] || strchr(list[i], ','))
			abort(); /* an empty item or a separator inside an item */
	free(list);
	free(text);
	return 0;
}
