// SPDX-License-Identifier: MIT
/* topology.c - hwloc topology loading, placement policies and binding. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topology.h"
#include "util.h"

struct topo {
	hwloc_topology_t h;
	int host;
};

const char *const topo_policies[] = {"compact", "scatter", NULL};

static struct topo *load(const char *synthetic, char *err, size_t errlen)
{
	struct topo *t = xcalloc(1, sizeof(*t));

	if (hwloc_topology_init(&t->h)) {
		snprintf(err, errlen, "hwloc_topology_init: %s", strerror(errno));
		free(t);
		return NULL;
	}
	if (synthetic && hwloc_topology_set_synthetic(t->h, synthetic)) {
		snprintf(err, errlen, "synthetic:%s: hwloc cannot parse it", synthetic);
		goto fail;
	}
	if (hwloc_topology_load(t->h)) {
		snprintf(err, errlen, "hwloc_topology_load: %s", strerror(errno));
		goto fail;
	}
	t->host = !synthetic && hwloc_topology_is_thissystem(t->h);
	return t;
fail:
	hwloc_topology_destroy(t->h);
	free(t);
	return NULL;
}

struct topo *topo_load_host(char *err, size_t errlen)
{
	return load(NULL, err, errlen);
}

struct topo *topo_load_synthetic(const char *desc, char *err, size_t errlen)
{
	return load(desc, err, errlen);
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	hwloc_topology_destroy(t->h);
	free(t);
}

int topo_npus(const struct topo *t)
{
	return hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU);
}

int topo_is_host(const struct topo *t)
{
	return t->host;
}

/* rank - position of @obj among the objects of its type inside @container. */
static unsigned rank(hwloc_topology_t h, hwloc_obj_t container, hwloc_obj_t obj)
{
	hwloc_obj_t first;

	if (!container || !obj)
		return 0;
	first = hwloc_get_next_obj_inside_cpuset_by_type(h, container->cpuset, obj->type, NULL);
	return first ? obj->logical_index - first->logical_index : 0;
}

static hwloc_obj_t ancestor(hwloc_topology_t h, hwloc_obj_type_t type, hwloc_obj_t obj)
{
	return obj ? hwloc_get_ancestor_obj_by_type(h, type, obj) : NULL;
}

struct scatter_key {
	unsigned k[5];
	int os_index;
};

static int cmp_key(const void *a, const void *b)
{
	const struct scatter_key *x = a, *y = b;

	for (int i = 0; i < 5; i++)
		if (x->k[i] != y->k[i])
			return x->k[i] < y->k[i] ? -1 : 1;
	return 0;
}

/*
 * scatter: round-robin over packages, then L3 caches, then cores, then PUs. Sorting by
 * (PU rank in core, core rank in L3, L3 rank in package, package) gives exactly that.
 */
static void scatter(hwloc_topology_t h, int npus, int *out)
{
	struct scatter_key *keys = xcalloc((size_t)npus, sizeof(*keys));

	for (int i = 0; i < npus; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t core = ancestor(h, HWLOC_OBJ_CORE, pu);
		hwloc_obj_t pkg = ancestor(h, HWLOC_OBJ_PACKAGE, pu);
		hwloc_obj_t l3 = ancestor(h, HWLOC_OBJ_L3CACHE, pu);
		hwloc_obj_t root = hwloc_get_root_obj(h);

		if (l3 && pkg && !hwloc_bitmap_isincluded(l3->cpuset, pkg->cpuset))
			l3 = NULL; /* an L3 shared across packages groups nothing here */
		keys[i].k[0] = core ? rank(h, core, pu) : 0;
		keys[i].k[1] = core ? rank(h, l3 ? l3 : pkg ? pkg : root, core) : 0;
		keys[i].k[2] = l3 ? rank(h, pkg ? pkg : root, l3) : 0;
		keys[i].k[3] = pkg ? pkg->logical_index : 0;
		keys[i].k[4] = pu->logical_index;
		keys[i].os_index = (int)pu->os_index;
	}
	qsort(keys, (size_t)npus, sizeof(*keys), cmp_key);
	for (int i = 0; i < npus; i++)
		out[i] = keys[i].os_index;
	free(keys);
}

int topo_place(const struct topo *t, const char *policy, int n, int *pus, char *err, size_t errlen)
{
	int npus = topo_npus(t);
	int *all;

	if (strcmp(policy, "compact") && strcmp(policy, "scatter")) {
		snprintf(err, errlen, "unknown placement (known: compact, scatter)");
		return TOPO_UNKNOWN;
	}
	if (n > npus || n < 1) {
		snprintf(err, errlen, "%d threads need %d PUs (the topology has %d)", n, n, npus);
		return TOPO_NOFIT;
	}
	all = xcalloc((size_t)npus, sizeof(*all));
	if (!strcmp(policy, "scatter")) {
		scatter(t->h, npus, all);
	} else {
		for (int i = 0; i < npus; i++)
			all[i] =
			    (int)hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i)->os_index;
	}
	memcpy(pus, all, (size_t)n * sizeof(*pus));
	free(all);
	return TOPO_OK;
}

int topo_bind_self(const struct topo *t, int os_index, char *err, size_t errlen)
{
	hwloc_bitmap_t set;
	int ret;

	if (!t->host) {
		snprintf(err, errlen, "cannot bind on a topology that is not this machine's");
		return -1;
	}
	set = hwloc_bitmap_alloc();
	hwloc_bitmap_only(set, (unsigned)os_index);
	ret = hwloc_set_cpubind(t->h, set, HWLOC_CPUBIND_THREAD);
	if (ret)
		snprintf(err, errlen, "hwloc_set_cpubind(PU %d): %s", os_index, strerror(errno));
	hwloc_bitmap_free(set);
	return ret ? -1 : 0;
}

struct topo_binding {
	hwloc_bitmap_t set;
};

struct topo_binding *topo_binding_save(const struct topo *t)
{
	struct topo_binding *b = xcalloc(1, sizeof(*b));

	b->set = hwloc_bitmap_alloc();
	if (!t->host || hwloc_get_cpubind(t->h, b->set, HWLOC_CPUBIND_THREAD)) {
		hwloc_bitmap_free(b->set);
		b->set = NULL;
	}
	return b;
}

void topo_binding_restore(const struct topo *t, struct topo_binding *b)
{
	if (!b)
		return;
	if (b->set) {
		hwloc_set_cpubind(t->h, b->set, HWLOC_CPUBIND_THREAD);
		hwloc_bitmap_free(b->set);
	}
	free(b);
}
