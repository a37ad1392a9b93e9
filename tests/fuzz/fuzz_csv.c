// SPDX-License-Identifier: MIT
/* fuzz_csv - libFuzzer target: the strict CSV reader pcbench compare uses. */
#include <stdint.h>
#include <stdlib.h>

#include "csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct csv_table *t = csv_parse((const char *)data, size, "fuzz", err, sizeof(err));

	if (t) {
		for (int r = 0; r < t->nrows; r++)
			for (int c = 0; c < t->ncols; c++)
				if (!t->rows[r][c])
					abort(); /* every cell of a parsed row exists */
		csv_col(t, "ops_per_s");
		csv_table_free(t);
	}
	return 0;
}
