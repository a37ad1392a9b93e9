// SPDX-License-Identifier: MIT
/*
 * fuzz_btf - libFuzzer target: the BTF reader (layout import --btf) on raw BTF: libbpf's
 * parse, btf_check, then every named struct and union rendered as `pahole -E` text and that
 * text converted to a layout. A crash, a hang or unbounded memory is the bug; a refusal
 * (NULL with a reason) is the expected answer to a malformed blob.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "layout.h"
#include "pahole.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	/* 64 KiB of text: the bound is what is tested, and the fuzzer stays fast. */
	char *text = btf_text_from_buf(data, size, NULL, 64 << 10, err, sizeof(err));

	if (text) {
		struct pahole_opts po = {.name = "fuzz", .desc = "fuzz"};
		char *layout =
		    text[0] ? pahole_to_layout(text, "fuzz", &po, err, sizeof(err)) : NULL;

		free(layout);
		free(text);
	} else if (!err[0]) {
		abort(); /* a refusal always says why */
	}
	return 0;
}
