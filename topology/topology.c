// SPDX-License-Identifier: MIT
/* topology.c - hwloc topology loading, placement policies, binding and memory home. */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hwloc.h>

#include "topology.h"
#include "util.h"

extern char **environ;

struct topo {
	hwloc_topology_t h;
	int host;
	char *source; /* "host", "synthetic:...", or an XML path */
};

const char *const topo_policies[] = {"compact", "scatter",  "cores",	    "smt",
				     "same-l3", "cross-l3", "cross-socket", NULL};

const char *const topo_pair_names[PAIR_COUNT] = {
    [PAIR_SAME_PU] = "same-pu",		  [PAIR_SMT] = "smt",
    [PAIR_SAME_L3] = "same-l3",		  [PAIR_CROSS_L3] = "cross-l3",
    [PAIR_SAME_PACKAGE] = "same-package", [PAIR_CROSS_SOCKET] = "cross-socket",
};

struct topo *topo_load(const char *spec, char *err, size_t errlen)
{
	struct topo *t = xcalloc(1, sizeof(*t));
	const char *synthetic = NULL, *xml = NULL;

	if (!spec || !strcmp(spec, "host"))
		spec = "host";
	else if (!strncmp(spec, "synthetic:", 10))
		synthetic = spec + 10;
	else
		xml = spec;
	t->source = xstrdup(spec);
	if (xml && access(xml, R_OK)) {
		snprintf(err, errlen, "%s: %s (expected host, synthetic:STRING or an XML file)",
			 xml, strerror(errno));
		goto fail_early;
	}
	if (hwloc_topology_init(&t->h)) {
		snprintf(err, errlen, "hwloc_topology_init: %s", strerror(errno));
		goto fail_early;
	}
	if (synthetic && hwloc_topology_set_synthetic(t->h, synthetic)) {
		snprintf(err, errlen, "%s: hwloc cannot parse this synthetic description",
			 synthetic);
		goto fail;
	}
	if (xml && hwloc_topology_set_xml(t->h, xml)) {
		snprintf(err, errlen, "%s: hwloc cannot read this XML: %s", xml, strerror(errno));
		goto fail;
	}
	if (hwloc_topology_load(t->h)) {
		snprintf(err, errlen, "%s: hwloc_topology_load: %s", spec, strerror(errno));
		goto fail;
	}
	/* Only a discovered host binds for real; XML and synthetic binding is a no-op. */
	t->host = !synthetic && !xml && hwloc_topology_is_thissystem(t->h);
	return t;
fail:
	hwloc_topology_destroy(t->h);
fail_early:
	free(t->source);
	free(t);
	return NULL;
}

struct topo *topo_load_host(char *err, size_t errlen)
{
	return topo_load("host", err, errlen);
}

struct topo *topo_load_synthetic(const char *desc, char *err, size_t errlen)
{
	char *spec = xmalloc(strlen(desc) + 11);
	struct topo *t;

	sprintf(spec, "synthetic:%s", desc);
	t = topo_load(spec, err, errlen);
	free(spec);
	return t;
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	hwloc_topology_destroy(t->h);
	free(t->source);
	free(t);
}

const char *topo_source(const struct topo *t)
{
	return t->source;
}

int topo_npus(const struct topo *t)
{
	return hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU);
}

int topo_is_host(const struct topo *t)
{
	return t->host;
}

static hwloc_obj_t pu_obj(const struct topo *t, int os)
{
	return hwloc_get_pu_obj_by_os_index(t->h, (unsigned)os);
}

static hwloc_obj_t ancestor(const struct topo *t, hwloc_obj_type_t type, hwloc_obj_t obj)
{
	hwloc_obj_t a = obj ? hwloc_get_ancestor_obj_by_type(t->h, type, obj) : NULL;
	hwloc_obj_t pkg;

	/* An L3 wider than a package groups nothing a placement can use. */
	if (a && type == HWLOC_OBJ_L3CACHE) {
		pkg = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, obj);
		if (pkg && !hwloc_bitmap_isincluded(a->cpuset, pkg->cpuset))
			a = NULL;
	}
	return a;
}

/* numa_of - the first NUMA node local to @obj (hwloc 2: memory children of an ancestor). */
static hwloc_obj_t numa_of(const struct topo *t, hwloc_obj_t obj)
{
	for (hwloc_obj_t a = obj; a; a = a->parent)
		if (a->memory_arity > 0)
			return a->memory_first_child;
	return hwloc_get_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, 0);
}

