/* SPDX-License-Identifier: MIT */
/*
 * topology.h - hwloc topologies (this host, an XML export, a synthetic description),
 * placement policies, thread binding, and the memory home of the contended structs.
 * A placement maps thread i of a measurement to one processing unit (PU), by OS index.
 */
#ifndef PCBENCH_TOPOLOGY_H
#define PCBENCH_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

struct topo;

/*
 * topo_load - "host" (or NULL), "synthetic:STRING", or the path of a file: an `lstopo --of
 * xml` export (it starts with `<?xml` or `<topology`), or else a synthetic description, the
 * first line that is neither blank nor a `#` comment (tests/topologies/ *.synthetic). The
 * one loader of every command's --topology. NULL with a reason in @err.
 */
struct topo *topo_load(const char *spec, char *err, size_t errlen);
/* Shorthands for tests. */
struct topo *topo_load_host(char *err, size_t errlen);
struct topo *topo_load_synthetic(const char *desc, char *err, size_t errlen);
void topo_free(struct topo *t);

/* topo_source - what was loaded: "host", "synthetic:...", or the file's path. */
const char *topo_source(const struct topo *t);
/*
 * topo_npus - processing units plans may use: every PU of an XML or synthetic topology; on
 * the host, those of the CPU affinity pcbench inherited (taskset, sched_setaffinity, a
 * cpuset). Every placement, `-t max` and the --matrix PUs stay inside them.
 */
int topo_npus(const struct topo *t);
/* topo_allowed_list - those PUs as an OS-index list ("0-3,8") into @buf. */
int topo_allowed_list(const struct topo *t, char *buf, size_t len);
/*
 * topo_excluded - the host PUs plans may not use, and why ("PU 1: not in the CPU affinity
 * ..."; "" when none), into @buf; returns how many.
 */
int topo_excluded(const struct topo *t, char *buf, size_t len);
/* topo_is_host - the topology is this machine's, so binding is real. */
int topo_is_host(const struct topo *t);
/*
 * topo_fingerprint - a stable hash of packages, NUMA nodes, L3 groups, cores and PUs and
 * their OS indexes, written as 16 hex digits into @buf (>= 17 bytes).
 */
void topo_fingerprint(const struct topo *t, char *buf);
/* The largest topology pcbench loads (PUs); larger ones are refused with a message. */
#define TOPO_MAX_PUS 65536
/* The largest topology file topo_load reads (an XML of 65536 PUs needs about 25 MiB). */
#define TOPO_XML_MAX (64LL << 20)

/* topo_export_xml - write the topology as hwloc XML to @path. */
int topo_export_xml(const struct topo *t, const char *path, char *err, size_t errlen);

/*
 * topo_cpu_list - the PUs of an OS-index list such as "0-3,8" (every usable PU, in logical
 * order, when @list is NULL) into @out (at most @max); returns how many, or -1 with a
 * reason (bad syntax, a PU this topology does not have or plans may not use).
 */
int topo_cpu_list(const struct topo *t, const char *list, int *out, int max, char *err,
		  size_t errlen);

/* Where one PU sits: logical indexes of its core, L3, package and NUMA node (-1 if none). */
struct topo_pu {
	int os, core, l3, package, numa;
};
int topo_pu_info(const struct topo *t, int os_index, struct topo_pu *out);
/* topo_siblings - the other PUs of @os_index's core (SMT siblings) into @out; how many. */
int topo_siblings(const struct topo *t, int os_index, int *out, int max);

/* The relation of two PUs, from nearest to farthest. */
enum topo_pair {
	PAIR_SAME_PU,
	PAIR_SMT,	   /* siblings of one core */
	PAIR_SAME_L3,	   /* different cores under one L3 */
	PAIR_CROSS_L3,	   /* one package, different L3 domains */
	PAIR_SAME_PACKAGE, /* one package, no L3 level to tell */
	PAIR_CROSS_SOCKET, /* different packages */
	PAIR_COUNT
};
extern const char *const topo_pair_names[PAIR_COUNT];
enum topo_pair topo_pair_class(const struct topo *t, int os_a, int os_b);
/* topo_pair_classes - which classes the pairs of @pus[0..@n) have (the plan's summary). */
void topo_pair_classes(const struct topo *t, const int *pus, int n, int present[PAIR_COUNT]);

/*
 * A named placement policy (--placement NAME). place() fills @out (room for every PU of the
 * topology) with the PUs it offers for @n threads, in the order threads take them, and
 * returns how many; when it offers none it says why in @err. The table (placement.c) ends
 * with a NULL name; its rows make the names, the usage text and the error text. Any other
 * --placement value is an hwloc location string ("core:0-7", "package:0.core:0-3.pu:0").
 */
struct topo_policy {
	const char *name;
	int (*place)(const struct topo *t, int n, int *out, char *err, size_t errlen);
	const char *help; /* one short line for the usage */
};
extern const struct topo_policy topo_policies[];
const struct topo_policy *topo_policy_find(const char *name);
/* topo_policy_usage - one line per policy, "  NAME  help", for option help texts. */
const char *topo_policy_usage(void);

enum topo_place_result { TOPO_OK = 0, TOPO_UNKNOWN = -1, TOPO_NOFIT = -2 };

/*
 * topo_place - the OS indexes of the PUs for threads 0..@n-1 under @policy, into @pus.
 * TOPO_UNKNOWN: neither a policy nor a location hwloc understands. TOPO_NOFIT: the policy
 * cannot place @n threads on this topology (never wraps around, never falls back). Both
 * write a reason into @err.
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

/* Memory home: where the shared modelled structs live. */
struct topo_home {
	int interleave; /* across every NUMA node */
	int node;	/* else: this NUMA node (OS index) */
};

/*
 * topo_home_parse - "first", "node:N" or "interleave" for a plan whose thread 0 runs on
 * PU @pu0 ("each" is expanded by the caller into node:N for every node). -1 with a reason
 * for a missing node or a bad value.
 */
int topo_home_parse(const struct topo *t, const char *spec, int pu0, struct topo_home *out,
		    char *err, size_t errlen);
/* topo_nodes - OS indexes of the NUMA nodes, into @out (at most @max); returns how many. */
int topo_nodes(const struct topo *t, int *out, int max);
/* topo_home_name - "node:0", "interleave" ... as planned (--home's spelling), into @buf. */
void topo_home_name(const struct topo_home *h, char *buf, size_t len);

/*
 * topo_alloc_home - page-aligned zeroed memory bound to @h and first-touched under that
 * policy. Free with topo_free_home(t, p, len).
 */
void *topo_alloc_home(const struct topo *t, size_t len, const struct topo_home *h);
/* topo_try_alloc_home - the same, but NULL (errno set) instead of exiting when out of memory. */
void *topo_try_alloc_home(const struct topo *t, size_t len, const struct topo_home *h);
void topo_free_home(const struct topo *t, void *p, size_t len);
/*
 * topo_memlocation - add the NUMA nodes holding [@p, @p + @len) to the bit mask @nodes
 * (bit = node OS index, nodes < 64). -1 when the OS cannot tell.
 */
int topo_memlocation(const struct topo *t, const void *p, size_t len, uint64_t *nodes);

#endif
