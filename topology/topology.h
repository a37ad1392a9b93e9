/* SPDX-License-Identifier: MIT */
/*
 * topology.h - hwloc topologies, placement policies and thread binding.
 * A placement maps thread i of a measurement to one processing unit (PU).
 */
#ifndef PCBENCH_TOPOLOGY_H
#define PCBENCH_TOPOLOGY_H

#include <stddef.h>

struct topo;

/* topo_load_host - discover this machine. NULL with a reason in @err. */
struct topo *topo_load_host(char *err, size_t errlen);
/* topo_load_synthetic - an hwloc synthetic description (tests, dry runs). */
struct topo *topo_load_synthetic(const char *desc, char *err, size_t errlen);
void topo_free(struct topo *t);

/* topo_npus - processing units usable by this process. */
int topo_npus(const struct topo *t);
/* topo_is_host - the topology is this machine's, so binding is real. */
int topo_is_host(const struct topo *t);

/* The names --placement accepts, terminated by NULL. */
extern const char *const topo_policies[];

enum topo_place_result { TOPO_OK = 0, TOPO_UNKNOWN = -1, TOPO_NOFIT = -2 };

/*
 * topo_place - the OS indexes of the PUs for threads 0..@n-1 under @policy, into @pus.
 * TOPO_UNKNOWN: no such policy. TOPO_NOFIT: the policy cannot place @n threads here
 * (never wraps around). Both write a reason into @err.
 */
int topo_place(const struct topo *t, const char *policy, int n, int *pus, char *err, size_t errlen);

/*
 * topo_bind_self - bind the calling thread to PU @os_index. Refuses (-1) on a topology that
 * is not this machine's, where hwloc binding would silently do nothing.
 */
int topo_bind_self(const struct topo *t, int os_index, char *err, size_t errlen);

/* Save and restore the calling thread's CPU binding around a measurement. */
struct topo_binding;
struct topo_binding *topo_binding_save(const struct topo *t);
void topo_binding_restore(const struct topo *t, struct topo_binding *b);

#endif