int topo_pu_info(const struct topo *t, int os_index, struct topo_pu *out)
{
	hwloc_obj_t pu = pu_obj(t, os_index), o;

	if (!pu)
		return -1;
	out->os = os_index;
	o = ancestor(t, HWLOC_OBJ_CORE, pu);
	out->core = o ? (int)o->logical_index : -1;
	o = ancestor(t, HWLOC_OBJ_L3CACHE, pu);
	out->l3 = o ? (int)o->logical_index : -1;
	o = ancestor(t, HWLOC_OBJ_PACKAGE, pu);
	out->package = o ? (int)o->logical_index : -1;
	o = numa_of(t, pu);
	out->numa = o ? (int)o->logical_index : -1;
	return 0;
}

static int pus_in_order(const struct topo *t, int *out, int max)
{
	int n = topo_npus(t);

	for (int i = 0; i < n && i < max; i++)
		out[i] = (int)hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i)->os_index;
	return n < max ? n : max;
}

int topo_cpu_list(const struct topo *t, const char *list, int *out, int max, char *err,
		  size_t errlen)
{
	hwloc_bitmap_t set;
	int n = 0, i;

	if (!list)
		return pus_in_order(t, out, max);
	set = hwloc_bitmap_alloc();
	if (hwloc_bitmap_list_sscanf(set, list) || hwloc_bitmap_iszero(set) ||
	    hwloc_bitmap_weight(set) < 0) {
		snprintf(err, errlen, "expected OS PU indexes such as 0-3,8");
		hwloc_bitmap_free(set);
		return -1;
	}
	hwloc_bitmap_foreach_begin(i, set)
	{
		if (!pu_obj(t, i)) {
			snprintf(err, errlen, "PU %d is not in this topology (it has %d PUs)", i,
				 topo_npus(t));
			n = -1;
			break;
		}
		if (n < max)
			out[n++] = i;
	}
	hwloc_bitmap_foreach_end();
	hwloc_bitmap_free(set);
	return n;
}

enum topo_pair topo_pair_class(const struct topo *t, int os_a, int os_b)
{
	struct topo_pu a, b;

	if (os_a == os_b || topo_pu_info(t, os_a, &a) || topo_pu_info(t, os_b, &b))
		return PAIR_SAME_PU;
	if (a.core >= 0 && a.core == b.core)
		return PAIR_SMT;
	if (a.l3 >= 0 && a.l3 == b.l3)
		return PAIR_SAME_L3;
	if (a.package == b.package)
		return a.l3 >= 0 && b.l3 >= 0 ? PAIR_CROSS_L3 : PAIR_SAME_PACKAGE;
	return PAIR_CROSS_SOCKET;
}

static uint64_t fnv(uint64_t h, long v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (uint64_t)((unsigned long)v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void topo_fingerprint(const struct topo *t, char *buf)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int n = topo_npus(t);

	h = fnv(h, n);
	for (int i = 0; i < n; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t numa = numa_of(t, pu);
		struct topo_pu p;

		topo_pu_info(t, (int)pu->os_index, &p);
		h = fnv(h, p.os);
		h = fnv(h, p.core);
		h = fnv(h, p.l3);
		h = fnv(h, p.package);
		h = fnv(h, numa ? (long)numa->os_index : -1);
	}
	sprintf(buf, "%016llx", (unsigned long long)h);
}

int topo_export_xml(const struct topo *t, const char *path, char *err, size_t errlen)
{
	if (hwloc_topology_export_xml(t->h, path, 0)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Orders of PUs. Each fills @out with OS indexes and returns how many. */

static int pus_in(const struct topo *t, hwloc_const_cpuset_t set, int *out)
{
	int n = 0;
	hwloc_obj_t pu = NULL;

	while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(t->h, set, HWLOC_OBJ_PU, pu)))
		out[n++] = (int)pu->os_index;
	return n;
}

/* cores_first - inside @set, one PU of every core before any second sibling. */
static int cores_first(const struct topo *t, hwloc_const_cpuset_t set, int *out)
{
	int n = 0, more = 1;

	if (!hwloc_get_nbobjs_inside_cpuset_by_type(t->h, set, HWLOC_OBJ_CORE))
		return pus_in(t, set, out);
	for (unsigned rank = 0; more; rank++) {
		hwloc_obj_t core = NULL;

		more = 0;
		while ((core = hwloc_get_next_obj_inside_cpuset_by_type(t->h, set, HWLOC_OBJ_CORE,
									core))) {
			hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(t->h, core->cpuset,
									     HWLOC_OBJ_PU, rank);
			if (pu && hwloc_bitmap_isset(set, pu->os_index)) {
				out[n++] = (int)pu->os_index;
				more = 1;
			}
		}
	}
	return n;
}

/* round_robin - interleave @k lists (each @len[i] long, in @lists[i]) for as long as every
 * list still has an element, so consecutive entries always come from different lists. */
static int round_robin(int **lists, const int *len, int k, int *out)
{
	int n = 0, rounds = len[0];

	for (int i = 1; i < k; i++)
		rounds = len[i] < rounds ? len[i] : rounds;
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < k; i++)
			out[n++] = lists[i][r];
	return n;
}

