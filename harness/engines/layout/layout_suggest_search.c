// SPDX-License-Identifier: MIT
/*
 * layout_suggest_search.c - the search of `pcbench layout suggest`: the target struct's
 * top-level fields are the units that move (arrays, unions and nested structs whole); each
 * has a signature, per traced object the threads that write it and the threads that use it.
 * A mode groups the accessed units (same signature; each written unit alone; same writers)
 * and a first-fit placement gives every written group lines of its own, packs the
 * read-only groups together on other lines, and fills what is left with the fields no
 * thread touched. A nested struct type whose fields share a line between a writer and
 * other threads is arranged the same way first (every instance of the type gets that
 * order, its align raised to the line size). Bytes no field describes never move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout_suggest.h"
#include "strbuf.h"
#include "util.h"

enum sg_mode { SG_GROUP, SG_SPLIT, SG_WRITERS, SG_FLAT, SG_SEPARATE };

/* One unit to place: a field of the struct being arranged. */
struct unit {
	int field;		  /* index into the struct's fields */
	size_t size, align, off0; /* its size and alignment now, where it was */
	size_t off;		  /* where it goes */
	uint64_t *w, *a;	  /* signature: [nsig] */
	double heat;		  /* accesses per operation */
	int keep, excl, placed;	  /* pinned; owns its lines alone; done */
	int group;		  /* 0: no thread touches it; else its group */
	int ro;			  /* accessed, written by nobody */
	int resized;		  /* a nested type that changed size or align */
	int phase;		  /* keep off0's place in its line (a nested unit kept whole) */
};

/* The struct being arranged. */
struct arr {
	const struct layout_struct *s;
	struct unit *u;
	int n, nsig;
	size_t line, limit; /* the size the result may have at most */
	unsigned char *occ; /* [limit]: byte taken */
	int *own;	    /* [lines]: 0 free, > 0 group, -1 read-only groups, -2 a unit alone */
};

static size_t up(size_t x, size_t a)
{
	return (x + a - 1) / a * a;
}

/* The alignment rule: a nested struct's align, else min(8, 2^k dividing size and offset). */
static size_t field_align(const struct layout *l, const struct layout_field *f)
{
	size_t x = f->size | f->offset;

	if (f->kind == LK_STRUCT)
		return l->structs[f->type].align;
	if (!x)
		return 8;
	x &= ~x + 1;
	return x < 8 ? x : 8;
}

static int sig_written(const struct unit *u, int nsig)
{
	for (int k = 0; k < nsig; k++)
		if (u->w[k])
			return 1;
	return 0;
}

static int sig_used(const struct unit *u, int nsig)
{
	for (int k = 0; k < nsig; k++)
		if (u->a[k])
			return 1;
	return 0;
}

static uint64_t all_of(const uint64_t *m, int nsig)
{
	uint64_t x = 0;

	for (int k = 0; k < nsig; k++)
		x |= m[k];
	return x;
}

/* Same signature: per object (@flat: over all objects together), writers and readers. */
static int same_sig(const struct unit *x, const struct unit *y, int nsig, int writers_only,
		    int flat)
{
	if (flat)
		return all_of(x->w, nsig) == all_of(y->w, nsig) &&
		       all_of(x->a, nsig) == all_of(y->a, nsig);
	for (int k = 0; k < nsig; k++)
		if (x->w[k] != y->w[k] || (!writers_only && x->a[k] != y->a[k]))
			return 0;
	return 1;
}

static int by_heat(const void *pa, const void *pb)
{
	const struct unit *const *a = pa, *const *b = pb;

	if ((*a)->heat != (*b)->heat)
		return (*a)->heat > (*b)->heat ? -1 : 1;
	return (*a)->field - (*b)->field;
}

