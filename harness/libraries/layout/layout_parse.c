// SPDX-License-Identifier: MIT
/*
 * layout_parse.c - the layout-file parser (layout_parse, layout_free); the format:
 * Layout files
 * ------------
 * A layout file describes struct layouts as data: for each struct its size and alignment,
 * and for each field its byte offset, size and kind. It is line-oriented text; '#' starts a
 * comment anywhere on a line, and blank lines are ignored. Words are separated by blanks.
 *
 *   layout NAME                      first non-comment line, exactly once; NAME is what
 *                                    `--layout NAME` selects ([A-Za-z0-9_.+-], < 64 chars)
 *   desc TEXT                        optional, once, outside struct blocks (< 160 chars)
 *   struct NAME size N align A       opens a struct block; A must be a power of two and
 *                                    N a multiple of A; NAME is unique in the file
 *     FIELD OFFSET SIZE [KIND]       one field; FIELD is unique in its struct and may contain
 *                                    dots ("css.parent" is one flat name)
 *   end                              closes the block
 *
 * Numbers are decimal or 0x hex, at most 0xffffffff. KIND is plain (the default), atomic,
 * ptr, lock, array, or the name of a struct defined earlier in the same file: a nested
 * struct, whose SIZE must equal that struct's size. A file defines at least one struct.
 * Fields must lie inside their struct (OFFSET + SIZE <= struct size) and must not overlap
 * (zero-size fields never overlap anything). atomic, ptr and lock fields must be naturally
 * aligned so that they cannot straddle a cache line (a split lock): OFFSET must be a multiple
 * of SIZE rounded up to a power of two, capped at 8 (a 32-byte mutex needs 8). Errors read
 * "SOURCE:LINE: problem"; a missing "end" is reported at the line of its "struct".
 * Lookups take dotted paths through nested structs: "memory.usage" in mem_cgroup is the
 * offset of field memory plus the offset of usage in its struct; an exact field name
 * ("css.parent") is tried first.
 */
#include "layout.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <search.h>
#include <string.h>

#include "num.h"
#include "strbuf.h"
#include "util.h"

#define LAYOUT_NUM_MAX 0xffffffffUL
#define LAYOUT_STRUCT_MAX (64 << 20) /* bytes: a struct is allocated per measurement */
#define LAYOUT_MAX_TOKENS 6

static const char *const kind_names[] = {
    [LK_PLAIN] = "plain", [LK_ATOMIC] = "atomic", [LK_PTR] = "ptr",
    [LK_LOCK] = "lock",	  [LK_ARRAY] = "array",
};

struct parser {
	const char *source;
	char *err;
	size_t errlen;
	struct layout *l;
	int scap;	 /* capacity of l->structs */
	int fcap;	 /* capacity of the open struct's fields */
	int open;	 /* index of the struct block being read, or -1 */
	int layout_line; /* line of the "layout" line, 0 while not seen */
	int desc_line;
	const char *comment; /* the current line's comment (after '#'), or NULL */
	/*
	 * Lookups in O(log n), so that a file parses in time linear in its size (about): the
	 * struct names, and the open struct's field names and the byte spans of its fields
	 * (tsearch trees of struct pkey; a span compares equal to one it overlaps).
	 */
	void *snames, *fnames, *spans;
};

/* A tree key: a name and its index (a struct's in l->structs, a field's in s->fields), or
 * a field's byte span [start, end). */
struct pkey {
	size_t start, end;
	int idx;
	char name[];
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct pkey *)a)->name, ((const struct pkey *)b)->name);
}

static int cmp_span(const void *a, const void *b)
{
	const struct pkey *x = a, *y = b;

	return x->end <= y->start ? -1 : y->end <= x->start ? 1 : 0;
}

/* key_new - a tree key; NULL when out of memory. */
static struct pkey *key_new(const char *name, size_t start, size_t end, int idx)
{
	size_t n = name ? strlen(name) : 0;
	struct pkey *k = malloc(sizeof(*k) + n + 1);

