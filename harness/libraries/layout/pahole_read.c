// SPDX-License-Identifier: MIT
/*
 * pahole_read.c - reading pahole's text (with pahole_lex.c's helpers) into the blocks and
 * members of struct ph (pahole_int.h); pahole.c writes them out as layout text.
 *
 * The text is read line by line with a stack of open blocks: a top-level "struct NAME {"
 * opens a struct; inside it, a line ending in "{" opens a nested struct or union (pahole -E
 * and anonymous members), a line starting with "}" closes one, "/ * ... * /" lines are
 * comments (size summary, holes, padding, cache-line markers), and every other line is a
 * member "DECLARATION; / * OFFSET SIZE * /" or a bit-field "... NAME:BITS; / * OFFSET:BIT
 * SIZE * /". pahole prints the offsets of expanded members from the start of the outermost
 * struct; when a nested block closes, its members are made relative to it (the first
 * member of a struct or union is at its start, which tells the two conventions apart).
 */
#include "pahole_int.h"

#include <stdio.h>
#include <string.h>

static int new_block(struct ph *p, int is_union, const char *tag, const char *tdef, int line)
{
	struct ph_block *b;

	if (ph_grow(p, (void **)&p->b, p->nb, &p->bcap, sizeof(*p->b)))
		return -1;
	b = &p->b[p->nb];
	memset(b, 0, sizeof(*b));
	b->is_union = is_union;
	snprintf(b->tag, sizeof(b->tag), "%s", tag);
	snprintf(b->tdef, sizeof(b->tdef), "%s", tdef);
	b->line = line;
	return p->nb++;
}

/* add_member - append @m to block @bi, checking a pending hole comment first. */
static int add_member(struct ph *p, int bi, const struct ph_member *m)
{
	struct ph_block *b = &p->b[bi];

	if (b->hole && b->nm && !b->is_union) {
		const struct ph_member *prev = &b->m[b->nm - 1];

		if (!prev->bits && prev->off + prev->size <= m->off &&
		    m->off - (prev->off + prev->size) != b->hole) {
			ph_fail(
			    p, b->hole_line,
			    "pahole reports a %zu-byte hole here, but %s ends at %zu and %s starts "
			    "at %zu",
			    b->hole, prev->name[0] ? prev->name : "the member before",
			    prev->off + prev->size, m->name[0] ? m->name : "the member after",
			    m->off);
			return -1;
		}
	}
	b->hole = 0;
	if (ph_grow(p, (void **)&b->m, b->nm, &b->cap, sizeof(*b->m)))
		return -1;
	b->m[b->nm++] = *m;
	return 0;
}

/* A stand-alone comment inside struct @t's block @bi (top level when @top). */
static int read_comment(struct ph *p, struct ph_top *t, int bi, int top, const char *c, int line)
{
	size_t a, b2, c2;
	long m;
	const char *q;

	if (top && (q = strstr(c, "size:"))) {
		q += 5;
		ph_skip_blanks(&q);
		if (ph_num(&q, &a)) {
			ph_fail(p, line, "struct %s: cannot read the size in '%s'", t->name, c);
			return -1;
		}
		t->size = a;
		t->have_size = 1;
		q = strstr(q, "members:");
		if (q) {
			q += 8;
			ph_skip_blanks(&q);
			if (ph_num(&q, &b2)) {
				ph_fail(p, line, "struct %s: cannot read the members in '%s'",
					t->name, c);
				return -1;
			}
			m = (long)b2;
			t->members = m;
		}
		return 0;
	}
	if (top && (q = strstr(c, "padding:")) && !strstr(c, "paddings:")) {
		q += 8;
		ph_skip_blanks(&q);
		if (!ph_num(&q, &a)) {
			t->padding = a;
			t->have_padding = 1;
		}
		return 0;
	}
	q = strstr(c, "XXX");
	if (q) {
		q += 3;
		ph_skip_blanks(&q);
		if (!ph_num(&q, &c2)) {
			ph_skip_blanks(&q);
			if (!strncmp(q, "bytes hole", 10) || !strncmp(q, "byte hole", 9)) {
				p->b[bi].hole = c2;
				p->b[bi].hole_line = line;
			}
		}
	}
	return 0; /* cache-line markers, sums, last cacheline, bit holes, ... */
}

