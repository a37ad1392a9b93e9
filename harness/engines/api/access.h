/* SPDX-License-Identifier: MIT */
/*
 * access.h - the accessor layer: the only way scenario code touches shared modelled memory.
 *
 * Every field of a modelled kernel struct is a pc_word (8 bytes) or a pc_lock (4 bytes)
 * at a byte offset taken from a layout. The accessors map one-to-one onto the kernel
 * primitives the models reproduce (READ_ONCE, WRITE_ONCE, atomic_long_add_return, xchg,
 * spin_lock ...), all as C11 atomics, so the kernel's deliberate races are race-free here.
 *
 * Compiled with PCBENCH_TRACE, each accessor first reports (op, address, size, site) to
 * pc_trace(); scenario sources are compiled twice, never copied.
 */
#ifndef PCBENCH_ACCESS_H
#define PCBENCH_ACCESS_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

typedef _Atomic long pc_word; /* atomic_long_t, unsigned long, or a pointer */
typedef _Atomic int pc_lock;  /* spinlock_t without debugging: 4 bytes */

#if defined(__x86_64__) || defined(__i386__)
#define pc_cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define pc_cpu_relax() __asm__ __volatile__("yield" ::: "memory")
#else
#define pc_cpu_relax() ((void)0)
#endif

enum pc_op {
	PC_OP_LOAD,	  /* READ_ONCE / atomic_read */
	PC_OP_STORE,	  /* WRITE_ONCE / atomic_set */
	PC_OP_ADD,	  /* atomic_long_add (no return, unordered) */
	PC_OP_ADD_RETURN, /* atomic_long_add_return / sub_return (fully ordered) */
	PC_OP_XCHG,	  /* atomic_long_xchg */
	PC_OP_CMPXCHG,	  /* atomic_long_cmpxchg */
	PC_OP_LOCK,	  /* spin_lock */
	PC_OP_UNLOCK,	  /* spin_unlock */
	PC_OP_WAIT,	  /* a load inside a wait loop (one per retry): smp_cond_load, spinning */
	PC_OP_OR,	  /* atomic_fetch_or */
	PC_OP_COUNT
};

/*
 * pc_op_name - "load", "store", "add", "add_return", "xchg", "cmpxchg", "lock", "unlock",
 * "wait", "fetch_or".
 */
const char *pc_op_name(enum pc_op op);
/* pc_op_is_write - true for every op that needs the line exclusive. */
static inline int pc_op_is_write(enum pc_op op)
{
	return op != PC_OP_LOAD && op != PC_OP_WAIT;
}

#ifdef PCBENCH_TRACE
/*
 * pc_trace - called before every shared access in the tracing build. The default
 * implementation (access.c) calls pc_trace_hook when it is set.
 */
void pc_trace(enum pc_op op, const volatile void *addr, unsigned size, const char *site);
#define PC_SITE , const char *site
#define PC_TRACE(op, p, size) pc_trace((op), (p), (size), site)
#define PC_CALL(fn, ...) fn(__VA_ARGS__, __func__)
#else
#define PC_SITE
#define PC_TRACE(op, p, size) ((void)0)
#define PC_CALL(fn, ...) fn(__VA_ARGS__)
#endif
/* Set by tests or the model; called by pc_trace in the tracing build. */
extern void (*pc_trace_hook)(enum pc_op op, const volatile void *addr, unsigned size,
			     const char *site);

static inline long pc_load_(pc_word *p PC_SITE)
{
	PC_TRACE(PC_OP_LOAD, p, sizeof(*p));
	return atomic_load_explicit(p, memory_order_relaxed);
}

static inline void pc_store_(pc_word *p, long v PC_SITE)
{
	PC_TRACE(PC_OP_STORE, p, sizeof(*p));
	atomic_store_explicit(p, v, memory_order_relaxed);
}

