/* SPDX-License-Identifier: MIT */
/*
 * topo_impl.h - what topology.c (loading, binding, memory home) and placement.c (the
 * placement policies) share inside topology/; nothing outside topology/ includes it.
 */
#ifndef PCBENCH_TOPO_IMPL_H
#define PCBENCH_TOPO_IMPL_H

#include <hwloc.h>

#include "topology.h"

struct topo {
	hwloc_topology_t h;
	int host;
	char *source; /* "host", "synthetic:...", or an XML path */
	/*
	 * The PUs plans may use: every PU of an XML or synthetic topology; on the host, those
	 * in the cgroup cpuset and in the CPU affinity pcbench inherited (taskset).
	 */
	hwloc_bitmap_t allowed;
	/* PU objects by OS index (hwloc's own lookup walks every PU): topo_pu_obj in O(1). */
	hwloc_obj_t *pu_by_os;
	int npu_by_os;
};

/* topo_pu_obj - the PU of OS index @os, or NULL. */
hwloc_obj_t topo_pu_obj(const struct topo *t, int os);
/*
 * topo_ancestor - @obj's ancestor of @type, or NULL; an L3 wider than a package groups
 * nothing a placement can use and counts as none.
 */
hwloc_obj_t topo_ancestor(const struct topo *t, hwloc_obj_type_t type, hwloc_obj_t obj);
/* topo_npus_all - every PU of the topology, usable or not (sizes of PU arrays). */
int topo_npus_all(const struct topo *t);

#endif
