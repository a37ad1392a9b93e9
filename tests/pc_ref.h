/* SPDX-License-Identifier: MIT */
/*
 * pc_ref.h - an independent reference for tests and the overhead benchmark: the v6.1
 * struct page_counter as a compiled C struct (written from docs/kernel-facts.md section 1) and the
 * page_counter algorithm of docs/kernel-facts.md section 2 on it, with direct field access and no
 * accessor layer, layout table or harness.
 */
#ifndef PCBENCH_PC_REF_H
#define PCBENCH_PC_REF_H

#include <stdatomic.h>
#include <stddef.h>

#define REF_RELAXED memory_order_relaxed

struct ref_pc {
	_Alignas(64) atomic_long usage;
	_Alignas(64) atomic_long emin;
	atomic_long min_usage, children_min_usage, elow, low_usage, children_low_usage;
	atomic_long watermark, failcnt;
	_Alignas(64) atomic_long min;
	atomic_long low, high, max;
	struct ref_pc *_Atomic parent;
};

static inline long ref_ld(atomic_long *p)
{
	return atomic_load_explicit(p, REF_RELAXED);
}

/* ref_protect - one of the two halves of propagate_protected_usage. */
static inline void ref_protect(atomic_long *lim, atomic_long *prot_usage, atomic_long *sum,
			       long usage, int cond_xchg)
{
	long l = ref_ld(lim), prot = usage < l ? usage : l, old;

	if (cond_xchg ? prot == ref_ld(prot_usage) : !l && !ref_ld(prot_usage))
		return;
	old = atomic_exchange(prot_usage, prot);
	if (prot != old)
		atomic_fetch_add_explicit(sum, prot - old, REF_RELAXED);
}

static inline void ref_propagate(struct ref_pc *c, long usage, int cond_xchg)
{
	struct ref_pc *p = atomic_load_explicit(&c->parent, REF_RELAXED);

	if (!p)
		return;
	ref_protect(&c->min, &c->min_usage, &p->children_min_usage, usage, cond_xchg);
	ref_protect(&c->low, &c->low_usage, &p->children_low_usage, usage, cond_xchg);
}

static inline void ref_cancel(struct ref_pc *c, long n, int cond_xchg)
{
	long v = atomic_fetch_sub(&c->usage, n) - n;

	if (v < 0) {
		v = 0;
		atomic_store_explicit(&c->usage, 0, REF_RELAXED);
	}
	ref_propagate(c, v, cond_xchg);
}

/* ref_try_charge - NULL on success, else the counter whose max was exceeded. */
static inline struct ref_pc *ref_try_charge(struct ref_pc *leaf, long n, int cond_xchg)
{
	struct ref_pc *c, *f;

	for (c = leaf; c; c = atomic_load_explicit(&c->parent, REF_RELAXED)) {
		long v = atomic_fetch_add(&c->usage, n) + n;

		if (v > ref_ld(&c->max)) {
			atomic_fetch_sub_explicit(&c->usage, n, REF_RELAXED);
			atomic_store_explicit(&c->failcnt, ref_ld(&c->failcnt) + 1, REF_RELAXED);
			for (f = leaf; f != c; f = atomic_load_explicit(&f->parent, REF_RELAXED))
				ref_cancel(f, n, cond_xchg);
			return c;
		}
		ref_propagate(c, v, cond_xchg);
		if (v > ref_ld(&c->watermark))
			atomic_store_explicit(&c->watermark, v, REF_RELAXED);
	}
	return NULL;
}

static inline void ref_uncharge(struct ref_pc *leaf, long n, int cond_xchg)
{
	for (struct ref_pc *c = leaf; c; c = atomic_load_explicit(&c->parent, REF_RELAXED))
		ref_cancel(c, n, cond_xchg);
}

/*
 * ref_hierarchy - @c[0] is the root; every counter unlimited, min/low on c[1], then
 * @preload pages charged to the leaf (try_charge cannot fail here).
 */
static inline void ref_hierarchy(struct ref_pc **c, int levels, long min, long low, long preload,
				 int cond_xchg)
{
	for (int i = 0; i < levels; i++) {
		atomic_store(&c[i]->max, 0x7ffffffffffffL);
		atomic_store(&c[i]->high, 0x7ffffffffffffL);
		atomic_store(&c[i]->parent, i ? c[i - 1] : NULL);
	}
	atomic_store(&c[1]->min, min);
	atomic_store(&c[1]->low, low);
	ref_try_charge(c[levels - 1], preload, cond_xchg);
}

/* ref_fields - the compared fields of struct ref_pc, by name (layout field names). */
static const struct {
	const char *name;
	size_t off;
} ref_fields[] = {
#define R(f)                                                                                       \
	{                                                                                          \
#f, offsetof(struct ref_pc, f)                                                     \
	}
    R(usage),
    R(min_usage),
    R(low_usage),
    R(children_min_usage),
    R(children_low_usage),
    R(watermark),
    R(failcnt),
    R(min),
    R(low),
    R(max),
#undef R
};

#endif
