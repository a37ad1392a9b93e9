// SPDX-License-Identifier: MIT
/*
 * result.c - the coherence model's result: built from a finished run (lines in a stable
 * order, events merged per line, field, code site and op), its per-operation numbers, CSV
 * cells and the shared-cache-line view (printed through lib/table).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "strbuf.h"
#include "table.h"
#include "util.h"

/* ---- results ---- */

static int line_key_cmp(const struct lstate *a, const struct lstate *b, int ia, int ib)
{
	if ((a->object < 0) != (b->object < 0))
		return a->object < 0 ? 1 : -1;
	if (a->object >= 0) {
		if (a->object != b->object)
			return a->object < b->object ? -1 : 1;
		if (a->addr != b->addr)
			return a->addr < b->addr ? -1 : 1;
	}
	return ia - ib;
}

/* cmp_line_idx - lines in a stable order (qsort_r's @arg: the simulation). */
static int cmp_line_idx(const void *x, const void *y, void *arg)
{
	const struct sim *s = arg;
	int a = *(const int *)x, b = *(const int *)y;

	return line_key_cmp(&s->lines[a], &s->lines[b], a, b);
}

static int cmp_attr(const void *x, const void *y)
{
	const struct model_attr *a = x, *b = y;
	int c;

	if (a->line != b->line)
		return a->line - b->line;
	if (a->field != b->field)
		return a->field - b->field;
	if ((c = strcmp(a->site, b->site)))
		return c;
	return (int)a->op - (int)b->op;
}

void sim_build_result(struct sim *s, struct model_result *r)
{
	int *order = xcalloc((size_t)s->nlines + 1, sizeof(int));
	int *newidx = xcalloc((size_t)s->nlines + 1, sizeof(int));
	uint64_t *laccess = xcalloc((size_t)s->nlines + 1, sizeof(uint64_t));
	int n = 0, npriv = 0, na = 0;
	long L = s->o.line_size;

	r->nobjects = s->nobj;
	r->objects = xcalloc((size_t)s->nobj + 1, sizeof(*r->objects));
	for (int i = 0; i < s->nobj; i++)
		snprintf(r->objects[i], sizeof(r->objects[i]), "%s", s->objs[i].name);
	r->nfields = s->nfields;
	r->fields = xcalloc((size_t)s->nfields + 1, sizeof(*r->fields));
	memcpy(r->fields, s->fields, (size_t)s->nfields * sizeof(*r->fields));

	/* lines accessed in the measured phase, in a stable order */
	for (size_t i = 0; i < s->acap; i++)
		if (s->acc[i].used)
			laccess[s->acc[i].line] += s->acc[i].accesses;
	for (int i = 0; i < s->nlines; i++) {
		newidx[i] = -1;
		if (laccess[i])
			order[n++] = i;
	}
	qsort_r(order, (size_t)n, sizeof(int), cmp_line_idx, s);
	r->nlines = n;
	r->lines = xcalloc((size_t)n + 1, sizeof(*r->lines));
	for (int k = 0; k < n; k++) {
		const struct lstate *ln = &s->lines[order[k]];
		struct model_line *ml = &r->lines[k];

		newidx[order[k]] = k;
		ml->object = ln->object;
		if (ln->object >= 0) {
			ml->offset = (long)(ln->addr - (uintptr_t)s->objs[ln->object].base);
			if (ml->offset >= 0 && ml->offset % L == 0)
				snprintf(ml->name, sizeof(ml->name), "%s line %ld",
					 s->objs[ln->object].name, ml->offset / L);
			else
				snprintf(ml->name, sizeof(ml->name), "%s %+ld",
					 s->objs[ln->object].name, ml->offset);
		} else {
			snprintf(ml->name, sizeof(ml->name), "(private) #%d", ++npriv);
		}
		ml->fields = xcalloc((size_t)s->nfields + 1, sizeof(int));
		for (int f = 0; f < s->nfields; f++) {
			int on = s->fields[f].object >= 0
				     ? s->fstart[f] < ln->addr + (uintptr_t)L &&
					   s->fstart[f] + (uintptr_t)s->fields[f].size > ln->addr
				     : ln->object < 0 && f == s->private_field;

			if (on)
				ml->fields[ml->nfields++] = f;
		}
	}

	/* attributions, merged by (line, field, site name, op) */
	r->attrs = xcalloc(s->nacc + 1, sizeof(*r->attrs));
	for (size_t i = 0; i < s->acap; i++) {
		const struct acc *e = &s->acc[i];
		struct model_attr *a;

		if (!e->used || !e->accesses)
			continue;
		a = &r->attrs[na++];
		a->field = e->field;
		a->line = newidx[e->line];
		snprintf(a->site, sizeof(a->site), "%s", e->site ? e->site : "?");
		a->op = (enum pc_op)e->op;
		a->accesses = e->accesses;
		memcpy(a->ev, e->ev, sizeof(a->ev));
		memcpy(a->xfer, e->xfer, sizeof(a->xfer));
	}
	qsort(r->attrs, (size_t)na, sizeof(*r->attrs), cmp_attr);
	r->nattrs = 0;
	for (int i = 0; i < na; i++) {
		struct model_attr *a = &r->attrs[i],
				  *last = r->nattrs ? &r->attrs[r->nattrs - 1] : NULL;

		if (last && !cmp_attr(last, a)) {
			last->accesses += a->accesses;
			for (int e = 0; e < MEV_COUNT; e++)
				last->ev[e] += a->ev[e];
			for (int c = 0; c < PAIR_COUNT; c++)
				last->xfer[c] += a->xfer[c];
			continue;
		}
		r->attrs[r->nattrs++] = *a;
	}
	for (int i = 0; i < r->nattrs; i++) {
		const struct model_attr *a = &r->attrs[i];
		struct model_line *ml = &r->lines[a->line];

		r->accesses += a->accesses;
		ml->accesses += a->accesses;
		if (!pc_op_is_write((enum pc_op)a->op)) {
			r->load_hitm[0] += a->ev[MEV_HITM_LOCAL];
			r->load_hitm[1] += a->ev[MEV_HITM_REMOTE];
		}
		for (int e = 0; e < MEV_COUNT; e++) {
			r->ev[e] += a->ev[e];
			ml->ev[e] += a->ev[e];
		}
		for (int c = 0; c < PAIR_COUNT; c++) {
			r->xfer[c] += a->xfer[c];
			ml->xfer[c] += a->xfer[c];
		}
	}
	free(order);
	free(newidx);
	free(laccess);
}