/* Groups by @mode, hottest first: u->group 1.. for accessed units, 0 for the rest. */
static void make_groups(struct arr *r, enum sg_mode mode)
{
	struct unit **o = xmalloc((size_t)r->n * sizeof(*o));
	int ng = 0;

	for (int i = 0; i < r->n; i++) {
		struct unit *u = &r->u[i];

		o[i] = u;
		u->ro = sig_used(u, r->nsig) && !sig_written(u, r->nsig);
		u->group = 0;
	}
	qsort(o, (size_t)r->n, sizeof(*o), by_heat);
	for (int i = 0; i < r->n; i++) {
		struct unit *u = o[i];

		if (!sig_used(u, r->nsig) && mode != SG_SEPARATE)
			continue;
		for (int j = 0; j < i && mode != SG_SEPARATE && !u->group; j++) {
			const struct unit *v = o[j];

			if (!v->group || v->ro != u->ro)
				continue;
			if (u->ro ? same_sig(u, v, r->nsig, 0, mode == SG_FLAT)
				  : mode != SG_SPLIT && same_sig(u, v, r->nsig, mode == SG_WRITERS,
								 mode == SG_FLAT))
				u->group = v->group;
		}
		if (!u->group)
			u->group = ++ng;
	}
	free(o);
}

static int lines_ok(const struct arr *r, size_t p, size_t size, int code)
{
	for (size_t ln = p / r->line; ln <= (p + (size ? size : 1) - 1) / r->line; ln++) {
		int o = r->own[ln];

		if (code == -2 ? o != 0 : o != 0 && o != code)
			return 0;
	}
	return 1;
}

static int bytes_free(const struct arr *r, size_t p, size_t size)
{
	if (p + size > r->limit)
		return 0;
	for (size_t b = p; b < p + size; b++)
		if (r->occ[b])
			return 0;
	return 1;
}

/* The owner code of @u's lines: its group, -1 shared by read-only groups, -2 alone; 0 cold. */
static int code_of(const struct unit *u)
{
	if (u->excl)
		return -2;
	if (!u->group)
		return 0;
	return u->ro ? -1 : u->group;
}

static void put(struct arr *r, struct unit *u, size_t p)
{
	int code = code_of(u);

	u->off = p;
	u->placed = 1;
	memset(r->occ + p, 1, u->size);
	if (code)
		for (size_t ln = p / r->line; ln <= (p + (u->size ? u->size : 1) - 1) / r->line;
		     ln++)
			r->own[ln] = code;
}

/* First fit of @u: in lines its code already owns, then anywhere its code may go. */
static int fit(struct arr *r, struct unit *u, int any_line)
{
	int code = code_of(u);

	for (int pass = code > 0 || code == -1 ? 0 : 1; pass < 2; pass++)
		for (size_t p = 0; p + u->size <= r->limit; p += u->align) {
			if ((pass == 0 && r->own[p / r->line] != code) ||
			    (u->phase && p % r->line != u->off0 % r->line))
				continue;
			if (!bytes_free(r, p, u->size) ||
			    (!any_line && !lines_ok(r, p, u->size, code)))
				continue;
			put(r, u, p);
			return 0;
		}
	return -1;
}

/* Whether @u may stay: every other accessed unit on its lines is of its group (or both RO). */
static int clean_in_place(const struct arr *r, const struct unit *u)
{
	size_t lo = u->off0 / r->line, hi = (u->off0 + (u->size ? u->size : 1) - 1) / r->line;

	if (u->resized || u->excl || u->off0 % u->align)
		return 0;
	for (int j = 0; j < r->n; j++) {
		const struct unit *v = &r->u[j];
		size_t vlo = v->off0 / r->line,
		       vhi = (v->off0 + (v->size ? v->size : 1) - 1) / r->line;

		if (v == u || !v->group || vhi < lo || vlo > hi)
			continue;
		if (v->group != u->group && !(u->ro && v->ro))
			return 0;
	}
	return 1;
}

