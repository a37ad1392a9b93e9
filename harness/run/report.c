// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "util.h"

struct entry {
	const struct family *f;
	enum status status;
	double ops_per_s;
};

struct report {
	struct entry *e;
	size_t n, cap;
};

struct report *report_new(void)
{
	return xcalloc(1, sizeof(struct report));
}

void report_free(struct report *r)
{
	if (!r)
		return;
	free(r->e);
	free(r);
}

void report_add(struct report *r, const struct family *f, enum status status, double ops_per_s)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->e = realloc(r->e, r->cap * sizeof(*r->e));
		if (!r->e)
			usage_error("memory", "report", "out of memory");
	}
	r->e[r->n++] = (struct entry){f, status, ops_per_s};
}

/* Same table: same scenario, workload, placement and thread count. */
static int same_group(const struct family *a, const struct family *b)
{
	return a->sc == b->sc && a->wl == b->wl && a->threads == b->threads &&
	       !strcmp(a->placement, b->placement);
}

/* median and spread of the ok repetitions of family @f; returns how many there were. */
static size_t summarize(const struct report *r, const struct family *f, double *median,
			double *sd_pct)
{
	double *v = xcalloc(r->n, sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->e[i].f == f && r->e[i].status == ST_OK)
			v[k++] = r->e[i].ops_per_s;
	*median = stats_median(v, k);
	*sd_pct = k ? 100.0 * stats_stddev(v, k) / stats_mean(v, k) : NAN;
	free(v);
	return k;
}

static void print_group(const struct report *r, size_t first, FILE *out)
{
	const struct family *g = r->e[first].f, *base = NULL, *seen[256];
	double base_median = NAN;
	size_t nseen = 0;
	int w = 12; /* preset column width */

	/* The families of this group, in run order; the base is the scenario's first preset. */
	for (size_t i = first; i < r->n && nseen < 256; i++) {
		const struct family *f = r->e[i].f;
		int dup = 0;

		if (!same_group(f, g))
			continue;
		for (size_t j = 0; j < nseen; j++)
			dup |= seen[j] == f;
		if (dup)
			continue;
		seen[nseen++] = f;
		if (!base || f->preset == &f->sc->presets[0])
			base = f;
	}
	/* Rows in the scenario's preset order, whatever order the runs were interleaved in. */
	for (size_t j = 1; j < nseen; j++)
		for (size_t k = j; k > 0 && seen[k - 1]->preset > seen[k]->preset; k--) {
			const struct family *tmp = seen[k];

			seen[k] = seen[k - 1];
			seen[k - 1] = tmp;
		}
	fprintf(out,
		"\n%s  workload=%s  placement=%s  threads=%d  (ops/s, median over repetitions)\n",
		g->sc->name, g->wl->name, g->placement, g->threads);
	for (size_t j = 0; j < nseen; j++)
		w = (int)strlen(seen[j]->preset->name) > w ? (int)strlen(seen[j]->preset->name) : w;
	fprintf(out, "%-*s %18s %10s %10s\n", w, "preset", "ops/s", "stddev", "%change");
	{
		double sd;

		summarize(r, base, &base_median, &sd);
	}
	for (size_t j = 0; j < nseen; j++) {
		const struct family *f = seen[j];
		double median, sd;
		char change[32];

		if (!summarize(r, f, &median, &sd)) {
			fprintf(out, "%-*s %18s %10s %10s  (%s)\n", w, f->preset->name, "-", "-",
				"-", f->skip[0] ? "skipped" : "no ok repetition");
			continue;
		}
		if (f == base)
			snprintf(change, sizeof(change), "base");
		else if (isnan(base_median))
			snprintf(change, sizeof(change), "-");
		else
			snprintf(change, sizeof(change), "%+.1f%%",
				 100.0 * (median - base_median) / base_median);
		fprintf(out, "%-*s %18.0f %9.2f%% %10s\n", w, f->preset->name, median, sd, change);
	}
}

static int cmp_family_ptr(const void *a, const void *b)
{
	const struct family *x = *(const struct family *const *)a;
	const struct family *y = *(const struct family *const *)b;

	return (x > y) - (x < y);
}

/*
 * report_print - one table per group, in the order the families were planned (scenario,
 * workload, thread count), whatever order the interleaved repetitions ran in.
 */
void report_print(const struct report *r, FILE *out)
{
	const struct family **lead = xcalloc(r->n + 1, sizeof(*lead));
	size_t ng = 0;

	for (size_t i = 0; i < r->n; i++) {
		size_t g = 0;

		while (g < ng && !same_group(lead[g], r->e[i].f))
			g++;
		if (g == ng)
			lead[ng++] = r->e[i].f;
		else if (r->e[i].f < lead[g]) {
			lead[g] = r->e[i].f; /* families are planned in one array, in order */
		}
	}
	qsort(lead, ng, sizeof(*lead), cmp_family_ptr);
	for (size_t g = 0; g < ng; g++)
		for (size_t i = 0; i < r->n; i++)
			if (same_group(r->e[i].f, lead[g])) {
				print_group(r, i, out);
				break;
			}
	free(lead);
}
