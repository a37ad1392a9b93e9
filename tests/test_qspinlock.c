// SPDX-License-Identifier: MIT
/*
 * test_qspinlock.c - the queued spinlock of benches/qspinlock.h (lru_lock in per_node), by
 * hand through the accessor layer. CPU 0 takes the lock alone on one thread; the other CPUs
 * of each case are played by the trace hook, which changes the lock word or a node right
 * before the access that would see it (pc_trace runs before every access). Each case
 * asserts the exact sequence of accesses (op, which word, size) and the final state:
 *
 *  A. free: one cmpxchg; the unlock is one 1-byte store;
 *  B. held: cmpxchg, fetch_or (pending: x86 `lock btsl`) and a read of the word, waits on
 *     the locked byte (1 byte) until it clears, one 2-byte store (clear_pending_set_locked);
 *     no MCS node touched, its count neither; B2: the same holder leaving at the third look;
 *  C. held and pending: CPU 0 queues as the head: qnodes[0].count++ (a 4-byte read and
 *     write), its node's two stores, a read of the word, the tail exchange ((cpu + 1) << 18),
 *     waits on locked_pending (2 bytes) until locked and pending clear, the cmpxchg that
 *     takes the lock and clears the tail, the count's decrement;
 *  D. held with CPU 5 queued: CPU 0 links into CPU 5's node and waits on ITS OWN node (not
 *     on the lock word) until CPU 5 hands the queue head on;
 *  E. CPU 0 is the head and CPU 3 queues behind it: set_locked, then the hand-over into CPU
 *     3's node.
 *
 * In every case, each wait's reported bytes are non-zero exactly when its loop goes on (the
 * next access is the same wait): what the model's parking rule relies on (issue 36: a
 * waiter's own pending bit or tail in a reported 4-byte word parked it for good).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "qspinlock.h"

#define NCPU 8

static _Alignas(128) pc_lock lockword[32];
static char *nodes;
static struct qspin_nodes q;

enum where {
	W_LOCK,
	W_LOCK_TAIL,
	W_NODE0_NEXT,
	W_NODE0_LOCKED,
	W_NODE0_COUNT,
	W_NODE3_LOCKED,
	W_NODE5_NEXT,
	W_OTHER
};
static const char *const where_names[] = {"lock",	  "lock.tail",	 "node0.next",
					  "node0.locked", "node0.count", "node3.locked",
					  "node5.next",	  "other"};

struct acc {
	enum pc_op op;
	enum where w;
	unsigned size;
};

static struct acc seen[64];
static int nseen;
static void (*on_access)(int i, const struct acc *a);
/* the wait that came just before: its address and whether its reported bytes were non-zero */
static const volatile void *wait_addr;
static int wait_busy = -1; /* -1: the access before was no wait */
static int nlooks;	   /* B2's waits so far */

static enum where where_of(const volatile void *addr)
{
	const char *p = (const char *)addr;

	if (p == (const char *)lockword)
		return W_LOCK;
	if (p == (const char *)lockword + 2)
		return W_LOCK_TAIL;
	if (p == qnode_of(&q, 0) + QNODE_NEXT)
		return W_NODE0_NEXT;
	if (p == qnode_of(&q, 0) + QNODE_LOCKED)
		return W_NODE0_LOCKED;
	if (p == qnode_of(&q, 0) + QNODE_COUNT)
		return W_NODE0_COUNT;
	if (p == qnode_of(&q, 3) + QNODE_LOCKED)
		return W_NODE3_LOCKED;
	if (p == qnode_of(&q, 5) + QNODE_NEXT)
		return W_NODE5_NEXT;
	return W_OTHER;
}

/* bytes_nonzero - is any of the @size bytes at @addr non-zero (what lock_busy reads)? */
static int bytes_nonzero(const volatile void *addr, unsigned size)
{
	const volatile unsigned char *p = addr;

	for (unsigned i = 0; i < size; i++)
		if (p[i])
			return 1;
	return 0;
}

static void hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	struct acc a = {op, where_of(addr), size};
	int again = op == PC_OP_WAIT && addr == wait_addr;

	(void)site;
	if (nseen < 64)
		seen[nseen] = a;
	CHECK(wait_busy < 0 || wait_busy == again,
	      "access %d (%s %s): the wait before it reported %s bytes but its loop %s", nseen,
	      pc_op_name(op), where_names[a.w], wait_busy ? "non-zero" : "zero",
	      again ? "went on" : "ended");
	if (on_access)
		on_access(nseen, &a);
	/* the load follows the hook: it sees the word as on_access left it */
	wait_busy = op == PC_OP_WAIT ? bytes_nonzero(addr, size) : -1;
	wait_addr = addr;
	nseen++;
	if (nseen > 60) {
		fprintf(stderr, "FATAL: more than 60 accesses: a wait that never ends\n");
		exit(2);
	}
}

