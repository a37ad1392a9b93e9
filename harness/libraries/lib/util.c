// SPDX-License-Identifier: MIT
#include "util.h"

#include "esc.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void fmt_double(char *buf, size_t len, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.17g", v);
}

static void (*after_create)(void *arg, const char *msg);
static void (*refused_cleanup)(void);
static void *after_create_arg;
static pthread_mutex_t after_create_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int in_after_create;

/* vdie - die and usage_error: the message, then the exit (2, or 1 once outputs exist). */
static __attribute__((format(printf, 3, 0), noreturn)) void
vdie(const char *what, const char *value, const char *fmt, va_list ap)
{
	/* On the stack: the hook may be here for lack of memory. */
	char why[4096], msg[sizeof(why) + 512], shown[sizeof(msg)];
	const char *w = why;
	size_t vl;

	if (!value)
		value = "";
	vsnprintf(why, sizeof(why), fmt, ap);
	/* A reason that names the value itself ("PATH: not a regular file") names it once. */
	vl = strlen(value);
	if (vl && !strncmp(why, value, vl) && !strncmp(why + vl, ": ", 2))
		w = why + vl + 2;
	snprintf(msg, sizeof(msg), "%s: %s: %s", what, value, w);
	/* a path or name holding a control or bidi character is printed escaped (esc.h) */
	esc_buf(shown, sizeof(shown), msg);
	fprintf(stderr, "pcbench: %s\n", shown);
	if (after_create) { /* outputs exist: they get their end, and it is a failure, 1 */
		/*
		 * One caller runs the hook (another thread failing meanwhile waits here until
		 * the process ends); a failure inside the hook itself just exits.
		 */
		if (!in_after_create) {
			in_after_create = 1;
			pthread_mutex_lock(&after_create_lock);
			after_create(after_create_arg, msg);
		}
		fflush(NULL);
		_exit(1);
	}
	/*
	 * Nothing was measured: a refusal leaves no file (what a command made on its way, a
	 * header-only CSV, its new directory, is registered with outfile_track), and skips
	 * atexit work (and leak checks of a half-built run).
	 */
	if (refused_cleanup)
		refused_cleanup();
	fflush(NULL);
	_exit(2);
}

/* vput_line - @prefix, then @fmt's text escaped (esc.h), then a newline, on @out. */
static void vput_line(FILE *out, const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096], shown[4 * sizeof(msg)];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	esc_buf(shown, sizeof(shown), msg);
	fprintf(out, "%s%s\n", prefix, shown);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput_line(stderr, "pcbench: ", fmt, ap);
	va_end(ap);
}

void print_esc(FILE *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput_line(out, "", fmt, ap);
	va_end(ap);
}

void die_refused_cleanup(void (*fn)(void))
{
	refused_cleanup = fn;
}

void usage_error(const char *what, const char *value, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(what, value, fmt, ap);
}

void die(const char *what, const char *value, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(what, value, fmt, ap);
}

void die_after_create(void (*fn)(void *arg, const char *msg), void *arg)
{
	after_create = fn;
	after_create_arg = arg;
}

void vset_err(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
}

void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_err(err, errlen, fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("memory", "malloc", "out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("memory", "calloc", "out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("memory", "realloc", "out of memory");
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		die("memory", "asprintf", "out of memory");
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}