	if (k) {
		k->start = start;
		k->end = end;
		k->idx = idx;
		memcpy(k->name, name ? name : "", n + 1);
	}
	return k;
}

/* key_find - the index stored under @name in @root, or -1. */
static int key_find(void *const *root, const char *name)
{
	struct pkey *k = key_new(name, 0, 0, -1);
	struct pkey **hit = k ? tfind(k, root, cmp_name) : NULL;

	free(k);
	return hit ? (*hit)->idx : -1;
}

/* key_add - @k into @root (it is not there); -1 when out of memory. */
static int key_add(void **root, struct pkey *k, int (*cmp)(const void *, const void *))
{
	if (k && tsearch(k, root, cmp))
		return 0;
	free(k);
	return -1;
}

/* fields_done - the open struct's trees are dropped (at its end, or the file's). */
static void fields_done(struct parser *p)
{
	tdestroy(p->fnames, free);
	tdestroy(p->spans, free);
	p->fnames = p->spans = NULL;
}

static void fail(struct parser *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->errlen)
		return;
	n = snprintf(p->err, p->errlen, "%s:%d: ", p->source, line);
	if (n < 0 || (size_t)n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* An identifier: [A-Za-z_][A-Za-z0-9_]*, with single dots between parts when @dots. */
static int valid_ident(const char *s, int dots)
{
	if (!is_alpha(*s))
		return 0;
	for (s++; *s; s++) {
		if (*s == '.' && dots && is_alpha(s[1]))
			continue;
		if (!is_alpha(*s) && !is_digit(*s))
			return 0;
	}
	return 1;
}

static int valid_layout_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_alpha(*s) && !is_digit(*s) && !strchr(".+-", *s))
			return 0;
	return 1;
}

/* Decimal or 0x hex, no sign, at most LAYOUT_NUM_MAX. Returns 0 on success. */
static int parse_num(const char *s, size_t *out)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	long v;

	if (num_long(s, hex ? 16 : 10, 0, (long)LAYOUT_NUM_MAX, &v))
		return -1;
	*out = (size_t)v;
	return 0;
}

