// SPDX-License-Identifier: MIT
/* esc_text.c - esc.h's escaping into a string of its own (esc.c escapes into a buffer). */
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "util.h"

/* Every byte escapes to at most 4 ("\\xNN"), so the whole of @s always fits. */
char *esc_text(const char *s)
{
	size_t len = 4 * strlen(s) + 1;
	char *e;

	if (!esc_needed(s))
		return xstrdup(s);
	e = xmalloc(len);
	esc_buf(e, len, s);
	return e;
}

void esc_inplace(char **s)
{
	if (*s && esc_needed(*s)) {
		char *e = esc_text(*s);

		free(*s);
		*s = e;
	}
}