/* Close nested block @bi as a member of block @parent, from the line "} DECL; / * O S * /". */
static int close_nested(struct ph *p, int bi, int parent, char *s, int line)
{
	struct ph_member m;
	struct ph_block *b = &p->b[bi];
	int bitfield, bitoff, packed = 0;
	size_t align = 0;

	memset(&m, 0, sizeof(m));
	m.block = bi;
	m.line = line;
	if (ph_member_comment(s, &m.off, &m.size, &bitfield, &bitoff) || bitfield) {
		ph_fail(p, line,
			"expected '} NAME; /* OFFSET SIZE */' closing the %s opened at line %d",
			b->is_union ? "union" : "struct", b->line);
		return -1;
	}
	s = ph_trim(s + 1); /* past '}' */
	if (ph_strip_attributes(s, &align, &packed)) {
		ph_fail(p, line, "unbalanced __attribute__");
		return -1;
	}
	s = ph_trim(s);
	if (!*s || s[strlen(s) - 1] != ';') {
		ph_fail(p, line, "expected ';' after the closing '}'");
		return -1;
	}
	s[strlen(s) - 1] = '\0';
	if (ph_parse_declarator(s, &m, 0)) {
		ph_fail(p, line, "cannot read the member name after '}': '%s'", ph_trim(s));
		return -1;
	}
	b->align = align > b->align ? align : b->align;
	b->packed |= packed;
	m.align = align;
	/* Make the members relative to this block. */
	if (b->nm && m.off && b->m[0].off == m.off) {
		for (int i = 0; i < b->nm; i++) {
			if (b->m[i].off < m.off) {
				ph_fail(p, b->m[i].line,
					"member %s at %zu is before its enclosing block (at %zu)",
					b->m[i].name, b->m[i].off, m.off);
				return -1;
			}
			b->m[i].off -= m.off;
		}
	} else if (b->nm && b->m[0].off) {
		ph_fail(p, b->m[0].line,
			"first member %s of the %s at %zu is at %zu: neither relative nor absolute",
			b->m[0].name, b->is_union ? "union" : "struct", m.off, b->m[0].off);
		return -1;
	}
	for (int i = 0; i < b->nm; i++) {
		if (b->is_union && b->m[i].off) {
			ph_fail(p, b->m[i].line, "union member %s is not at the start of its union",
				b->m[i].name);
			return -1;
		}
		if (b->m[i].off + b->m[i].size > m.size && !m.is_array) {
			ph_fail(
			    p, b->m[i].line,
			    "member %s [%zu, %zu) does not fit its enclosing block of %zu bytes",
			    b->m[i].name, b->m[i].off, b->m[i].off + b->m[i].size, m.size);
			return -1;
		}
	}
	return add_member(p, parent, &m);
}

static int read_member(struct ph *p, int bi, char *s, int line)
{
	struct ph_member m;
	int bitfield = 0, bitoff = 0, packed = 0;
	char *semi;

	memset(&m, 0, sizeof(m));
	m.block = -1;
	m.line = line;
	if (ph_member_comment(s, &m.off, &m.size, &bitfield, &bitoff)) {
		ph_fail(p, line, "expected a member 'TYPE NAME; /* OFFSET SIZE */': '%s'",
			ph_trim(s));
		return -1;
	}
	if (ph_strip_attributes(s, &m.align, &packed)) {
		ph_fail(p, line, "unbalanced __attribute__");
		return -1;
	}
	s = ph_trim(s);
	semi = strrchr(s, ';');
	if (!semi || *ph_trim(semi + 1)) {
		ph_fail(p, line, "expected ';' at the end of the member: '%s'", s);
		return -1;
	}
	*semi = '\0';
	if (ph_parse_declarator(s, &m, 1)) {
		ph_fail(p, line, "cannot read the member declaration '%s'", ph_trim(s));
		return -1;
	}
	if (!!m.bits != bitfield) {
		ph_fail(p, line, "member %s: bit-field width and '/* OFFSET:BIT SIZE */' disagree",
			m.name);
		return -1;
	}
	m.bitoff = bitoff;
	if (m.bits && (size_t)m.bitoff + (size_t)m.bits > 8 * m.size) {
		ph_fail(p, line, "bit-field %s: bits %d..%d do not fit its %zu-byte storage unit",
			m.name, m.bitoff, m.bitoff + m.bits - 1, m.size);
		return -1;
	}
	return add_member(p, bi, &m);
}

