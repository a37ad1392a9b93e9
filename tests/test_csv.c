// SPDX-License-Identifier: MIT
/*
 * test_csv.c - the results CSV writer and reader (round trip, append rules, parse errors,
 * CRLF, write errors) and context.json (valid JSON, atomic write).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "context.h"
#include "csv.h"
#include "check.h"

static char *tmpfile_path(void)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_csv.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		exit(1);
	}
	close(fd);
	return path;
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap + 1);
			if (!buf)
				exit(1);
		}
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (!r)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int count_occurrences(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static const char *const cols[] = {"name", "text, with comma", "quote\"d", "empty", "last\nline"};
#define NCOLS 5

static void test_round_trip(void)
{
	char err[512], *path = tmpfile_path(), *big = malloc(100 * 1024 + 1);
	struct csv_writer *w;
	struct csv_table *t;
	const char *rows[][NCOLS] = {
	    {"plain", "a,b,c", "say \"hi\"", "", NULL},
	    {"multi\nline", "crlf\r\ninside", "\"", ",", "trailing\n"},
	    {"", "", "", "", ""},
	    {NULL, NULL, NULL, NULL, NULL},
	    {"long", big, "x", "\"\"", "end"},
	    {" spaces ", "tab\there", "\r", "'single'", "ünïcödé"},
	};
	int nrows = (int)(sizeof(rows) / sizeof(rows[0]));

	if (!big)
		exit(1);
	for (int i = 0; i < 100 * 1024; i++)
		big[i] = "ab,\"c\n\r "[i % 8];
	big[100 * 1024] = '\0';
	w = csv_create(path, cols, NCOLS, 0, err, sizeof(err));
	CHECK(w, "round trip: csv_create: %s", err);
	if (!w)
		goto out;
	CHECK(!strcmp(csv_path(w), path), "csv_path: %s != %s", csv_path(w), path);
	for (int r = 0; r < nrows; r++)
		CHECK(!csv_write_row(w, rows[r]), "csv_write_row %d: %s", r, strerror(errno));
	CHECK(!csv_close(w), "csv_close: %s", strerror(errno));

	t = csv_read_file(path, err, sizeof(err));
	CHECK(t, "round trip: csv_read_file: %s", err);
	if (!t)
		goto out;
	CHECK(t->ncols == NCOLS, "round trip: %d columns", t->ncols);
	CHECK(t->nrows == nrows, "round trip: %d rows, wrote %d", t->nrows, nrows);
	for (int c = 0; c < NCOLS && c < t->ncols; c++) {
		CHECK(!strcmp(t->header[c], cols[c]), "header %d: [%s] != [%s]", c, t->header[c],
		      cols[c]);
		CHECK(csv_col(t, cols[c]) == c, "csv_col(%s) = %d", cols[c], csv_col(t, cols[c]));
	}
	CHECK(csv_col(t, "nope") == -1, "csv_col of a missing column");
	for (int r = 0; r < nrows && r < t->nrows; r++) {
		for (int c = 0; c < NCOLS && c < t->ncols; c++) {
			const char *want = rows[r][c] ? rows[r][c] : "";

			CHECK(!strcmp(t->rows[r][c], want), "row %d col %d: %.60s != %.60s", r, c,
			      t->rows[r][c], want);
		}
	}
	csv_table_free(t);
out:
	free(big);
	unlink(path);
}

static void test_append(void)
{
	static const char *const other[] = {"name", "text, with comma", "quote\"d", "EMPTY",
					    "last\nline"};
	static const char *const shorter[] = {"name", "text, with comma", "quote\"d", "empty"};
	const char *row[NCOLS] = {"r", "1", "2", "3", "4"};
	char err[512], *path = tmpfile_path(), *text;
	struct csv_writer *w;
	struct csv_table *t;
	size_t len;

	for (int i = 0; i < 2; i++) {
		w = csv_create(path, cols, NCOLS, 1, err, sizeof(err));
		CHECK(w, "append %d: csv_create: %s", i, err);
		if (!w)
			goto out;
		CHECK(!csv_write_row(w, row), "append %d: csv_write_row: %s", i, strerror(errno));
		CHECK(!csv_close(w), "append %d: csv_close: %s", i, strerror(errno));
	}
	text = slurp(path, &len);
	CHECK(text && count_occurrences(text, "name,") == 1,
	      "append: header written %d times, want once",
	      text ? count_occurrences(text, "name,") : -1);
	free(text);
	t = csv_read_file(path, err, sizeof(err));
	CHECK(t && t->nrows == 2, "append: read back %d rows (%s), want 2", t ? t->nrows : -1,
	      t ? "" : err);
	csv_table_free(t);

	err[0] = '\0';
	w = csv_create(path, other, NCOLS, 1, err, sizeof(err));
	CHECK(!w, "append with a different header succeeded");
	CHECK(strstr(err, path) && strstr(err, "existing header differs") && strstr(err, "EMPTY"),
	      "append with a different header: err \"%s\" lacks the path or column", err);
	csv_close(w);

	err[0] = '\0';
	w = csv_create(path, shorter, NCOLS - 1, 1, err, sizeof(err));
	CHECK(!w, "append with fewer columns succeeded");
	CHECK(strstr(err, "existing header differs") && strstr(err, "last"),
	      "append with fewer columns: err \"%s\" does not name the column", err);
	csv_close(w);

	err[0] = '\0';
	w = csv_create(path, cols, NCOLS, 0, err, sizeof(err));
	CHECK(!w, "non-append on an existing non-empty file succeeded");
	CHECK(strstr(err, path) && strstr(err, "exists"), "non-append: err \"%s\"", err);
	csv_close(w);

	/* The rejected creates must not have touched the file. */
	t = csv_read_file(path, err, sizeof(err));
	CHECK(t && t->nrows == 2, "after rejected creates: %d rows, want 2", t ? t->nrows : -1);
	csv_table_free(t);

	/* The file has fewer columns than this run. */
	unlink(path);
	w = csv_create(path, shorter, NCOLS - 1, 0, err, sizeof(err));
	CHECK(w, "append: csv_create with 4 columns: %s", err);
	CHECK(!csv_close(w), "append: csv_close: %s", strerror(errno));
	err[0] = '\0';
	w = csv_create(path, cols, NCOLS, 1, err, sizeof(err));
	CHECK(!w, "append with more columns than the file succeeded");
	CHECK(strstr(err, "existing header differs") && strstr(err, "last") &&
		  strstr(err, "missing"),
	      "append with more columns: err \"%s\" does not name the column", err);
	csv_close(w);

	/* A last row without its newline (a torn write) is not appended to. */
	unlink(path);
	w = csv_create(path, cols, NCOLS, 0, err, sizeof(err));
	CHECK(w && !csv_write_row(w, row) && !csv_close(w), "append: torn file setup failed");
	text = slurp(path, &len);
	CHECK(text && len > 0 && !truncate(path, (off_t)len - 1), "append: truncate failed");
	free(text);
	err[0] = '\0';
	w = csv_create(path, cols, NCOLS, 1, err, sizeof(err));
	CHECK(!w, "append to a file without a final newline succeeded");
	CHECK(strstr(err, "newline"), "append to a torn file: err \"%s\"", err);
	csv_close(w);
