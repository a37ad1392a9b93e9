// SPDX-License-Identifier: MIT
/*
 * esc.c - control characters and invalid UTF-8 escaped for printing (esc.h), into a buffer
 * of the caller's: it calls nothing, so die() and usage_error() (util.c) may use it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"

/*
 * keep - how many bytes at @s print as they are: the length of one printable ASCII character
 * or valid UTF-8 sequence that is not a C1 control; 0 when the byte at @s must be escaped.
 */
static size_t keep(const unsigned char *s)
{
	size_t n;
	unsigned cp;

	if (*s >= 0x20 && *s < 0x7f)
		return 1;
	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2, cp = *s & 0x1f;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 3, cp = *s & 0x0f;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4, cp = *s & 0x07;
	else
		return 0; /* a control, DEL, a continuation byte alone, or never valid */
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogate, beyond U+10FFFF, a C1 control, or a bidi control (the marks
	 * U+061C, U+200E, U+200F, the embeddings and overrides U+202A..U+202E, the isolates
	 * U+2066..U+2069: they reorder what follows them on the line) */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069))
		return 0;
	return n;
}

int esc_needed(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = keep(p);

		if (!n)
			return 1;
		p += n;
	}
	return 0;
}

size_t esc_buf(char *dst, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k = 0;

	while (*p && len && k < len - 1) {
		size_t n = keep(p);

		if (n && k + n < len) {
			memcpy(dst + k, p, n);
			k += n;
			p += n;
		} else if (!n && k + 4 < len) {
			snprintf(dst + k, 5, "\\x%02x", *p++);
			k += 4;
		} else {
			break;
		}
	}
	if (len)
		dst[k] = '\0';
	return k;
}
