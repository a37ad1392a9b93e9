/* SPDX-License-Identifier: MIT */
/*
 * strbuf.h - a growing string (allocation failure exits 2, as xmalloc does) and padding by
 * display width, for reports built line by line.
 */
#ifndef PCBENCH_STRBUF_H
#define PCBENCH_STRBUF_H

#include <stddef.h>

/* A growing NUL-terminated string; {0} is empty. p is NULL until something is added. */
struct sb {
	char *p;
	size_t n, cap;
};

/* sb_add - append @len bytes of @s. */
void sb_add(struct sb *b, const char *s, size_t len);
/* sb_grow - room for @extra more bytes and a NUL after ->n (for read() into ->p + ->n). */
void sb_grow(struct sb *b, size_t extra);
/* sb_addc - append one byte. */
void sb_addc(struct sb *b, char c);
/* sb_printf - append printf-formatted text. */
void sb_printf(struct sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* sb_str - the text so far ("" when empty, never NULL). */
const char *sb_str(struct sb *b);
/* sb_rtrim - drop trailing blanks. */
void sb_rtrim(struct sb *b);

/* text_width - display width of UTF-8 text, in code points ("±" is one). */
int text_width(const char *s);
/* sb_pad - append @s left- (@right 0) or right-aligned (@right 1) in @width columns. */
void sb_pad(struct sb *b, const char *s, int width, int right);

#endif