/* Finish top-level struct @t at its closing line. */
static int close_top(struct ph *p, struct ph_top *t, char *s, int line)
{
	struct ph_block *b = &p->b[t->block];
	size_t align = 0, end = 0;
	int packed = 0;

	s = ph_trim(s + 1);
	if (ph_strip_attributes(s, &align, &packed)) {
		ph_fail(p, line, "unbalanced __attribute__");
		return -1;
	}
	s = ph_trim(s);
	if (strcmp(s, ";")) {
		ph_fail(p, line, "struct %s: expected '};' closing it, found '}%s'", t->name, s);
		return -1;
	}
	b->align = align;
	b->packed = packed;
	if (!t->have_size) {
		ph_fail(p, t->line,
			"struct %s: no '/* size: N, cachelines: C, members: M */' line before its "
			"'};' (truncated pahole output?)",
			t->name);
		return -1;
	}
	if (t->members >= 0 && t->members != b->nm) {
		ph_fail(p, line, "struct %s: pahole counts %ld members, the text has %d", t->name,
			t->members, b->nm);
		return -1;
	}
	for (int i = 0; i < b->nm; i++) {
		if (b->m[i].off + b->m[i].size > end)
			end = b->m[i].off + b->m[i].size;
	}
	if (end > t->size) {
		ph_fail(p, line, "struct %s: members end at %zu, after its size %zu", t->name, end,
			t->size);
		return -1;
	}
	if (t->have_padding && t->size - end != t->padding) {
		ph_fail(p, line,
			"struct %s: pahole reports %zu bytes of padding, the members leave %zu",
			t->name, t->padding, t->size - end);
		return -1;
	}
	return 0;
}

/* The reader's state: the stack of open blocks (indices into p->b) and the line number. */
struct ph_reader {
	int stack[PH_DEPTH], depth, line;
};

/* read_tag - the identifier at *@q into @tag, *@q past it; 0 when none starts there. */
static int read_tag(const char **q, char *tag, size_t len)
{
	const char *e = *q;

	if (!ph_is_ident_start((unsigned char)*e))
		return 0;
	while (ph_is_ident((unsigned char)*e))
		e++;
	ph_copyn(tag, len, *q, (size_t)(e - *q));
	*q = e;
	return 1;
}

/*
 * open_top - outside every struct, "struct NAME {" opens a top-level struct (pushed on
 * @r); any other line is text around the structs. 0, or -1 (a union, a second definition).
 */
static int open_top(struct ph *p, struct ph_reader *r, const char *l)
{
	char tag[PH_NAME];
	const char *q = l;
	int is_union = !strncmp(q, "union ", 6);
	struct ph_top *t;

	if (strncmp(q, "struct ", 7) && !is_union)
		return 0;
	q += is_union ? 6 : 7;
	ph_skip_blanks(&q);
	if (!read_tag(&q, tag, sizeof(tag)))
		return 0;
	ph_skip_blanks(&q);
	if (strcmp(q, "{"))
		return 0; /* not an opening line: text around the structs */
	if (is_union) {
		ph_fail(p, r->line,
			"union %s: a union is not a struct layout (its members overlap)", tag);
		return -1;
	}
	for (int i = 0; i < p->nt; i++) {
		if (!strcmp(p->t[i].name, tag)) {
			ph_fail(p, r->line, "struct %s: defined twice (first at line %d)", tag,
				p->t[i].line);
			return -1;
		}
	}
	if (ph_grow(p, (void **)&p->t, p->nt, &p->tcap, sizeof(*p->t)))
		return -1;
	t = &p->t[p->nt];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", tag);
	t->line = r->line;
	t->members = -1;
	t->out = -1;
	t->block = new_block(p, 0, tag, "", r->line);
	if (t->block < 0)
		return -1;
	p->nt++;
	r->stack[r->depth++] = t->block;
	return 0;
}

/*
 * read_typedef - "/ * typedef NAME [-> NAME2]... * / REST" in pahole -E (pahole 1.24 names
 * the typedef chain: atomic_long_t -> atomic64_t): NAME, the type the code uses, which
 * decides the kind, into @tdef, and *@l becomes REST. Before a member ("/ * typedef bool
 * * / _Bool x;") the C type follows and @tdef is cleared. 0, or -1.
 */
static int read_typedef(struct ph *p, char **l, char *tdef, size_t len, int line)
{
	const char *q = *l + 11, *e;

	ph_skip_blanks(&q);
	for (e = q; ph_is_ident((unsigned char)*e); e++)
		;
	ph_copyn(tdef, len, q, (size_t)(e - q));
	ph_skip_blanks(&e);
	while (!strncmp(e, "->", 2)) {
		const char *n;

		e += 2;
		ph_skip_blanks(&e);
		for (n = e; ph_is_ident((unsigned char)*e); e++)
			;
		if (e == n)
			break;
		ph_skip_blanks(&e);
	}
	if (!tdef[0] || strncmp(e, "*/", 2)) {
		ph_fail(p, line, "cannot read the typedef comment '%s'", *l);
		return -1;
	}
	*l = ph_trim((char *)e + 2);
	if ((*l)[0] && (*l)[strlen(*l) - 1] != '{')
		tdef[0] = 0;
	return 0;
}