void model_result_free(struct model_result *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nlines; i++)
		free(r->lines[i].fields);
	free(r->lines);
	free(r->fields);
	free(r->attrs);
	free(r->objects);
	memset(r, 0, sizeof(*r));
}

/* ---- output ---- */

double model_per_op(const struct model_result *r, enum model_ev e)
{
	return r->ops ? (double)r->ev[e] / (double)r->ops : 0;
}

double model_transfers_per_op(const struct model_result *r)
{
	return model_per_op(r, MEV_HITM_LOCAL) + model_per_op(r, MEV_HITM_REMOTE) +
	       model_per_op(r, MEV_CLEAN_C2C);
}

void model_csv_values(const struct model_result *r, char vals[MODEL_NCOLS][40])
{
	static const enum topo_pair cls[4] = {PAIR_SAME_L3, PAIR_CROSS_L3, PAIR_SAME_PACKAGE,
					      PAIR_CROSS_SOCKET};
	double ops = r->ops ? (double)r->ops : 1, v[MODEL_NCOLS];

	if (!r->ok) {
		for (int i = 0; i < MODEL_NCOLS; i++)
			vals[i][0] = '\0';
		return;
	}
	v[0] = (double)r->ev[MEV_HITM_LOCAL] / ops;
	v[1] = (double)r->ev[MEV_HITM_REMOTE] / ops;
	v[2] = (double)r->ev[MEV_CLEAN_C2C] / ops;
	v[3] =
	    (double)(r->ev[MEV_HITM_LOCAL] + r->ev[MEV_HITM_REMOTE] + r->ev[MEV_CLEAN_C2C]) / ops;
	v[4] = (double)r->ev[MEV_INVAL] / ops;
	v[5] = (double)r->ev[MEV_UPGRADE] / ops;
	v[6] = (double)r->ev[MEV_MISS] / ops;
	v[7] = (double)r->accesses / ops;
	v[8] = (double)r->load_hitm[0] / ops;
	v[9] = (double)r->load_hitm[1] / ops;
	v[10] = (double)(r->ev[MEV_HITM_LOCAL] - r->load_hitm[0]) / ops;
	v[11] = (double)(r->ev[MEV_HITM_REMOTE] - r->load_hitm[1]) / ops;
	for (int i = 0; i < 4; i++)
		v[12 + i] = (double)r->xfer[cls[i]] / ops;
	for (int i = 0; i < MODEL_NCOLS; i++)
		fmt_double(vals[i], sizeof(vals[i]), v[i]);
}

/* The columns of the shared-cache-line view: a label, then accesses and events per op. */
enum { LV_LABEL, LV_ACCESSES, LV_EV, LV_N = LV_EV + MEV_COUNT };

/* The events in the view's column order (after accesses). */
static const enum model_ev view_ev[MEV_COUNT] = {MEV_HITM_LOCAL, MEV_HITM_REMOTE, MEV_CLEAN_C2C,
						 MEV_INVAL,	 MEV_UPGRADE,	  MEV_MISS};

static const struct table_col view_cols[LV_N] = {
    {"offset  field / site:field op", 0},
    {"accesses", 1},
    {"hitm_loc", 1},
    {"hitm_rem", 1},
    {"clean", 1},
    {"inval", 1},
    {"upgrades", 1},
    {"memory", 1},
};

