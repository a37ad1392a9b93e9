/* SPDX-License-Identifier: MIT */
/*
 * qspinlock.h - the kernel's queued spinlock (kernel/locking/qspinlock.c, x86_64, no
 * paravirt), as lru_lock is one: a 4-byte word with the `locked` byte (0), the `pending`
 * byte (1) and the MCS queue `tail` (bits 16-17 the nesting index, bits 18-31 CPU + 1:
 * encode_tail), and per-CPU
 * MCS nodes (struct mcs_spinlock: next, locked, count; four per CPU for nesting levels,
 * DEFINE_PER_CPU_ALIGNED). Who touches what:
 *
 *  - the holder: the fast-path cmpxchg 0 -> locked, and the unlock store of `locked`;
 *  - the first waiter sets `pending` (x86: `lock btsl`, then a read of the word) and waits
 *    with reads of the word for the locked byte to clear, then takes the lock with one
 *    store of locked_pending (clear pending, set locked);
 *  - further waiters queue: they count themselves in their node (qnodes[0].count++, undone
 *    when they hold the lock), initialise it, read the word once (trylock),
 *    exchange `tail` with themselves, link into the predecessor's node (store to its
 *    `next`) and spin on their OWN node until the predecessor hands the queue head on;
 *  - the queue head spins on the word until locked and pending are clear, then takes the
 *    lock (cmpxchg if it is the last in the queue, else a store of `locked`), waits for its
 *    successor to link if needed and hands the head on with one store into the
 *    successor's node.
 *
 * So with many waiters only the holder, the pending waiter and the queue head touch the
 * lock's line; the others spin on lines of their own. Modelled differences, documented in
 * docs/scenarios.md: one node per CPU (no nesting: lru_lock is taken with interrupts off),
 * the bounded re-read while a pending->locked handover is in flight (x86: up to 512
 * reads) is one re-read, no prefetchw, and a node's `locked` word holds 1 while its owner
 * waits and 0 to let it go (the kernel's is 0 then 1), so that every wait loop in the
 * accessor layer spins while the bytes it waits on are non-zero. A wait's loads are traced as
 * loads of exactly those bytes (the kernel's atomic_cond_read_acquire loads all 4; the line
 * is the same): `locked` (1 byte) for the pending waiter, locked_pending (2) for the queue
 * head, so the waiter's own pending bit or tail never makes its wait look unfinished to the
 * model's parking rule. Uses access.h only.
 */
#ifndef PCBENCH_QSPINLOCK_H
#define PCBENCH_QSPINLOCK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "access.h"
#include "lbuild.h"

#define Q_LOCKED 0x1
#define Q_PENDING 0x100
#define Q_LOCKED_MASK 0xff
#define Q_PENDING_MASK 0xff00
#define Q_LOCKED_PENDING_MASK 0xffff
#define Q_TAIL_MASK ((int)0xffff0000u)
#define Q_TAIL_IDX_SHIFT 16
#define Q_TAIL_CPU_SHIFT 18

/* struct mcs_spinlock, one per CPU, each on its own QNODE_STRIDE bytes (per-CPU areas). */
#define QNODE_NEXT 0
#define QNODE_LOCKED 8
#define QNODE_COUNT 12
#define QNODE_SIZE 16
#define QNODE_STRIDE 128

/* The MCS nodes of every CPU (thread): node of CPU c at nodes + c * QNODE_STRIDE. */
struct qspin_nodes {
	char *nodes;
	int ncpus;
};

static inline char *qnode_of(const struct qspin_nodes *q, int cpu)
{
	return q->nodes + (long)cpu * QNODE_STRIDE;
}

/* encode_tail: nesting index 0 (one node per CPU). */
static inline int qspin_tail(int cpu)
{
	return (int)((unsigned)(cpu + 1) << Q_TAIL_CPU_SHIFT | 0u << Q_TAIL_IDX_SHIFT);
}

/* qnode_count_add - node->count++ / __this_cpu_dec: a plain per-CPU read and write. */
static inline void qnode_count_add(char *node, int d)
{
	pc_lock *c = (pc_lock *)(node + QNODE_COUNT);

	pc_lock_store_part(c, -1, pc_lock_read(c) + d, 0, 4);
}

