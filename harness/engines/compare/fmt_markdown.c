// SPDX-License-Identifier: MIT
/* fmt_markdown.c - the `markdown` report format: the table format's tables in markdown. */
#include "compare.h"

void cmp_fmt_markdown(const struct compare *c, const struct header *h, FILE *out)
{
	cmp_fmt_text_table(c, h, out, 1);
}
