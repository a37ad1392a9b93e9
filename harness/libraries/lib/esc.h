/* SPDX-License-Identifier: MIT */
/*
 * esc.h - text read from files (a preset, label or host name in a CSV, a context.json field)
 * made safe to print: control characters become visible escapes, so that a name cannot move
 * the cursor, retitle the terminal or hide text (terminal escape sequences).
 *
 * Escaped, each as \xHH of its bytes: the C0 controls U+0000..U+001F (tab and newline too:
 * they would break a table's columns and rows), DEL U+007F, the C1 controls U+0080..U+009F
 * (0xC2 0x80..0x9F in UTF-8; CSI is U+009B), the bidi controls that reorder a line (U+061C,
 * U+200E, U+200F, U+202A..U+202E such as U+202E RIGHT-TO-LEFT OVERRIDE, U+2066..U+2069), and
 * every byte that is not part of valid UTF-8 (a lone 0x9B is CSI to an 8-bit terminal).
 * Everything else, including a backslash and valid multi-byte UTF-8, stays as it is.
 */
#ifndef PCBENCH_ESC_H
#define PCBENCH_ESC_H

#include <stddef.h>

/* esc_needed - 1 if @s holds something esc_text would escape. */
int esc_needed(const char *s);
/* esc_text - @s with those escaped (allocated; a copy when nothing needs it). */
char *esc_text(const char *s);
/*
 * esc_buf - esc_text of @s into @dst (@len bytes, NUL-terminated, cut at a whole character
 * or escape), allocating nothing (for die's message). Returns the bytes written.
 */
size_t esc_buf(char *dst, size_t len, const char *s);
/* esc_inplace - replace *@s (allocated) by esc_text of it when it needs escaping. */
void esc_inplace(char **s);

#endif