static inline void pc_add_(pc_word *p, long v PC_SITE)
{
	PC_TRACE(PC_OP_ADD, p, sizeof(*p));
	atomic_fetch_add_explicit(p, v, memory_order_relaxed);
}

static inline long pc_add_return_(pc_word *p, long v PC_SITE)
{
	PC_TRACE(PC_OP_ADD_RETURN, p, sizeof(*p));
	return atomic_fetch_add_explicit(p, v, memory_order_seq_cst) + v;
}

static inline long pc_xchg_(pc_word *p, long v PC_SITE)
{
	PC_TRACE(PC_OP_XCHG, p, sizeof(*p));
	return atomic_exchange_explicit(p, v, memory_order_seq_cst);
}

/* Returns the value seen; the store happened if it equals @old. */
static inline long pc_cmpxchg_(pc_word *p, long old, long v PC_SITE)
{
	PC_TRACE(PC_OP_CMPXCHG, p, sizeof(*p));
	atomic_compare_exchange_strong_explicit(p, &old, v, memory_order_seq_cst,
						memory_order_relaxed);
	return old;
}

/*
 * In the tracing build every retry is reported too: each load of the wait loop as a
 * PC_OP_WAIT of the 4-byte lock word and each new exchange as another PC_OP_LOCK, so a
 * coroutine scheduler (the coherence model) regains control while a virtual CPU spins.
 */
static inline void pc_spin_lock_(pc_lock *l PC_SITE)
{
	PC_TRACE(PC_OP_LOCK, l, sizeof(*l));
	while (atomic_exchange_explicit(l, 1, memory_order_acquire)) {
		PC_TRACE(PC_OP_WAIT, l, sizeof(*l));
		while (atomic_load_explicit(l, memory_order_relaxed)) {
			pc_cpu_relax();
			PC_TRACE(PC_OP_WAIT, l, sizeof(*l));
		}
		PC_TRACE(PC_OP_LOCK, l, sizeof(*l));
	}
}

/*
 * Lock words touched part by part (the kernel's qspinlock: a 4-byte word whose byte 0 is
 * `locked`, byte 1 `pending` and bytes 2-3 the queue `tail`; benches/qspinlock.h). The word
 * is always changed atomically as a whole (a compare-exchange loop on the bits of @mask),
 * so concurrent changes to the other bytes are kept; the trace reports what the kernel
 * does: the @size bytes at byte @off of the word.
 */
static inline int pc_lock_read_(pc_lock *l PC_SITE) /* atomic_read: a plain load, no wait */
{
	PC_TRACE(PC_OP_LOAD, l, sizeof(*l));
	return atomic_load_explicit(l, memory_order_relaxed);
}

/* Returns the value seen; the store happened if it equals @old. */
static inline int pc_lock_cmpxchg_(pc_lock *l, int old, int v PC_SITE)
{
	PC_TRACE(PC_OP_CMPXCHG, l, sizeof(*l));
	atomic_compare_exchange_strong_explicit(l, &old, v, memory_order_acquire,
						memory_order_relaxed);
	return old;
}

static inline int pc_lock_fetch_or_(pc_lock *l, int v PC_SITE)
{
	PC_TRACE(PC_OP_OR, l, sizeof(*l));
	return atomic_fetch_or_explicit(l, v, memory_order_acquire);
}

/* the bits of @mask become @v (a store of the bytes at @off); returns the old word */
static inline int pc_lock_set_part_(pc_lock *l, int mask, int v, enum pc_op op, unsigned off,
				    unsigned size PC_SITE)
{
	int old = atomic_load_explicit(l, memory_order_relaxed);

	(void)op;
	(void)off;
	(void)size;
	PC_TRACE(op, (const char *)l + off, size);
	while (!atomic_compare_exchange_weak_explicit(l, &old, (old & ~mask) | v,
						      memory_order_acq_rel, memory_order_relaxed))
		;
	return old;
}