/* queued_spin_lock_slowpath - everything after a failed fast-path cmpxchg that saw @val. */
static inline void queued_spin_lock_slowpath(pc_lock *lock, const struct qspin_nodes *q, int cpu,
					     int val)
{
	char *node, *next = NULL;
	const int tail = qspin_tail(cpu);
	int old;

	if (val == Q_PENDING) /* a pending->locked handover in flight: look again */
		val = pc_lock_read(lock);
	if (val & ~Q_LOCKED_MASK)
		goto queue; /* pending or a queue already: join the queue */

	/* become the pending waiter: x86 `lock btsl` of the pending bit, then a read */
	val = pc_lock_fetch_or(lock, Q_PENDING) & Q_PENDING;
	val |= pc_lock_read(lock) & ~Q_PENDING_MASK;
	if (val & ~Q_LOCKED_MASK) {
		if (!(val & Q_PENDING_MASK)) /* we set pending while a queue formed: undo */
			pc_lock_store_part(lock, Q_PENDING_MASK, 0, 1, 1);
		goto queue;
	}
	if (val & Q_LOCKED_MASK) /* reads until the holder leaves: the locked byte */
		pc_lock_wait(lock, 0, 1);
	/* clear_pending_set_locked: one 2-byte store of locked_pending */
	pc_lock_store_part(lock, Q_LOCKED_PENDING_MASK, Q_LOCKED, 0, 2);
	return;

queue:
	node = qnode_of(q, cpu);
	qnode_count_add(node, 1);
	pc_store_ptr((pc_word *)(node + QNODE_NEXT), NULL);
	pc_lock_store_part((pc_lock *)(node + QNODE_LOCKED), -1, 1, 0, 4); /* 1: waiting */
	/* queued_spin_trylock: read first, cmpxchg only if free */
	val = pc_lock_read(lock);
	if (!val && !pc_lock_cmpxchg(lock, 0, Q_LOCKED))
		goto release;
	/* xchg_tail: publish ourselves as the queue's tail */
	old = pc_lock_xchg_part(lock, Q_TAIL_MASK, tail, 2, 2);
	if (old & Q_TAIL_MASK) {
		char *prev = qnode_of(q, (int)((unsigned)old >> Q_TAIL_CPU_SHIFT) - 1);

		pc_store_ptr((pc_word *)(prev + QNODE_NEXT), node);
		/* arch_mcs_spin_lock_contended: spin on our own node */
		pc_lock_wait((pc_lock *)(node + QNODE_LOCKED), 0, 4);
		next = pc_load_ptr((pc_word *)(node + QNODE_NEXT));
	}
	/* the queue head: wait until neither a holder nor a pending waiter is left */
	val = pc_lock_wait(lock, 0, 2); /* locked_pending: the word's other bytes are the tail */
	if ((val & Q_TAIL_MASK) == tail && pc_lock_cmpxchg(lock, val, Q_LOCKED) == val)
		goto release; /* the last in the queue: lock and clear the tail at once */
	pc_lock_store_part(lock, Q_LOCKED_MASK, Q_LOCKED, 0, 1); /* set_locked */
	for (unsigned spins = 0; !next;) {			 /* the successor is linking */
		next = pc_load_ptr((pc_word *)(node + QNODE_NEXT));
		if (!next)
			pc_spin_pause(&spins);
	}
	/* arch_mcs_spin_unlock_contended: the successor becomes the queue head */
	pc_lock_store_part((pc_lock *)(next + QNODE_LOCKED), -1, 0, 0, 4);
release:
	qnode_count_add(node, -1);
}

/* queued_spin_lock - the fast path: cmpxchg 0 -> locked; else the slow path. */
static inline void queued_spin_lock(pc_lock *lock, const struct qspin_nodes *q, int cpu)
{
	int val = pc_lock_cmpxchg(lock, 0, Q_LOCKED);

	if (val)
		queued_spin_lock_slowpath(lock, q, cpu, val);
}

/* queued_spin_unlock - smp_store_release of the locked byte. */
static inline void queued_spin_unlock(pc_lock *lock)
{
	pc_lock_store_part(lock, Q_LOCKED_MASK, 0, 0, 1);
}

/* The layout text of the nodes object for @ncpus CPUs (malloc'd). */
static inline char *qspin_layout_text(int ncpus)
{
	struct builder b = {0};
	struct bstruct *s = b_struct(&b, "mcs_spinlock");
	char *t;

	b_field(s, "next", 8, 8, "ptr");
	b_field(s, "locked", 4, 4, "lock");
	b_field(s, "count", 4, 4, "plain");
	b_end(s);
	s = b_struct(&b, "qnodes");
	for (int c = 0; c < ncpus; c++) {
		char name[16];

		snprintf(name, sizeof(name), "cpu%d", c);
		b_field(s, name, QNODE_SIZE, QNODE_STRIDE, "mcs_spinlock");
	}
	b_end(s);
	t = b_text(&b, "qspinlock-nodes",
		   "the per-CPU MCS nodes of the queued spinlock (qspinlock.h)");
	b_free(&b);
	return t;
}

#endif