/*
 * place - every unit of @r, in this order: kept ones where they are, accessed ones whose
 * lines are already clean where they are, written groups (hottest first), read-only groups,
 * then the untouched ones in the first free bytes (they may share any line); with
 * @cold_first the untouched ones stay where they were, first (large arrays keep their room).
 * Returns the struct's new size, or 0 when something does not fit under r->limit.
 */
static size_t place_once(struct arr *r, size_t align, int cold_first)
{
	size_t cap = r->limit > r->s->size ? r->limit : r->s->size, end = 0, nl = cap / r->line + 2;

	r->occ = xcalloc(cap + 1, 1);
	r->own = xcalloc(nl, sizeof(int));
	memset(r->occ, 1, r->s->size);
	for (int i = 0; i < r->s->nfields; i++) {
		const struct layout_field *f = &r->s->fields[i];

		memset(r->occ + f->offset, 0, f->size); /* described bytes may be reused */
	}
	for (int i = 0; i < r->n; i++)
		if ((r->u[i].keep && r->u[i].off0 + r->u[i].size <= cap) ||
		    (cold_first && !r->u[i].group && !r->u[i].resized &&
		     !(r->u[i].off0 % r->u[i].align)))
			put(r, &r->u[i], r->u[i].off0);
	for (int i = 0; i < r->n; i++) {
		struct unit *u = &r->u[i];

		if (!u->placed && u->group && clean_in_place(r, u) &&
		    bytes_free(r, u->off0, u->size) && lines_ok(r, u->off0, u->size, code_of(u)))
			put(r, u, u->off0);
	}
	for (int pass = 0; pass < 2; pass++)
		for (int g = 1;; g++) {
			int any = 0;

			for (int i = 0; i < r->n; i++) {
				struct unit *u = &r->u[i];

				if (u->group != g)
					continue;
				any = 1;
				if (!u->placed && u->ro == pass && fit(r, u, 0))
					return 0;
			}
			if (!any)
				break;
		}
	for (int i = 0; i < r->n; i++) {
		struct unit *u = &r->u[i];

		if (!u->placed && fit(r, u, 1))
			return 0;
	}
	for (int i = 0; i < r->n; i++)
		if (r->u[i].off + r->u[i].size > end)
			end = r->u[i].off + r->u[i].size;
	end = up(end > r->s->size ? end : r->s->size, align);
	return end <= r->limit ? end : 0;
}

/* place - compact (untouched units last) when that fits, else untouched units first. */
static size_t place(struct arr *r, size_t align)
{
	size_t size = place_once(r, align, 0);

	if (size)
		return size;
	for (int i = 0; i < r->n; i++)
		r->u[i].placed = 0;
	free(r->occ);
	free(r->own);
	return place_once(r, align, 1);
}

/* The leaves of @p inside [lo, lo + size): their signatures ORed into w[k0..], a[k0..]. */
static double or_leaves(const struct sg_prof *p, size_t lo, size_t size, uint64_t *w, uint64_t *a)
{
	double heat = 0;

	for (int i = 0; i < p->n; i++) {
		const struct layout_leaf *lf = &p->lv[i];

		if (lf->offset < lo || lf->offset >= lo + (size ? size : 1))
			continue;
		for (int o = 0; o < p->nobj; o++) {
			w[o] |= p->leaf[i].w[o];
			a[o] |= p->leaf[i].a[o];
		}
		heat += p->leaf[i].per_op;
	}
	return heat;
}

static void arr_free(struct arr *r)
{
	for (int i = 0; i < r->n; i++) {
		free(r->u[i].w);
		free(r->u[i].a);
	}
	free(r->u);
	free(r->occ);
	free(r->own);
	memset(r, 0, sizeof(*r));
}

