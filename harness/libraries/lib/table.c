// SPDX-License-Identifier: MIT
/* table.c - the one table printer (lib/table.h). */
#include "table.h"

#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "strbuf.h"
#include "util.h"

struct trow {
	char **cell; /* NULL for a section title row */
	char *title; /* the section's title */
};

struct table {
	int ncols;
	struct table_col *col;
	int *hide;
	int *width;	  /* text: each column's least width */
	int *gap;	  /* text: blanks before each column but the first visible one */
	int indent;	  /* blanks before each text line */
	int keep_heading; /* the heading line even without rows */
	struct trow *row;
	int nrows, cap;
};

struct table *table_new(int ncols, const struct table_col *cols)
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->ncols = ncols;
	t->col = xcalloc((size_t)ncols, sizeof(*t->col));
	memcpy(t->col, cols, (size_t)ncols * sizeof(*cols));
	t->hide = xcalloc((size_t)ncols, sizeof(int));
	t->width = xcalloc((size_t)ncols, sizeof(int));
	t->gap = xcalloc((size_t)ncols, sizeof(int));
	for (int k = 0; k < ncols; k++)
		t->gap[k] = 2;
	return t;
}

void table_hide(struct table *t, int col)
{
	if (col >= 0 && col < t->ncols)
		t->hide[col] = 1;
}

void table_indent(struct table *t, int n)
{
	t->indent = n > 0 ? n : 0;
}

void table_width(struct table *t, int col, int width)
{
	if (col >= 0 && col < t->ncols)
		t->width[col] = width > 0 ? width : 0;
}

void table_gap(struct table *t, int col, int n)
{
	if (col >= 0 && col < t->ncols)
		t->gap[col] = n > 0 ? n : 0;
}

void table_keep_heading(struct table *t)
{
	t->keep_heading = 1;
}

static struct trow *new_row(struct table *t)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->row = xrealloc(t->row, (size_t)t->cap * sizeof(*t->row));
	}
	memset(&t->row[t->nrows], 0, sizeof(*t->row));
	return &t->row[t->nrows++];
}

void table_section(struct table *t, const char *title)
{
	new_row(t)->title = esc_text(title ? title : "");
}

void table_add(struct table *t, const char *const *cells)
{
	struct trow *r = new_row(t);

	r->cell = xcalloc((size_t)t->ncols, sizeof(char *));
	for (int k = 0; k < t->ncols; k++)
		r->cell[k] = esc_text(cells[k] ? cells[k] : "");
}

int table_rows(const struct table *t)
{
	int n = 0;

	for (int i = 0; i < t->nrows; i++)
		n += t->row[i].cell != NULL;
	return n;
}

/* One line: the visible cells of @cells, padded to @w (text) or between bars (markdown). */
static void put_line(const struct table *t, FILE *out, enum table_style style,
		     const char *const *cells, const int *w)
{
	struct sb line = {0};
	int first = 1;

	if (style == TABLE_MARKDOWN)
		sb_add(&line, "|", 1);
	else
		sb_pad(&line, "", t->indent, 0);
	for (int k = 0; k < t->ncols; k++) {
		if (t->hide[k])
			continue;
		if (style == TABLE_MARKDOWN) {
			sb_add(&line, " ", 1);
			for (const char *p = cells[k]; *p; p++)
				sb_add(&line, *p == '|' ? "\\|" : p, *p == '|' ? 2 : 1);
			sb_add(&line, " |", 2);
			continue;
		}
		if (!first)
			sb_pad(&line, "", t->gap[k], 0);
		sb_pad(&line, cells[k], w[k], t->col[k].right);
		first = 0;
	}
	if (style == TABLE_TEXT)
		sb_rtrim(&line);
	fprintf(out, "%s\n", sb_str(&line));
	free(line.p);
}

static void put_heading(const struct table *t, FILE *out, enum table_style style, const int *w)
{
	const char **head = xcalloc((size_t)t->ncols, sizeof(char *));

	for (int k = 0; k < t->ncols; k++)
		head[k] = t->col[k].head;
	put_line(t, out, style, head, w);
	free(head);
	if (style != TABLE_MARKDOWN)
		return;
	fputc('|', out);
	for (int k = 0; k < t->ncols; k++)
		if (!t->hide[k])
			fprintf(out, "%s|", t->col[k].right ? "--:" : ":--");
	fputc('\n', out);
}

void table_print(const struct table *t, FILE *out, enum table_style style)
{
	int *w = xcalloc((size_t)t->ncols, sizeof(int));

	for (int k = 0; k < t->ncols; k++)
		w[k] = text_width(t->col[k].head) > t->width[k] ? text_width(t->col[k].head)
								: t->width[k];
	for (int i = 0; i < t->nrows; i++)
		for (int k = 0; t->row[i].cell && k < t->ncols; k++)
			if (text_width(t->row[i].cell[k]) > w[k])
				w[k] = text_width(t->row[i].cell[k]);
	if (t->nrows ? t->row[0].cell != NULL : t->keep_heading)
		put_heading(t, out, style, w);
	for (int i = 0; i < t->nrows; i++) {
		const struct trow *r = &t->row[i];

		if (r->cell) {
			put_line(t, out, style, (const char *const *)r->cell, w);
			continue;
		}
		fprintf(out, style == TABLE_MARKDOWN ? "\n### %s\n\n" : "\n%s\n", r->title);
		put_heading(t, out, style, w);
	}
	free(w);
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nrows; i++) {
		for (int k = 0; t->row[i].cell && k < t->ncols; k++)
			free(t->row[i].cell[k]);
		free(t->row[i].cell);
		free(t->row[i].title);
	}
	free(t->row);
	free(t->hide);
	free(t->width);
	free(t->gap);
	free(t->col);
	free(t);
}