static void set_word(int v)
{
	atomic_store((pc_lock *)lockword, v);
}

static int word(void)
{
	return atomic_load((pc_lock *)lockword);
}

static void reset(int v)
{
	memset(nodes, 0, NCPU * QNODE_STRIDE);
	set_word(v);
	nseen = 0;
	on_access = NULL;
	wait_busy = -1;
}

static void expect(const char *what, const struct acc *want, int n)
{
	CHECK(nseen == n, "%s: %d accesses, want %d", what, nseen, n);
	for (int i = 0; i < n && i < nseen; i++)
		CHECK(seen[i].op == want[i].op && seen[i].w == want[i].w &&
			  seen[i].size == want[i].size,
		      "%s: access %d is %s %s (%u B), want %s %s (%u B)", what, i,
		      pc_op_name(seen[i].op), where_names[seen[i].w], seen[i].size,
		      pc_op_name(want[i].op), where_names[want[i].w], want[i].size);
}

/* B: the holder leaves while CPU 0 waits on the locked byte (our pending bit stays). */
static void b_holder_leaves(int i, const struct acc *a)
{
	(void)i;
	if (a->op == PC_OP_WAIT && a->w == W_LOCK)
		set_word(Q_PENDING);
}

/* B2: the holder leaves at the pending waiter's third look at the locked byte. */
static void b2_holder_stays(int i, const struct acc *a)
{
	(void)i;
	if (a->op == PC_OP_WAIT && a->w == W_LOCK && ++nlooks == 3)
		set_word(Q_PENDING);
}

/* C: the holder and the pending waiter are gone when the head looks: only our tail is left. */
static void c_all_gone(int i, const struct acc *a)
{
	(void)i;
	if (a->op == PC_OP_WAIT && a->w == W_LOCK)
		set_word(qspin_tail(0));
}

/*
 * D: CPU 5 (queued before us) takes the lock and hands the queue head to us while we wait on
 * our node; then it unlocks while we wait on the word.
 */
static void d_predecessor(int i, const struct acc *a)
{
	(void)i;
	if (a->op == PC_OP_WAIT && a->w == W_NODE0_LOCKED) {
		set_word(Q_LOCKED | qspin_tail(0));
		atomic_store((pc_lock *)(qnode_of(&q, 0) + QNODE_LOCKED), 0);
	}
	if (a->op == PC_OP_WAIT && a->w == W_LOCK)
		set_word(qspin_tail(0));
}

/* E: while we (the head) wait on the word, CPU 3 queues behind us and the holders leave. */
static void e_successor(int i, const struct acc *a)
{
	(void)i;
	if (a->op == PC_OP_WAIT && a->w == W_LOCK) {
		atomic_store((pc_lock *)(qnode_of(&q, 3) + QNODE_LOCKED), 1);
		atomic_store((pc_word *)(qnode_of(&q, 0) + QNODE_NEXT),
			     (long)(uintptr_t)qnode_of(&q, 3));
		set_word(qspin_tail(3));
	}
}

