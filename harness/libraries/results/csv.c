// SPDX-License-Identifier: MIT
/*
 * csv.c - the results CSV writer and a strict RFC 4180 reader.
 *
 * Rows are terminated with a bare LF, not the CRLF of RFC 4180: the files are produced and
 * consumed on Unix, and the reader accepts both. A cell is quoted iff it holds a comma, a
 * double quote, CR or LF; quotes inside are doubled.
 */
#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "infile.h"
#include "outfile.h"
#include "outpath.h"
#include "strbuf.h"
#include "util.h"

struct csv_writer {
	FILE *f;
	char *path;
	int ncols;
	int created; /* the file did not exist: csv_close_or_remove may remove it */
	long rows;   /* rows written after the header */
	int failed;  /* errno of the first write error, or 0 */
	char *buf;   /* line being built */
	size_t cap;
};

/* ---- writer ---- */

static int needs_quotes(const char *s)
{
	return s[strcspn(s, ",\"\r\n")] != '\0';
}

/* Build "v0,v1,...\n" into w->buf; returns its length, or -1 with errno ENOMEM. */
static long build_line(struct csv_writer *w, const char *const *vals)
{
	struct sb b = {w->buf, 0, w->cap};

	for (int i = 0; i < w->ncols; i++) {
		const char *v = vals[i] ? vals[i] : "";

		if (i)
			sb_addc(&b, ',');
		if (!needs_quotes(v)) {
			sb_add(&b, v, strlen(v));
			continue;
		}
		sb_addc(&b, '"');
		for (; *v; v++) {
			if (*v == '"')
				sb_addc(&b, '"');
			sb_addc(&b, *v);
		}
		sb_addc(&b, '"');
	}
	sb_addc(&b, '\n');
	w->buf = b.p;
	w->cap = b.cap;
	if (b.n > LONG_MAX) {
		errno = ENOMEM;
		return -1;
	}
	return (long)b.n;
}

int csv_write_row(struct csv_writer *w, const char *const *vals)
{
	long n;

	if (w->failed) {
		errno = w->failed;
		return -1;
	}
	n = build_line(w, vals);
	if (n < 0)
		return -1;
	struct stat st;
	off_t before = fstat(fileno(w->f), &st) ? -1 : st.st_size;

	errno = 0;
	if (fwrite(w->buf, 1, (size_t)n, w->f) != (size_t)n || fflush(w->f)) {
		if (!errno)
			errno = EIO;
		w->failed = errno;
		/* Drop what is still buffered so that a later flush cannot add a row's tail. */
		__fpurge(w->f);
		/* A short write (disk full, file size limit) may have left part of the row. */
		if (before >= 0 && S_ISREG(st.st_mode))
			(void)!ftruncate(fileno(w->f), before);
		errno = w->failed;
		return -1;
	}
	if (!w->rows++ && w->created)
		outfile_track(w->path, 0);
	return 0;
}

const char *csv_path(const struct csv_writer *w)
{
	return w->path;
}

