// SPDX-License-Identifier: MIT
/* blocks.c - the block design's stopping rule and window choice (blocks.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "results.h"
#include "stats.h"
#include "util.h"

void blocks_table_init(struct bl_table *t, const int *fam, int n)
{
	memset(t, 0, sizeof(*t));
	t->n = n;
	t->fam = xcalloc((size_t)n, sizeof(*t->fam));
	memcpy(t->fam, fam, (size_t)n * sizeof(*fam));
	t->val = xcalloc((size_t)n, sizeof(*t->val));
	t->need = n > 1 ? stats_signrank_blocks_needed(n - 1, BLOCKS_ALPHA) : 1;
	t->worst = NAN;
}

void blocks_table_free(struct bl_table *t)
{
	for (int k = 0; k < t->n; k++)
		free(t->val[k]);
	free(t->val);
	free(t->xlo);
	free(t->xhi);
	free(t->fam);
	memset(t, 0, sizeof(*t));
}

void blocks_record(struct bl_table *t, int k, int b, double ops_per_s, const double xfer_ns[2])
{
	if (b >= t->cap) {
		int cap = t->cap ? 2 * t->cap : 16;

		while (cap <= b)
			cap *= 2;
		for (int j = 0; j < t->n; j++) {
			t->val[j] = xrealloc(t->val[j], (size_t)cap * sizeof(double));
			for (int i = t->cap; i < cap; i++)
				t->val[j][i] = NAN;
		}
		t->xlo = xrealloc(t->xlo, (size_t)cap * sizeof(double));
		t->xhi = xrealloc(t->xhi, (size_t)cap * sizeof(double));
		for (int i = t->cap; i < cap; i++)
			t->xlo[i] = t->xhi[i] = NAN;
		t->cap = cap;
	}
	t->val[k][b] = ops_per_s > 0 ? ops_per_s : NAN;
	for (int i = 0; xfer_ns && i < 2; i++) {
		if (!(xfer_ns[i] > 0))
			continue;
		if (!(t->xlo[b] <= xfer_ns[i]))
			t->xlo[b] = xfer_ns[i];
		if (!(t->xhi[b] >= xfer_ns[i]))
			t->xhi[b] = xfer_ns[i];
	}
	if (b + 1 > t->blocks)
		t->blocks = b + 1;
}

void blocks_judge(struct bl_table *t, double precision, int fixed, int max)
{
	double *vb = xcalloc((size_t)t->blocks + 1, sizeof(double));
	double *vo = xcalloc((size_t)t->blocks + 1, sizeof(double));
	int base_clean = 0;

	t->met = 0;
	t->worst = NAN;
	/* a table of its base alone: its clean blocks */
	for (int b = 0; b < t->blocks; b++)
		base_clean += !isnan(t->val[0][b]) && !results_remapped(t->xlo[b], t->xhi[b]);
	t->nclean = t->n > 1 ? t->blocks : base_clean;
	for (int k = 1; k < t->n; k++) {
		struct block_change bc;
		int m = 0;

		/* the comparison's blocks: its two windows clean, the block on one mapping */
		for (int b = 0; b < t->blocks; b++)
			if (!isnan(t->val[0][b]) && !isnan(t->val[k][b]) &&
			    !results_remapped(t->xlo[b], t->xhi[b]))
				vb[m] = t->val[0][b], vo[m++] = t->val[k][b];
		if (m < t->nclean)
			t->nclean = m;
		if (stats_block_change(vb, vo, m, BLOCKS_SEED, &bc)) {
			t->worst = INFINITY;
			continue;
		}
		if (!(t->worst >= (bc.hi - bc.lo) / 2))
			t->worst = (bc.hi - bc.lo) / 2;
		t->met += m >= t->need && (bc.hi - bc.lo) / 2 <= precision;
	}
	if (fixed > 0)
		t->done = t->blocks >= fixed;
	else
		t->done = (t->nclean >= t->need && t->met == t->n - 1) || t->blocks >= max;
	free(vb);
	free(vo);
}

double blocks_window_cost(double window_s)
{
	return 1.1 * window_s + BLOCKS_WINDOW_OVERHEAD;
}

double blocks_window(double budget, int windows_min)
{
	double w = windows_min > 0 ? (budget / 2 / windows_min - BLOCKS_WINDOW_OVERHEAD) / 1.1
				   : BLOCKS_WINDOW_MAX;

	if (!(w <= BLOCKS_WINDOW_MAX))
		w = BLOCKS_WINDOW_MAX;
	if (w < BLOCKS_WINDOW_MIN)
		w = BLOCKS_WINDOW_MIN;
	/* whole milliseconds: the window_s column and context.json stay short */
	return round(w * 1000) / 1000;
}

void blocks_shuffle(int *order, int n, uint64_t *state)
{
	for (int i = n - 1; i > 0; i--) {
		uint64_t x;
		int j, tmp;

		/* xorshift64*: a fresh order per block, not a statistic */
		*state ^= *state >> 12;
		*state ^= *state << 25;
		*state ^= *state >> 27;
		x = *state * 2685821657736338717ULL;
		j = (int)(x % (uint64_t)(i + 1));
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
}
