// SPDX-License-Identifier: MIT
/*
 * test_table.c - the one table printer (harness/libraries/lib/table.h): text and markdown output of
 * a small table, hidden columns, sections, least widths and gaps between columns, and the
 * heading line of a table without rows (printed only with table_keep_heading).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "check.h"

static const struct table_col cols[3] = {{"name", 0}, {"n", 1}, {"note", 0}};

/* The output of @t in @style, as a string (free it). */
static char *render(const struct table *t, enum table_style style)
{
	char *buf;
	size_t len;
	FILE *f = mem_out(&buf, &len);

	table_print(t, f, style);
	fclose(f);
	return buf;
}

static void expect(const char *what, const struct table *t, enum table_style style,
		   const char *want)
{
	char *got = render(t, style);

	CHECK(!strcmp(got, want), "%s:\n--- want\n%s--- got\n%s", what, want, got);
	free(got);
}

static struct table *sample(void)
{
	struct table *t = table_new(3, cols);

	table_add(t, (const char *const[]){"alpha", "1", "a|b"});
	table_add(t, (const char *const[]){"b", "12345", NULL});
	return t;
}

static void test_default(void)
{
	struct table *t = sample();

	expect("text", t, TABLE_TEXT,
	       "name       n  note\n"
	       "alpha      1  a|b\n"
	       "b      12345\n");
	expect("markdown", t, TABLE_MARKDOWN,
	       "| name | n | note |\n"
	       "|:--|--:|:--|\n"
	       "| alpha | 1 | a\\|b |\n"
	       "| b | 12345 |  |\n");
	table_hide(t, 1);
	table_indent(t, 2);
	expect("hidden column, indented", t, TABLE_TEXT,
	       "  name   note\n"
	       "  alpha  a|b\n"
	       "  b\n");
	table_free(t);
}

static void test_width_gap(void)
{
	struct table *t = sample();

	table_width(t, 0, 8);
	table_width(t, 1, 3); /* narrower than a cell: the cell wins */
	table_gap(t, 1, 1);
	table_gap(t, 2, 3);
	expect("least widths and gaps", t, TABLE_TEXT,
	       "name         n   note\n"
	       "alpha        1   a|b\n"
	       "b        12345\n");
	table_hide(t, 1);
	expect("the gap of the column after a hidden one", t, TABLE_TEXT,
	       "name       note\n"
	       "alpha      a|b\n"
	       "b\n");
	table_free(t);
}

static void test_empty(void)
{
	struct table *t = table_new(3, cols);

	expect("no rows", t, TABLE_TEXT, "");
	table_keep_heading(t);
	expect("no rows, heading kept", t, TABLE_TEXT, "name  n  note\n");
	CHECK(table_rows(t) == 0, "table_rows of an empty table: %d", table_rows(t));
	table_section(t, "a section");
	expect("a section without rows", t, TABLE_TEXT, "\na section\nname  n  note\n");
	table_add(t, (const char *const[]){"x", "2", "y"});
	expect("a section with a row", t, TABLE_TEXT,
	       "\na section\n"
	       "name  n  note\n"
	       "x     2  y\n");
	table_free(t);
}

int main(void)
{
	test_default();
	test_width_gap();
	test_empty();
	if (failures) {
		fprintf(stderr, "test_table: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_table: all checks passed\n");
	return 0;
}
