// SPDX-License-Identifier: MIT
/*
 * pahole.c - pahole text to layout text (see pahole.h for what is converted and how).
 *
 * The text is read line by line with a stack of open blocks: a top-level "struct NAME {"
 * opens a struct; inside it, a line ending in "{" opens a nested struct or union (pahole -E
 * and anonymous members), a line starting with "}" closes one, "/ * ... * /" lines are
 * comments (size summary, holes, padding, cache-line markers), and every other line is a
 * member "DECLARATION; / * OFFSET SIZE * /" or a bit-field "... NAME:BITS; / * OFFSET:BIT
 * SIZE * /". pahole prints the offsets of expanded members from the start of the outermost
 * struct; when a nested block closes, its members are made relative to it (the first
 * member of a struct or union is at its start, which tells the two conventions apart).
 * Then every kept struct is written out, nested types first, and the result is validated
 * with layout_parse(); its errors are mapped back to the pahole line of the field.
 */
#include "pahole.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

#define PH_NAME 64
#define PH_TYPE 160
#define PH_DEPTH 32
#define PH_NOTE 512
#define PH_PATH 256

/* snprintf that may truncate on purpose (names and notes are bounded by the layout format). */
#define FMT(buf, len, ...) ((void)(snprintf((buf), (len), __VA_ARGS__) < 0))

struct ph_member {
	char name[PH_NAME]; /* "" for an anonymous member */
	char type[PH_TYPE]; /* leaf: the C type, blanks squeezed; block: "" */
	char dims[32];	    /* array dimensions as written, "[4]" */
	size_t off, size;   /* off: as printed, then relative to the enclosing block */
	int bits, bitoff;   /* bits > 0: a bit-field, off is its storage unit's */
	int is_array, is_ptr;
	size_t elems; /* array: product of the dimensions (0 when unknown) */
	size_t align; /* __aligned__ attribute of the member, 0 when none */
	int block;    /* index of the nested block it is, or -1 for a leaf */
	int line;
};

struct ph_block {
	int is_union;
	char tag[PH_NAME];  /* struct/union tag, "" when anonymous */
	char tdef[PH_NAME]; /* from a leading comment "typedef NAME", else "" */
	size_t align;	    /* __aligned__ attribute of the type */
	int packed;
	struct ph_member *m;
	int nm, cap;
	int line;
	size_t hole; /* a pending "XXX N bytes hole" */
	int hole_line;
};

struct ph_top {
	char name[PH_NAME];
	int block;
	size_t size, padding;
	long members; /* -1: not given */
	int have_size, have_padding;
	int line, out; /* out: index of its output struct, -1 before, -2 while written */
};

struct out_field {
	char name[PH_PATH]; /* a field; "" for a note */
	char kind[PH_NAME];
	char note[PH_NOTE];
	size_t off, size;
	int line;
};

struct out_struct {
	char name[PH_NAME];
	size_t size, align;
	struct out_field *f;
	int nf, cap;
	int line;
};

struct ph {
	const char *source;
	char *err;
	size_t errlen;
	int failed;
	struct ph_block *b;
	int nb, bcap;
	struct ph_top *t;
	int nt, tcap;
	struct out_struct *o;
	int no, ocap;
	int builtin_check;
	int depth; /* of the emission recursion */
};

