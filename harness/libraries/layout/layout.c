// SPDX-License-Identifier: MIT
/*
 * layout.c - the lookups declared in layout.h (structs, offsets of dotted paths, leaves,
 * fingerprints, the text form). Loading (built-in names, files, btf:) is layout_load.c; the
 * parser and the file format are in layout_parse.c.
 */
#include "layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "util.h"

static const char *const kind_names[] = {
    [LK_PLAIN] = "plain", [LK_ATOMIC] = "atomic", [LK_PTR] = "ptr",
    [LK_LOCK] = "lock",	  [LK_ARRAY] = "array",
};

const struct layout_struct *layout_find_struct(const struct layout *l, const char *name)
{
	for (int i = 0; l && name && i < l->nstructs; i++)
		if (!strcmp(l->structs[i].name, name))
			return &l->structs[i];
	return NULL;
}

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * FNV_PRIME;
}

/* The string with its terminating '\0'. */
static uint64_t fnv_str(uint64_t h, const char *s)
{
	do
		h = fnv_byte(h, (unsigned char)*s);
	while (*s++);
	return h;
}

/* 8 bytes, little-endian, whatever the host byte order. */
static uint64_t fnv_num(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		h = fnv_byte(h, (unsigned char)(v & 0xff));
	return h;
}

/*
 * Fed, per struct in file order: name + '\0', size, align, number of fields, then per field in
 * file order: name + '\0', offset, size; numbers as 8-byte little-endian values. The layout
 * name, desc, source, field kinds and lines are not part of it.
 */
uint64_t layout_fingerprint(const struct layout *l)
{
	uint64_t h = FNV_OFFSET;

	if (!l)
		return 0;
	for (int i = 0; i < l->nstructs; i++) {
		const struct layout_struct *s = &l->structs[i];

		h = fnv_str(h, s->name);
		h = fnv_num(h, s->size);
		h = fnv_num(h, s->align);
		h = fnv_num(h, (uint64_t)s->nfields);
		for (int j = 0; j < s->nfields; j++) {
			h = fnv_str(h, s->fields[j].name);
			h = fnv_num(h, s->fields[j].offset);
			h = fnv_num(h, s->fields[j].size);
		}
	}
	return h;
}

const char *layout_kind_name(const struct layout *l, const struct layout_field *f)
{
	if (f->kind == LK_STRUCT)
		return l && f->type >= 0 && f->type < l->nstructs ? l->structs[f->type].name : "?";
	if ((unsigned)f->kind < sizeof(kind_names) / sizeof(kind_names[0]))
		return kind_names[f->kind];
	return "?";
}

char *layout_to_text(const struct layout *l)
{
	struct sb b = {0};

	if (!l)
		return NULL;
	char src[sizeof(l->source)];

	/* The source is a path: keep the comment on one line whatever it holds. */
	snprintf(src, sizeof(src), "%s", l->source);
	for (char *p = src; *p; p++)
		if ((unsigned char)*p < ' ')
			*p = '?';
	sb_printf(&b, "# layout %s, from %s\n", l->name, src);
	sb_printf(&b, "layout %s\n", l->name);
	if (l->desc[0])
		sb_printf(&b, "desc %s\n", l->desc);
	for (int i = 0; i < l->nstructs; i++) {
		const struct layout_struct *s = &l->structs[i];

		sb_printf(&b, "\nstruct %s size %zu align %zu\n", s->name, s->size, s->align);
		for (int j = 0; j < s->nfields; j++) {
			const struct layout_field *f = &s->fields[j];

			sb_printf(&b, "\t%-31s %6zu %6zu  %s\n", f->name, f->offset, f->size,
				  layout_kind_name(l, f));
		}
		sb_printf(&b, "end\n");
	}
	return b.p ? b.p : xstrdup("");
}

struct leaf_list {
	struct layout_leaf *v;
	int n, cap, oom;
};

static void flatten(const struct layout *l, const struct layout_struct *s, size_t base,
		    const char *prefix, struct leaf_list *ll, int depth)
{
	for (int i = 0; i < s->nfields && !ll->oom; i++) {
		const struct layout_field *f = &s->fields[i];
		char path[LAYOUT_PATH_MAX];

		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", f->name);
		/* Nested structs refer only to earlier blocks, so this ends; depth is a guard. */
		if (f->kind == LK_STRUCT && f->type >= 0 && f->type < l->nstructs && depth < 64) {
			flatten(l, &l->structs[f->type], base + f->offset, path, ll, depth + 1);
			continue;
		}
		if (ll->n == ll->cap) {
			int cap = ll->cap ? 2 * ll->cap : 32;
			void *nv = realloc(ll->v, (size_t)cap * sizeof(*ll->v));

			if (!nv) {
				ll->oom = 1;
				return;
			}
			ll->v = nv;
			ll->cap = cap;
		}
		memset(&ll->v[ll->n], 0, sizeof(ll->v[ll->n]));
		snprintf(ll->v[ll->n].path, sizeof(ll->v[ll->n].path), "%s", path);
		ll->v[ll->n].offset = base + f->offset;
		ll->v[ll->n].size = f->size;
		ll->v[ll->n].field = f;
		ll->v[ll->n].owner = s;
		ll->n++;
	}
}

