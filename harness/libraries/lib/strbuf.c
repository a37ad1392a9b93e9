// SPDX-License-Identifier: MIT
/* strbuf.c - the one growing string of the harness (lib/strbuf.h). */
#include "strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void sb_grow(struct sb *b, size_t extra)
{
	if (extra >= SIZE_MAX / 2 - b->n)
		die("memory", "string", "out of memory");
	if (b->n + extra + 1 > b->cap) {
		b->cap = (b->n + extra + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
}

void sb_add(struct sb *b, const char *s, size_t len)
{
	sb_grow(b, len);
	memcpy(b->p + b->n, s, len);
	b->n += len;
	b->p[b->n] = '\0';
}

void sb_addc(struct sb *b, char c)
{
	sb_add(b, &c, 1);
}

void sb_printf(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	sb_add(b, s, strlen(s));
	free(s);
}

const char *sb_str(struct sb *b)
{
	if (!b->p)
		sb_add(b, "", 0);
	return b->p;
}

void sb_rtrim(struct sb *b)
{
	while (b->n && b->p[b->n - 1] == ' ')
		b->p[--b->n] = '\0';
}

int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void sb_pad(struct sb *b, const char *s, int width, int right)
{
	int fill = width - text_width(s);

	if (right)
		for (int i = 0; i < fill; i++)
			sb_add(b, " ", 1);
	sb_add(b, s, strlen(s));
	if (!right)
		for (int i = 0; i < fill; i++)
			sb_add(b, " ", 1);
}