out:
	unlink(path);
}

static void expect_parse_error(const char *name, const char *text, const char *want)
{
	char err[256] = "";
	struct csv_table *t = csv_parse(text, strlen(text), "src", err, sizeof(err));

	CHECK(!t, "%s: parsed", name);
	CHECK(strstr(err, want), "%s: err \"%s\" lacks \"%s\"", name, err, want);
	csv_table_free(t);
}

static void test_parse_errors(void)
{
	char err[256] = "";
	struct csv_table *t;

	expect_parse_error("ragged row", "a,b\n1,2\n\"x\ny\",2\n1,2,3\n",
			   "src:5: 3 columns, header has 2");
	expect_parse_error("short row", "a,b\n1\n", "src:2: 1 columns, header has 2");
	expect_parse_error("unterminated quote", "a,b\n1,\"open\n", "unterminated");
	expect_parse_error("quote in unquoted cell", "a,b\n1,x\"y\n", "quote in an unquoted cell");
	expect_parse_error("text after closing quote", "a,b\n1,\"x\"y\n", "after a closing quote");
	expect_parse_error("empty input", "", "no header");
	expect_parse_error("bare CR", "a,b\n1,x\ry\n", "src:2: bare CR");

	t = csv_parse("", 0, "src", err, sizeof(err));
	CHECK(!t, "empty input parsed");
	csv_table_free(t);

	t = csv_parse("a,b\n1,2", 7, "src", err, sizeof(err));
	CHECK(t && t->nrows == 1 && !strcmp(t->rows[0][1], "2"), "final line without newline: %s",
	      t ? "wrong content" : err);
	csv_table_free(t);

	t = csv_parse("a,b\n1,\n", 7, "src", err, sizeof(err));
	CHECK(t && t->nrows == 1 && !strcmp(t->rows[0][1], ""), "empty last cell: %s",
	      t ? "wrong content" : err);
	csv_table_free(t);
}