/* Whether the accessed leaves of @p in [lo, lo + size) have more than one signature. */
static int mixed(const struct sg_prof *p, size_t lo, size_t size)
{
	int first = -1;

	for (int i = 0; i < p->n; i++) {
		const struct layout_leaf *lf = &p->lv[i];

		if (lf->offset < lo || lf->offset >= lo + size || !p->leaf[i].per_op)
			continue;
		if (first < 0) {
			first = i;
			continue;
		}
		for (int o = 0; o < p->nobj; o++)
			if (p->leaf[i].w[o] != p->leaf[first].w[o] ||
			    p->leaf[i].a[o] != p->leaf[first].a[o])
				return 1;
	}
	return 0;
}

/* The instances of nested type @t among @s's fields: their count. */
static int instances(const struct layout_struct *s, int t)
{
	int n = 0;

	for (int i = 0; i < s->nfields; i++)
		n += s->fields[i].kind == LK_STRUCT && s->fields[i].type == t;
	return n;
}

/*
 * inner_units - the fields of nested type @t as units, each signed per (instance,
 * object) over the target struct's leaves.
 */
static void inner_units(const struct sg_prof *p, int t, struct arr *r)
{
	const struct layout_struct *ts = &p->l->structs[t];
	int ninst = instances(p->s, t);

	r->s = ts;
	r->n = ts->nfields;
	r->nsig = ninst * p->nobj;
	r->u = xcalloc((size_t)r->n, sizeof(*r->u));
	for (int i = 0; i < r->n; i++) {
		const struct layout_field *f = &ts->fields[i];
		struct unit *u = &r->u[i];
		int k = 0;

		u->field = i;
		u->size = f->size;
		u->align = field_align(p->l, f);
		u->off0 = f->offset;
		u->w = xcalloc((size_t)r->nsig + 1, sizeof(uint64_t));
		u->a = xcalloc((size_t)r->nsig + 1, sizeof(uint64_t));
		for (int j = 0; j < p->s->nfields; j++) {
			const struct layout_field *of = &p->s->fields[j];

			if (of->kind != LK_STRUCT || of->type != t)
				continue;
			u->heat += or_leaves(p, of->offset + f->offset, f->size, u->w + k * p->nobj,
					     u->a + k * p->nobj);
			k++;
		}
	}
}

/* Whether some line of @p's struct holds a written unit of @r and a unit of another group. */
static int conflicted(const struct sg_prof *p, int t, const struct arr *r)
{
	for (int j = 0; j < p->s->nfields; j++) {
		const struct layout_field *of = &p->s->fields[j];

		if (of->kind != LK_STRUCT || of->type != t)
			continue;
		for (int x = 0; x < r->n; x++)
			for (int y = 0; y < r->n; y++) {
				const struct unit *u = &r->u[x], *v = &r->u[y];

				if (x == y || !u->group || u->ro || !v->group ||
				    v->group == u->group ||
				    (of->offset + u->off0) / r->line !=
					(of->offset + v->off0) / r->line)
					continue;
				return 1;
			}
	}
	return 0;
}

/* Thread counts as words: "every thread", "3 threads", "thread 2". */
static void who(char *buf, size_t len, uint64_t m, int threads)
{
	int n = 0, first = -1;

	for (int t = 0; t < 64; t++)
		if (m >> t & 1) {
			n++;
			first = first < 0 ? t : first;
		}
	if (n == threads && n > 1)
		snprintf(buf, len, "every thread");
	else if (n == 1)
		snprintf(buf, len, "thread %d", first);
	else
		snprintf(buf, len, "%d threads", n);
}