/* csv_close also reports a failure of an earlier csv_write_row: the file is incomplete. */
int csv_close(struct csv_writer *w)
{
	int failed, e;

	if (!w)
		return 0;
	failed = w->failed;
	if (w->created && !w->rows && w->path)
		outfile_track(w->path, 0);
	/* The rows are the results: on disk before the command reports success. */
	e = outfile_fclose_sync(w->f);
	free(w->path);
	free(w->buf);
	free(w);
	if (failed) {
		errno = failed;
		return -1;
	}
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

/* Compare the existing file's header with ours; 0 if identical, else -1 with @err. */
static int check_header(const char *path, const char *const *cols, int ncols, char *err,
			size_t errlen)
{
	static const char what[] = "existing header differs from this run's columns";
	struct csv_table *t;
	int ret = -1;

	/* The whole file, strictly: a malformed row anywhere is refused with its line. */
	t = csv_read_file(path, err, errlen);
	if (!t)
		return -1;
	for (int i = 0; i < ncols || i < t->ncols; i++) {
		const char *want = i < ncols && cols[i] ? cols[i] : "";

		if (i >= t->ncols) {
			set_err(err, errlen, "%s: %s: column %d \"%s\" is missing from the file",
				path, what, i + 1, want);
			goto out;
		}
		if (i >= ncols) {
			set_err(err, errlen, "%s: %s: the file has an extra column %d \"%s\"", path,
				what, i + 1, t->header[i]);
			goto out;
		}
		if (strcmp(t->header[i], want)) {
			set_err(err, errlen, "%s: %s: column %d is \"%s\" in the file, \"%s\" here",
				path, what, i + 1, t->header[i], want);
			goto out;
		}
	}
	ret = 0;
out:
	csv_table_free(t);
	return ret;
}

/* Refuse to append after a last line without its LF: the new row would be glued to it. */
static int check_last_byte(const char *path, off_t size, char *err, size_t errlen)
{
	char c = 0;
	int fd;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do
		n = pread(fd, &c, 1, size - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		set_err(err, errlen, "%s: %s", path, strerror(errno));
	else if (n != 1 || c != '\n')
		set_err(err, errlen, "%s: does not end with a newline (incomplete last row?)",
			path);
	close(fd);
	return n == 1 && c == '\n' ? 0 : -1;
}

struct csv_writer *csv_create(const char *path, const char *const *cols, int ncols, int flags,
			      char *err, size_t errlen)
{
	int append = flags & CSV_APPEND;
	struct csv_writer *w;
	struct stat st;
	int fd, created;

	if (ncols <= 0) {
		set_err(err, errlen, "%s: no columns", path);
		return NULL;
	}
	created = stat(path, &st) != 0;
	fd = flags & CSV_INSIDE ? outpath_open_inside(path, O_APPEND, err, errlen)
				: outpath_open_named(path, O_APPEND, err, errlen);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (st.st_size > 0) {
		if (!append) {
			set_err(err, errlen, "%s: exists", path);
			close(fd);
			return NULL;
		}
		if (check_header(path, cols, ncols, err, errlen) ||
		    check_last_byte(path, st.st_size, err, errlen)) {
			close(fd);
			return NULL;
		}
	}
	w = calloc(1, sizeof(*w));
	if (!w || !(w->path = strdup(path))) {
		set_err(err, errlen, "%s: %s", path, strerror(ENOMEM));
		free(w);
		close(fd);
		return NULL;
	}
	w->ncols = ncols;
	w->created = created;
	w->f = fdopen(fd, "a");
	if (!w->f) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		free(w->path);
		free(w);
		return NULL;
	}
	if (st.st_size == 0 && csv_write_row(w, cols)) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		csv_close_or_remove(w);
		return NULL;
	}
	w->rows = 0;
	if (w->created)
		outfile_track(w->path, 1); /* header only: removed if the command is stopped */
	return w;
}

int csv_close_or_remove(struct csv_writer *w)
{
	char *path;
	int ret;

	if (!w || !w->created || w->rows)
		return csv_close(w);
	path = w->path;
	outfile_track(path, 0);
	w->path = NULL;
	ret = csv_close(w);
	unlink(path); /* only the header: as if never created */
	free(path);
	return ret;
}

int csv_check_new(const char *path, char *err, size_t errlen)
{
	return outpath_check_file(path, err, errlen);
}

int csv_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	int same;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ca = outpath_resolve(a);
	cb = outpath_resolve(b);
	same = ca && cb && !strcmp(ca, cb);
	free(ca);
	free(cb);
	return same;
}

/* ---- reader ---- */

struct parser {
	const char *s;
	size_t len, pos;
	long line; /* 1-based physical line at pos */
	const char *source;
	char *err;
	size_t errlen;
	struct sb cell;
	char **cells; /* the record being parsed */
	int ncells, capcells;
};

static void free_cells(char **cells, int n)
{
	if (!cells)
		return;
	for (int i = 0; i < n; i++)
		free(cells[i]);
	free(cells);
}

static int parse_oom(struct parser *p)
{
	set_err(p->err, p->errlen, "%s:%ld: %s", p->source, p->line, strerror(ENOMEM));
	return -1;
}

static int push_cell(struct parser *p)
{
	char *c;

	if (p->ncells == p->capcells) {
		int cap = p->capcells ? p->capcells * 2 : 16;
		char **n;

		if (p->capcells > INT_MAX / 2 || (size_t)cap > SIZE_MAX / sizeof(*n))
			return parse_oom(p);
		n = realloc(p->cells, (size_t)cap * sizeof(*n));
		if (!n)
			return parse_oom(p);
		p->cells = n;
		p->capcells = cap;
	}
	c = malloc(p->cell.n + 1);
	if (!c)
		return parse_oom(p);
	if (p->cell.n)
		memcpy(c, p->cell.p, p->cell.n);
	c[p->cell.n] = '\0';
	p->cells[p->ncells++] = c;
	p->cell.n = 0;
	return 0;
}

/*
 * Parse one record starting at p->pos into p->cells/p->ncells, consuming its line end.
 * Returns 0, or -1 with the error set.
 */
