// SPDX-License-Identifier: MIT
/*
 * test_fbatch.c - per_node's lru_lock holds per operation on each side, by hand. One
 * thread, steady state (depth pages mapped): each operation unmaps one folio and faults
 * one, so the lru_add batch is drained once per fbatch_add faults and the free side takes
 * the lock once per fbatch_free unmapped folios. v6.0 (15 / 32: PAGEVEC_SIZE and
 * release_pages' SWAP_CLUSTER_MAX): in 480 operations 32 add holds and 15 free holds;
 * v6.9 and later (31 / 31, 9cecde80aae0): in 310 operations 10 and 10. Uncontended, each
 * qspinlock hold is one fast-path cmpxchg; the list operation after it names the side.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "check.h"
#include "scenario_inst.h"

static const volatile void *lock_word;
static long holds[2]; /* lru_add side, free side */
static int taken;     /* a hold began: the next list operation says which side */

static void hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	(void)size;
	if (addr == lock_word && op == PC_OP_CMPXCHG)
		taken = 1;
	else if (taken &&
		 (!strcmp(site, "lruvec_add_folio") || !strcmp(site, "lruvec_del_folio"))) {
		holds[strcmp(site, "lruvec_add_folio") ? 1 : 0]++;
		taken = 0;
	}
}

static void check_preset(const char *preset, long ops, long add, long fr)
{
	struct inst in;
	char what[200];
	void *ts;

	if (inst_open(&in, "per_node", preset, "shared", 1, NULL, 0, 0)) {
		inst_close(&in);
		return;
	}
	lock_word = obj_word(&in.obj[0], "lruvec.lru_lock");
	ts = scenario_thread_setup(in.sc, in.shared, 0);
	in.sc->run(in.shared, ts, 2 * (uint64_t)ops); /* past depth, whole batches */
	memset(holds, 0, sizeof(holds));
	pc_trace_hook = hook;
	in.sc->run(in.shared, ts, (uint64_t)ops);
	pc_trace_hook = NULL;
	snprintf(what, sizeof(what), "%s: lru_add holds in %ld ops", preset, ops);
	CHECK_EQ(what, holds[0], add);
	snprintf(what, sizeof(what), "%s: free-side holds in %ld ops", preset, ops);
	CHECK_EQ(what, holds[1], fr);
	printf("%s: %.4f + %.4f lru_lock holds per op\n", preset, (double)add / (double)ops,
	       (double)fr / (double)ops);
	scenario_thread_teardown(in.sc, in.shared, ts);
	inst_close(&in);
}

int main(void)
{
	check_preset("v6.0", 480, 32, 15);
	check_preset("regressed", 310, 10, 10);
	check_preset("fixed", 310, 10, 10);
	if (failures) {
		fprintf(stderr, "test_fbatch: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_fbatch: all checks passed\n");
	return 0;
}