int main(void)
{
	nodes = aligned_alloc(QNODE_STRIDE, NCPU * QNODE_STRIDE);
	q.nodes = nodes;
	q.ncpus = NCPU;
	pc_trace_hook = hook;

	{ /* A */
		const struct acc lock[] = {{PC_OP_CMPXCHG, W_LOCK, 4}},
				 unlock[] = {{PC_OP_STORE, W_LOCK, 1}};

		reset(0);
		queued_spin_lock(lockword, &q, 0);
		expect("A free: lock", lock, 1);
		CHECK_EQ("A: word after lock", word(), Q_LOCKED);
		nseen = 0;
		queued_spin_unlock(lockword);
		expect("A free: unlock", unlock, 1);
		CHECK_EQ("A: word after unlock", word(), 0);
	}
	{ /* B */
		const struct acc want[] = {{PC_OP_CMPXCHG, W_LOCK, 4},
					   {PC_OP_OR, W_LOCK, 4},
					   {PC_OP_LOAD, W_LOCK, 4},
					   {PC_OP_WAIT, W_LOCK, 1},
					   {PC_OP_STORE, W_LOCK, 2}};
		const struct acc want2[] = {{PC_OP_CMPXCHG, W_LOCK, 4}, {PC_OP_OR, W_LOCK, 4},
					    {PC_OP_LOAD, W_LOCK, 4},	{PC_OP_WAIT, W_LOCK, 1},
					    {PC_OP_WAIT, W_LOCK, 1},	{PC_OP_WAIT, W_LOCK, 1},
					    {PC_OP_STORE, W_LOCK, 2}};

		reset(Q_LOCKED);
		on_access = b_holder_leaves;
		queued_spin_lock(lockword, &q, 0);
		expect("B held: the pending waiter", want, 5);
		CHECK_EQ("B: word", word(), Q_LOCKED);
		reset(Q_LOCKED);
		nlooks = 0;
		on_access = b2_holder_stays;
		queued_spin_lock(lockword, &q, 0);
		expect("B2 held for three looks: the pending waiter spins", want2, 7);
		CHECK_EQ("B2: word", word(), Q_LOCKED);
	}
	{ /* C */
		const struct acc want[] = {
		    {PC_OP_CMPXCHG, W_LOCK, 4},	      {PC_OP_LOAD, W_NODE0_COUNT, 4},
		    {PC_OP_STORE, W_NODE0_COUNT, 4},  {PC_OP_STORE, W_NODE0_NEXT, 8},
		    {PC_OP_STORE, W_NODE0_LOCKED, 4}, {PC_OP_LOAD, W_LOCK, 4},
		    {PC_OP_XCHG, W_LOCK_TAIL, 2},     {PC_OP_WAIT, W_LOCK, 2},
		    {PC_OP_CMPXCHG, W_LOCK, 4},	      {PC_OP_LOAD, W_NODE0_COUNT, 4},
		    {PC_OP_STORE, W_NODE0_COUNT, 4}};

		reset(Q_LOCKED | Q_PENDING);
		on_access = c_all_gone;
		queued_spin_lock(lockword, &q, 0);
		expect("C held and pending: the queue head", want, 11);
		CHECK_EQ("C: tail of CPU 0", qspin_tail(0), 1 << 18);
		CHECK_EQ("C: node count back to 0",
			 (long)atomic_load((pc_lock *)(qnode_of(&q, 0) + QNODE_COUNT)), 0);
		CHECK_EQ("C: word (locked, tail cleared)", word(), Q_LOCKED);
	}
	{ /* D */
		const struct acc want[] = {
		    {PC_OP_CMPXCHG, W_LOCK, 4},	      {PC_OP_LOAD, W_NODE0_COUNT, 4},
		    {PC_OP_STORE, W_NODE0_COUNT, 4},  {PC_OP_STORE, W_NODE0_NEXT, 8},
		    {PC_OP_STORE, W_NODE0_LOCKED, 4}, {PC_OP_LOAD, W_LOCK, 4},
		    {PC_OP_XCHG, W_LOCK_TAIL, 2},     {PC_OP_STORE, W_NODE5_NEXT, 8},
		    {PC_OP_WAIT, W_NODE0_LOCKED, 4},  {PC_OP_LOAD, W_NODE0_NEXT, 8},
		    {PC_OP_WAIT, W_LOCK, 2},	      {PC_OP_CMPXCHG, W_LOCK, 4},
		    {PC_OP_LOAD, W_NODE0_COUNT, 4},   {PC_OP_STORE, W_NODE0_COUNT, 4}};

		reset(Q_LOCKED | qspin_tail(5));
		on_access = d_predecessor;
		queued_spin_lock(lockword, &q, 0);
		expect("D behind CPU 5: waits on its own node", want, 14);
		CHECK_EQ("D: word", word(), Q_LOCKED);
		CHECK_EQ("D: CPU 5's node points to ours",
			 atomic_load((pc_word *)(qnode_of(&q, 5) + QNODE_NEXT)),
			 (long)(uintptr_t)qnode_of(&q, 0));
	}
	{ /* E */
		const struct acc want[] = {
		    {PC_OP_CMPXCHG, W_LOCK, 4},	      {PC_OP_LOAD, W_NODE0_COUNT, 4},
		    {PC_OP_STORE, W_NODE0_COUNT, 4},  {PC_OP_STORE, W_NODE0_NEXT, 8},
		    {PC_OP_STORE, W_NODE0_LOCKED, 4}, {PC_OP_LOAD, W_LOCK, 4},
		    {PC_OP_XCHG, W_LOCK_TAIL, 2},     {PC_OP_WAIT, W_LOCK, 2},
		    {PC_OP_STORE, W_LOCK, 1},	      {PC_OP_LOAD, W_NODE0_NEXT, 8},
		    {PC_OP_STORE, W_NODE3_LOCKED, 4}, {PC_OP_LOAD, W_NODE0_COUNT, 4},
		    {PC_OP_STORE, W_NODE0_COUNT, 4}};

		reset(Q_LOCKED | Q_PENDING);
		on_access = e_successor;
		queued_spin_lock(lockword, &q, 0);
		expect("E head with CPU 3 behind: hand-over", want, 13);
		CHECK_EQ("E: word (locked, CPU 3's tail)", word(), Q_LOCKED | qspin_tail(3));
		CHECK_EQ("E: CPU 3 released to be the head",
			 (long)atomic_load((pc_lock *)(qnode_of(&q, 3) + QNODE_LOCKED)), 0);
	}
	pc_trace_hook = NULL;
	free(nodes);
	if (failures) {
		fprintf(stderr, "test_qspinlock: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_qspinlock: all checks passed\n");
	return 0;
}
