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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "strbuf.h"
#include "util.h"

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

static inline struct bstruct *b_struct(struct builder *b, const char *name)
{
	struct bstruct *s = &b->s[b->n++];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->align = 1;
	return s;
}

/* b_field - the next field: placed at its alignment after the previous one. */
static inline void b_field(struct bstruct *s, const char *name, size_t size, size_t align,
			   const char *kind)
{
	struct bfield *f;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->f = xrealloc(s->f, (size_t)s->cap * sizeof(*s->f));
	}
	f = &s->f[s->n++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->kind, sizeof(f->kind), "%s", kind);
	f->off = (s->size + align - 1) / align * align;
	f->size = size;
	s->size = f->off + size;
	if (align > s->align)
		s->align = align;
}

static inline void b_nested(struct bstruct *s, const char *name, const struct bstruct *t)
{
	b_field(s, name, t->size, t->align, t->name);
}

/* b_end - round the size up to the struct's alignment (the tail padding). */
static inline void b_end(struct bstruct *s)
{
	s->size = (s->size + s->align - 1) / s->align * s->align;
}

static inline const struct bstruct *b_find(const struct builder *b, const char *name)
{
	for (int i = 0; i < b->n; i++)
		if (!strcmp(b->s[i].name, name))
			return &b->s[i];
	return NULL;
}

/* b_free - the field lists (the builder itself is the caller's). */
static inline void b_free(struct builder *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->s[i].f);
	b->n = 0;
}

/* b_text - "layout @name", "desc @desc", then every struct in the layout format (free it). */
static inline char *b_text(const struct builder *b, const char *name, const char *desc)
{
	struct sb t = {0};

	sb_printf(&t, "layout %s\ndesc %s\n", name, desc);
	for (int i = 0; i < b->n; i++) {
		const struct bstruct *s = &b->s[i];

		sb_printf(&t, "struct %s size %zu align %zu\n", s->name, s->size, s->align);
		for (int j = 0; j < s->n; j++)
			sb_printf(&t, "\t%s %zu %zu %s\n", s->f[j].name, s->f[j].off, s->f[j].size,
				  s->f[j].kind);
		sb_printf(&t, "end\n");
	}
	return t.p;
}

#endif
