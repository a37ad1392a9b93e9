// SPDX-License-Identifier: MIT
/*
 * pahole.c - pahole text to layout text (see pahole.h for what is converted and how):
 * kinds and alignment from C types, and writing the structs pahole_read.c read as output
 * structs (pahole_text.c writes those as layout text).
 */
#include "pahole.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "pahole_int.h"

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

	if (ph_grow(p, (void **)&p->o, p->no, &p->ocap, sizeof(*p->o)))
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

	if (ph_grow(p, (void **)&o->f, o->nf, &o->cap, sizeof(*o->f)))
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

int ph_find_out(const struct ph *p, const char *name)
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

	if (ti >= 0 && p->t[ti].out == -1 && ph_emit_top(p, ti) < 0)
		return -1; /* defined at the top level of the text too */
	oi = ph_find_out(p, name);
	before = p->no;
	o = new_out(p, name, line);
	if (!o)
		return -1;
	ni = (int)(o - p->o);
	if (++p->depth > PH_DEPTH) {
		ph_fail(p, line, "struct %s: nested more than %d deep", name, PH_DEPTH);
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
		ph_fail(p, line,
			"struct %s: expanded twice with different members (first at line %d)", name,
			p->o[oi].line);
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
			ph_fail(
			    p, m[i].line,
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
				ni = ph_emit_top(p, ti);
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

int ph_emit_top(struct ph *p, int ti)
{
	struct ph_top *t = &p->t[ti];
	const struct ph_block *b = &p->b[t->block];
	struct out_struct *o;
	int oi;

	if (t->out >= 0)
		return t->out;
	if (t->out == -2) {
		ph_fail(p, t->line, "struct %s: contains itself", t->name);
		return -1;
	}
	t->out = -2;
	oi = ph_find_out(p, t->name);
	if (oi >= 0) {
		t->out = oi;
		return oi;
	}
	o = new_out(p, t->name, t->line);
	if (!o)
		return -1;
	oi = (int)(o - p->o);
	if (++p->depth > PH_DEPTH) {
		ph_fail(p, t->line, "struct %s: nested more than %d deep", t->name, PH_DEPTH);
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
