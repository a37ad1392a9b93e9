/* SPDX-License-Identifier: MIT */
/*
 * csv.h - the results CSV: RFC 4180, one header, the same column count on every row,
 * each row flushed as soon as it is written. And a strict reader for tests and compare.
 */
#ifndef PCBENCH_CSV_H
#define PCBENCH_CSV_H

#include <stddef.h>

struct csv_writer;

/* csv_create's @flags: append to an existing file; @path is inside a directory pcbench writes. */
#define CSV_APPEND 1
#define CSV_INSIDE 2

/*
 * csv_create - open @path for writing rows with columns @cols[0..@ncols).
 * @path is a file the user named (a symlink to a regular file is followed) or, with
 * CSV_INSIDE, one pcbench creates inside a directory (never followed); a FIFO or a device
 * is refused either way (outpath.h).
 * A new or empty file gets the header. With CSV_APPEND, an existing non-empty file is
 * appended to only when the whole file parses (every row, its final newline) and its
 * header is identical; otherwise (and without @append, when
 * the file exists and is non-empty) it fails. Returns NULL with "path: why" in @err.
 */
struct csv_writer *csv_create(const char *path, const char *const *cols, int ncols, int flags,
			      char *err, size_t errlen);

/*
 * csv_write_row - write one row of @ncols values (NULL is written as an empty cell),
 * quoting per RFC 4180, and flush it. Returns 0, or -1 with errno set on a write error.
 */
int csv_write_row(struct csv_writer *w, const char *const *vals);

/* csv_path - the path the writer was created with. */
const char *csv_path(const struct csv_writer *w);

/* csv_close - flush and close; returns 0, or -1 with errno set. NULL is a no-op. */
int csv_close(struct csv_writer *w);

/*
 * csv_close_or_remove - csv_close, and when this writer created the file and wrote no row
 * (only the header: an interrupted or failed command), remove it: no header-only file.
 */
int csv_close_or_remove(struct csv_writer *w);

/*
 * csv_check_new - before anything is created: an existing @path must be a regular file
 * (csv_create checks its contents; a FIFO would block the open, a device takes no rows
 * back); a new one needs an existing, writable directory. 0, or -1 with why in @err.
 */
int csv_check_new(const char *path, char *err, size_t errlen);

/* csv_same_file - @a and @b name the same file (existing or not: same canonical path). */
int csv_same_file(const char *a, const char *b);

/* A whole CSV file in memory. rows[r][c] are NUL-terminated, unquoted cells. */
struct csv_table {
	int ncols;
	char **header;
	int nrows;
	char ***rows;
};

/*
 * csv_parse - parse RFC 4180 text (quoted cells may hold commas, quotes and newlines;
 * CRLF or LF line ends). Strict: every row must have the header's column count.
 * Returns NULL with "SOURCE:LINE: problem" in @err.
 */
struct csv_table *csv_parse(const char *text, size_t len, const char *source, char *err,
			    size_t errlen);
/* The largest file csv_read_file reads (the text and its cells are held in memory). */
#define CSV_MAX_BYTES (1 << 30)
/* csv_read_file - csv_parse of a whole regular file of at most CSV_MAX_BYTES. */
struct csv_table *csv_read_file(const char *path, char *err, size_t errlen);
/* csv_col - index of column @name, or -1. */
int csv_col(const struct csv_table *t, const char *name);
void csv_table_free(struct csv_table *t);

#endif