static int parse_record(struct parser *p)
{
	const char *s = p->s;

	p->ncells = 0;
	for (;;) {
		long qline = p->line;

		if (p->pos < p->len && s[p->pos] == '"') {
			p->pos++;
			for (;;) {
				if (p->pos >= p->len) {
					set_err(p->err, p->errlen,
						"%s:%ld: unterminated quoted cell", p->source,
						qline);
					return -1;
				}
				if (s[p->pos] == '"') {
					if (p->pos + 1 < p->len && s[p->pos + 1] == '"') {
						sb_addc(&p->cell, '"');
						p->pos += 2;
						continue;
					}
					p->pos++;
					break;
				}
				if (s[p->pos] == '\n')
					p->line++;
				else if (s[p->pos] == '\0')
					goto nul;
				sb_addc(&p->cell, s[p->pos++]);
			}
			if (p->pos < p->len && s[p->pos] != ',' && s[p->pos] != '\n' &&
			    !(s[p->pos] == '\r' && p->pos + 1 < p->len && s[p->pos + 1] == '\n')) {
				set_err(p->err, p->errlen, "%s:%ld: text after a closing quote",
					p->source, p->line);
				return -1;
			}
		} else {
			size_t start = p->pos;

			for (; p->pos < p->len; p->pos++) {
				char c = s[p->pos];

				if (c == ',' || c == '\n')
					break;
				if (c == '\r' && p->pos + 1 < p->len && s[p->pos + 1] == '\n')
					break;
				if (c == '"') {
					set_err(p->err, p->errlen,
						"%s:%ld: quote in an unquoted cell", p->source,
						p->line);
					return -1;
				}
				if (c == '\r') {
					set_err(p->err, p->errlen, "%s:%ld: bare CR", p->source,
						p->line);
					return -1;
				}
				if (c == '\0')
					goto nul;
			}
			sb_add(&p->cell, s + start, p->pos - start);
		}
		if (push_cell(p))
			return -1;
		if (p->pos >= p->len)
			return 0;
		if (s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		p->pos += s[p->pos] == '\r' ? 2 : 1;
		p->line++;
		return 0;
	}
nul:
	set_err(p->err, p->errlen, "%s:%ld: NUL byte", p->source, p->line);
	return -1;
}

struct csv_table *csv_parse(const char *text, size_t len, const char *source, char *err,
			    size_t errlen)
{
	struct parser p = {.s = text,
			   .len = len,
			   .line = 1,
			   .source = source ? source : "-",
			   .err = err,
			   .errlen = errlen};
	struct csv_table *t;
	int caprows = 0;

	if (len == 0) {
		set_err(err, errlen, "%s:1: no header", p.source);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		parse_oom(&p);
		return NULL;
	}
	if (parse_record(&p))
		goto fail;
	t->header = p.cells;
	t->ncols = p.ncells;
	p.cells = NULL;
	p.ncells = p.capcells = 0;
	while (p.pos < p.len) {
		long line = p.line;

		if (parse_record(&p))
			goto fail;
		if (p.ncells != t->ncols) {
			set_err(err, errlen, "%s:%ld: %d columns, header has %d", p.source, line,
				p.ncells, t->ncols);
			goto fail;
		}
		if (t->nrows == caprows) {
			int cap = caprows ? caprows * 2 : 64;
			char ***n;

			if (caprows > INT_MAX / 2 || (size_t)cap > SIZE_MAX / sizeof(*n)) {
				parse_oom(&p);
				goto fail;
			}
			n = realloc(t->rows, (size_t)cap * sizeof(*n));
			if (!n) {
				parse_oom(&p);
				goto fail;
			}
			t->rows = n;
			caprows = cap;
		}
		t->rows[t->nrows++] = p.cells;
		p.cells = NULL;
		p.ncells = p.capcells = 0;
	}
	free(p.cell.p);
	return t;
fail:
	free_cells(p.cells, p.ncells);
	free(p.cell.p);
	csv_table_free(t);
	return NULL;
}

struct csv_table *csv_read_file(const char *path, char *err, size_t errlen)
{
	size_t n;
	char *text = infile_read(path, CSV_MAX_BYTES, "a CSV", &n, err, errlen);
	struct csv_table *t;

	if (!text)
		return NULL;
	t = csv_parse(text, n, path, err, errlen);
	free(text);
	return t;
}

int csv_col(const struct csv_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (!strcmp(t->header[i], name))
			return i;
	return -1;
}

void csv_table_free(struct csv_table *t)
{
	if (!t)
		return;
	free_cells(t->header, t->ncols);
	for (int i = 0; i < t->nrows; i++)
		free_cells(t->rows[i], t->ncols);
	free(t->rows);
	free(t);
}
