// SPDX-License-Identifier: MIT
/* ksyms.c - the running kernel's text symbols, and the memcg charge path by name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "sysfs.h"
#include "util.h"

struct ksym {
	uint64_t addr;
	char *name;
	int cls;
};

struct ksyms {
	struct ksym *s;
	uint32_t n;
};

/*
 * The memcg charge path (docs/kernel.md, "Where the real kernel spends its time"): a name
 * with one of these prefixes (a trailing '*') or equal to one of them, and the two-part
 * pattern __mod_memcg_*state (also without the leading underscores, as newer kernels name
 * mod_memcg_state and mod_memcg_lruvec_state).
 */
static const char *const memcg_names[] = {
    "page_counter_*",
    "try_charge_memcg",
    "consume_stock",
    "refill_stock",
    "drain_stock",
    "mem_cgroup_charge_skmem",
    "mem_cgroup_uncharge_skmem",
    "mem_cgroup_under_socket_pressure",
    "obj_cgroup_*",
    "folio_lruvec_lock*",
    NULL,
};

/* The spinlock paths that count as the lru_lock slow path under folio_lruvec_lock*. */
static const char *const lock_names[] = {
    "native_queued_spin_lock_slowpath",
    "__pv_queued_spin_lock_slowpath",
    "queued_spin_lock_slowpath",
    "_raw_spin_lock*",
    NULL,
};

static int match(const char *const *list, const char *name, size_t n)
{
	for (int i = 0; list[i]; i++) {
		size_t k = strlen(list[i]);

		if (list[i][k - 1] == '*' ? n >= k - 1 && !strncmp(name, list[i], k - 1)
					  : n == k && !strncmp(name, list[i], k))
			return 1;
	}
	return 0;
}

int ksyms_memcg_name(const char *name)
{
	size_t n = strcspn(name, "."); /* foo.isra.0, foo.constprop.0, foo.cold */

	if (match(memcg_names, name, n))
		return KS_MEMCG | (!strncmp(name, "folio_lruvec_lock", 17) ? KS_LRUVEC : 0);
	/* __mod_memcg_*state; mod_memcg_*state where a kernel dropped the underscores */
	{
		const char *m = name[0] == '_' && name[1] == '_' ? name + 2 : name;
		size_t k = n - (size_t)(m - name);

		if (k > 15 && !strncmp(m, "mod_memcg_", 10) && !strncmp(m + k - 5, "state", 5))
			return KS_MEMCG;
	}
	return match(lock_names, name, n) ? KS_LOCK : 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

struct ksyms *ksyms_load(char *why, size_t len)
{
	FILE *f = procfs_open("kallsyms");
	struct ksyms *k;
	char line[512];
	size_t cap = 0;
	int nonzero = 0;

	if (!f) {
		snprintf(why, len, "%s/kallsyms: %s", procfs_root(), strerror(errno));
		return NULL;
	}
	k = xcalloc(1, sizeof(*k));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		nonzero |= a != 0;
		if (k->n == cap) {
			cap = cap ? 2 * cap : 65536;
			k->s = xrealloc(k->s, cap * sizeof(*k->s));
		}
		k->s[k->n++] = (struct ksym){a, xstrdup(name), ksyms_memcg_name(name)};
	}
	fclose(f);
	if (!k->n || !nonzero) {
		snprintf(why, len, "%s/kallsyms: %s", procfs_root(),
			 k->n ? "every address is 0 (kernel.kptr_restrict)" : "no text symbols");
		ksyms_free(k);
		return NULL;
	}
	qsort(k->s, k->n, sizeof(*k->s), by_addr);
	return k;
}

void ksyms_free(struct ksyms *k)
{
	if (!k)
		return;
	for (uint32_t i = 0; i < k->n; i++)
		free(k->s[i].name);
	free(k->s);
	free(k);
}

uint32_t ksyms_count(const struct ksyms *k)
{
	return k ? k->n : 0;
}

uint32_t ksyms_find(const struct ksyms *k, uint64_t ip)
{
	uint32_t lo = 0, hi;

	if ((int64_t)ip >= 0) /* the lower half: user space */
		return KSYMS_USER(k);
	if (!k || !k->n || ip < k->s[0].addr)
		return KSYMS_KERNEL(k);
	hi = k->n;
	while (hi - lo > 1) { /* the last symbol at or below ip */
		uint32_t mid = lo + (hi - lo) / 2;

		if (k->s[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

const char *ksyms_name(const struct ksyms *k, uint32_t id)
{
	if (id < ksyms_count(k))
		return k->s[id].name;
	return id == KSYMS_USER(k) ? "[user]" : "[kernel]";
}

int ksyms_class(const struct ksyms *k, uint32_t id)
{
	return id < ksyms_count(k) ? k->s[id].cls : 0;
}