/*
 * open_nested - "struct [TAG] {" or "union [TAG] {" inside a struct: a nested block (of
 * typedef @tdef, or "") pushed on @r. 0, or -1.
 */
static int open_nested(struct ph *p, struct ph_reader *r, const char *l, const char *tdef)
{
	char tag[PH_NAME] = "";
	const char *q = l;
	int is_union = !strncmp(q, "union", 5) && !ph_is_ident((unsigned char)q[5]);
	int bi;

	if (!is_union && (strncmp(q, "struct", 6) || ph_is_ident((unsigned char)q[6]))) {
		ph_fail(p, r->line, "expected 'struct [TAG] {' or 'union [TAG] {': '%s'", l);
		return -1;
	}
	q += is_union ? 5 : 6;
	ph_skip_blanks(&q);
	if (read_tag(&q, tag, sizeof(tag)))
		ph_skip_blanks(&q);
	if (strcmp(q, "{")) {
		ph_fail(p, r->line, "expected 'struct [TAG] {' or 'union [TAG] {': '%s'", l);
		return -1;
	}
	if (r->depth == PH_DEPTH) {
		ph_fail(p, r->line, "nested more than %d deep", PH_DEPTH);
		return -1;
	}
	bi = new_block(p, is_union, tag, tdef, r->line);
	if (bi < 0)
		return -1;
	r->stack[r->depth++] = bi;
	return 0;
}

/* close_block - a "}" line closes the innermost open block (@t itself at depth 1). 0 or -1. */
static int close_block(struct ph *p, struct ph_reader *r, struct ph_top *t, char *l)
{
	if (r->depth == 1) {
		if (close_top(p, t, l, r->line))
			return -1;
		r->depth = 0;
		return 0;
	}
	r->depth--;
	return close_nested(p, r->stack[r->depth], r->stack[r->depth - 1], l, r->line) ? -1 : 0;
}

/*
 * read_inner - one line @l inside the last top-level struct: blank, a comment, a block
 * opening (perhaps after a typedef comment), a closing "}", or a member. 0, or -1.
 */
static int read_inner(struct ph *p, struct ph_reader *r, char *l)
{
	struct ph_top *t = &p->t[p->nt - 1];
	char tdef[PH_NAME] = "";

	if (!*l)
		return 0;
	/* A comment line: "/" "*" at the start, the first "*" "/" at the end. */
	if (!strncmp(l, "/*", 2) && strlen(l) >= 4 && strstr(l + 2, "*/") == l + strlen(l) - 2)
		return read_comment(p, t, r->stack[r->depth - 1], r->depth == 1, l, r->line) ? -1
											     : 0;
	if (!strncmp(l, "/* typedef ", 11) && read_typedef(p, &l, tdef, sizeof(tdef), r->line))
		return -1;
	if (l[0] && l[strlen(l) - 1] == '{')
		return open_nested(p, r, l, tdef);
	if (tdef[0]) {
		ph_fail(p, r->line, "a typedef comment must precede 'struct {' or 'union {'");
		return -1;
	}
	if (l[0] == '}')
		return close_block(p, r, t, l);
	return read_member(p, r->stack[r->depth - 1], l, r->line) ? -1 : 0;
}

/* read_end - at the end of the text: every block closed and at least one struct. 0 or -1. */
static int read_end(struct ph *p, const struct ph_reader *r)
{
	if (r->depth) {
		const struct ph_block *b = &p->b[r->stack[r->depth - 1]];

		ph_fail(p, b->line, "%s %s: not closed before the end of the text (truncated?)",
			b->is_union ? "union" : "struct", b->tag[0] ? b->tag : "(anonymous)");
		return -1;
	}
	if (!p->nt) {
		ph_fail(p, r->line ? r->line : 1,
			"no struct found (expected pahole output: 'struct NAME {' ... '};')");
		return -1;
	}
	return 0;
}

int ph_read_text(struct ph *p, const char *text)
{
	struct ph_reader r = {.depth = 0};
	const char *s = text;

	while (*s && !p->failed) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char buf[1024], *l;

		r.line++;
		if (n >= sizeof(buf)) {
			if (r.depth) {
				ph_fail(p, r.line, "line too long (%zu bytes)", n);
				return -1;
			}
			s = nl ? nl + 1 : s + n;
			continue;
		}
		memcpy(buf, s, n);
		buf[n] = '\0';
		s = nl ? nl + 1 : s + n;
		l = ph_trim(buf);
		if (r.depth ? read_inner(p, &r, l) : open_top(p, &r, l))
			return -1;
	}
	if (p->failed)
		return -1;
	return read_end(p, &r);
}
