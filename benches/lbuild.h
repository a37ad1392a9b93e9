/* SPDX-License-Identifier: MIT */
/*
 * lbuild.h - computed layouts: structs described as ordered field lists (name, size,
 * alignment, kind), laid out by the C rules (each field at its alignment after the
 * previous one, the struct rounded up to its largest alignment) and written as layout text
 * that layout_parse() reads. The one builder of per_node_layout.h (struct lruvec, struct
 * mem_cgroup_per_node) and qspinlock.h (the per-CPU MCS nodes).
 */
#ifndef PCBENCH_LBUILD_H
#define PCBENCH_LBUILD_H

#include <stddef.h>

#include "layout.h"

#define B_MAX_STRUCTS 10

struct bfield {
	char name[LAYOUT_NAME_MAX];
	size_t off, size;
	char kind[LAYOUT_NAME_MAX]; /* plain, atomic, ptr, lock, array, or a struct name */
};

struct bstruct {
	char name[LAYOUT_NAME_MAX];
	struct bfield *f; /* grown as fields are added; b_free releases it */
	int n, cap;
	size_t size, align;
};

/* Up to B_MAX_STRUCTS structs, each after the structs it nests ({0} is empty). */
struct builder {
	struct bstruct s[B_MAX_STRUCTS];
	int n;
};

/* b_struct - a new empty struct @name, the builder's next (alignment 1). */
struct bstruct *b_struct(struct builder *b, const char *name);
/* b_field - the next field: placed at its alignment after the previous one. */
void b_field(struct bstruct *s, const char *name, size_t size, size_t align, const char *kind);
/* b_nested - a field of the nested struct type @t (its size and alignment). */
void b_nested(struct bstruct *s, const char *name, const struct bstruct *t);
/* b_end - round the size up to the struct's alignment (the tail padding). */
void b_end(struct bstruct *s);
/* b_find - the struct called @name, or NULL. */
const struct bstruct *b_find(const struct builder *b, const char *name);
/* b_free - the field lists (the builder itself is the caller's). */
void b_free(struct builder *b);
/* b_text - "layout @name", "desc @desc", then every struct in the layout format (free it). */
char *b_text(const struct builder *b, const char *name, const char *desc);

#endif