static int cmp_leaf(const void *a, const void *b)
{
	const struct layout_leaf *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (x->size > y->size) - (x->size < y->size);
}

int layout_leaves(const struct layout *l, const char *sname, struct layout_leaf **out)
{
	const struct layout_struct *s = layout_find_struct(l, sname);
	struct leaf_list ll = {0};

	*out = NULL;
	if (!s)
		return -1;
	flatten(l, s, 0, "", &ll, 0);
	if (ll.oom) {
		free(ll.v);
		return -1;
	}
	if (ll.n)
		qsort(ll.v, (size_t)ll.n, sizeof(*ll.v), cmp_leaf);
	*out = ll.v;
	return ll.n;
}

const struct layout_leaf *layout_leaf_at(const struct layout_leaf *leaves, int n, size_t offset)
{
	int lo = 0, hi = n;

	/* The last leaf starting at or before @offset; leaves do not overlap. */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (leaves[mid].offset <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo - 1; i >= 0 && leaves[i].offset <= offset; i--) {
		if (offset < leaves[i].offset + leaves[i].size)
			return &leaves[i];
		/* A non-empty leaf ends before @offset: nothing earlier reaches it. */
		if (leaves[i].size)
			break;
	}
	return NULL;
}

static int find_leaf(const struct layout *l, const struct layout_struct *s, const char *path,
		     size_t base, struct layout_leaf *out, int depth)
{
	const char *dot = strchr(path, '.');
	size_t plen;

	for (int i = 0; i < s->nfields; i++) {
		if (strcmp(s->fields[i].name, path))
			continue;
		out->offset = base + s->fields[i].offset;
		out->size = s->fields[i].size;
		out->field = &s->fields[i];
		out->owner = s;
		return 0;
	}
	if (!dot || depth >= 64)
		return -1;
	plen = (size_t)(dot - path);
	for (int i = 0; i < s->nfields; i++) {
		const struct layout_field *f = &s->fields[i];

		if (f->kind != LK_STRUCT || strncmp(f->name, path, plen) || f->name[plen])
			continue;
		if (f->type < 0 || f->type >= l->nstructs)
			return -1;
		return find_leaf(l, &l->structs[f->type], dot + 1, base + f->offset, out,
				 depth + 1);
	}
	return -1;
}

int layout_find_leaf(const struct layout *l, const char *sname, const char *path,
		     struct layout_leaf *out)
{
	const struct layout_struct *s = layout_find_struct(l, sname);

	if (!s || !path || !out)
		return -1;
	memset(out, 0, sizeof(*out));
	if (find_leaf(l, s, path, 0, out, 0))
		return -1;
	snprintf(out->path, sizeof(out->path), "%s", path);
	return 0;
}

long layout_offset(const struct layout *l, const char *sname, const char *path)
{
	struct layout_leaf leaf;

	return layout_find_leaf(l, sname, path, &leaf) ? -1 : (long)leaf.offset;
}

int layout_why_missing(const struct layout *l, const char *sname, const char *path, char *buf,
		       size_t len)
{
	const struct layout_struct *s = layout_find_struct(l, sname);
	const char *dot;

	buf[0] = '\0';
	/* Each prefix of the path, shortest first: "css" of "css.parent". */
	for (dot = strchr(path, '.'); s && dot; dot = strchr(dot + 1, '.')) {
		size_t plen = (size_t)(dot - path);

		for (int i = 0; i < s->nfields; i++) {
			const struct layout_field *f = &s->fields[i];

			if (strncmp(f->name, path, plen) || f->name[plen] || f->kind == LK_STRUCT)
				continue;
			if (!f->ctype[0])
				return 0;
			snprintf(buf, len,
				 "%.*s is %s, not expanded in this layout: import it with %s added "
				 "to --struct (or with -E, or --btf)",
				 (int)plen, path, f->ctype, strchr(f->ctype, ' ') + 1);
			return 1;
		}
	}
	return 0;
}
