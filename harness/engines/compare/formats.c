// SPDX-License-Identifier: MIT
/*
 * formats.c - the report formats of `pcbench compare --format`: one row each, the first
 * the default on the terminal; the rows with a file are what `compare -o DIR` writes. Adding
 * a format: one fmt_<name>.c with its function, declared here, and one row
 * (docs/hacking.md).
 */
#include <string.h>

#include "compare.h"
#include "compare_run.h"

void cmp_fmt_summary(const struct compare *c, const struct header *h, FILE *out);
void cmp_fmt_table(const struct compare *c, const struct header *h, FILE *out);
void cmp_fmt_lkp(const struct compare *c, const struct header *h, FILE *out);
void cmp_fmt_markdown(const struct compare *c, const struct header *h, FILE *out);
void cmp_fmt_csv(const struct compare *c, const struct header *h, FILE *out);

const struct report_format compare_formats[] = {
    {"summary", cmp_fmt_summary,
     "per table, each preset's median, cv, %change, ci, p and verdict; then the\n"
     "             significant changes (ops_per_s unless --metric)",
     NULL},
    {"table", cmp_fmt_table,
     "the seeds' testcase/base/with-patch/%change table plus p-value and verdict", "compare.txt"},
    {"lkp", cmp_fmt_lkp, "the 0-day robot's %stddev %change %stddev table", "compare-lkp.txt"},
    {"markdown", cmp_fmt_markdown, "the table format in markdown", NULL},
    {"csv", cmp_fmt_csv, "one row per comparison and metric, every number", "compare.csv"},
    {NULL, NULL, NULL, NULL},
};

const struct report_format *compare_format_find(const char *name)
{
	for (const struct report_format *f = compare_formats; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

const char *compare_report_file(int i)
{
	for (const struct report_format *f = compare_formats; f->name; f++)
		if (f->file && i-- == 0)
			return f->file;
	return NULL;
}