/*
 * pc_spin_pause - one retry of a wait loop: a pause, and every 1024 retries a yield. A queued
 * lock hands over to one given waiter; the kernel spins with preemption off, but a user
 * thread can be descheduled (more threads than CPUs, or other load), and then every waiter
 * behind it would burn whole time slices. The yield touches no modelled memory.
 */
static inline void pc_spin_pause(unsigned *spins)
{
	pc_cpu_relax();
	if (!(++*spins & 1023))
		sched_yield();
}

/*
 * pc_lock_wait - spin while any of the @size bytes at byte @off of the word is non-zero
 * (smp_cond_load_acquire on those bytes; the kernel may load the whole word, the condition
 * is on these bytes only). Every load is reported as a PC_OP_WAIT of exactly those bytes, so
 * their being non-zero is exactly the condition of the loop: the model parks a vCPU whose
 * core holds the line only while this loop could not end (harness/engines/model/sim.c). The mask is
 * made from @off and @size, never given apart from them. Returns the last word.
 */
static inline int pc_lock_wait_(pc_lock *l, unsigned off, unsigned size PC_SITE)
{
	/* bytes off..off+size-1 of a little-endian word, as qspinlock.h lays it out */
	const int mask = size >= sizeof(*l) ? -1 : (int)(((1u << (8 * size)) - 1) << (8 * off));
	unsigned spins = 0;

	_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte @off of a lock word");
	for (;;) {
		int v;

		PC_TRACE(PC_OP_WAIT, (const char *)l + off, size);
		v = atomic_load_explicit(l, memory_order_acquire);
		if (!(v & mask))
			return v;
		pc_spin_pause(&spins);
	}
}

static inline void pc_spin_unlock_(pc_lock *l PC_SITE)
{
	PC_TRACE(PC_OP_UNLOCK, l, sizeof(*l));
	atomic_store_explicit(l, 0, memory_order_release);
}

#define pc_load(p) PC_CALL(pc_load_, p)
#define pc_store(p, v) PC_CALL(pc_store_, p, v)
#define pc_add(p, v) PC_CALL(pc_add_, p, v)
#define pc_add_return(p, v) PC_CALL(pc_add_return_, p, v)
#define pc_sub_return(p, v) PC_CALL(pc_add_return_, p, -(v))
#define pc_xchg(p, v) PC_CALL(pc_xchg_, p, v)
#define pc_cmpxchg(p, o, v) PC_CALL(pc_cmpxchg_, p, o, v)
#define pc_spin_lock(l) PC_CALL(pc_spin_lock_, l)
#define pc_spin_unlock(l) PC_CALL(pc_spin_unlock_, l)
#define pc_lock_read(l) PC_CALL(pc_lock_read_, l)
#define pc_lock_cmpxchg(l, o, v) PC_CALL(pc_lock_cmpxchg_, l, o, v)
#define pc_lock_fetch_or(l, v) PC_CALL(pc_lock_fetch_or_, l, v)
/* WRITE_ONCE / smp_store_release of the @size bytes at @off, holding the bits of @mask */
#define pc_lock_store_part(l, mask, v, off, size)                                                  \
	((void)PC_CALL(pc_lock_set_part_, l, mask, v, PC_OP_STORE, off, size))
/* xchg of the @size bytes at @off (the bits of @mask); returns the old word */
#define pc_lock_xchg_part(l, mask, v, off, size)                                                   \
	PC_CALL(pc_lock_set_part_, l, mask, v, PC_OP_XCHG, off, size)
/* wait until the @size bytes at byte @off of the word are all zero; returns the word */
#define pc_lock_wait(l, off, size) PC_CALL(pc_lock_wait_, l, off, size)
/* Pointers stored in modelled structs (parent, css.parent) are pc_words too. */
#define pc_load_ptr(p) ((void *)(uintptr_t)pc_load(p))
#define pc_store_ptr(p, v) pc_store(p, (long)(uintptr_t)(v))

#endif