/* spread - cores_first lists of every object of @type inside @set, round-robin. */
static int spread(const struct topo *t, hwloc_const_cpuset_t set, hwloc_obj_type_t type, int *out)
{
	int k = hwloc_get_nbobjs_inside_cpuset_by_type(t->h, set, type), n, npus = topo_npus(t);
	int **lists = xcalloc((size_t)k + 1, sizeof(int *)),
	    *len = xcalloc((size_t)k + 1, sizeof(int));
	hwloc_obj_t o = NULL;

	for (int i = 0; i < k; i++) {
		o = hwloc_get_next_obj_inside_cpuset_by_type(t->h, set, type, o);
		lists[i] = xcalloc((size_t)npus, sizeof(int));
		len[i] = cores_first(t, o->cpuset, lists[i]);
	}
	n = k ? round_robin(lists, len, k, out) : 0;
	for (int i = 0; i < k; i++)
		free(lists[i]);
	free(lists);
	free(len);
	return n;
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

/* rank - position of @obj among the objects of its type inside @container. */
static unsigned rank(const struct topo *t, hwloc_obj_t container, hwloc_obj_t obj)
{
	hwloc_obj_t first;

	if (!container || !obj)
		return 0;
	first = hwloc_get_next_obj_inside_cpuset_by_type(t->h, container->cpuset, obj->type, NULL);
	return first ? obj->logical_index - first->logical_index : 0;
}

/*
 * scatter: round-robin over packages, then L3 caches, then cores, then PUs. Sorting by
 * (PU rank in core, core rank in L3, L3 rank in package, package) gives exactly that.
 */
static int scatter(const struct topo *t, int *out)
{
	int npus = topo_npus(t);
	struct scatter_key *keys = xcalloc((size_t)npus, sizeof(*keys));
	hwloc_obj_t root = hwloc_get_root_obj(t->h);

	for (int i = 0; i < npus; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t core = ancestor(t, HWLOC_OBJ_CORE, pu);
		hwloc_obj_t pkg = ancestor(t, HWLOC_OBJ_PACKAGE, pu);
		hwloc_obj_t l3 = ancestor(t, HWLOC_OBJ_L3CACHE, pu);

		keys[i].k[0] = core ? rank(t, core, pu) : 0;
		keys[i].k[1] = core ? rank(t, l3 ? l3 : pkg ? pkg : root, core) : 0;
		keys[i].k[2] = l3 ? rank(t, pkg ? pkg : root, l3) : 0;
		keys[i].k[3] = pkg ? pkg->logical_index : 0;
		keys[i].k[4] = pu->logical_index;
		keys[i].os_index = (int)pu->os_index;
	}
	qsort(keys, (size_t)npus, sizeof(*keys), cmp_key);
	for (int i = 0; i < npus; i++)
		out[i] = keys[i].os_index;
	free(keys);
	return npus;
}

/* location - PUs of an hwloc location string, as hwloc-calc itself resolves it. */
static int location(const struct topo *t, const char *loc, int *out, int max, char *err,
		    size_t errlen)
{
	char *argv[10], buf[65536];
	int argc = 0, fds[2], status, n = 0;
	size_t used = 0;
	ssize_t r;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	argv[argc++] = "hwloc-calc";
	if (strcmp(t->source, "host")) {
		int synth = !strncmp(t->source, "synthetic:", 10);

		argv[argc++] = "--if";
		argv[argc++] = synth ? "synthetic" : "xml";
		argv[argc++] = "-i";
		argv[argc++] = synth ? t->source + 10 : t->source;
	}
	argv[argc++] = "--po";
	argv[argc++] = "-I";
	argv[argc++] = "pu";
	argv[argc++] = (char *)loc;
	argv[argc] = NULL;
	if (pipe(fds)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	status = posix_spawnp(&pid, "hwloc-calc", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (status) {
		close(fds[0]);
		snprintf(err, errlen, "hwloc-calc (Debian package hwloc): %s", strerror(status));
		return -1;
	}
	while (used < sizeof(buf) - 1 && (r = read(fds[0], buf + used, sizeof(buf) - 1 - used)) > 0)
		used += (size_t)r;
	buf[used] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);

	/* The PU list is the line of digits and commas; anything else is hwloc talking. */
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (strspn(line, "0123456789,") == strlen(line)) {
			for (char *p = line; *p && n < max;) {
				out[n++] = (int)strtol(p, &p, 10);
				p += *p == ',';
			}
		} else if (strstr(line, "invalid") || strstr(line, "could not") ||
			   strstr(line, "ignored") || strstr(line, "failed")) {
			snprintf(err, errlen, "hwloc: %s", line);
			return -1;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !n) {
		snprintf(err, errlen, "hwloc-calc resolves it to no PU");
		return -1;
	}
	return n;
}

int topo_place(const struct topo *t, const char *policy, int n, int *pus, char *err, size_t errlen)
{
	int npus = topo_npus(t), avail = 0, named = 0, ret = TOPO_OK;
	int *all = xcalloc((size_t)npus + 1, sizeof(int));
	hwloc_const_cpuset_t everything = hwloc_topology_get_topology_cpuset(t->h);

	for (int i = 0; topo_policies[i]; i++)
		named |= !strcmp(policy, topo_policies[i]);
	err[0] = '\0';
	if (!strcmp(policy, "compact")) {
		avail = pus_in(t, everything, all);
	} else if (!strcmp(policy, "scatter")) {
		avail = scatter(t, all);
	} else if (!strcmp(policy, "cores")) {
		avail = cores_first(t, everything, all);
	} else if (!strcmp(policy, "smt")) {
		hwloc_obj_t core = NULL;

		while ((core = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_CORE, core)))
			if (hwloc_bitmap_weight(core->cpuset) >= 2)
				avail += pus_in(t, core->cpuset, all + avail);
		if (!avail)
			snprintf(err, errlen, "no SMT: no core has two PUs");
	} else if (!strcmp(policy, "same-l3")) {
		hwloc_obj_t l3 = NULL, best = NULL;

		while ((l3 = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_L3CACHE, l3)))
			if (!best ||
			    hwloc_bitmap_weight(l3->cpuset) > hwloc_bitmap_weight(best->cpuset))
				best = l3;
		l3 = NULL;
		while ((l3 = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_L3CACHE, l3)))
			if (hwloc_bitmap_weight(l3->cpuset) >= n) {
				avail = cores_first(t, l3->cpuset, all);
				break;
			}
		if (!best)
			snprintf(err, errlen, "no L3 cache level in this topology");
		else if (!avail)
			snprintf(err, errlen,
				 "%d threads do not fit in one L3 domain (at most %d PUs)", n,
				 hwloc_bitmap_weight(best->cpuset));
	} else if (!strcmp(policy, "cross-l3")) {
		hwloc_obj_t pkg = NULL;

		while (!avail && (pkg = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, pkg)))
			if (hwloc_get_nbobjs_inside_cpuset_by_type(t->h, pkg->cpuset,
								   HWLOC_OBJ_L3CACHE) >= 2)
				avail = spread(t, pkg->cpuset, HWLOC_OBJ_L3CACHE, all);
		if (!avail)
			snprintf(err, errlen, "no package has two L3 domains");
	} else if (!strcmp(policy, "cross-socket")) {
		if (hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PACKAGE) >= 2)
			avail = spread(t, everything, HWLOC_OBJ_PACKAGE, all);
		else
			snprintf(err, errlen, "one package: no other socket");
	} else {
		avail = location(t, policy, all, npus, err, errlen);
		if (avail < 0) {
			char why[512];

			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen,
				 "neither a policy (compact, scatter, cores, smt, same-l3, "
				 "cross-l3, cross-socket) nor an hwloc location: %s",
				 why);
			ret = TOPO_UNKNOWN;
			goto out;
		}
	}
	if (n < 1 || n > avail) {
		if (!err[0] || avail)
			snprintf(err, errlen, "%d threads need %d PUs (%s %s offers %d)", n, n,
				 named ? "policy" : "location", policy, avail);
		ret = TOPO_NOFIT;
		goto out;
	}
	memcpy(pus, all, (size_t)n * sizeof(*pus));