static void test_crlf(void)
{
	static const char lf[] = "h1,\"h,2\"\n1,\"a\nb\"\n\"x\"\"y\",\n";
	static const char crlf[] = "h1,\"h,2\"\r\n1,\"a\nb\"\r\n\"x\"\"y\",\r\n";
	char err[256];
	struct csv_table *a, *b;

	a = csv_parse(lf, strlen(lf), "lf", err, sizeof(err));
	CHECK(a, "LF input: %s", err);
	b = csv_parse(crlf, strlen(crlf), "crlf", err, sizeof(err));
	CHECK(b, "CRLF input: %s", err);
	if (a && b) {
		CHECK(a->ncols == 2 && b->ncols == 2, "CRLF: columns %d vs %d", a->ncols, b->ncols);
		CHECK(a->nrows == 2 && b->nrows == 2, "CRLF: rows %d vs %d", a->nrows, b->nrows);
		for (int c = 0; c < a->ncols && c < b->ncols; c++)
			CHECK(!strcmp(a->header[c], b->header[c]), "CRLF: header %d differs", c);
		for (int r = 0; r < a->nrows && r < b->nrows; r++)
			for (int c = 0; c < a->ncols && c < b->ncols; c++)
				CHECK(!strcmp(a->rows[r][c], b->rows[r][c]),
				      "CRLF: row %d col %d: [%s] vs [%s]", r, c, a->rows[r][c],
				      b->rows[r][c]);
		CHECK(a->nrows == 2 && !strcmp(a->rows[1][0], "x\"y"), "LF: doubled quote");
	}
	csv_table_free(a);
	csv_table_free(b);
}

static const char *jstr(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "(not a string)";
}

static void test_context(void)
{
	char dir[] = "/tmp/test_ctx.XXXXXX", path[128], host[256] = "", err[512];
	char *argv[] = {"pcbench", "--scenario=x,y", "say \"hi\"", ""};
	int argc = 4;
	struct run_context c;
	json_error_t je;
	json_t *j, *cl;
	DIR *d;
	struct dirent *de;

	if (!mkdtemp(dir)) {
		fail("mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/context.json", dir);
	context_init(&c, argc, argv);
	snprintf(c.run_id, sizeof(c.run_id), "test-run");
	c.options_json = "{\"reps\": 3}";
	CHECK(strlen(c.start) == 20 && c.start[10] == 'T' && c.start[19] == 'Z',
	      "context start time \"%s\"", c.start);
	CHECK(c.end[0] == '\0' && !c.interrupted, "context_init: end/interrupted set");
	CHECK(!strncmp(c.kernel, "Linux ", 6), "context kernel \"%s\"", c.kernel);
	CHECK(c.cpu_model[0], "context cpu_model empty");

	CHECK(!context_write(&c, path, err, sizeof(err)), "context_write: %s", err);
	/* Written twice: the second rename replaces the first file. */
	c.interrupted = 1;
	CHECK(!context_write(&c, path, err, sizeof(err)), "context_write again: %s", err);
	c.interrupted = 0;
	CHECK(!context_write(&c, path, err, sizeof(err)), "context_write a third time: %s", err);

	j = json_load_file(path, 0, &je);
	CHECK(j, "context.json does not parse: %s (line %d)", je.text, je.line);
	if (j) {
		gethostname(host, sizeof(host));
		CHECK(!strcmp(jstr(json_object_get(j, "host")), host),
		      "context host != gethostname \"%s\"", host);
		CHECK(json_is_false(json_object_get(j, "interrupted")), "interrupted is not false");
		CHECK(json_is_null(json_object_get(j, "end_time")), "end_time is not null");
		CHECK(!strcmp(jstr(json_object_get(j, "run_id")), "test-run"), "run_id");
		cl = json_object_get(j, "command_line");
		CHECK(json_is_array(cl) && (int)json_array_size(cl) == argc,
		      "command_line is not an array of %d", argc);
		for (int i = 0; i < argc && i < (int)json_array_size(cl); i++)
			CHECK(!strcmp(jstr(json_array_get(cl, i)), argv[i]),
			      "command_line[%d] != \"%s\"", i, argv[i]);
		CHECK(json_integer_value(json_object_get(json_object_get(j, "options"), "reps")) ==
			  3,
		      "options.reps != 3");
		CHECK(json_is_object(json_object_get(j, "libraries")), "libraries missing");
		json_decref(j);
	}

	d = opendir(dir);
	CHECK(d, "opendir %s: %s", dir, strerror(errno));
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (strcmp(de->d_name, "context.json")) {
			char p[400];

			fail("context_write left \"%s\" behind", de->d_name);
			snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
			unlink(p);
		}
	}
	if (d)
		closedir(d);

	c.options_json = "{not json";
	err[0] = '\0';
	CHECK(context_write(&c, path, err, sizeof(err)),
	      "context_write with bad options succeeded");
	CHECK(strstr(err, path) && strstr(err, "options"), "bad options: err \"%s\"", err);

	c.options_json = NULL;
	snprintf(path, sizeof(path), "%s/no/such/dir/context.json", dir);
	err[0] = '\0';
	CHECK(context_write(&c, path, err, sizeof(err)),
	      "context_write to a missing dir succeeded");
	CHECK(strstr(err, path) && strstr(err, strerror(ENOENT)), "missing dir: err \"%s\"", err);

	snprintf(path, sizeof(path), "%s/context.json", dir);
	unlink(path);
	CHECK(!rmdir(dir), "rmdir %s: %s (files left behind?)", dir, strerror(errno));
}

