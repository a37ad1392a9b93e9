// SPDX-License-Identifier: MIT
/*
 * layout_view.c - the pahole-like view `pcbench layout show` prints of a struct (see
 * layout_cmd.h): one line per leaf, cache-line boundaries, holes, nested struct headers and,
 * with annotations, each leaf's accesses per operation and the false-sharing flags.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "harness.h"
#include "layout.h"

#include "layout_cmd.h"

static int popcount64(uint64_t x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/* A field written by one thread and another field used by a different thread. */
static int pair_shares(const struct ann *w, const struct ann *u)
{
	if (!w->wmask || !u->amask)
		return 0;
	return !(w->wmask == u->amask && popcount64(w->wmask) == 1);
}

static int overlaps_line(const struct layout_leaf *lf, size_t line, size_t ls)
{
	size_t lo = line * ls, hi = lo + ls;

	return lf->size && lf->offset < hi && lf->offset + lf->size > lo;
}

static void fmt_acc(char *buf, size_t len, const struct ann *a, int k)
{
	if (!a->thr[k])
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g x%d", a->per_op[k], a->thr[k]);
}

void view_ops(char *buf, size_t len, unsigned mask)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int op = 0; op < PC_OP_COUNT && n < len; op++)
		if (mask & (1u << op))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
					      pc_op_name((enum pc_op)op));
}

/* The top-level field of @s that holds the nested leaf @lf, or NULL. */
static const struct layout_field *outer_field(const struct layout_struct *s,
					      const struct layout_leaf *lf)
{
	if (lf->owner == s)
		return NULL;
	for (int i = 0; i < s->nfields; i++) {
		const struct layout_field *f = &s->fields[i];

		if (f->kind == LK_STRUCT && lf->offset >= f->offset &&
		    lf->offset < f->offset + (f->size ? f->size : 1))
			return f;
	}
	return NULL;
}

/*
 * flag_line - the false-sharing note of cache line @line, or 0 when it has none: the
 * fields written by a thread while another thread uses another field of the line.
 */
static int flag_line(const struct layout_leaf *lv, int n, const struct ann *a, size_t line,
		     size_t ls, char *buf, size_t len)
{
	char w[1024] = "", u[1024] = "";
	size_t nw = 0, nu = 0;
	int any = 0;

	for (int i = 0; i < n; i++) {
		int is_w = 0, is_u = 0;

		if (!overlaps_line(&lv[i], line, ls))
			continue;
		for (int j = 0; j < n; j++) {
			if (j == i || !overlaps_line(&lv[j], line, ls))
				continue;
			is_w |= pair_shares(&a[i], &a[j]);
			is_u |= pair_shares(&a[j], &a[i]);
		}
		if (is_w && nw < sizeof(w))
			nw += (size_t)snprintf(w + nw, sizeof(w) - nw, "%s%s", nw ? ", " : "",
					       lv[i].path);
		else if (is_u && nu < sizeof(u))
			nu += (size_t)snprintf(u + nu, sizeof(u) - nu, "%s%s", nu ? ", " : "",
					       lv[i].path);
		any |= is_w;
	}
	if (!any)
		return 0;
	snprintf(buf, len, "cacheline %zu (%zu..%zu): written %s%s%s", line, line * ls,
		 line * ls + ls - 1, w, u[0] ? "; used by other threads: " : "", u);
	return 1;
}

static int line_touched(const struct layout_leaf *lv, int n, const struct ann *a, size_t line,
			size_t ls)
{
	for (int i = 0; i < n; i++)
		if (overlaps_line(&lv[i], line, ls) && a[i].amask)
			return 1;
	return 0;
}

static void report_add(struct report *r, const char *who, const char *what)
{
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 16;
		void *nl = realloc(r->lines, (size_t)cap * sizeof(*r->lines));

		if (!nl)
			return;
		r->lines = nl;
		r->cap = cap;
	}
	snprintf(r->lines[r->n++], sizeof(r->lines[0]), "%s: %s", who, what);
}

