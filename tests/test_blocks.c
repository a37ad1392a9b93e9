// SPDX-License-Identifier: MIT
/*
 * test_blocks.c - the block design's stopping rule (harness/engines/measure/blocks.c), as the
 * measure driver uses it: the fewest blocks for a verdict (6 for one comparison, 8 for four); a
 * block with a disturbed window is left out and another block is needed; a table is done
 * when its comparisons are precise enough, at -r blocks, or at the maximum; the window the
 * budget gives; a fresh order per block is a permutation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blocks.h"
#include "stats.h"
#include "check.h"

/* ratio - preset k's ops/s in block b of a table whose other presets are 2x the base,
 * with a spread of @spread (0: none) that alternates sign from block to block. */
static double value(int k, int b, double spread)
{
	double base = 1e6 * (1 + 0.5 * (b % 3)); /* the machine drifts between blocks */

	return k ? 2 * base * (1 + ((b % 2) ? spread : -spread)) : base;
}

static void fill(struct bl_table *t, int from, int to, double spread)
{
	for (int b = from; b < to; b++)
		for (int k = 0; k < t->n; k++)
			blocks_record(t, k, b, value(k, b, spread), NULL);
}

int main(void)
{
	struct bl_table t;
	int fam[5] = {0, 1, 2, 3, 4};

	/* the fewest blocks: 2/2^n times the Holm factor below 0.05 */
	CHECK(stats_signrank_blocks_needed(1, 0.05) == 6, "one comparison: %d blocks",
	      stats_signrank_blocks_needed(1, 0.05));
	CHECK(stats_signrank_blocks_needed(2, 0.05) == 7, "two: %d",
	      stats_signrank_blocks_needed(2, 0.05));
	CHECK(stats_signrank_blocks_needed(4, 0.05) == 8, "four: %d",
	      stats_signrank_blocks_needed(4, 0.05));
	blocks_table_init(&t, fam, 5);
	CHECK(t.need == 8, "a table of 5 presets needs %d blocks, want 8", t.need);
	blocks_table_free(&t);

	/* A block with a disturbed window (NaN) is left out: 6 blocks, 5 clean, not done. */
	blocks_table_init(&t, fam, 2);
	fill(&t, 0, 6, 0.001);
	blocks_record(&t, 1, 2, NAN, NULL); /* block 3's second preset was disturbed */
	blocks_judge(&t, 5, 0, 50);
	CHECK(t.blocks == 6 && t.nclean == 5, "blocks %d, clean %d: want 6, 5", t.blocks, t.nclean);
	CHECK(!t.done, "done with 5 clean blocks of the 6 needed");
	CHECK(t.met == 0, "target met with too few clean blocks");
	/* ...the next block makes 6 clean ones: precise (ratios within 0.1%), done */
	fill(&t, 6, 7, 0.001);
	blocks_judge(&t, 5, 0, 50);
	CHECK(t.nclean == 6 && t.done && t.met == 1, "7 blocks: clean %d, done %d, met %d",
	      t.nclean, t.done, t.met);
	CHECK(t.worst < 1, "ci half-width %g, want < 1 point", t.worst);
	/* A block whose windows' probes span over RESULTS_REMAP_RATIO (the host moved the vCPUs
	 * between its windows: base at 28 ns, the other at 105 ns) is left out too. */
	{
		const double fast[2] = {27, 28}, slow[2] = {98, 105}, near[2] = {80, 110};

		fill(&t, 7, 8, 0.001);
		blocks_record(&t, 0, 7, value(0, 7, 0.001), fast);
		blocks_record(&t, 1, 7, value(1, 7, 0.001), slow);
		fill(&t, 8, 9, 0.001);
		blocks_record(&t, 0, 8, value(0, 8, 0.001), slow);
		blocks_record(&t, 1, 8, value(1, 8, 0.001), near);
		blocks_judge(&t, 5, 0, 50);
		CHECK(t.blocks == 9 && t.nclean == 7,
		      "probes 27-105 ns in block 8: clean %d, want 7", t.nclean);
	}
	blocks_table_free(&t);

	/* Imprecise (ratios 2x +-30%): not done at the fewest blocks, done at the maximum. */
	blocks_table_init(&t, fam, 2);
	fill(&t, 0, 8, 0.3);
	blocks_judge(&t, 5, 0, 10);
	CHECK(!t.done && t.met == 0 && t.worst > 5, "imprecise: done %d, met %d, worst %g", t.done,
	      t.met, t.worst);
	fill(&t, 8, 10, 0.3);
	blocks_judge(&t, 5, 0, 10);
	CHECK(t.done && t.met == 0, "at --max-blocks 10: done %d, met %d", t.done, t.met);
	blocks_table_free(&t);

	/* -r 3: exactly 3 blocks, whatever the precision. */
	blocks_table_init(&t, fam, 2);
	fill(&t, 0, 2, 0.3);
	blocks_judge(&t, 5, 3, 50);
	CHECK(!t.done, "-r 3: done after 2 blocks");
	fill(&t, 2, 3, 0.3);
	blocks_judge(&t, 5, 3, 50);
	CHECK(t.done, "-r 3: not done after 3 blocks");
	blocks_table_free(&t);

	/* Every window disturbed: no clean block, never met. */
	blocks_table_init(&t, fam, 2);
	for (int b = 0; b < 20; b++)
		for (int k = 0; k < 2; k++)
			blocks_record(&t, k, b, NAN, NULL);
	blocks_judge(&t, 5, 0, 50);
	CHECK(t.nclean == 0 && !t.done && t.met == 0, "all disturbed: clean %d, done %d", t.nclean,
	      t.done);
	blocks_table_free(&t);

	/* The window for the budget: the fewest blocks fill half of it, within [0.02, 0.2]. */
	CHECK(fabs(blocks_window(90, 668) - 0.043) < 1e-9, "90 s, 668 windows: %g s",
	      blocks_window(90, 668));
	CHECK(blocks_window(90, 12) == BLOCKS_WINDOW_MAX, "few windows: %g", blocks_window(90, 12));
	CHECK(blocks_window(1, 10000) == BLOCKS_WINDOW_MIN, "a tiny budget: %g",
	      blocks_window(1, 10000));
	CHECK(668 * blocks_window_cost(blocks_window(90, 668)) <= 45.0 + 1e-9,
	      "the fewest blocks take more than half the budget");

	/* A fresh order per block: a permutation, and not always the same one. */
	{
		uint64_t st = 12345;
		int order[8], first[8], differ = 0;

		for (int round = 0; round < 10; round++) {
			int seen[8] = {0};

			for (int i = 0; i < 8; i++)
				order[i] = i;
			blocks_shuffle(order, 8, &st);
			for (int i = 0; i < 8; i++)
				seen[order[i]]++;
			for (int i = 0; i < 8; i++)
				CHECK(seen[i] == 1, "round %d: %d seen %d times", round, i,
				      seen[i]);
			if (!round)
				memcpy(first, order, sizeof(first));
			else
				differ += memcmp(first, order, sizeof(first)) != 0;
		}
		CHECK(differ > 0, "ten shuffles gave the same order");
	}
	if (!failures)
		printf("ok: blocks\n");
	return failures != 0;
}