/* Split @s in place at blanks. Returns the number of tokens, LAYOUT_MAX_TOKENS + 1 if more. */
static int split(char *s, char **tok)
{
	int n = 0;

	for (;;) {
		while (is_blank(*s))
			s++;
		if (!*s)
			return n;
		if (n == LAYOUT_MAX_TOKENS)
			return n + 1;
		tok[n++] = s;
		while (*s && !is_blank(*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static int find_kind(const char *s)
{
	for (size_t k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++)
		if (!strcmp(s, kind_names[k]))
			return (int)k;
	return -1;
}

/* Index of struct @name among the first @n structs of @p's layout, or -1. */
static int struct_index(const struct parser *p, int n, const char *name)
{
	int i = key_find(&p->snames, name);

	return i < n ? i : -1;
}

static int parse_layout_line(struct parser *p, int line, char **tok, int ntok)
{
	if (p->layout_line) {
		fail(p, line, "duplicate 'layout' line (first at line %d)", p->layout_line);
		return -1;
	}
	if (ntok != 2) {
		fail(p, line, "expected 'layout NAME'");
		return -1;
	}
	if (strlen(tok[1]) >= LAYOUT_NAME_MAX || !valid_layout_name(tok[1])) {
		fail(p, line, "bad layout name '%s' (want [A-Za-z0-9_.+-], < %d chars)", tok[1],
		     LAYOUT_NAME_MAX);
		return -1;
	}
	strcpy(p->l->name, tok[1]);
	p->layout_line = line;
	return 0;
}

static int parse_desc_line(struct parser *p, int line, const char *text)
{
	if (p->desc_line) {
		fail(p, line, "duplicate 'desc' line (first at line %d)", p->desc_line);
		return -1;
	}
	if (!*text) {
		fail(p, line, "expected 'desc TEXT'");
		return -1;
	}
	if (strlen(text) >= sizeof(p->l->desc)) {
		fail(p, line, "desc too long (max %zu chars)", sizeof(p->l->desc) - 1);
		return -1;
	}
	strcpy(p->l->desc, text);
	p->desc_line = line;
	return 0;
}

static int parse_struct_line(struct parser *p, int line, char **tok, int ntok)
{
	struct layout *l = p->l;
	struct layout_struct *s;
	size_t size, align;
	int dup;

	if (ntok != 6 || strcmp(tok[2], "size") || strcmp(tok[4], "align")) {
		fail(p, line, "expected 'struct NAME size N align A'");
		return -1;
	}
	if (strlen(tok[1]) >= LAYOUT_NAME_MAX || !valid_ident(tok[1], 0)) {
		fail(p, line,
		     "struct %.*s: bad struct name (want [A-Za-z_][A-Za-z0-9_]*, < %d chars)",
		     LAYOUT_NAME_MAX, tok[1], LAYOUT_NAME_MAX);
		return -1;
	}
	if (find_kind(tok[1]) >= 0) {
		fail(p, line, "struct %s: struct name is reserved for a field kind", tok[1]);
		return -1;
	}
	dup = struct_index(p, l->nstructs, tok[1]);
	if (dup >= 0) {
		fail(p, line, "struct %s: duplicate struct name (first at line %d)", tok[1],
		     l->structs[dup].line);
		return -1;
	}
	if (parse_num(tok[3], &size)) {
		fail(p, line, "struct %s: bad size number '%s'", tok[1], tok[3]);
		return -1;
	}
	if (size > LAYOUT_STRUCT_MAX) {
		/* Refused here, before a run directory exists, not when it fails to allocate. */
		fail(p, line, "struct %s: size %zu is over the %d MiB a modelled struct may have",
		     tok[1], size, LAYOUT_STRUCT_MAX >> 20);
		return -1;
	}
	if (parse_num(tok[5], &align)) {
		fail(p, line, "struct %s: bad align number '%s'", tok[1], tok[5]);
		return -1;
	}
	if (!align || (align & (align - 1))) {
		fail(p, line, "struct %s: align %zu is not a power of two", tok[1], align);
		return -1;
	}
	if (size % align) {
		fail(p, line, "struct %s: size %zu is not a multiple of align %zu", tok[1], size,
		     align);
		return -1;
	}
	if (l->nstructs == p->scap) {
		int cap = p->scap ? 2 * p->scap : 4;
		void *n = realloc(l->structs, (size_t)cap * sizeof(*l->structs));

		if (!n) {
			fail(p, line, "out of memory");
			return -1;
		}
		l->structs = n;
		p->scap = cap;
	}
	if (key_add(&p->snames, key_new(tok[1], 0, 0, l->nstructs), cmp_name)) {
		fail(p, line, "out of memory");
		return -1;
	}
	s = &l->structs[l->nstructs];
	memset(s, 0, sizeof(*s));
	strcpy(s->name, tok[1]);
	s->size = size;
	s->align = align;
	s->line = line;
	p->open = l->nstructs++;
	p->fcap = 0;
	return 0;
}

/*
 * The alignment an atomic, ptr or lock field of @size needs: @size rounded up to a power of
 * two, capped at 8 (the widest lock word; a 32-byte mutex only needs its first word aligned).
 */
static size_t natural_align(size_t size)
{
	size_t a = 1;

	while (a < size && a < 8)
		a <<= 1;
	return a;
}

static int parse_field_line(struct parser *p, int line, char **tok, int ntok)
{
	struct layout *l = p->l;
	struct layout_struct *s = &l->structs[p->open];
	struct layout_field *f;
	const char *name = tok[0];
	struct pkey *span;
	size_t off, size;
	int kind, type = -1, dup;

	if (ntok < 3 || ntok > 4) {
		fail(p, line, "expected a field 'NAME OFFSET SIZE [KIND]' or 'end'");
		return -1;
	}
	if (strlen(name) >= LAYOUT_NAME_MAX || !valid_ident(name, 1)) {
		fail(p, line,
		     "field %.*s: bad field name (want [A-Za-z_][A-Za-z0-9_]* parts joined by "
		     "dots, < %d chars)",
		     LAYOUT_NAME_MAX, name, LAYOUT_NAME_MAX);
		return -1;
	}
	dup = key_find(&p->fnames, name);
	if (dup >= 0) {
		fail(p, line, "field %s: duplicate field name in struct %s (first at line %d)",
		     name, s->name, s->fields[dup].line);
		return -1;
	}
	if (parse_num(tok[1], &off)) {
		fail(p, line, "field %s: bad offset number '%s'", name, tok[1]);
		return -1;
	}
	if (parse_num(tok[2], &size)) {
		fail(p, line, "field %s: bad size number '%s'", name, tok[2]);
		return -1;
	}
	kind = ntok == 4 ? find_kind(tok[3]) : LK_PLAIN;
	if (kind < 0) {
		type = struct_index(p, p->open, tok[3]);
		if (type < 0) {
			fail(p, line,
			     "field %s: unknown kind '%s' (want atomic, ptr, lock, array, plain or "
			     "a struct defined earlier)",
			     name, tok[3]);
			return -1;
		}
		kind = LK_STRUCT;
		if (size != l->structs[type].size) {
			fail(p, line, "field %s: size %zu does not match struct %s (size %zu)",
			     name, size, tok[3], l->structs[type].size);
			return -1;
		}
	}
	if (off + size > s->size) {
		fail(p, line, "field %s: out of bounds: offset %zu + size %zu > struct %s size %zu",
		     name, off, size, s->name, s->size);
		return -1;
	}
	if ((kind == LK_ATOMIC || kind == LK_PTR || kind == LK_LOCK) && size &&
	    off % natural_align(size)) {
		fail(p, line,
		     "field %s: %s at offset %zu is not naturally aligned to %zu (split lock)",
		     name, kind_names[kind], off, natural_align(size));
		return -1;
	}
	span = size ? key_new(NULL, off, off + size, s->nfields) : NULL;
	if (size && !span) {
		fail(p, line, "out of memory");
		return -1;
	}
	/* an overlap (the tree finds one): the first field it overlaps, as in the file */
	for (int i = 0, hit = span && tfind(span, &p->spans, cmp_span); hit && i < s->nfields;
	     i++) {
		const struct layout_field *o = &s->fields[i];

		if (o->size && off < o->offset + o->size && o->offset < off + size) {
			free(span);
			fail(p, line, "field %s: [%zu, %zu) overlaps field %s [%zu, %zu) (line %d)",
			     name, off, off + size, o->name, o->offset, o->offset + o->size,
			     o->line);
			return -1;
		}
	}
	if ((span && key_add(&p->spans, span, cmp_span)) ||
	    key_add(&p->fnames, key_new(name, 0, 0, s->nfields), cmp_name)) {
		fail(p, line, "out of memory");
		return -1;
	}
	if (s->nfields == p->fcap) {
		int cap = p->fcap ? 2 * p->fcap : 8;
		void *n = realloc(s->fields, (size_t)cap * sizeof(*s->fields));

		if (!n) {
			fail(p, line, "out of memory");
			return -1;
		}
		s->fields = n;
		p->fcap = cap;
	}
	f = &s->fields[s->nfields++];
	memset(f, 0, sizeof(*f));
	strcpy(f->name, name);
	f->offset = off;
	f->size = size;
	f->kind = (enum layout_kind)kind;
	f->type = type;
	f->line = line;
	if (p->comment) {
		const char *c = p->comment;

		while (is_blank(*c))
			c++;
		if (!strncmp(c, "struct ", 7) || !strncmp(c, "union ", 6))
			snprintf(f->ctype, sizeof(f->ctype), "%.*s", (int)strcspn(c, ":*\n"), c);
		while (f->ctype[0] && is_blank(f->ctype[strlen(f->ctype) - 1]))
			f->ctype[strlen(f->ctype) - 1] = '\0';
	}
	return 0;
}

/* One line, comment already stripped. Returns 0, or -1 after fail(). */
static int parse_line(struct parser *p, int line, char *s)
{
	char *tok[LAYOUT_MAX_TOKENS];
	const char *first;
	int ntok;

	while (is_blank(*s))
		s++;
	if (!*s)
		return 0;

	/* desc keeps the rest of the line as text, so look at it before splitting. */
	if (!strncmp(s, "desc", 4) && (!s[4] || is_blank(s[4])) && p->open < 0 && p->layout_line) {
		char *end;

		s += 4;
		while (is_blank(*s))
			s++;
		end = s + strlen(s);
		while (end > s && is_blank(end[-1]))
			*--end = '\0';
		return parse_desc_line(p, line, s);
	}

	ntok = split(s, tok);
	first = tok[0];
	if (!p->layout_line && strcmp(first, "layout")) {
		fail(p, line, "missing 'layout NAME' line: it must come first, found '%s'", first);
		return -1;
	}
	if (p->open >= 0) {
		const struct layout_struct *o = &p->l->structs[p->open];

		if (!strcmp(first, "end")) {
			if (ntok != 1) {
				fail(p, line, "struct %s: 'end' takes nothing after it", o->name);
				return -1;
			}
			p->open = -1;
			fields_done(p);
			return 0;
		}
		if (!strcmp(first, "struct") || !strcmp(first, "layout") ||
		    !strcmp(first, "desc")) {
			fail(p, o->line, "struct %s: missing 'end' (found '%s' at line %d)",
			     o->name, first, line);
			return -1;
		}
		return parse_field_line(p, line, tok, ntok);
	}
	if (!strcmp(first, "layout"))
		return parse_layout_line(p, line, tok, ntok);
	if (!strcmp(first, "struct"))
		return parse_struct_line(p, line, tok, ntok);
	if (!strcmp(first, "end")) {
		fail(p, line, "'end' without an open 'struct'");
		return -1;
	}
	fail(p, line, "unknown keyword '%s' (want layout, desc, struct or end)", first);
	return -1;
}

struct layout *layout_parse(const char *text, const char *source, char *err, size_t errlen)
{
	struct parser p = {
	    .source = source ? source : "(layout)", .err = err, .errlen = errlen, .open = -1};
	char *buf, *s;
	int line = 0, rc = 0;

	if (err && errlen)
		err[0] = '\0';
	if (!text) {
		fail(&p, 0, "no text");
		return NULL;
	}
	buf = strdup(text);
	p.l = calloc(1, sizeof(*p.l));
	if (!buf || !p.l) {
		fail(&p, 0, "out of memory");
		free(buf);
		free(p.l);
		return NULL;
	}
	snprintf(p.l->source, sizeof(p.l->source), "%s", p.source);

	for (s = buf; *s && !rc;) {
		char *nl = strchr(s, '\n');
		char *hash;

		if (nl)
			*nl = '\0';
		line++;
		hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		p.comment = hash ? hash + 1 : NULL;
		rc = parse_line(&p, line, s);
		s = nl ? nl + 1 : s + strlen(s);
	}
	if (!line)
		line = 1;
	if (!rc && !p.layout_line) {
		fail(&p, line, "missing 'layout NAME' line");
		rc = -1;
	}
	if (!rc && p.open >= 0) {
		const struct layout_struct *o = &p.l->structs[p.open];

		fail(&p, o->line, "struct %s: missing 'end' (reached the end of the text)",
		     o->name);
		rc = -1;
	}
	if (!rc && !p.l->nstructs) {
		fail(&p, line, "no struct defined");
		rc = -1;
	}
	free(buf);
	fields_done(&p);
	tdestroy(p.snames, free);
	if (rc) {
		layout_free(p.l);
		return NULL;
	}
	return p.l;
}

void layout_free(struct layout *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nstructs; i++)
		free(l->structs[i].fields);
	free(l->structs);
	free(l);
}