static void fail(struct ph *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(struct ph *p, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->failed++ || !p->err || !p->errlen)
		return;
	if (line > 0)
		n = snprintf(p->err, p->errlen, "%s:%d: ", p->source, line);
	else
		n = snprintf(p->err, p->errlen, "%s: ", p->source);
	if (n < 0 || (size_t)n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* grow - make room for one more element of @size in *@v (count @n, capacity *@cap). */
static int grow(struct ph *p, void **v, int n, int *cap, size_t size)
{
	void *nv;
	int c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 8;
	nv = realloc(*v, (size_t)c * size);
	if (!nv) {
		fail(p, 0, "out of memory");
		return -1;
	}
	*v = nv;
	*cap = c;
	return 0;
}

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* Trim blanks at both ends, in place. */
static char *trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Copy at most @len - 1 bytes of [@s, @s + @n) into @dst. */
static void copyn(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Decimal number at *@s (advanced past it). Returns 0, or -1 when there is none. */
static int num(const char **s, size_t *out)
{
	size_t v = 0;
	const char *q = *s;

	if (!isdigit((unsigned char)*q))
		return -1;
	for (; isdigit((unsigned char)*q); q++) {
		if (v > 0xffffffffUL)
			return -1;
		v = v * 10 + (size_t)(*q - '0');
	}
	if (v > 0xffffffffUL)
		return -1;
	*s = q;
	*out = v;
	return 0;
}

static void skip_blanks(const char **s)
{
	while (isspace((unsigned char)**s))
		(*s)++;
}

/*
 * strip_attributes - remove every __attribute__((...)) from @s in place, noting the largest
 * __aligned__(N) in *@align and __packed__ in *@packed. Returns -1 on unbalanced parens.
 */
static int strip_attributes(char *s, size_t *align, int *packed)
{
	char *a;

	while ((a = strstr(s, "__attribute__"))) {
		char *q = a + strlen("__attribute__");
		int depth = 0;

		while (*q == ' ')
			q++;
		if (*q != '(')
			return -1;
		for (char *r = q; *r; r++) {
			if (*r == '(') {
				depth++;
			} else if (*r == ')' && !--depth) {
				char save = r[1], *al;

				r[1] = '\0';
				for (al = q; (al = strstr(al, "aligned"));) {
					const char *d = al + strlen("aligned");
					size_t v;

					while (*d == '_')
						d++;
					skip_blanks(&d);
					if (*d == '(') {
						d++;
						skip_blanks(&d);
						if (!num(&d, &v) && v > *align)
							*align = v;
					}
					al += strlen("aligned");
				}
				if (strstr(q, "packed"))
					*packed = 1;
				r[1] = save;
				/* Replace the attribute by one blank. */
				*a = ' ';
				memmove(a + 1, r + 1, strlen(r + 1) + 1);
				depth = -1;
				break;
			}
		}
		if (depth != -1)
			return -1;
	}
	return 0;
}

/*
 * The trailing comment of a member line: "OFF SIZE" or "OFF: BITOFF SIZE". Cuts the line
 * at the comment. Returns 0, or -1 when there is no such comment.
 */
static int member_comment(char *s, size_t *off, size_t *size, int *bitfield, int *bitoff)
{
	char *c = NULL, *e;
	const char *q;
	size_t bo;

	for (char *x = s; (x = strstr(x, "/*")); x += 2)
		c = x;
	if (!c)
		return -1;
	e = strstr(c, "*/");
	if (!e || *trim(e + 2))
		return -1;
	*e = '\0';
	q = c + 2;
	skip_blanks(&q);
	if (num(&q, off))
		return -1;
	*bitfield = 0;
	if (*q == ':') {
		q++;
		skip_blanks(&q);
		if (num(&q, &bo) || bo > 4096)
			return -1;
		*bitfield = 1;
		*bitoff = (int)bo;
	}
	skip_blanks(&q);
	if (num(&q, size))
		return -1;
	skip_blanks(&q);
	if (*q)
		return -1;
	*c = '\0';
	return 0;
}

/* squeeze - @s into @dst with every run of blanks made one blank. */
static void squeeze(char *dst, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		if (!isspace((unsigned char)*s) || (n && dst[n - 1] != ' '))
			dst[n++] = isspace((unsigned char)*s) ? ' ' : *s;
	while (n && dst[n - 1] == ' ')
		n--;
	dst[n] = '\0';
}

/*
 * parse_declarator - the name part of a member declaration @s (attributes already gone,
 * no ';'): "TYPE NAME", "TYPE NAME[N][M]", "TYPE NAME:BITS", "RET (*NAME)(ARGS)", or for a
 * closing block "NAME", "NAME[N]" or "" (@need_type 0). Fills the member. Returns 0 or -1.
 */
static int parse_declarator(char *s, struct ph_member *m, int need_type)
{
	char *e, *fp, *name_end, *dims_end;
	size_t bits;

	s = trim(s);
	e = s + strlen(s);
	fp = strstr(s, "(*");
	if (fp) {
		char *n = fp + 2, *ne;

		while (*n == ' ')
			n++;
		for (ne = n; is_ident((unsigned char)*ne); ne++)
			;
		if (ne == n || !is_ident_start((unsigned char)*n))
			return -1;
		copyn(m->name, sizeof(m->name), n, (size_t)(ne - n));
		squeeze(m->type, sizeof(m->type), s);
		m->is_ptr = 1;
		return 0;
	}
	/* A bit-field width. */
	{
		char *colon = strrchr(s, ':');

		if (colon) {
			const char *q = colon + 1;

			skip_blanks(&q);
			if (num(&q, &bits) || *trim((char *)q) || !bits || bits > 4096)
				return -1;
			m->bits = (int)bits;
			*colon = '\0';
			s = trim(s);
			e = s + strlen(s);
		}
	}
	/* Array dimensions. */
	dims_end = e;
	m->elems = 1;
	while (e > s && e[-1] == ']') {
		char *open = e - 1;
		const char *q;
		size_t d;

		while (open > s && *open != '[')
			open--;
		if (*open != '[')
			return -1;
		q = open + 1;
		skip_blanks(&q);
		if (*q == ']')
			d = 0; /* a flexible array */
		else if (num(&q, &d))
			return -1;
		m->is_array = 1;
		m->elems = m->elems * d;
		if (m->elems > 0xffffffffUL)
			m->elems = 0;
		e = open;
		while (e > s && e[-1] == ' ')
			e--;
	}
	if (m->is_array)
		copyn(m->dims, sizeof(m->dims), e, (size_t)(dims_end - e));
	name_end = e;
	while (e > s && is_ident((unsigned char)e[-1]))
		e--;
	if (e == name_end) {
		if (need_type || m->is_array || m->bits)
			return -1;
		m->name[0] = '\0';
		return 0;
	}
	if (!is_ident_start((unsigned char)*e) || (size_t)(name_end - e) >= sizeof(m->name))
		return -1;
	copyn(m->name, sizeof(m->name), e, (size_t)(name_end - e));
	*e = '\0';
	s = trim(s);
	if (need_type && !*s)
		return -1;
	if (!need_type && *s)
		return -1;
	squeeze(m->type, sizeof(m->type), s); /* for notes and kinds */
	if (strchr(m->type, '*'))
		m->is_ptr = 1;
	return 0;
}

/* ---- reading ---- */

static int new_block(struct ph *p, int is_union, const char *tag, const char *tdef, int line)
{
	struct ph_block *b;

	if (grow(p, (void **)&p->b, p->nb, &p->bcap, sizeof(*p->b)))
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
			fail(
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
	if (grow(p, (void **)&b->m, b->nm, &b->cap, sizeof(*b->m)))
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
		skip_blanks(&q);
		if (num(&q, &a)) {
			fail(p, line, "struct %s: cannot read the size in '%s'", t->name, c);
			return -1;
		}
		t->size = a;
		t->have_size = 1;
		q = strstr(q, "members:");
		if (q) {
			q += 8;
			skip_blanks(&q);
			if (num(&q, &b2)) {
				fail(p, line, "struct %s: cannot read the members in '%s'", t->name,
				     c);
				return -1;
			}
			m = (long)b2;
			t->members = m;
		}
		return 0;
	}
	if (top && (q = strstr(c, "padding:")) && !strstr(c, "paddings:")) {
		q += 8;
		skip_blanks(&q);
		if (!num(&q, &a)) {
			t->padding = a;
			t->have_padding = 1;
		}
		return 0;
	}
	q = strstr(c, "XXX");
	if (q) {
		q += 3;
		skip_blanks(&q);
		if (!num(&q, &c2)) {
			skip_blanks(&q);
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
	if (member_comment(s, &m.off, &m.size, &bitfield, &bitoff) || bitfield) {
		fail(p, line,
		     "expected '} NAME; /* OFFSET SIZE */' closing the %s opened at line %d",
		     b->is_union ? "union" : "struct", b->line);
		return -1;
	}
	s = trim(s + 1); /* past '}' */
	if (strip_attributes(s, &align, &packed)) {
		fail(p, line, "unbalanced __attribute__");
		return -1;
	}
	s = trim(s);
	if (!*s || s[strlen(s) - 1] != ';') {
		fail(p, line, "expected ';' after the closing '}'");
		return -1;
	}
	s[strlen(s) - 1] = '\0';
	if (parse_declarator(s, &m, 0)) {
		fail(p, line, "cannot read the member name after '}': '%s'", trim(s));
		return -1;
	}
	b->align = align > b->align ? align : b->align;
	b->packed |= packed;
	m.align = align;
	/* Make the members relative to this block. */
	if (b->nm && m.off && b->m[0].off == m.off) {
		for (int i = 0; i < b->nm; i++) {
			if (b->m[i].off < m.off) {
				fail(p, b->m[i].line,
				     "member %s at %zu is before its enclosing block (at %zu)",
				     b->m[i].name, b->m[i].off, m.off);
				return -1;
			}
			b->m[i].off -= m.off;
		}
	} else if (b->nm && b->m[0].off) {
		fail(p, b->m[0].line,
		     "first member %s of the %s at %zu is at %zu: neither relative nor absolute",
		     b->m[0].name, b->is_union ? "union" : "struct", m.off, b->m[0].off);
		return -1;
	}
	for (int i = 0; i < b->nm; i++) {
		if (b->is_union && b->m[i].off) {
			fail(p, b->m[i].line, "union member %s is not at the start of its union",
			     b->m[i].name);
			return -1;
		}
		if (b->m[i].off + b->m[i].size > m.size && !m.is_array) {
			fail(p, b->m[i].line,
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
	if (member_comment(s, &m.off, &m.size, &bitfield, &bitoff)) {
		fail(p, line, "expected a member 'TYPE NAME; /* OFFSET SIZE */': '%s'", trim(s));
		return -1;
	}
	if (strip_attributes(s, &m.align, &packed)) {
		fail(p, line, "unbalanced __attribute__");
		return -1;
	}
	s = trim(s);
	semi = strrchr(s, ';');
	if (!semi || *trim(semi + 1)) {
		fail(p, line, "expected ';' at the end of the member: '%s'", s);
		return -1;
	}
	*semi = '\0';
	if (parse_declarator(s, &m, 1)) {
		fail(p, line, "cannot read the member declaration '%s'", trim(s));
		return -1;
	}
	if (!!m.bits != bitfield) {
		fail(p, line, "member %s: bit-field width and '/* OFFSET:BIT SIZE */' disagree",
		     m.name);
		return -1;
	}
	m.bitoff = bitoff;
	if (m.bits && (size_t)m.bitoff + (size_t)m.bits > 8 * m.size) {
		fail(p, line, "bit-field %s: bits %d..%d do not fit its %zu-byte storage unit",
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

	s = trim(s + 1);
	if (strip_attributes(s, &align, &packed)) {
		fail(p, line, "unbalanced __attribute__");
		return -1;
	}
	s = trim(s);
	if (strcmp(s, ";")) {
		fail(p, line, "struct %s: expected '};' closing it, found '}%s'", t->name, s);
		return -1;
	}
	b->align = align;
	b->packed = packed;
	if (!t->have_size) {
		fail(p, t->line,
		     "struct %s: no '/* size: N, cachelines: C, members: M */' line before its "
		     "'};' (truncated pahole output?)",
		     t->name);
		return -1;
	}
	if (t->members >= 0 && t->members != b->nm) {
		fail(p, line, "struct %s: pahole counts %ld members, the text has %d", t->name,
		     t->members, b->nm);
		return -1;
	}
	for (int i = 0; i < b->nm; i++) {
		if (b->m[i].off + b->m[i].size > end)
			end = b->m[i].off + b->m[i].size;
	}
	if (end > t->size) {
		fail(p, line, "struct %s: members end at %zu, after its size %zu", t->name, end,
		     t->size);
		return -1;
	}
	if (t->have_padding && t->size - end != t->padding) {
		fail(p, line,
		     "struct %s: pahole reports %zu bytes of padding, the members leave %zu",
		     t->name, t->padding, t->size - end);
		return -1;
	}
	return 0;
}

static int read_text(struct ph *p, const char *text)
{
	int stack[PH_DEPTH], depth = 0, line = 0;
	struct ph_top *t = NULL;
	const char *s = text;

	while (*s && !p->failed) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char buf[1024], *l, tdef[PH_NAME] = "";

		line++;
		if (n >= sizeof(buf)) {
			if (depth) {
				fail(p, line, "line too long (%zu bytes)", n);
				return -1;
			}
			s = nl ? nl + 1 : s + n;
			continue;
		}
		memcpy(buf, s, n);
		buf[n] = '\0';
		s = nl ? nl + 1 : s + n;
		l = trim(buf);

		if (!depth) {
			char tag[PH_NAME];
			const char *q = l;
			int is_union = !strncmp(q, "union ", 6);

			if (strncmp(q, "struct ", 7) && !is_union)
				continue;
			q += is_union ? 6 : 7;
			skip_blanks(&q);
			{
				const char *e = q;

				while (is_ident((unsigned char)*e))
					e++;
				if (e == q || !is_ident_start((unsigned char)*q))
					continue;
				copyn(tag, sizeof(tag), q, (size_t)(e - q));
				q = e;
			}
			skip_blanks(&q);
			if (strcmp(q, "{"))
				continue; /* not an opening line: text around the structs */
			if (is_union) {
				fail(p, line,
				     "union %s: a union is not a struct layout (its members "
				     "overlap)",
				     tag);
				return -1;
			}
			for (int i = 0; i < p->nt; i++) {
				if (!strcmp(p->t[i].name, tag)) {
					fail(p, line, "struct %s: defined twice (first at line %d)",
					     tag, p->t[i].line);
					return -1;
				}
			}
			if (grow(p, (void **)&p->t, p->nt, &p->tcap, sizeof(*p->t)))
				return -1;
			t = &p->t[p->nt];
			memset(t, 0, sizeof(*t));
			snprintf(t->name, sizeof(t->name), "%s", tag);
			t->line = line;
			t->members = -1;
			t->out = -1;
			t->block = new_block(p, 0, tag, "", line);
			if (t->block < 0)
				return -1;
			p->nt++;
			stack[depth++] = t->block;
			continue;
		}
		t = &p->t[p->nt - 1];
		if (!*l)
			continue;
		/* A comment line: "/" "*" at the start, the first "*" "/" at the end. */
		if (!strncmp(l, "/*", 2) && strlen(l) >= 4 &&
		    strstr(l + 2, "*/") == l + strlen(l) - 2) {
			if (read_comment(p, t, stack[depth - 1], depth == 1, l, line))
				return -1;
			continue;
		}
		/*
		 * "/ * typedef NAME [-> NAME2]... * / struct {" (or a member) in pahole -E:
		 * pahole 1.24 names the typedef chain (atomic_long_t -> atomic64_t); the first
		 * name is the type the code uses, which decides the kind.
		 */
		if (!strncmp(l, "/* typedef ", 11)) {
			const char *q = l + 11, *e;

			skip_blanks(&q);
			for (e = q; is_ident((unsigned char)*e); e++)
				;
			copyn(tdef, sizeof(tdef), q, (size_t)(e - q));
			skip_blanks(&e);
			while (!strncmp(e, "->", 2)) {
				const char *n;

				e += 2;
				skip_blanks(&e);
				for (n = e; is_ident((unsigned char)*e); e++)
					;
				if (e == n)
					break;
				skip_blanks(&e);
			}
			if (!tdef[0] || strncmp(e, "*/", 2)) {
				fail(p, line, "cannot read the typedef comment '%s'", l);
				return -1;
			}
			l = trim((char *)e + 2);
			/* Before a member ("/ * typedef bool * / _Bool x;"): the C type follows. */
			if (l[0] && l[strlen(l) - 1] != '{')
				tdef[0] = 0;
		}
		if (l[0] && l[strlen(l) - 1] == '{') {
			char tag[PH_NAME] = "";
			const char *q = l;
			int is_union = !strncmp(q, "union", 5) && !is_ident((unsigned char)q[5]);
			int bi;

			if (!is_union &&
			    (strncmp(q, "struct", 6) || is_ident((unsigned char)q[6]))) {
				fail(p, line, "expected 'struct [TAG] {' or 'union [TAG] {': '%s'",
				     l);
				return -1;
			}
			q += is_union ? 5 : 6;
			skip_blanks(&q);
			if (is_ident_start((unsigned char)*q)) {
				const char *e = q;

				while (is_ident((unsigned char)*e))
					e++;
				copyn(tag, sizeof(tag), q, (size_t)(e - q));
				q = e;
				skip_blanks(&q);
			}
			if (strcmp(q, "{")) {
				fail(p, line, "expected 'struct [TAG] {' or 'union [TAG] {': '%s'",
				     l);
				return -1;
			}
			if (depth == PH_DEPTH) {
				fail(p, line, "nested more than %d deep", PH_DEPTH);
				return -1;
			}
			bi = new_block(p, is_union, tag, tdef, line);
			if (bi < 0)
				return -1;
			stack[depth++] = bi;
			continue;
		}
		if (tdef[0]) {
			fail(p, line, "a typedef comment must precede 'struct {' or 'union {'");
			return -1;
		}
		if (l[0] == '}') {
			if (depth == 1) {
				if (close_top(p, t, l, line))
					return -1;
				depth = 0;
				continue;
			}
			depth--;
			if (close_nested(p, stack[depth], stack[depth - 1], l, line))
				return -1;
			continue;
		}
		if (read_member(p, stack[depth - 1], l, line))
			return -1;
	}
	if (p->failed)
		return -1;
	if (depth) {
		const struct ph_block *b = &p->b[stack[depth - 1]];

		fail(p, b->line, "%s %s: not closed before the end of the text (truncated?)",
		     b->is_union ? "union" : "struct", b->tag[0] ? b->tag : "(anonymous)");
		return -1;
	}
	if (!p->nt) {
		fail(p, line ? line : 1,
		     "no struct found (expected pahole output: 'struct NAME {' ... '};')");
		return -1;
	}
	return 0;
}

/* ---- kinds and alignment ---- */

static const char *const atomic_types[] = {
    "atomic_t", "atomic_long_t", "atomic64_t", "refcount_t", "local_t", "local64_t", "struct kref",
};
static const char *const lock_types[] = {
    "spinlock_t",	   "raw_spinlock_t",   "arch_spinlock_t", "struct spinlock",
    "struct raw_spinlock", "struct qspinlock", "struct mutex",	  "struct rw_semaphore",
};

/* The type without const/volatile qualifiers. */
static void base_type(const char *type, char *out, size_t len)
{
	char buf[PH_TYPE];
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", type);
	out[0] = '\0';
	for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
		if (!strcmp(w, "const") || !strcmp(w, "volatile"))
			continue;
		n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s", n ? " " : "", w);
		if (n >= len)
			break;
	}
}

/* The layout kind of a leaf of C type @type, or NULL for plain. */
static const char *type_kind(const char *type, int is_ptr, int is_array)
{
	char t[PH_TYPE];

	if (is_array)
		return "array";
	if (is_ptr)
		return "ptr";
	base_type(type, t, sizeof(t));
	if (strstr(t, "_Atomic"))
		return "atomic";
	for (size_t i = 0; i < sizeof(atomic_types) / sizeof(atomic_types[0]); i++)
		if (!strcmp(t, atomic_types[i]))
			return "atomic";
	for (size_t i = 0; i < sizeof(lock_types) / sizeof(lock_types[0]); i++)
		if (!strcmp(t, lock_types[i]))
			return "lock";
	return NULL;
}

/* The largest power of two dividing @n, at most @cap (1 for 0). */
static size_t pow2_div(size_t n, size_t cap)
{
	size_t a = 1;

	if (!n)
		return cap;
	while (a < cap && !(n % (2 * a)))
		a *= 2;
	return a;
}

static size_t scalar_align(const char *type, size_t size)
{
	static const struct {
		const char *t;
		size_t a;
	} known[] = {
	    {"char", 1},
	    {"signed char", 1},
	    {"unsigned char", 1},
	    {"_Bool", 1},
	    {"bool", 1},
	    {"u8", 1},
	    {"s8", 1},
	    {"__u8", 1},
	    {"__s8", 1},
	    {"short int", 2},
	    {"short unsigned int", 2},
	    {"u16", 2},
	    {"s16", 2},
	    {"__u16", 2},
	    {"__s16", 2},
	    {"int", 4},
	    {"unsigned int", 4},
	    {"u32", 4},
	    {"s32", 4},
	    {"__u32", 4},
	    {"__s32", 4},
	    {"float", 4},
	    {"long int", 8},
	    {"long unsigned int", 8},
	    {"long long int", 8},
	    {"long long unsigned int", 8},
	    {"u64", 8},
	    {"s64", 8},
	    {"__u64", 8},
	    {"__s64", 8},
	    {"double", 8},
	    {"size_t", 8},
	};
	char t[PH_TYPE];

	base_type(type, t, sizeof(t));
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(t, known[i].t))
			return known[i].a <= size || !size ? known[i].a : pow2_div(size, 8);
	return pow2_div(size, 8);
}

/* ---- writing ---- */

static struct out_struct *new_out(struct ph *p, const char *name, int line)
{
	struct out_struct *o;

	if (grow(p, (void **)&p->o, p->no, &p->ocap, sizeof(*p->o)))
		return NULL;
	o = &p->o[p->no++];
	memset(o, 0, sizeof(*o));
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->line = line;
	o->align = 1;
	return o;
}

/* Append a field (or a note when @kind is NULL) to output struct @oi. */
static int out_add(struct ph *p, int oi, const char *name, size_t off, size_t size,
		   const char *kind, const char *note, int line)
{
	struct out_struct *o = &p->o[oi];
	struct out_field *f;

	if (grow(p, (void **)&o->f, o->nf, &o->cap, sizeof(*o->f)))
		return -1;
	f = &o->f[o->nf++];
	memset(f, 0, sizeof(*f));
	FMT(f->name, sizeof(f->name), "%s", kind ? name : "");
	FMT(f->kind, sizeof(f->kind), "%s", kind ? kind : "");
	FMT(f->note, sizeof(f->note), "%s", kind ? (note ? note : "") : name);
	f->off = off;
	f->size = size;
	f->line = line;
	return 0;
}

static void add_align(struct ph *p, int oi, size_t a, size_t at)
{
	/* Never more than the offset it sits at allows: C puts members at multiples of it. */
	if (at)
		a = a < pow2_div(at, a) ? a : pow2_div(at, a);
	if (a > p->o[oi].align)
		p->o[oi].align = a;
}

/* A bit-field that a built-in layout has atomic: the layout's name into @lname. */
static int builtin_atomic(const char *sname, const char *path, char *lname, size_t len)
{
	for (int i = 0; layout_builtin[i].file; i++) {
		struct layout *l =
		    layout_parse(layout_builtin[i].text, layout_builtin[i].file, NULL, 0);
		struct layout_leaf leaf;
		int hit = 0;

		if (!l)
			continue;
		if (!layout_find_leaf(l, sname, path, &leaf) &&
		    (leaf.field->kind == LK_ATOMIC || leaf.field->kind == LK_PTR ||
		     leaf.field->kind == LK_LOCK)) {
			snprintf(lname, len, "%s", l->name);
			hit = 1;
		}
		layout_free(l);
		if (hit)
			return 1;
	}
	return 0;
}

static int emit_top(struct ph *p, int ti);
static int emit_members(struct ph *p, int oi, const struct ph_member *m, int nm, const char *prefix,
			size_t base);

static int find_top(const struct ph *p, const char *name)
{
	for (int i = 0; i < p->nt; i++)
		if (!strcmp(p->t[i].name, name))
			return i;
	return -1;
}

static size_t finish_align(struct ph *p, int oi, size_t attr, int packed, size_t size)
{
	size_t a = packed ? 1 : p->o[oi].align;

	if (attr > a)
		a = attr;
	/* sizeof is a multiple of the alignment. */
	while (size && a > 1 && size % a)
		a /= 2;
	return a ? a : 1;
}

static int same_fields(const struct out_struct *a, const struct out_struct *b)
{
	int i = 0, j = 0;

	for (;;) {
		while (i < a->nf && !a->f[i].kind[0])
			i++;
		while (j < b->nf && !b->f[j].kind[0])
			j++;
		if (i == a->nf || j == b->nf)
			return i == a->nf && j == b->nf;
		if (strcmp(a->f[i].name, b->f[j].name) || a->f[i].off != b->f[j].off ||
		    a->f[i].size != b->f[j].size || strcmp(a->f[i].kind, b->f[j].kind))
			return 0;
		i++;
		j++;
	}
}

static int find_out(const struct ph *p, const char *name)
{
	for (int i = 0; i < p->no; i++)
		if (!strcmp(p->o[i].name, name))
			return i;
	return -1;
}

/*
 * emit_type - the output struct for the expanded type @name (block @bi, @size bytes):
 * written once; a second expansion must have the same fields. Returns its index or -1.
 */
static int emit_type(struct ph *p, int bi, const char *name, size_t size, int line)
{
	const struct ph_block *b = &p->b[bi];
	int oi, ni, before, ti = find_top(p, name);
	struct out_struct *o;

	if (ti >= 0 && p->t[ti].out == -1 && emit_top(p, ti) < 0)
		return -1; /* defined at the top level of the text too */
	oi = find_out(p, name);
	before = p->no;
	o = new_out(p, name, line);
	if (!o)
		return -1;
	ni = (int)(o - p->o);
	if (++p->depth > PH_DEPTH) {
		fail(p, line, "struct %s: nested more than %d deep", name, PH_DEPTH);
		return -1;
	}
	if (emit_members(p, ni, b->m, b->nm, "", 0))
		return -1;
	p->depth--;
	o = &p->o[ni];
	o->size = size;
	o->align = finish_align(p, ni, b->align, b->packed, size);
	if (oi < 0)
		return ni;
	/* Already written: this expansion must be the same one, and is dropped. */
	if (p->no != before + 1 || p->o[oi].size != o->size || !same_fields(&p->o[oi], o)) {
		fail(p, line, "struct %s: expanded twice with different members (first at line %d)",
		     name, p->o[oi].line);
		return -1;
	}
	free(o->f);
	p->no--;
	return oi;
}

static int emit_bitfields(struct ph *p, int oi, const struct ph_member *m, int n,
			  const char *prefix, size_t base)
{
	char note[PH_NOTE], names[PH_NOTE] = "", path[PH_PATH], lname[LAYOUT_NAME_MAX];
	size_t lo = (size_t)-1, hi = 0;
	size_t k = 0;

	for (int i = 0; i < n; i++) {
		size_t a = base + m[i].off + (size_t)m[i].bitoff / 8;
		size_t b = base + m[i].off + ((size_t)m[i].bitoff + (size_t)m[i].bits + 7) / 8;

		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
		k += (size_t)snprintf(names + k, k < sizeof(names) ? sizeof(names) - k : 0,
				      "%s%s %s:%d", i ? ", " : "", m[i].type, m[i].name, m[i].bits);
		if (k >= sizeof(names))
			k = sizeof(names) - 1;
		add_align(p, oi, scalar_align(m[i].type, m[i].size), base + m[i].off);
		FMT(path, sizeof(path), "%s%s", prefix, m[i].name);
		if (p->builtin_check && builtin_atomic(p->o[oi].name, path, lname, sizeof(lname))) {
			fail(p, m[i].line,
			     "field %s: a bit-field (%s %s:%d) cannot be atomic, but struct %s "
			     "field %s is atomic in built-in layout %s: a scenario needs it atomic",
			     path, m[i].type, m[i].name, m[i].bits, p->o[oi].name, path, lname);
			return -1;
		}
	}
	FMT(note, sizeof(note), "bit-fields %s: plain bytes", names);
	FMT(path, sizeof(path), "%s%s", prefix, m[0].name);
	return out_add(p, oi, path, lo, hi - lo, "plain", note, m[0].line);
}

static int emit_member(struct ph *p, int oi, const struct ph_member *m, const char *prefix,
		       size_t base)
{
	char path[PH_PATH], note[PH_NOTE];
	size_t at = base + m->off;

	FMT(path, sizeof(path), "%s%s", prefix, m->name);
	if (!m->size) {
		add_align(p, oi, m->align, at);
		if (m->block >= 0)
			add_align(p, oi, p->b[m->block].align, at);
		FMT(note, sizeof(note), "%s: zero-size member at %zu%s",
		    m->name[0] ? path : "(anonymous)", at, m->align ? ", aligned" : "");
		if (m->align)
			FMT(note + strlen(note), sizeof(note) - strlen(note), " %zu", m->align);
		return out_add(p, oi, note, at, 0, NULL, NULL, m->line);
	}
	add_align(p, oi, m->align, at);
	if (m->block < 0) {
		const char *kind = type_kind(m->type, m->is_ptr, m->is_array);
		char tn[PH_TYPE];

		if (m->is_array) {
			size_t esz = m->elems ? m->size / m->elems : m->size;

			add_align(p, oi, m->is_ptr ? pow2_div(esz, 8) : scalar_align(m->type, esz),
				  at);
		} else if (m->is_ptr) {
			add_align(p, oi, pow2_div(m->size, 8), at);
		}
		base_type(m->type, tn, sizeof(tn));
		if (!kind && !strncmp(tn, "struct ", 7) && !strchr(tn + 7, ' ')) {
			int ti = find_top(p, tn + 7), ni;

			if (ti >= 0) {
				ni = emit_top(p, ti);
				if (ni < 0)
					return -1;
				if (p->o[ni].size == m->size) {
					add_align(p, oi, p->o[ni].align, at);
					return out_add(p, oi, path, at, m->size, p->o[ni].name,
						       NULL, m->line);
				}
			}
			add_align(p, oi, pow2_div(m->size, 8), at);
			FMT(note, sizeof(note),
			    "%s: not expanded (pahole -E, or name it in --struct too)", tn);
			return out_add(p, oi, path, at, m->size, "plain", note, m->line);
		}
		if (!m->is_array && !m->is_ptr)
			add_align(p, oi, scalar_align(m->type, m->size), at);
		FMT(note, sizeof(note), "%s%s", m->type, m->dims);
		return out_add(p, oi, path, at, m->size, kind ? kind : "plain", note, m->line);
	}

	/* A nested struct or union block. */
	const struct ph_block *b = &p->b[m->block];
	char tname[PH_TYPE] = "";
	const char *kind;

	add_align(p, oi, b->align, at);
	if (b->tdef[0])
		FMT(tname, sizeof(tname), "%s", b->tdef);
	else if (b->tag[0])
		FMT(tname, sizeof(tname), "%s %s", b->is_union ? "union" : "struct", b->tag);
	kind = tname[0] ? type_kind(tname, 0, m->is_array) : (m->is_array ? "array" : NULL);
	if (kind) {
		add_align(p, oi, pow2_div(m->size / (m->elems ? m->elems : 1), 8), at);
		return out_add(p, oi, path, at, m->size, kind,
			       tname[0] ? tname : "an array of structs", m->line);
	}
	if (b->is_union) {
		const struct ph_member *keep = NULL;
		char skipped[PH_NOTE] = "";
		size_t k = 0;
		char pre[PH_PATH + 2];

		for (int i = 0; i < b->nm; i++) {
			if (!keep && b->m[i].size) {
				keep = &b->m[i];
				continue;
			}
			k += (size_t)snprintf(
			    skipped + k, k < sizeof(skipped) ? sizeof(skipped) - k : 0, "%s%s",
			    k ? ", " : "", b->m[i].name[0] ? b->m[i].name : "(anonymous)");
			if (k >= sizeof(skipped))
				k = sizeof(skipped) - 1;
		}
		if (m->name[0])
			FMT(pre, sizeof(pre), "%s.", path);
		else
			FMT(pre, sizeof(pre), "%s", prefix);
		FMT(note, sizeof(note), "union %s at %zu (%zu bytes): kept %s%s%s",
		    m->name[0] ? path : "(anonymous)", at, m->size,
		    keep && keep->name[0] ? keep->name : "(anonymous)",
		    skipped[0] ? "; skipped " : "", skipped);
		if (out_add(p, oi, note, at, 0, NULL, NULL, m->line))
			return -1;
		for (int i = 0; i < b->nm; i++)
			add_align(p, oi, b->m[i].align, at);
		return keep ? emit_member(p, oi, keep, pre, at) : 0;
	}
	if (m->name[0] && tname[0]) {
		const char *tn = b->tdef[0] ? b->tdef : b->tag;
		int ni = emit_type(p, m->block, tn, m->size, b->line);

		if (ni < 0)
			return -1;
		add_align(p, oi, p->o[ni].align, at);
		return out_add(p, oi, path, at, m->size, p->o[ni].name, NULL, m->line);
	}
	if (m->name[0]) {
		char pre[PH_PATH + 2];

		FMT(pre, sizeof(pre), "%s.", path);
		return emit_members(p, oi, b->m, b->nm, pre, at);
	}
	return emit_members(p, oi, b->m, b->nm, prefix, at);
}

static int emit_members(struct ph *p, int oi, const struct ph_member *m, int nm, const char *prefix,
			size_t base)
{
	for (int i = 0; i < nm;) {
		if (m[i].bits) {
			int j = i + 1;
			size_t hi = m[i].off + m[i].size;

			/* A run of bit-fields whose storage units overlap or touch. */
			while (j < nm && m[j].bits && m[j].off <= hi) {
				if (m[j].off + m[j].size > hi)
					hi = m[j].off + m[j].size;
				j++;
			}
			if (emit_bitfields(p, oi, m + i, j - i, prefix, base))
				return -1;
			i = j;
			continue;
		}
		if (emit_member(p, oi, &m[i], prefix, base))
			return -1;
		i++;
	}
	return 0;
}

static int emit_top(struct ph *p, int ti)
{
	struct ph_top *t = &p->t[ti];
	const struct ph_block *b = &p->b[t->block];
	struct out_struct *o;
	int oi;

	if (t->out >= 0)
		return t->out;
	if (t->out == -2) {
		fail(p, t->line, "struct %s: contains itself", t->name);
		return -1;
	}
	t->out = -2;
	oi = find_out(p, t->name);
	if (oi >= 0) {
		t->out = oi;
		return oi;
	}
	o = new_out(p, t->name, t->line);
	if (!o)
		return -1;
	oi = (int)(o - p->o);
	if (++p->depth > PH_DEPTH) {
		fail(p, t->line, "struct %s: nested more than %d deep", t->name, PH_DEPTH);
		return -1;
	}
	if (emit_members(p, oi, b->m, b->nm, "", 0))
		return -1;
	p->depth--;
	o = &p->o[oi];
	o->size = t->size;
	o->align = finish_align(p, oi, b->align, b->packed, t->size);
	t = &p->t[ti];
	t->out = oi;
	return oi;
}

/* ---- text ---- */

struct text {
	char *s;
	size_t len, cap;
	int lines;
	int *map; /* map[output line] = pahole line */
	int mapcap;
	int oom;
};

static void tx(struct text *t, int src, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void tx(struct text *t, int src, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = strlen(buf);
	if (t->oom)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *ns;

		while (cap < t->len + n + 1)
			cap *= 2;
		ns = realloc(t->s, cap);
		if (!ns) {
			t->oom = 1;
			return;
		}
		t->s = ns;
		t->cap = cap;
	}
	memcpy(t->s + t->len, buf, n + 1);
	t->len += n;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\n')
			continue;
		t->lines++;
		if (t->lines >= t->mapcap) {
			int cap = t->mapcap ? 2 * t->mapcap : 256;
			int *nm = realloc(t->map, (size_t)cap * sizeof(*nm));

			if (!nm) {
				t->oom = 1;
				return;
			}
			t->map = nm;
			t->mapcap = cap;
		}
		t->map[t->lines] = src;
	}
}

/* Notes go into comments: keep them on one line and free of '#'. */
static void clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == '#')
			*s = '?';
}

static void write_struct(struct text *t, const struct out_struct *o)
{
	size_t end = 0;

	tx(t, o->line, "\nstruct %s size %zu align %zu\n", o->name, o->size, o->align);
	for (int i = 0; i < o->nf; i++) {
		struct out_field f = o->f[i];

		clean(f.note);
		if (f.off > end) {
			tx(t, f.line, "\t# hole: %zu bytes (%zu..%zu)\n", f.off - end, end,
			   f.off - 1);
			end = f.off;
		}
		if (!f.kind[0]) {
			tx(t, f.line, "\t# %s\n", f.note);
			continue;
		}
		if (f.note[0])
			tx(t, f.line, "\t%-31s %6zu %6zu  %-12s # %s\n", f.name, f.off, f.size,
			   f.kind, f.note);
		else
			tx(t, f.line, "\t%-31s %6zu %6zu  %s\n", f.name, f.off, f.size, f.kind);
		if (f.off + f.size > end)
			end = f.off + f.size;
	}
	if (o->size > end)
		tx(t, o->line, "\t# padding: %zu bytes (%zu..%zu)\n", o->size - end, end,
		   o->size - 1);
	tx(t, o->line, "end\n");
}

/* order - output struct @i after every struct it nests (C nests by value: no cycles). */
static void order(const struct ph *p, int i, int *state, int *list, int *n)
{
	if (state[i])
		return;
	state[i] = 1;
	for (int j = 0; j < p->o[i].nf; j++) {
		int k = p->o[i].f[j].kind[0] ? find_out(p, p->o[i].f[j].kind) : -1;

		if (k >= 0 && k != i)
			order(p, k, state, list, n);
	}
	list[(*n)++] = i;
}

/* Which top-level structs to keep: @keep[i] for p->t[i]. */
static int select_structs(struct ph *p, const char *list, int *keep)
{
	char names[512] = "";
	size_t k = 0;

	for (int i = 0; i < p->nt; i++) {
		keep[i] = !list || !*list;
		k += (size_t)snprintf(names + k, k < sizeof(names) ? sizeof(names) - k : 0, "%s%s",
				      i ? ", " : "", p->t[i].name);
		if (k >= sizeof(names))
			k = sizeof(names) - 1;
	}
	if (!list || !*list)
		return 0;
	for (const char *s = list; *s;) {
		size_t n = strcspn(s, ",");
		int found = 0;

		for (int i = 0; i < p->nt; i++) {
			if (strlen(p->t[i].name) == n && !strncmp(p->t[i].name, s, n)) {
				keep[i] = 1;
				found = 1;
			}
		}
		if (!found && n) {
			fail(p, 0, "no struct %.*s in the pahole text (structs found: %s)", (int)n,
			     s, names);
			return -1;
		}
		s += n + (s[n] == ',');
	}
	return 0;
}

char *pahole_to_layout(const char *text, const char *source, const struct pahole_opts *opts,
		       char *err, size_t errlen)
{
	static const struct pahole_opts none;
	struct ph p = {.source = source ? source : "(pahole)", .err = err, .errlen = errlen};
	struct text t = {0};
	char name[LAYOUT_NAME_MAX], desc[160], perr[512];
	int *keep = NULL, *state = NULL, *list = NULL, nlist = 0, first = -1;
	struct layout *check;
	char *out = NULL;

	if (!opts)
		opts = &none;
	p.builtin_check = !opts->no_builtin_check;
	if (err && errlen)
		err[0] = '\0';
	if (!text) {
		fail(&p, 0, "no text");
		return NULL;
	}
	if (read_text(&p, text))
		goto done;
	keep = calloc((size_t)p.nt, sizeof(*keep));
	if (!keep) {
		fail(&p, 0, "out of memory");
		goto done;
	}
	if (select_structs(&p, opts->structs, keep))
		goto done;
	for (int i = 0; i < p.nt; i++) {
		if (!keep[i])
			continue;
		if (first < 0)
			first = i;
		if (emit_top(&p, i) < 0)
			goto done;
	}
	if (first < 0) {
		fail(&p, 0, "no struct selected by --struct '%s'", opts->structs);
		goto done;
	}
	/* Only the kept structs and what they nest, nested ones first. */
	state = calloc((size_t)p.no + 1, sizeof(*state));
	list = calloc((size_t)p.no + 1, sizeof(*list));
	if (!state || !list) {
		fail(&p, 0, "out of memory");
		goto done;
	}
	for (int i = 0; i < p.nt; i++)
		if (keep[i] && p.t[i].out >= 0)
			order(&p, p.t[i].out, state, list, &nlist);

	snprintf(name, sizeof(name), "%s", opts->name ? opts->name : p.t[first].name);
	if (!name[0] || strlen(opts->name ? opts->name : name) >= sizeof(name) ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") !=
		strlen(name)) {
		fail(&p, 0, "bad layout name '%s' (want [A-Za-z0-9_.+-], < %d chars)",
		     opts->name ? opts->name : name, LAYOUT_NAME_MAX);
		goto done;
	}
	if (opts->desc)
		snprintf(desc, sizeof(desc), "%s", opts->desc);
	else
		snprintf(desc, sizeof(desc), "imported from pahole output: %s", p.source);
	clean(desc);
	{
		char src[256];

		snprintf(src, sizeof(src), "%s", p.source);
		clean(src);
		/* btf.c gives its text as "btf:PATH" (libbpf, rendered as pahole -E prints it). */
		if (!strncmp(src, "btf:", 4))
			tx(&t, 0, "# imported by pcbench layout import from BTF: %s\n", src + 4);
		else
			tx(&t, 0, "# imported by pcbench layout import from pahole output: %s\n",
			   src);
	}
	if (!strncmp(p.source, "btf:", 4))
		tx(&t, 0,
		   "# offsets and sizes from BTF; kinds from the C types (see docs/layouts.md, "
		   "Layouts from the running kernel)\n");
	else
		tx(&t, 0,
		   "# offsets and sizes from pahole; kinds from the C types (see README, Layouts "
		   "from outside)\n");
	tx(&t, 0, "layout %s\n", name);
	tx(&t, 0, "desc %s\n", desc);
	for (int i = 0; i < nlist; i++)
		write_struct(&t, &p.o[list[i]]);
	if (t.oom) {
		fail(&p, 0, "out of memory");
		goto done;
	}
	check = layout_parse(t.s, "(generated)", perr, sizeof(perr));
	if (!check) {
		/* "(generated):N: problem": name the pahole line instead. */
		const char *q = perr + strlen("(generated):");
		size_t ln = 0;
		int src = 0;

		if (!strncmp(perr, "(generated):", 12) && !num(&q, &ln) && *q == ':') {
			if (ln > 0 && (int)ln <= t.lines)
				src = t.map[ln];
			q++;
			skip_blanks(&q);
		} else {
			q = perr;
		}
		fail(&p, src, "%s", q);
		goto done;
	}
	layout_free(check);
	out = t.s;
	t.s = NULL;
done:
	free(t.s);
	free(t.map);
	free(keep);
	free(state);
	free(list);
	for (int i = 0; i < p.nb; i++)
		free(p.b[i].m);
	free(p.b);
	free(p.t);
	for (int i = 0; i < p.no; i++)
		free(p.o[i].f);
	free(p.o);
	return out;
}