/* Find the descriptor the writer holds on @path (the same inode), or -1. */
static int fd_of(const char *path)
{
	struct stat want, st;

	if (stat(path, &want))
		return -1;
	for (int fd = 3; fd < 1024; fd++)
		if (!fstat(fd, &st) && st.st_dev == want.st_dev && st.st_ino == want.st_ino)
			return fd;
	return -1;
}

static void test_write_error(void)
{
	const char *row[NCOLS] = {"a", "b", "c", "d", "e"};
	char err[512] = "", *path;
	struct csv_writer *w;
	int full, fd;

	full = open("/dev/full", O_WRONLY);
	if (full < 0) {
		printf("note: /dev/full unavailable (%s); write error checks skipped\n",
		       strerror(errno));
		return;
	}

	/* A device is refused, not written to (lib/outpath.h). */
	w = csv_create("/dev/full", cols, NCOLS, 1, err, sizeof(err));
	CHECK(!w, "csv_create on /dev/full succeeded");
	CHECK(strstr(err, "/dev/full") && strstr(err, "not a regular file"),
	      "/dev/full: err \"%s\"", err);
	csv_close(w);

	/* A row: swap the writer's descriptor for /dev/full after the header is out. */
	path = tmpfile_path();
	w = csv_create(path, cols, NCOLS, 0, err, sizeof(err));
	CHECK(w, "write error: csv_create: %s", err);
	fd = w ? fd_of(path) : -1;
	if (w && fd < 0) {
		printf(
		    "note: cannot find the writer's descriptor; row write error check skipped\n");
	} else if (w) {
		CHECK(dup2(full, fd) == fd, "dup2: %s", strerror(errno));
		errno = 0;
		CHECK(csv_write_row(w, row) == -1, "csv_write_row to /dev/full succeeded");
		CHECK(errno == ENOSPC, "csv_write_row to /dev/full: errno %d (%s), want ENOSPC",
		      errno, strerror(errno));
		errno = 0;
		CHECK(csv_write_row(w, row) == -1 && errno == ENOSPC,
		      "csv_write_row after a failure: not -1/ENOSPC");
		errno = 0;
		CHECK(csv_close(w) == -1 && errno == ENOSPC,
		      "csv_close after a failed write: not -1/ENOSPC");
	}
	close(full);
	unlink(path);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_round_trip();
	test_append();
	test_parse_errors();
	test_crlf();
	test_context();
	test_write_error();
	if (failures) {
		fprintf(stderr, "test_csv: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_csv: ok\n");
	return 0;
}
