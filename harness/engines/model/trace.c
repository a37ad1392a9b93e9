// SPDX-License-Identifier: MIT
/*
 * trace.c - where a traced access lands: its object and field (the layout's leaves, found
 * with layout_leaf_at as `pcbench layout show` finds them; "<object>+0xOFF" between them,
 * "(private)" outside every object), its cache line, and its accumulator per (address,
 * code site, op).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim.h"
#include "util.h"

/* ---- fields: the objects of the shared state, flattened ---- */

static int add_field(struct sim *s, int obj, const char *path, const char *leaf, long off,
		     long size)
{
	struct model_field *f;
	int id = s->nfields;

	s->fields = sim_grow(s->fields, &s->capfields, id + 1, sizeof(*s->fields));
	s->fstart = realloc(s->fstart, (size_t)s->capfields * sizeof(*s->fstart));
	if (!s->fstart)
		die("memory", "model", "out of memory");
	f = &s->fields[id];
	memset(f, 0, sizeof(*f));
	if (obj >= 0)
		snprintf(f->name, sizeof(f->name), "%.40s%s%.80s", s->objs[obj].name,
			 path[0] == '+' ? "" : ".", path);
	else
		snprintf(f->name, sizeof(f->name), "%.80s", path);
	snprintf(f->leaf, sizeof(f->leaf), "%.63s", leaf);
	f->object = obj;
	f->offset = off;
	f->size = size;
	s->fstart[id] = obj >= 0 ? (uintptr_t)s->objs[obj].base + (uintptr_t)off : 0;
	s->nfields++;
	return id;
}

/* sim_build_fields - every object's leaves (layout_leaves: nested structs flattened). */
void sim_build_fields(struct sim *s)
{
	s->private_field = -1;
	for (int i = 0; i < s->nobj; i++) {
		const struct layout_struct *ls =
		    s->objs[i].layout ? layout_find_struct(s->objs[i].layout, s->objs[i].sname)
				      : NULL;
		int n = ls ? layout_leaves(s->objs[i].layout, s->objs[i].sname, &s->leaves[i]) : 0;

		s->objsize[i] = ls ? ls->size : 0;
		s->first[i] = s->nfields;
		s->nleaves[i] = n > 0 ? n : 0;
		for (int k = 0; k < s->nleaves[i]; k++) {
			const struct layout_leaf *lf = &s->leaves[i][k];

			add_field(s, i, lf->path, lf->field->name, (long)lf->offset,
				  (long)lf->size);
		}
	}
	s->nstatic = s->nfields;
}

void sim_free_fields(struct sim *s)
{
	for (int i = 0; i < s->nobj; i++)
		free(s->leaves[i]);
	free(s->fields);
	free(s->fstart);
}

/* field_at - the field at @a: a layout field, "<object>+0xOFF", or (private). */
static int field_at(struct sim *s, uintptr_t a, unsigned size)
{
	char path[40];

	for (int o = 0; o < s->nobj; o++) {
		uintptr_t base = (uintptr_t)s->objs[o].base;
		long off = (long)(a - base);
		const struct layout_leaf *lf;

		if (a < base || a >= base + s->objsize[o])
			continue;
		lf = layout_leaf_at(s->leaves[o], s->nleaves[o], (size_t)off);
		if (lf)
			return s->first[o] + (int)(lf - s->leaves[o]);
		for (int f = s->nstatic; f < s->nfields; f++)
			if (s->fields[f].object == o && s->fields[f].offset == off)
				return f;
		snprintf(path, sizeof(path), "+0x%lx", (unsigned long)off);
		return add_field(s, o, path, path, off, size);
	}
	if (s->private_field < 0)
		s->private_field = add_field(s, -1, "(private)", "(private)", 0, 0);
	return s->private_field;
}

/* ---- lines and accesses ---- */

/*
 * held_grow - room in s->held for the bitmaps of @need lines (zeroed): mapped, not from
 * the heap (HEAP_AS_BEFORE in sim.h), doubling.
 */
static void held_grow(struct sim *s, int need)
{
	size_t line = (size_t)s->dwords * sizeof(*s->held), old = (size_t)s->heldcap * line;
	int cap = s->heldcap ? 2 * s->heldcap : 256;
	void *p;

	if (need <= s->heldcap)
		return;
	while (cap < need)
		cap *= 2;
	p = s->held ? mremap(s->held, old, (size_t)cap * line, MREMAP_MAYMOVE)
		    : mmap(NULL, (size_t)cap * line, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("memory", "model", "out of memory");
	s->held = p; /* fresh anonymous pages are zero */
	s->heldcap = cap;
}

static int line_get(struct sim *s, uintptr_t a, int object)
{
	uintptr_t key = a / (uintptr_t)s->o.line_size;
	size_t h;

	if ((size_t)s->nlines * 2 >= s->lcap) {
		size_t cap = s->lcap ? 2 * s->lcap : 256;
		int *m = xcalloc(cap, sizeof(int));

		for (int i = 0; i < s->nlines; i++) {
			h = sim_mix(s->lines[i].addr / (uintptr_t)s->o.line_size) & (cap - 1);
			while (m[h])
				h = (h + 1) & (cap - 1);
			m[h] = i + 1;
		}
		free(s->lmap);
		s->lmap = m;
		s->lcap = cap;
	}
	h = sim_mix(key) & (s->lcap - 1);
	while (s->lmap[h]) {
		if (s->lines[s->lmap[h] - 1].addr == key * (uintptr_t)s->o.line_size)
			return s->lmap[h] - 1;
		h = (h + 1) & (s->lcap - 1);
	}
	s->lines = sim_grow(s->lines, &s->caplines, s->nlines + 1, sizeof(*s->lines));
	held_grow(s, s->nlines + 1);
	s->lines[s->nlines] = (struct lstate){
	    .addr = key * (uintptr_t)s->o.line_size,
	    .st = xcalloc((size_t)s->D, 1),
	    .owner = -1,
	    .object = object,
	};
	s->lmap[h] = ++s->nlines;
	return s->nlines - 1;
}

static size_t acc_hash(uintptr_t a, const char *site, int op)
{
	return (size_t)sim_mix((uint64_t)a * 31 + (uint64_t)(uintptr_t)site * 7 + (uint64_t)op);
}

struct acc *sim_acc_get(struct sim *s, uintptr_t a, const char *site, int op, unsigned size)
{
	struct acc *e;
	size_t h;

	if (s->nacc * 2 >= s->acap) {
		size_t cap = s->acap ? 2 * s->acap : 1024;
		struct acc *n = xcalloc(cap, sizeof(*n));

		for (size_t i = 0; i < s->acap; i++) {
			if (!s->acc[i].used)
				continue;
			h = acc_hash(s->acc[i].addr, s->acc[i].site, s->acc[i].op) & (cap - 1);
			while (n[h].used)
				h = (h + 1) & (cap - 1);
			n[h] = s->acc[i];
		}
		free(s->acc);
		s->acc = n;
		s->acap = cap;
	}
	h = acc_hash(a, site, op) & (s->acap - 1);
	while (s->acc[h].used) {
		e = &s->acc[h];
		if (e->addr == a && e->site == site && e->op == op)
			return e;
		h = (h + 1) & (s->acap - 1);
	}
	e = &s->acc[h];
	e->used = 1;
	e->addr = a;
	e->site = site;
	e->op = op;
	e->field = field_at(s, a, size);
	e->line = line_get(s, a, s->fields[e->field].object);
	s->nacc++;
	return e;
}
