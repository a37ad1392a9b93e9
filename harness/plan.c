// SPDX-License-Identifier: MIT
/* plan.c - parsing of list options and placement of families. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "topology.h"
#include "util.h"

const char *const status_names[] = {"ok", "error", "skipped"};

static int parse_count(const char *s, size_t len, int max, int *out)
{
	char buf[32], *end;
	long v;

	if (len == 3 && !strncmp(s, "max", 3)) {
		*out = max;
		return 0;
	}
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || *end || end == buf || v < 1 || v > 1 << 20)
		return -1;
	*out = (int)v;
	return 0;
}

int parse_threads(const char *s, int max, int *out, int cap, char *err, size_t errlen)
{
	int n = 0;

	if (!*s) {
		snprintf(err, errlen, "empty list");
		return -1;
	}
	while (*s) {
		size_t len = strcspn(s, ",");
		const char *dash = memchr(s, '-', len);
		int lo, hi;

		if (dash ? parse_count(s, (size_t)(dash - s), max, &lo) ||
			       parse_count(dash + 1, len - (size_t)(dash - s) - 1, max, &hi)
			 : parse_count(s, len, max, &lo)) {
			snprintf(err, errlen, "%.*s: expected N, N-M or max, N >= 1", (int)len, s);
			return -1;
		}
		if (!dash)
			hi = lo;
		if (hi < lo) {
			snprintf(err, errlen, "%.*s: empty range", (int)len, s);
			return -1;
		}
		for (int v = lo; v <= hi; v++) {
			int dup = 0;

			for (int i = 0; i < n; i++)
				dup |= out[i] == v;
			if (dup)
				continue;
			if (n == cap) {
				snprintf(err, errlen, "more than %d thread counts", cap);
				return -1;
			}
			out[n++] = v;
		}
		s += len;
		if (*s == ',')
			s++;
	}
	return n;
}

char **split_list(const char *s)
{
	size_t n = 2, len = strlen(s);
	char **v, *copy;
	int i = 0;

	for (const char *p = s; *p; p++)
		n += *p == ',';
	v = xmalloc(n * sizeof(char *) + len + 1);
	copy = memcpy((char *)(v + n), s, len + 1);
	for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
		v[i++] = tok;
	v[i] = NULL;
	return v;
}

int family_place(struct family *f, const struct topo *t, char *err, size_t errlen)
{
	int *pus = xcalloc((size_t)f->threads, sizeof(int));
	size_t used = 0;
	int ret = topo_place(t, f->placement, f->threads, pus, err, errlen);

	if (ret == TOPO_UNKNOWN) {
		free(pus);
		return -1;
	}
	if (ret == TOPO_NOFIT) {
		snprintf(f->skip, sizeof(f->skip), "placement %s: %s", f->placement, err);
		free(pus);
		return 0;
	}
	f->pus = pus;
	f->cpus = xcalloc((size_t)f->threads, 12);
	for (int i = 0; i < f->threads; i++)
		used += (size_t)sprintf(f->cpus + used, "%s%d", i ? ";" : "", pus[i]);
	return 0;
}