out:
	free(all);
	return ret;
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

int topo_nodes(const struct topo *t, int *out, int max)
{
	hwloc_obj_t node = NULL;
	int n = 0;

	while ((node = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, node)) && n < max)
		out[n++] = (int)node->os_index;
	return n;
}

int topo_home_parse(const struct topo *t, const char *spec, int pu0, struct topo_home *out,
		    char *err, size_t errlen)
{
	char *end;
	long node;

	memset(out, 0, sizeof(*out));
	if (!strcmp(spec, "first")) {
		hwloc_obj_t pu = pu_obj(t, pu0), numa = pu ? numa_of(t, pu) : NULL;

		out->node = numa ? (int)numa->os_index : 0;
		return 0;
	}
	if (!strcmp(spec, "interleave")) {
		out->interleave = 1;
		return 0;
	}
	if (strncmp(spec, "node:", 5)) {
		snprintf(err, errlen, "expected first, node:N, interleave or each");
		return -1;
	}
	errno = 0;
	node = strtol(spec + 5, &end, 10);
	if (errno || end == spec + 5 || *end || node < 0 ||
	    !hwloc_get_numanode_obj_by_os_index(t->h, (unsigned)node)) {
		int nodes[64], n = topo_nodes(t, nodes, 64);
		char list[256] = "";
		size_t used = 0;

		for (int i = 0; i < n && used < sizeof(list) - 12; i++)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%d",
						 i ? "," : "", nodes[i]);
		snprintf(err, errlen, "no such NUMA node (this topology has %s)", list);
		return -1;
	}
	out->node = (int)node;
	return 0;
}

