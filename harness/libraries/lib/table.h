/* SPDX-License-Identifier: MIT */
/*
 * table.h - the one table printer of pcbench's reports: columns with a heading and an
 * alignment, rows of text cells, optional sections (a title line above a repeated heading
 * line), rendered as aligned text or as markdown. The end-of-run tables, `pcbench compare`
 * and the model's tables use it (docs/hacking.md).
 */
#ifndef PCBENCH_TABLE_H
#define PCBENCH_TABLE_H

#include <stdio.h>

enum table_style { TABLE_TEXT, TABLE_MARKDOWN };

struct table_col {
	const char *head;
	int right; /* 1: right-aligned (numbers), 0: left-aligned */
};

struct table;

/* table_new - a table of @ncols columns (the array is copied). */
struct table *table_new(int ncols, const struct table_col *cols);
/* table_hide - leave column @col out of the output (its cells are still accepted). */
void table_hide(struct table *t, int col);
/* table_indent - text style: @n blanks before every heading and row (not section titles). */
void table_indent(struct table *t, int n);
/* table_width - text style: column @col at least @width wide (a wider cell widens it). */
void table_width(struct table *t, int col, int width);
/* table_gap - text style: @n blanks between column @col and the one before (default 2). */
void table_gap(struct table *t, int col, int n);
/* table_keep_heading - print the heading line even when no row and no section was added. */
void table_keep_heading(struct table *t);
/*
 * table_section - start a section: on output, a blank line, @title (as it is, but for
 * control and bidi characters, escaped as esc.h says, as in every cell; in markdown as a
 * "###" heading) and the heading line. Without any section, the heading line comes
 * first. Column widths are shared by all sections of one table.
 */
void table_section(struct table *t, const char *title);
/* table_add - one row of @ncols cells (copied, escaped as esc.h says; NULL is empty). */
void table_add(struct table *t, const char *const *cells);
/* table_rows - the number of rows added so far. */
int table_rows(const struct table *t);
/*
 * table_print - text: cells padded to the column's widest cell (by display width), two
 * blanks between columns, trailing blanks dropped; markdown: "| a | b |" rows with '|'
 * escaped and an alignment row under each heading.
 */
void table_print(const struct table *t, FILE *out, enum table_style style);
void table_free(struct table *t);

#endif
