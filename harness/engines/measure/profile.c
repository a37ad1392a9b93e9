// SPDX-License-Identifier: MIT
/* profile.c - --profile: the measuring threads sampled during the window (profile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "util.h"

void profile_cfg_init(struct profile_cfg *c, double window_s)
{
	memset(c, 0, sizeof(*c));
	c->ok = !pmu_sample_plan(&c->plan, window_s);
	c->ks = ksyms_load(c->ks_why, sizeof(c->ks_why));
}

void prof_thread_open(struct prof_thread *t, const struct profile_cfg *c)
{
	t->why[0] = '\0';
	t->s = NULL;
	if (!c->ok)
		snprintf(t->why, sizeof(t->why), "%.159s", c->plan.note);
	else
		t->s = pmu_sample_open(&c->plan, t->why, sizeof(t->why));
}

void prof_thread_enable(struct prof_thread *t)
{
	pmu_sample_enable(t->s);
}

void prof_thread_disable(struct prof_thread *t)
{
	pmu_sample_disable(t->s);
}

struct collect {
	struct prof_thread *t;
	const struct ksyms *ks;
};

/*
 * one_sample - the leaf's symbol id; PROF_MEMCG when the leaf is on the charge path's list,
 * or is a spinlock slow path called from folio_lruvec_lock* (the lru_lock slow path).
 */
static void one_sample(void *arg, uint64_t ip, const uint64_t *chain, int n)
{
	struct collect *c = arg;
	struct prof_thread *t = c->t;
	uint32_t id = ksyms_find(c->ks, ip);
	int cls = ksyms_class(c->ks, id);

	if (cls & KS_LOCK)
		for (int i = 0; i < n; i++)
			if (ksyms_class(c->ks, ksyms_find(c->ks, chain[i])) & KS_LRUVEC)
				cls |= KS_MEMCG;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 4096;
		t->ids = xrealloc(t->ids, t->cap * sizeof(*t->ids));
	}
	t->ids[t->n++] = id | (cls & KS_MEMCG ? PROF_MEMCG : 0);
}

void prof_thread_collect(struct prof_thread *t, const struct profile_cfg *c)
{
	struct collect col = {t, c->ks};

	if (!t->s)
		return;
	pmu_sample_drain(t->s, one_sample, &col, &t->lost);
	pmu_sample_close(t->s);
	t->s = NULL;
}

void prof_thread_reset(struct prof_thread *t)
{
	pmu_sample_close(t->s);
	t->s = NULL;
	t->n = 0;
	t->lost = 0;
	t->why[0] = '\0';
}

void prof_thread_free(struct prof_thread *t)
{
	prof_thread_reset(t);
	free(t->ids);
	t->ids = NULL;
	t->cap = 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* by_count - most samples first (qsort_r's @arg: the window). */
static int by_count(const void *a, const void *b, void *arg)
{
	const struct prof_window *w = arg;
	uint64_t x = w->cnt[*(const size_t *)a], y = w->cnt[*(const size_t *)b];

	return (x < y) - (x > y);
}

void prof_window_build(struct prof_window *w, const struct profile_cfg *c,
		       const struct prof_thread *t, int threads)
{
	uint32_t *all, *ids;
	uint64_t *cnt;
	size_t total = 0, k = 0, *order;

	(void)c;
	free(w->ids);
	free(w->cnt);
	memset(w, 0, sizeof(*w));
	w->present = 1;
	for (int i = 0; i < threads; i++) {
		if (!t[i].n && t[i].why[0]) {
			w->present = 0;
			w->why = t[i].why;
		}
		total += t[i].n;
		w->lost += t[i].lost;
	}
	if (!w->present)
		return;
	all = xcalloc(total + 1, sizeof(*all));
	for (int i = 0; i < threads; i++)
		if (t[i].n)
			memcpy(all + k, t[i].ids, t[i].n * sizeof(*all)), k += t[i].n;
	qsort(all, total, sizeof(*all), cmp_u32);
	ids = xcalloc(total + 1, sizeof(*ids));
	cnt = xcalloc(total + 1, sizeof(*cnt));
	k = 0;
	for (size_t i = 0; i < total; i++) {
		if (!i || all[i] != all[i - 1])
			ids[k++] = all[i];
		cnt[k - 1]++;
		w->memcg += (all[i] & PROF_MEMCG) != 0;
	}
	w->samples = total;
	/* most samples first */
	order = xcalloc(k + 1, sizeof(*order));
	w->ids = ids;
	w->cnt = cnt;
	w->n = k;
	for (size_t i = 0; i < k; i++)
		order[i] = i;
	qsort_r(order, k, sizeof(*order), by_count, w);
	w->ids = xcalloc(k + 1, sizeof(*w->ids));
	w->cnt = xcalloc(k + 1, sizeof(*w->cnt));
	for (size_t i = 0; i < k; i++)
		w->ids[i] = ids[order[i]], w->cnt[i] = cnt[order[i]];
	free(order);
	free(ids);
	free(cnt);
	free(all);
}

const char *prof_symbol(const struct profile_cfg *c, const struct prof_window *w, size_t i,
			int *memcg)
{
	*memcg = (w->ids[i] & PROF_MEMCG) != 0;
	return ksyms_name(c->ks, w->ids[i] & ~PROF_MEMCG);
}
