// SPDX-License-Identifier: MIT
/*
 * pahole_lex.c - the tokenising helpers of the pahole import (pahole_int.h): failures and
 * growing arrays, identifiers, numbers and blanks, and the parts of a member line (its
 * attributes, its trailing offset/size comment, its declarator); pahole_read.c reads the
 * text with them.
 */
#include "pahole_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ph_fail(struct ph *p, int line, const char *fmt, ...)
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

int ph_grow(struct ph *p, void **v, int n, int *cap, size_t size)
{
	void *nv;
	int c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 8;
	nv = realloc(*v, (size_t)c * size);
	if (!nv) {
		ph_fail(p, 0, "out of memory");
		return -1;
	}
	*v = nv;
	*cap = c;
	return 0;
}

int ph_is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

int ph_is_ident(int c)
{
	return isalnum(c) || c == '_';
}

char *ph_trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

void ph_copyn(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

int ph_num(const char **s, size_t *out)
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

void ph_skip_blanks(const char **s)
{
	while (isspace((unsigned char)**s))
		(*s)++;
}

int ph_strip_attributes(char *s, size_t *align, int *packed)
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
					ph_skip_blanks(&d);
					if (*d == '(') {
						d++;
						ph_skip_blanks(&d);
						if (!ph_num(&d, &v) && v > *align)
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

int ph_member_comment(char *s, size_t *off, size_t *size, int *bitfield, int *bitoff)
{
	char *c = NULL, *e;
	const char *q;
	size_t bo;

	for (char *x = s; (x = strstr(x, "/*")); x += 2)
		c = x;
	if (!c)
		return -1;
	e = strstr(c, "*/");
	if (!e || *ph_trim(e + 2))
		return -1;
	*e = '\0';
	q = c + 2;
	ph_skip_blanks(&q);
	if (ph_num(&q, off))
		return -1;
	*bitfield = 0;
	if (*q == ':') {
		q++;
		ph_skip_blanks(&q);
		if (ph_num(&q, &bo) || bo > 4096)
			return -1;
		*bitfield = 1;
		*bitoff = (int)bo;
	}
	ph_skip_blanks(&q);
	if (ph_num(&q, size))
		return -1;
	ph_skip_blanks(&q);
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

int ph_parse_declarator(char *s, struct ph_member *m, int need_type)
{
	char *e, *fp, *name_end, *dims_end;
	size_t bits;

	s = ph_trim(s);
	e = s + strlen(s);
	fp = strstr(s, "(*");
	if (fp) {
		char *n = fp + 2, *ne;

		while (*n == ' ')
			n++;
		for (ne = n; ph_is_ident((unsigned char)*ne); ne++)
			;
		if (ne == n || !ph_is_ident_start((unsigned char)*n))
			return -1;
		ph_copyn(m->name, sizeof(m->name), n, (size_t)(ne - n));
		squeeze(m->type, sizeof(m->type), s);
		m->is_ptr = 1;
		return 0;
	}
	/* A bit-field width. */
	{
		char *colon = strrchr(s, ':');

		if (colon) {
			const char *q = colon + 1;

			ph_skip_blanks(&q);
			if (ph_num(&q, &bits) || *ph_trim((char *)q) || !bits || bits > 4096)
				return -1;
			m->bits = (int)bits;
			*colon = '\0';
			s = ph_trim(s);
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
		ph_skip_blanks(&q);
		if (*q == ']')
			d = 0; /* a flexible array */
		else if (ph_num(&q, &d))
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
		ph_copyn(m->dims, sizeof(m->dims), e, (size_t)(dims_end - e));
	name_end = e;
	while (e > s && ph_is_ident((unsigned char)e[-1]))
		e--;
	if (e == name_end) {
		if (need_type || m->is_array || m->bits)
			return -1;
		m->name[0] = '\0';
		return 0;
	}
	if (!ph_is_ident_start((unsigned char)*e) || (size_t)(name_end - e) >= sizeof(m->name))
		return -1;
	ph_copyn(m->name, sizeof(m->name), e, (size_t)(name_end - e));
	*e = '\0';
	s = ph_trim(s);
	if (need_type && !*s)
		return -1;
	if (!need_type && *s)
		return -1;
	squeeze(m->type, sizeof(m->type), s); /* for notes and kinds */
	if (strchr(m->type, '*'))
		m->is_ptr = 1;
	return 0;
}