void view_struct(const struct layout *l, const struct layout_struct *s,
		 const struct layout_leaf *lv, int n, const struct ann *a, size_t ls, int all,
		 const char *who, struct report *rep, const char *const *notes)
{
	const struct layout_field *nested = NULL;
	size_t end = 0, cur = (size_t)-1, nlines = (s->size + ls - 1) / ls;
	char flag[2400];

	printf("struct %s {\t/* size %zu, align %zu */\n", s->name, s->size, s->align);
	if (a)
		printf("\t/* offset   size  %-31s %-12s %-13s %-13s %-13s ops */\n", "field",
		       "kind", "rmw/op", "store/op", "load/op");
	else
		printf("\t/* offset   size  %-31s kind */\n", "field");
	for (int i = 0; i < n;) {
		const struct layout_leaf *lf = &lv[i];
		const struct layout_field *of;
		size_t line = lf->offset / ls;

		if (a && !all && !line_touched(lv, n, a, line, ls)) {
			/* Fold every leaf starting on consecutive untouched lines into one line. */
			int j = i;
			size_t last = line;
			char lines[64];

			while (j < n && !line_touched(lv, n, a, lv[j].offset / ls, ls)) {
				last = lv[j].offset / ls;
				j++;
			}
			if (lf->offset > end)
				printf("\t/* XXX %zu bytes hole or not described (%zu..%zu) */\n",
				       lf->offset - end, end, lf->offset - 1);
			if (last == line)
				snprintf(lines, sizeof(lines), "cacheline %zu", line);
			else
				snprintf(lines, sizeof(lines), "cachelines %zu..%zu", line, last);
			if (j - i == 1)
				printf("\t/* --- %s: %s not touched --- */\n", lines, lf->path);
			else
				printf("\t/* --- %s: %d fields not touched (%s .. %s) --- */\n",
				       lines, j - i, lf->path, lv[j - 1].path);
			for (int k = i; k < j; k++)
				if (lv[k].offset + lv[k].size > end)
					end = lv[k].offset + lv[k].size;
			cur = last;
			nested = outer_field(s, &lv[j - 1]);
			i = j;
			continue;
		}
		if (lf->offset > end)
			printf("\t/* XXX %zu bytes hole or not described (%zu..%zu) */\n",
			       lf->offset - end, end, lf->offset - 1);
		if (line != cur) {
			if (a && cur != (size_t)-1 &&
			    flag_line(lv, n, a, cur, ls, flag, sizeof(flag)))
				printf("\t/* !! false sharing on %s */\n", flag);
			if (line || lf->offset)
				printf("\t/* --- cacheline %zu boundary (%zu bytes) --- */\n", line,
				       line * ls);
			cur = line;
		}
		of = outer_field(s, lf);
		if (of && of != nested)
			printf("\t/* %s: struct %s (%zu..%zu) */\n", of->name,
			       layout_kind_name(l, of), of->offset, of->offset + of->size - 1);
		nested = of;
		if (a) {
			char c[NACC][32], ops[128];

			for (int k = 0; k < NACC; k++)
				fmt_acc(c[k], sizeof(c[k]), &a[i], k);
			view_ops(ops, sizeof(ops), a[i].opmask);
			if (!ops[0])
				snprintf(ops, sizeof(ops), "-");
			printf("\t%8zu %6zu  %-31s %-12s %-13s %-13s %-13s %s\n", lf->offset,
			       lf->size, lf->path, layout_kind_name(l, lf->field), c[0], c[1], c[2],
			       ops);
		} else {
			printf("\t%8zu %6zu  %-31s %s\n", lf->offset, lf->size, lf->path,
			       layout_kind_name(l, lf->field));
		}
		if (lf->size && (lf->offset + lf->size - 1) / ls != line)
			printf("\t/* ^ straddles cachelines %zu..%zu */\n", line,
			       (lf->offset + lf->size - 1) / ls);
		if (notes && notes[i])
			printf("\t/* ^ %s */\n", notes[i]);
		if (lf->offset + lf->size > end)
			end = lf->offset + lf->size;
		i++;
	}
	if (a && cur != (size_t)-1 && flag_line(lv, n, a, cur, ls, flag, sizeof(flag)))
		printf("\t/* !! false sharing on %s */\n", flag);
	/* Lines a straddling field reaches past the last start line are flagged too. */
	for (size_t line = (cur == (size_t)-1 ? 0 : cur + 1); a && line < nlines; line++)
		if (flag_line(lv, n, a, line, ls, flag, sizeof(flag)))
			printf("\t/* !! false sharing on %s */\n", flag);
	if (a && rep)
		for (size_t line = 0; line < nlines; line++)
			if (flag_line(lv, n, a, line, ls, flag, sizeof(flag)))
				report_add(rep, who, flag);
	if (s->size > end)
		printf("\t/* XXX %zu bytes at the end: padding or not described (%zu..%zu) */\n",
		       s->size - end, end, s->size - 1);
	printf("\n\t/* size: %zu, cachelines: %zu, fields: %d */\n", s->size, nlines, n);
	if (s->size % ls)
		printf("\t/* last cacheline: %zu bytes */\n", s->size % ls);
	printf("};\n");
}

void view_header(const struct layout *l, long line)
{
	/* the file's path and its desc line, the user's text: escaped (esc.h) */
	char *source = esc_text(l->source), *desc = esc_text(l->desc);

	printf("/* layout %s (%s), fingerprint %016llx, %ld-byte cache lines */\n", l->name, source,
	       (unsigned long long)layout_fingerprint(l), line);
	if (l->desc[0])
		printf("/* %s */\n", desc);
	free(source);
	free(desc);
}
