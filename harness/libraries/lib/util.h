/* SPDX-License-Identifier: MIT */
/* util.h - small helpers shared by the harness: clocks, formatting, errors. */
#ifndef PCBENCH_UTIL_H
#define PCBENCH_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* splitmix64 - the next value of the generator whose state is @x (not for statistics). */
static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* now_s - CLOCK_MONOTONIC in seconds. */
double now_s(void);

/* utc_now - the current UTC time as "YYYY-MM-DDTHH:MM:SSZ" (@buf >= 32 bytes). */
void utc_now(char *buf, size_t len);

/* fmt_double - full precision ("%.17g"), locale-independent; "" for NaN. */
void fmt_double(char *buf, size_t len, double v);

/*
 * usage_error - print "pcbench: <what>: <value>: <why>" to stderr and exit 2: the input is
 * bad (an option, a value, a file the user named). Nothing has been measured when it is used.
 * die - the same message for a failure that is not the user's (out of memory, fork,
 * pthread_create, a pipe): exit 2 before any output exists, 1 after (die_after_create).
 */
void usage_error(const char *what, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
void die(const char *what, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

/*
 * warn_msg - "pcbench: <message>" and a newline on stderr, the message escaped as die's is
 * (esc.h): a path or name in it cannot move the cursor, retitle the terminal or reorder the
 * line. For a message that does not end the command; one line (no '\n' in @fmt).
 */
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* print_esc - one line of @fmt's text on @out (stdout: "wrote PATH"), escaped as warn_msg's. */
void print_esc(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * set_err - the one way a function reports why it failed: a formatted reason into the
 * caller's @err buffer of @errlen bytes (NULL or 0: nothing), returned as -1 by the caller.
 */
void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void vset_err(char *err, size_t errlen, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/*
 * die_after_create - from now on (outputs exist), die and usage_error run @fn(@arg, msg) with its
 * message ("what: value: why", the reason of the failure's row; fn finishes the outputs:
 * that row, context.json's end time, whole files) and exits 1, not 2: a failure after
 * creation (out of memory in a measurement) is not a refused run. The first failing thread
 * runs @fn, others wait for the exit; a failure inside @fn exits 1 at once. NULL: back to
 * exit 2.
 */
void die_after_create(void (*fn)(void *arg, const char *msg), void *arg);
/*
 * die_refused_cleanup - before any output exists, die and usage_error run @fn (outfile.c
 * registers its cleanup when it first tracks a file, so a refusal leaves no file) and exit 2.
 */
void die_refused_cleanup(void (*fn)(void));

/* xmalloc/xcalloc/xstrdup - allocation that dies with a message on failure. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
void *xrealloc(void *p, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* ends_with - @s ends with @suffix. */
int ends_with(const char *s, const char *suffix);

#endif
