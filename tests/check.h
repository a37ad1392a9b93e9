/* SPDX-License-Identifier: MIT */
/*
 * check.h - the tests' one way to fail: CHECK(cond, fmt, ...) prints "FAIL file:line: ..."
 * and counts; a test returns failures != 0. Header-only; include it once per test.
 */
#ifndef PCBENCH_CHECK_H
#define PCBENCH_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

/*
 * SANITIZED - 1 in an ASan or TSan build, whose runtime maps and faults memory of its own
 * (gcc says so with __SANITIZE_*__, clang 14 only through __has_feature).
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif
#else
#define SANITIZED 0
#endif

static inline void failv(const char *file, int line, const char *fmt, va_list ap)
{
	if (file)
		fprintf(stderr, "FAIL %s:%d: ", file, line);
	else
		fprintf(stderr, "FAIL: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	failures++;
}

/* fail - count a failure and say what failed. */
static inline __attribute__((format(printf, 1, 2))) void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	failv(NULL, 0, fmt, ap);
	va_end(ap);
}

static inline __attribute__((format(printf, 3, 4))) void fail_at(const char *file, int line,
								 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	failv(file, line, fmt, ap);
	va_end(ap);
}

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fail_at(__FILE__, __LINE__, __VA_ARGS__);                                  \
	} while (0)

#define CHECK_EQ(what, actual, expected)                                                           \
	CHECK((long)(actual) == (long)(expected), "%s: got %ld, expected %ld", what,               \
	      (long)(actual), (long)(expected))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* read_all - a whole file as a NUL-terminated string (free it), or NULL. */
static inline char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else if (buf) {
			buf[n] = '\0';
		}
	}
	fclose(f);
	return buf;
}

/*
 * mem_out - a stream writing into memory: after fclose, *@buf is the NUL-terminated text
 * (free it) and *@len its length. Exits when the stream cannot be made.
 */
static inline FILE *mem_out(char **buf, size_t *len)
{
	FILE *f;

	*buf = NULL;
	*len = 0;
	f = open_memstream(buf, len);
	if (!f) {
		perror("open_memstream");
		exit(1);
	}
	return f;
}

#endif
