// SPDX-License-Identifier: MIT
/*
 * lbuild.c - the computed-layout builder (lbuild.h): fields placed by the C rules and the
 * structs written as layout text. Setup-time code only: no measured loop calls it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbuild.h"
#include "strbuf.h"
#include "util.h"

struct bstruct *b_struct(struct builder *b, const char *name)
{
	struct bstruct *s = &b->s[b->n++];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->align = 1;
	return s;
}

/* b_field - the next field: placed at its alignment after the previous one. */
void b_field(struct bstruct *s, const char *name, size_t size, size_t align, const char *kind)
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

void b_nested(struct bstruct *s, const char *name, const struct bstruct *t)
{
	b_field(s, name, t->size, t->align, t->name);
}

/* b_end - round the size up to the struct's alignment (the tail padding). */
void b_end(struct bstruct *s)
{
	s->size = (s->size + s->align - 1) / s->align * s->align;
}

const struct bstruct *b_find(const struct builder *b, const char *name)
{
	for (int i = 0; i < b->n; i++)
		if (!strcmp(b->s[i].name, name))
			return &b->s[i];
	return NULL;
}

/* b_free - the field lists (the builder itself is the caller's). */
void b_free(struct builder *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->s[i].f);
	b->n = 0;
}

/* b_text - "layout @name", "desc @desc", then every struct in the layout format (free it). */
char *b_text(const struct builder *b, const char *name, const char *desc)
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