void topo_home_name(const struct topo_home *h, char *buf, size_t len)
{
	if (h->interleave)
		snprintf(buf, len, "interleave");
	else
		snprintf(buf, len, "%d", h->node);
}

void *topo_alloc_home(const struct topo *t, size_t len, const struct topo_home *h)
{
	hwloc_nodeset_t set = hwloc_bitmap_alloc();
	void *p;

	if (h->interleave)
		hwloc_bitmap_copy(set, hwloc_topology_get_topology_nodeset(t->h));
	else
		hwloc_bitmap_only(set, (unsigned)h->node);
	p = hwloc_alloc_membind(t->h, len, set,
				h->interleave ? HWLOC_MEMBIND_INTERLEAVE : HWLOC_MEMBIND_BIND,
				HWLOC_MEMBIND_BYNODESET);
	if (!p) /* no memory binding here: first touch from the home thread still applies */
		p = hwloc_alloc(t->h, len);
	hwloc_bitmap_free(set);
	if (!p)
		usage_error("memory", "topo_alloc_home", "%s", strerror(errno));
	memset(p, 0, len); /* first touch, under the policy */
	return p;
}

void topo_free_home(const struct topo *t, void *p, size_t len)
{
	hwloc_free(t->h, p, len);
}

int topo_memlocation(const struct topo *t, const void *p, size_t len, uint64_t *nodes)
{
	hwloc_nodeset_t set = hwloc_bitmap_alloc();
	int ret = hwloc_get_area_memlocation(t->h, p, len, set, HWLOC_MEMBIND_BYNODESET);

	if (!ret && !hwloc_bitmap_iszero(set)) {
		int i;

		hwloc_bitmap_foreach_begin(i, set)
		{
			if (i < 64)
				*nodes |= 1ULL << i;
		}
		hwloc_bitmap_foreach_end();
	} else {
		ret = -1;
	}
	hwloc_bitmap_free(set);
	return ret;
}