/* view_row - one row of the view: @label, then @accesses and @ev per op ("-" for none). */
static void view_row(struct table *t, const char *label, const uint64_t *ev, uint64_t accesses,
		     uint64_t ops)
{
	char cell[LV_N][24];
	const char *cp[LV_N] = {label};

	for (int k = LV_ACCESSES; k < LV_N; k++) {
		uint64_t n = k == LV_ACCESSES ? accesses : ev[view_ev[k - LV_EV]];

		if (n)
			snprintf(cell[k], sizeof(cell[k]), "%.4f", (double)n / (double)ops);
		else
			snprintf(cell[k], sizeof(cell[k]), "-");
		cp[k] = cell[k];
	}
	table_add(t, cp);
}

static uint64_t line_xfers(const struct model_line *l)
{
	return l->ev[MEV_HITM_LOCAL] + l->ev[MEV_HITM_REMOTE] + l->ev[MEV_CLEAN_C2C];
}

/* cmp_contended - most transfers first (qsort_r's @arg: the result), then by index. */
static int cmp_contended(const void *x, const void *y, void *arg)
{
	const struct model_result *r = arg;
	const struct model_line *a = &r->lines[*(const int *)x], *b = &r->lines[*(const int *)y];
	uint64_t ta = line_xfers(a), tb = line_xfers(b);

	if (ta != tb)
		return ta > tb ? -1 : 1;
	ta = a->ev[MEV_INVAL] + a->ev[MEV_UPGRADE];
	tb = b->ev[MEV_INVAL] + b->ev[MEV_UPGRADE];
	if (ta != tb)
		return ta > tb ? -1 : 1;
	return *(const int *)x - *(const int *)y;
}

void model_print_lines(FILE *out, const struct model_result *r, int max)
{
	int *idx = xcalloc((size_t)r->nlines + 1, sizeof(int)), n = 0;
	struct table *t = table_new(LV_N, view_cols);

	table_indent(t, 2);
	for (int i = 0; i < r->nlines; i++)
		if (line_xfers(&r->lines[i]) || r->lines[i].ev[MEV_INVAL] ||
		    r->lines[i].ev[MEV_UPGRADE])
			idx[n++] = i;
	qsort_r(idx, (size_t)n, sizeof(int), cmp_contended, (void *)r);
	fprintf(out,
		"shared cache lines: %d contended of %d accessed (%d-byte lines; per operation)\n",
		n, r->nlines, r->line_size);
	for (int k = 0; k < n && (max < 0 || k < max); k++) {
		const struct model_line *l = &r->lines[idx[k]];
		struct sb title = {0};

		sb_printf(&title, "#%d %s", k + 1, l->name);
		if (l->object >= 0)
			sb_printf(&title, " (+0x%lx..+0x%lx)", (unsigned long)l->offset,
				  (unsigned long)(l->offset + r->line_size - 1));
		sb_printf(&title, ": transfers/op %.4f", (double)line_xfers(l) / (double)r->ops);
		for (int c = PAIR_SAME_L3; c < PAIR_COUNT; c++)
			if (l->xfer[c])
				sb_printf(&title, ", %s %.4f", topo_pair_names[c],
					  (double)l->xfer[c] / (double)r->ops);
		table_section(t, sb_str(&title));
		free(title.p);
		view_row(t, "        line total", l->ev, l->accesses, r->ops);
		for (int j = 0; j < l->nfields; j++) {
			const struct model_field *f = &r->fields[l->fields[j]];
			uint64_t ev[MEV_COUNT] = {0}, acc = 0;
			char lab[256];

			for (int a = 0; a < r->nattrs; a++) {
				if (r->attrs[a].line != idx[k] || r->attrs[a].field != l->fields[j])
					continue;
				acc += r->attrs[a].accesses;
				for (int e = 0; e < MEV_COUNT; e++)
					ev[e] += r->attrs[a].ev[e];
			}
			if (f->object >= 0)
				snprintf(lab, sizeof(lab), "+0x%-5lx %s", (unsigned long)f->offset,
					 f->name);
			else
				snprintf(lab, sizeof(lab), "%-8s%s", "", f->name);
			view_row(t, lab, ev, acc, r->ops);
			for (int a = 0; a < r->nattrs; a++) {
				const struct model_attr *at = &r->attrs[a];

				if (at->line != idx[k] || at->field != l->fields[j])
					continue;
				snprintf(lab, sizeof(lab), "%10s%s:%s %s", "", at->site, f->leaf,
					 pc_op_name(at->op));
				view_row(t, lab, at->ev, at->accesses, r->ops);
			}
		}
	}
	table_print(t, out, TABLE_TEXT);
	table_free(t);
	if (max >= 0 && n > max)
		fprintf(out, "\n(%d more contended lines: --lines all)\n", n - max);
	free(idx);
}
