// SPDX-License-Identifier: MIT
#include "num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A digit or '-' then a digit: strtol would also take blanks and '+' first. */
static int starts_ok(const char *s, int sign)
{
	return isdigit((unsigned char)s[0]) ||
	       (sign && s[0] == '-' && isdigit((unsigned char)s[1]));
}

int num_long(const char *s, int base, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!starts_ok(s, 1))
		return -1;
	errno = 0;
	v = strtol(s, &end, base);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int num_int(const char *s, int base, int lo, int hi, int *out)
{
	long v;

	if (num_long(s, base, lo, hi, &v))
		return -1;
	*out = (int)v;
	return 0;
}

int num_longn(const char *s, size_t len, int base, long lo, long hi, long *out)
{
	char buf[64];

	if (len >= sizeof(buf) || memchr(s, '\0', len))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return num_long(buf, base, lo, hi, out);
}

int num_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!starts_ok(s, 0))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

int num_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi)) /* NaN fails the range */
		return -1;
	*out = v;
	return 0;
}