/* Why @u left its place: what it does and what else was on its first line there. */
static void why_moved(const struct arr *r, const struct unit *u, int threads,
		      const char *(*name)(const struct arr *, const struct unit *), char *buf,
		      size_t len)
{
	size_t ln = u->off0 / r->line;
	char w[48], o[48];

	if (u->resized) {
		snprintf(buf, len, "its type was rearranged (now %zu B, align %zu)", u->size,
			 u->align);
		return;
	}
	if (!u->group) {
		snprintf(buf, len, "not accessed: moved to make room");
		return;
	}
	for (int j = 0; j < r->n; j++) {
		const struct unit *v = &r->u[j];

		if (v == u || !v->group || v->group == u->group || (u->ro && v->ro) ||
		    v->off0 / r->line > ln ||
		    (v->off0 + (v->size ? v->size : 1) - 1) / r->line < ln)
			continue;
		who(w, sizeof(w), all_of(u->ro ? u->a : u->w, r->nsig), threads);
		who(o, sizeof(o), all_of(v->ro ? v->a : v->w, r->nsig), threads);
		snprintf(buf, len, "moved off line %zu: %s by %s; line %zu is %s by %s (%s)", ln,
			 u->ro ? "read" : "written", w, ln, v->ro ? "read" : "written", o,
			 name(r, v));
		return;
	}
	who(w, sizeof(w), all_of(u->ro ? u->a : u->w, r->nsig), threads);
	snprintf(buf, len, "joins the fields of its signature (%s by %s)",
		 u->ro ? "read" : "written", w);
}

static const char *unit_name(const struct arr *r, const struct unit *u)
{
	return r->s->fields[u->field].name;
}

static void add_move(struct sg_cand *c, const char *prefix, const struct arr *r,
		     const struct unit *u, int threads)
{
	struct sg_move *m;

	c->mv = xrealloc(c->mv, (size_t)(c->nmv + 1) * sizeof(*c->mv));
	m = &c->mv[c->nmv++];
	snprintf(m->path, sizeof(m->path), "%s%s", prefix, unit_name(r, u));
	m->from = u->off0;
	m->to = u->off;
	why_moved(r, u, threads, unit_name, m->why, sizeof(m->why));
}

