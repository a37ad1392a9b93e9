/* SPDX-License-Identifier: MIT */
/*
 * pahole.h - `pahole -C NAME` text (from the Debian package dwarves) to layout-file text.
 * A pure function of its input (no I/O), so that it can be fuzzed: for any text it returns
 * either layout text that layout_parse() accepts, or NULL and "SOURCE:LINE: problem".
 */
#ifndef PCBENCH_PAHOLE_H
#define PCBENCH_PAHOLE_H

#include <stddef.h>

struct pahole_opts {
	/*
	 * Comma-separated struct names to keep (each with the structs it nests); NULL or ""
	 * keeps every struct of the text.
	 */
	const char *structs;
	const char *name; /* the layout name; NULL: the first kept struct's name */
	const char *desc; /* NULL: "imported from pahole output: SOURCE" */
	/*
	 * Nonzero: do not refuse a bit-field that a built-in layout describes as an atomic,
	 * ptr or lock field of a struct of the same name (a scenario needs it atomic).
	 */
	int no_builtin_check;
};

/*
 * pahole_to_layout - convert the struct definitions in @text (pahole's C-like output, with
 * or without -E) into the layout-file format. @source names the text in messages.
 *
 * - Offsets and sizes are pahole's `/ * OFFSET SIZE * /` comments; the struct size is its
 *   `/ * size: N, cachelines: C, members: M * /` line (required; M is checked against the
 *   members found, a `padding:` line and `XXX N bytes hole` lines against the offsets).
 *   Cache-line markers and the other summary comments are recognised and skipped.
 * - Kinds from C types: atomic_t, atomic_long_t, atomic64_t, refcount_t, local_t, _Atomic
 *   -> atomic; pointers (also to functions) -> ptr; spinlock_t, raw_spinlock_t,
 *   arch_spinlock_t, struct spinlock/raw_spinlock/qspinlock/mutex/rw_semaphore -> lock;
 *   arrays -> array; anything else plain.
 * - A member of type struct X becomes a nested struct field (kind X) when X's members are
 *   known: expanded inline (pahole -E) or defined elsewhere in the same text; otherwise a
 *   plain field of its size. Members of anonymous structs are flattened (a named member of
 *   an anonymous struct type gives dotted names, "anon.x"); of a union only the first
 *   non-empty member is kept (the others are listed in a comment).
 * - Zero-size members (padding markers, flexible arrays) are skipped; their alignment still
 *   counts for the struct's alignment.
 * - A run of bit-fields becomes one plain field covering the bytes their bits occupy, named
 *   after the first bit-field; the others are listed in a comment. Refused (unless
 *   @opts->no_builtin_check) when a built-in layout has a field of that name in a struct of
 *   that name as atomic, ptr or lock: a scenario needs it atomic, and a bit-field cannot be.
 * - Alignment: pahole's __aligned__ attributes, else the largest natural alignment of the
 *   members (from their C types, or their sizes for types it does not know), never more
 *   than what divides the struct size; 1 for __packed__ structs without __aligned__.
 *
 * Returns a new string (caller frees), or NULL with "SOURCE:LINE: problem" in @err.
 */
char *pahole_to_layout(const char *text, const char *source, const struct pahole_opts *opts,
		       char *err, size_t errlen);

#endif
