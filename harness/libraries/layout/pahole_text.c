// SPDX-License-Identifier: MIT
/*
 * pahole_text.c - the layout text of the output structs pahole.c wrote, and
 * pahole_to_layout() (see pahole.h): the text is read (pahole_read.c), the kept structs
 * are written out (pahole.c), then as layout text, nested types first, and the result is
 * validated with layout_parse(); its errors are mapped back to the pahole line of the field.
 */
#include "pahole.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "pahole_int.h"

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
		int k = p->o[i].f[j].kind[0] ? ph_find_out(p, p->o[i].f[j].kind) : -1;

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
			ph_fail(p, 0, "no struct %.*s in the pahole text (structs found: %s)",
				(int)n, s, names);
			return -1;
		}
		s += n + (s[n] == ',');
	}
	return 0;
}

/* The output structs of the kept top-level structs; the first kept one, or -1 on failure. */
static int emit_kept(struct ph *p, const int *keep, const char *structs)
{
	int first = -1;

	for (int i = 0; i < p->nt; i++) {
		if (!keep[i])
			continue;
		if (first < 0)
			first = i;
		if (ph_emit_top(p, i) < 0)
			return -1;
	}
	if (first < 0)
		ph_fail(p, 0, "no struct selected by --struct '%s'", structs);
	return first;
}

/*
 * order_kept - into @list (p->no + 1 entries), the output structs to write: only the kept
 * ones and what they nest, nested ones first. Their count, or -1 (out of memory).
 */
static int order_kept(struct ph *p, const int *keep, int *list)
{
	int *state = calloc((size_t)p->no + 1, sizeof(*state)), n = 0;

	if (!state) {
		ph_fail(p, 0, "out of memory");
		return -1;
	}
	for (int i = 0; i < p->nt; i++)
		if (keep[i] && p->t[i].out >= 0)
			order(p, p->t[i].out, state, list, &n);
	free(state);
	return n;
}

/* The layout's name into @name: --name, or the first kept struct's; 0, or -1 when bad. */
static int name_layout(struct ph *p, const char *opt, const char *first, char *name)
{
	snprintf(name, LAYOUT_NAME_MAX, "%s", opt ? opt : first);
	if (!name[0] || strlen(opt ? opt : name) >= LAYOUT_NAME_MAX ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") !=
		strlen(name)) {
		ph_fail(p, 0, "bad layout name '%s' (want [A-Za-z0-9_.+-], < %d chars)",
			opt ? opt : name, LAYOUT_NAME_MAX);
		return -1;
	}
	return 0;
}

/* The comment lines saying where the layout comes from, then "layout NAME" and "desc". */
static void write_head(struct text *t, const char *source, const char *name, const char *desc)
{
	char src[256], d[160];

	snprintf(src, sizeof(src), "%s", source);
	clean(src);
	/* btf.c gives its text as "btf:PATH" (libbpf, rendered as pahole -E prints it). */
	if (!strncmp(src, "btf:", 4))
		tx(t, 0, "# imported by pcbench layout import from BTF: %s\n", src + 4);
	else
		tx(t, 0, "# imported by pcbench layout import from pahole output: %s\n", src);
	if (!strncmp(source, "btf:", 4))
		tx(t, 0,
		   "# offsets and sizes from BTF; kinds from the C types (see docs/layouts.md, "
		   "Layouts from the running kernel)\n");
	else
		tx(t, 0,
		   "# offsets and sizes from pahole; kinds from the C types (see README, Layouts "
		   "from outside)\n");
	if (desc)
		snprintf(d, sizeof(d), "%s", desc);
	else
		snprintf(d, sizeof(d), "imported from pahole output: %s", source);
	clean(d);
	tx(t, 0, "layout %s\n", name);
	tx(t, 0, "desc %s\n", d);
}

/*
 * check_text - the layout text @t parses back; 0, or -1 with the parser's message at the
 * pahole line the failing line came from.
 */
static int check_text(struct ph *p, const struct text *t)
{
	char perr[512];
	struct layout *check = layout_parse(t->s, "(generated)", perr, sizeof(perr));
	const char *q = perr + strlen("(generated):");
	size_t ln = 0;
	int src = 0;

	if (check) {
		layout_free(check);
		return 0;
	}
	/* "(generated):N: problem": name the pahole line instead. */
	if (!strncmp(perr, "(generated):", 12) && !ph_num(&q, &ln) && *q == ':') {
		if (ln > 0 && (int)ln <= t->lines)
			src = t->map[ln];
		q++;
		ph_skip_blanks(&q);
	} else {
		q = perr;
	}
	ph_fail(p, src, "%s", q);
	return -1;
}

/* Frees what reading and emitting allocated in @p. */
static void ph_free(struct ph *p)
{
	for (int i = 0; i < p->nb; i++)
		free(p->b[i].m);
	free(p->b);
	free(p->t);
	for (int i = 0; i < p->no; i++)
		free(p->o[i].f);
	free(p->o);
}

/* to_layout - the layout text of @p's structs that @opts select, or NULL (failed). */
static char *to_layout(struct ph *p, const struct pahole_opts *opts)
{
	struct text t = {0};
	char name[LAYOUT_NAME_MAX], *out = NULL;
	int *keep = calloc((size_t)p->nt, sizeof(*keep)), *list = NULL, nlist = -1, first = -1;

	if (!keep)
		ph_fail(p, 0, "out of memory");
	else if (!select_structs(p, opts->structs, keep))
		first = emit_kept(p, keep, opts->structs);
	if (first >= 0) {
		list = calloc((size_t)p->no + 1, sizeof(*list));
		if (!list)
			ph_fail(p, 0, "out of memory");
		else
			nlist = order_kept(p, keep, list);
	}
	if (nlist >= 0 && !name_layout(p, opts->name, p->t[first].name, name)) {
		write_head(&t, p->source, name, opts->desc);
		for (int i = 0; i < nlist; i++)
			write_struct(&t, &p->o[list[i]]);
		if (t.oom)
			ph_fail(p, 0, "out of memory");
		else if (!check_text(p, &t)) {
			out = t.s;
			t.s = NULL;
		}
	}
	free(t.s);
	free(t.map);
	free(keep);
	free(list);
	return out;
}

char *pahole_to_layout(const char *text, const char *source, const struct pahole_opts *opts,
		       char *err, size_t errlen)
{
	static const struct pahole_opts none;
	struct ph p = {.source = source ? source : "(pahole)", .err = err, .errlen = errlen};
	char *out = NULL;

	if (!opts)
		opts = &none;
	p.builtin_check = !opts->no_builtin_check;
	if (err && errlen)
		err[0] = '\0';
	if (!text) {
		ph_fail(&p, 0, "no text");
		return NULL;
	}
	if (!ph_read_text(&p, text))
		out = to_layout(&p, opts);
	ph_free(&p);
	return out;
}