/* @r's result into struct @dst of @out: offsets, size, align; fields sorted by offset. */
static int by_offset(const void *pa, const void *pb)
{
	const struct layout_field *a = pa, *b = pb;

	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static void apply(struct layout *out, int dst, const struct arr *r, size_t size, size_t align)
{
	struct layout_struct *s = &out->structs[dst];

	for (int i = 0; i < r->n; i++) {
		s->fields[r->u[i].field].offset = r->u[i].off;
		s->fields[r->u[i].field].size = r->u[i].size;
	}
	s->size = size;
	s->align = align;
	qsort(s->fields, (size_t)s->nfields, sizeof(*s->fields), by_offset);
}

/* A copy of @l (through its text), renamed NAME-suggested; NULL when out of memory. */
static struct layout *copy_layout(const struct layout *l, const char *suffix)
{
	char *text = layout_to_text(l), err[256];
	struct layout *c = text ? layout_parse(text, l->source, err, sizeof(err)) : NULL;

	free(text);
	if (c)
		snprintf(c->name, sizeof(c->name), "%.40s-%s", l->name, suffix);
	return c;
}

/* The lines @r needs to give every written group (or lone unit) lines of its own. */
static size_t writer_lines(const struct arr *r)
{
	size_t lines = 0;

	for (int g = 1;; g++) {
		size_t bytes = 0;
		int any = 0, ro = 0;

		for (int i = 0; i < r->n; i++)
			if (r->u[i].group == g) {
				any = 1;
				ro = r->u[i].ro;
				bytes += up(r->u[i].size, r->u[i].align);
			}
		if (!any)
			break;
		if (!ro)
			lines += (bytes + r->line - 1) / r->line;
	}
	return lines;
}

/*
 * build - one candidate in @mode: every nested type with a conflicted line arranged, then
 * the target struct; NULL with why in c->note when it does not fit the bounds.
 */
static void build(const struct sg_prof *p, const struct sg_limits *lim, enum sg_mode mode,
		  struct sg_cand *c)
{
	const struct layout_struct *s = p->s;
	struct layout *out = copy_layout(p->l, mode == SG_SEPARATE ? "separated" : "suggested");
	struct arr r = {0};
	struct sb note = {0};
	size_t *nsize = xcalloc((size_t)p->l->nstructs, sizeof(size_t));
	size_t *nalign = xcalloc((size_t)p->l->nstructs, sizeof(size_t));
	size_t growth_lines = 0, size, align, limit;
	int t_index = (int)(s - p->l->structs);

	/* nested types first */
	for (int t = 0; out && t < p->l->nstructs; t++) {
		struct arr in = {0};
		size_t ts, ta;
		int ninst = instances(s, t);

		if (!ninst)
			continue;
		inner_units(p, t, &in);
		in.line = lim->line;
		make_groups(&in, mode == SG_SEPARATE ? SG_SEPARATE : mode);
		if (mode == SG_SEPARATE)
			for (int i = 0; i < in.n; i++)
				in.u[i].excl = 1;
		if (in.n < 2 || (mode != SG_SEPARATE && !conflicted(p, t, &in))) {
			arr_free(&in);
			continue;
		}
		ta = in.s->align > lim->line ? in.s->align : lim->line;
		in.limit = up(in.s->size, ta) + (writer_lines(&in) + (size_t)in.n + 1) * lim->line;
		if (mode == SG_SEPARATE)
			in.limit = up(in.s->size, ta) + (size_t)(in.n + 1) * lim->line;
		ts = place(&in, ta);
		if (!ts) {
			arr_free(&in);
			continue;
		}
		nsize[t] = ts;
		nalign[t] = ta;
		sb_printf(&note,
			  "struct %s: fields reordered for every instance (%d in struct %s), size "
			  "%zu -> %zu, align %zu -> %zu%s\n",
			  in.s->name, ninst, s->name, in.s->size, ts, in.s->align, ta,
			  ta > in.s->align ? " (raised to the line size)" : "");
		for (int i = 0; i < in.n; i++)
			if (in.u[i].off != in.u[i].off0) {
				char prefix[LAYOUT_NAME_MAX + 16];

				snprintf(prefix, sizeof(prefix), "struct %s: ", in.s->name);
				add_move(c, prefix, &in, &in.u[i], p->threads);
			}
		growth_lines += (size_t)ninst * ((ts - in.s->size + lim->line - 1) / lim->line);
		apply(out, t, &in, ts, ta);
		arr_free(&in);
	}
	/* the target struct */
	r.s = s;
	r.n = s->nfields;
	r.nsig = p->nobj;
	r.line = lim->line;
	r.u = xcalloc((size_t)r.n, sizeof(*r.u));
	for (int i = 0; i < r.n; i++) {
		const struct layout_field *f = &s->fields[i];
		struct unit *u = &r.u[i];

		u->field = i;
		u->off0 = f->offset;
		u->size = f->size;
		u->align = field_align(p->l, f);
		if (f->kind == LK_STRUCT && nsize[f->type]) {
			u->size = nsize[f->type];
			u->align = nalign[f->type];
			u->resized = 1;
			u->excl = mode != SG_SEPARATE;
		} else if (f->kind == LK_STRUCT && mode != SG_SEPARATE &&
			   mixed(p, f->offset, f->size)) {
			/* kept whole, its inside as it was: lines of its own, same line phase */
			u->excl = 1;
			u->phase = 1;
		}
		u->w = xcalloc((size_t)r.nsig, sizeof(uint64_t));
		u->a = xcalloc((size_t)r.nsig, sizeof(uint64_t));
		u->heat = or_leaves(p, f->offset, f->size, u->w, u->a);
		for (int k = 0; k < lim->nkeep; k++)
			u->keep |= !strcmp(f->name, lim->keep[k]);
	}
	make_groups(&r, mode);
	for (int i = 0; i < r.n; i++) {
		if (mode == SG_SEPARATE)
			r.u[i].excl = 1;
		if (r.u[i].excl && !r.u[i].group)
			r.u[i].excl = 0; /* an untouched nested unit needs no lines of its own */
	}
	align = s->align > lim->line ? s->align : lim->line;
	for (int i = 0; i < r.n; i++)
		if (r.u[i].align > align)
			align = r.u[i].align;
	growth_lines += writer_lines(&r);
	limit = up(s->size, align) + growth_lines * lim->line;
	if (lim->max_growth >= 0)
		limit = s->size + (size_t)lim->max_growth * lim->line;
	if (lim->max_size >= 0 && (size_t)lim->max_size < limit)
		limit = (size_t)lim->max_size;
	c->limit = limit;
	if (mode == SG_SEPARATE) {
		limit = up(s->size, align) + lim->line;
		for (int i = 0; i < r.n; i++)
			limit += up(r.u[i].size, lim->line) + lim->line;
	}
	r.limit = limit;
	size = out ? place(&r, align) : 0;
	if (!size) {
		sb_printf(&note, "%s: does not fit in %zu bytes (--max-size, --max-growth)\n",
			  mode == SG_SEPARATE ? "separated" : "suggestion", limit);
		layout_free(out);
		out = NULL;
	} else {
		if (align > s->align)
			sb_printf(&note, "struct %s: align %zu -> %zu (raised to the line size)\n",
				  s->name, s->align, align);
		for (int i = 0; i < r.n; i++)
			if (r.u[i].off != r.u[i].off0)
				add_move(c, "", &r, &r.u[i], p->threads);
		apply(out, t_index, &r, size, align);
	}
	/* re-parse: the result is checked as any layout file is */
	if (out) {
		char *text = layout_to_text(out), err[512];

		layout_free(out);
		out = text ? layout_parse(text, "layout suggest", err, sizeof(err)) : NULL;
		if (!out)
			sb_printf(&note, "internal: the candidate does not parse: %s\n", err);
		free(text);
	}
	c->l = out;
	c->fits = out && size <= c->limit;
	snprintf(c->note, sizeof(c->note), "%s", note.p ? note.p : "");
	free(note.p);
	free(nsize);
	free(nalign);
	arr_free(&r);
}

int sg_candidates(const struct sg_prof *p, const struct sg_limits *lim, struct sg_cand *out,
		  int max)
{
	static const struct {
		enum sg_mode mode;
		const char *name;
	} modes[] = {
	    {SG_SEPARATE, "separated"},		  {SG_GROUP, "signature groups"},
	    {SG_SPLIT, "written fields apart"},	  {SG_WRITERS, "groups by writers"},
	    {SG_FLAT, "groups over all objects"},
	};
	int n = 0;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]) && n < max; i++) {
		memset(&out[n], 0, sizeof(out[n]));
		snprintf(out[n].name, sizeof(out[n].name), "%s", modes[i].name);
		build(p, lim, modes[i].mode, &out[n]);
		n++;
	}
	return n;
}

void sg_cand_free(struct sg_cand *c)
{
	layout_free(c->l);
	free(c->mv);
	memset(c, 0, sizeof(*c));
}

int sg_lines_touched(const struct sg_prof *p, const struct layout *l, size_t line)
{
	struct layout_leaf *lv;
	int n = layout_leaves(l, p->s->name, &lv), lines = 0;
	size_t last = (size_t)-1;

	for (int i = 0; i < n; i++) {
		int used = 0;

		for (int j = 0; j < p->n && !used; j++)
			if (!strcmp(p->lv[j].path, lv[i].path))
				used = p->leaf[j].per_op > 0;
		if (!used)
			continue;
		for (size_t ln = lv[i].offset / line;
		     ln <= (lv[i].offset + (lv[i].size ? lv[i].size : 1) - 1) / line; ln++)
			if (ln != last) {
				lines++;
				last = ln;
			}
	}
	free(n > 0 ? lv : NULL);
	return lines * p->nobj;
}
