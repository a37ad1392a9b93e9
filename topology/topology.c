// SPDX-License-Identifier: MIT
/* topology.c - hwloc topology loading, placement policies, binding and memory home. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <hwloc.h>

#include "infile.h"
#include "outfile.h"
#include "topo_impl.h"
#include "util.h"

const char *const topo_pair_names[PAIR_COUNT] = {
    [PAIR_SAME_PU] = "same-pu",		  [PAIR_SMT] = "smt",
    [PAIR_SAME_L3] = "same-l3",		  [PAIR_CROSS_L3] = "cross-l3",
    [PAIR_SAME_PACKAGE] = "same-package", [PAIR_CROSS_SOCKET] = "cross-socket",
};

/*
 * restrict_to_affinity - on the host, plans use only the PUs of the CPU affinity pcbench
 * inherited (taskset, sched_setaffinity, a Slurm or cgroup cpuset): the calling thread's
 * binding, read before pcbench binds anything. hwloc already leaves PUs outside the cgroup
 * cpuset out of the topology.
 */
static void restrict_to_affinity(struct topo *t)
{
	hwloc_bitmap_t bind = hwloc_bitmap_alloc();

	if (!hwloc_get_cpubind(t->h, bind, HWLOC_CPUBIND_THREAD) &&
	    hwloc_bitmap_intersects(bind, t->allowed))
		hwloc_bitmap_and(t->allowed, t->allowed, bind);
	hwloc_bitmap_free(bind);
}

/* index_pus - the PU-by-OS-index table of topo_pu_obj. */
static void index_pus(struct topo *t)
{
	hwloc_obj_t pu = NULL;

	while ((pu = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_PU, pu)))
		if ((int)pu->os_index >= t->npu_by_os)
			t->npu_by_os = (int)pu->os_index + 1;
	t->pu_by_os = xcalloc((size_t)t->npu_by_os, sizeof(*t->pu_by_os));
	while ((pu = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_PU, pu)))
		t->pu_by_os[pu->os_index] = pu;
}

/*
 * synthetic_pus - the PUs a synthetic description asks for (the product of its level
 * counts, an upper bound), or -1 past TOPO_MAX_PUS: hwloc would build all of them first.
 */
static long synthetic_pus(const char *desc)
{
	long n = 1;

	for (const char *p = desc; *p;) {
		size_t len = strcspn(p, " \t");
		const char *colon = memchr(p, ':', len);
		const char *d = colon ? colon + 1 : p;
		long v = 0;

		if (*p != '(' && *p != '[' && d < p + len && *d >= '0' && *d <= '9') {
			for (; d < p + len && *d >= '0' && *d <= '9' && v <= TOPO_MAX_PUS; d++)
				v = v * 10 + (*d - '0');
			if (v > TOPO_MAX_PUS || (v && n > TOPO_MAX_PUS / v))
				return -1;
			n *= v ? v : 1;
		}
		p += len;
		p += strspn(p, " \t");
	}
	return n;
}

/*
 * file_synthetic - in the text of a topology file that is not XML, the synthetic
 * description: the first line neither blank nor starting with `#` (leading blanks
 * skipped), cut at its end and its trailing blanks, in place; NULL if there is none.
 * *@line is its line number.
 */
static char *file_synthetic(char *text, int *line)
{
	*line = 0;
	for (char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char *next = p + len + (p[len] == '\n');

		++*line;
		p += strspn(p, " \t");
		if (*p && *p != '#' && *p != '\n' && *p != '\r') {
			char *end = p + strcspn(p, "\n");

			while (end > p && strchr(" \t\r", end[-1]))
				end--;
			*end = 0;
			return p;
		}
		p = next;
	}
	return NULL;
}

/* file_is_xml - the file's text starts (after a byte-order mark and blanks) as XML does. */
static int file_is_xml(const char *text)
{
	if (!strncmp(text, "\xef\xbb\xbf", 3))
		text += 3;
	text += strspn(text, " \t\r\n");
	return !strncmp(text, "<?xml", 5) || !strncmp(text, "<topology", 9);
}

struct topo *topo_load(const char *spec, char *err, size_t errlen)
{
	struct topo *t = xcalloc(1, sizeof(*t));
	const char *synthetic = NULL, *xml = NULL, *file = NULL;
	char *text = NULL, where[512] = "";
	size_t len = 0;
	int line = 0;

	if (!spec || !strcmp(spec, "host"))
		spec = "host";
	else if (!strncmp(spec, "synthetic:", 10))
		synthetic = spec + 10;
	else
		file = spec;
	t->source = xstrdup(spec);
	/* Read here, not by hwloc: a FIFO or a device is refused rather than waited on. */
	if (file &&
	    !(text = infile_read(file, TOPO_XML_MAX, "a topology file", &len, err, errlen))) {
		size_t n = strlen(err);

		if (errno == ENOENT && n < errlen)
			snprintf(err + n, errlen - n,
				 " (expected host, synthetic:STRING, or a file: hwloc XML or a "
				 "synthetic description)");
		goto fail_early;
	}
	/* A file is XML (lstopo --of xml) or holds a synthetic description (# comments). */
	if (file && file_is_xml(text))
		xml = file;
	else if (file && !(synthetic = file_synthetic(text, &line))) {
		set_err(err, errlen,
			"%s: neither hwloc XML (no <?xml or <topology start) nor a synthetic "
			"description (no line but blanks and # comments)",
			file);
		goto fail_early;
	}
	if (file && !xml) /* where a bad description came from: "FILE:LINE: " */
		snprintf(where, sizeof(where), "%.*s:%d: ", (int)(sizeof(where) - 16), file, line);
	if (hwloc_topology_init(&t->h)) {
		set_err(err, errlen, "hwloc_topology_init: %s", strerror(errno));
		goto fail_early;
	}
	if (synthetic && synthetic_pus(synthetic) < 0) {
		set_err(err, errlen,
			"%s%s: more than %d PUs (a larger machine than pcbench plans for)", where,
			synthetic, TOPO_MAX_PUS);
		goto fail;
	}
	if (synthetic && hwloc_topology_set_synthetic(t->h, synthetic)) {
		set_err(err, errlen, "%s%s: hwloc cannot parse this synthetic description", where,
			synthetic);
		goto fail;
	}
	if (xml && hwloc_topology_set_xmlbuffer(t->h, text, (int)len + 1)) {
		set_err(err, errlen, "%s: hwloc cannot read this XML: %s", xml, strerror(errno));
		goto fail;
	}
	if (hwloc_topology_load(t->h)) {
		set_err(err, errlen, "%s: hwloc_topology_load: %s", spec, strerror(errno));
		goto fail;
	}
	if (hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU) > TOPO_MAX_PUS) {
		set_err(err, errlen,
			"%s: more than %d PUs (a larger machine than pcbench plans for)", spec,
			TOPO_MAX_PUS);
		goto fail;
	}
	free(text);
	index_pus(t);
	/* Only a discovered host binds for real; XML and synthetic binding is a no-op. */
	t->host = !synthetic && !xml && hwloc_topology_is_thissystem(t->h);
	t->allowed = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(t->h));
	if (t->host)
		restrict_to_affinity(t);
	return t;
fail:
	hwloc_topology_destroy(t->h);
fail_early:
	free(text);
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
	hwloc_bitmap_free(t->allowed);
	free(t->pu_by_os);
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
	return hwloc_bitmap_weight(t->allowed);
}

int topo_npus_all(const struct topo *t)
{
	return hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU);
}

int topo_is_host(const struct topo *t)
{
	return t->host;
}

hwloc_obj_t topo_pu_obj(const struct topo *t, int os)
{
	return os >= 0 && os < t->npu_by_os ? t->pu_by_os[os] : NULL;
}

hwloc_obj_t topo_ancestor(const struct topo *t, hwloc_obj_type_t type, hwloc_obj_t obj)
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
	hwloc_obj_t pu = topo_pu_obj(t, os_index), o;

	if (!pu)
		return -1;
	out->os = os_index;
	o = topo_ancestor(t, HWLOC_OBJ_CORE, pu);
	out->core = o ? (int)o->logical_index : -1;
	o = topo_ancestor(t, HWLOC_OBJ_L3CACHE, pu);
	out->l3 = o ? (int)o->logical_index : -1;
	o = topo_ancestor(t, HWLOC_OBJ_PACKAGE, pu);
	out->package = o ? (int)o->logical_index : -1;
	o = numa_of(t, pu);
	out->numa = o ? (int)o->logical_index : -1;
	return 0;
}

int topo_siblings(const struct topo *t, int os_index, int *out, int max)
{
	hwloc_obj_t pu = topo_pu_obj(t, os_index);
	hwloc_obj_t core = pu ? topo_ancestor(t, HWLOC_OBJ_CORE, pu) : NULL;
	int n = 0, i;

	if (!core)
		return 0;
	hwloc_bitmap_foreach_begin(i, core->cpuset)
	{
		if (i != os_index && n < max)
			out[n++] = i;
	}
	hwloc_bitmap_foreach_end();
	return n;
}

/* pus_in_order - the usable PUs in logical order. */
static int pus_in_order(const struct topo *t, int *out, int max)
{
	int n = 0;
	hwloc_obj_t pu = NULL;

	while (n < max &&
	       (pu = hwloc_get_next_obj_inside_cpuset_by_type(t->h, t->allowed, HWLOC_OBJ_PU, pu)))
		out[n++] = (int)pu->os_index;
	return n;
}

/* online_cpus - the kernel's online CPUs, or NULL when it cannot say. */
static hwloc_bitmap_t online_cpus(void)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	hwloc_bitmap_t set = NULL;

	if (f && fgets(buf, sizeof(buf), f)) {
		set = hwloc_bitmap_alloc();
		buf[strcspn(buf, "\n")] = '\0';
		if (hwloc_bitmap_list_sscanf(set, buf)) {
			hwloc_bitmap_free(set);
			set = NULL;
		}
	}
	if (f)
		fclose(f);
	return set;
}

/* add_excluded - "LIST: WHY" for the PUs of @set, appended to @buf. */
static int add_excluded(hwloc_const_bitmap_t set, const char *why, char *buf, size_t len)
{
	size_t used = strlen(buf);
	int n = hwloc_bitmap_weight(set);
	char list[1024];

	if (n <= 0)
		return 0;
	hwloc_bitmap_list_snprintf(list, sizeof(list), set);
	snprintf(buf + used, len - used, "%sPU%s %s: %s", used ? "; " : "", n > 1 ? "s" : "", list,
		 why);
	return n;
}

int topo_excluded(const struct topo *t, char *buf, size_t len)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc(), online;
	hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(t->h);
	int n;

	buf[0] = '\0';
	hwloc_bitmap_andnot(set, all, t->allowed);
	n = add_excluded(set,
			 "not in the CPU affinity pcbench inherited (taskset, "
			 "sched_setaffinity)",
			 buf, len);
	online = t->host ? online_cpus() : NULL;
	if (online) {
		hwloc_bitmap_andnot(set, online, all);
		n += add_excluded(set, "online but outside this process's cpuset (cgroup)", buf,
				  len);
		hwloc_bitmap_free(online);
	}
	hwloc_bitmap_free(set);
	return n;
}

int topo_allowed_list(const struct topo *t, char *buf, size_t len)
{
	return hwloc_bitmap_list_snprintf(buf, len, t->allowed) < 0 ? -1 : 0;
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
		set_err(err, errlen, "expected OS PU indexes such as 0-3,8");
		hwloc_bitmap_free(set);
		return -1;
	}
	hwloc_bitmap_foreach_begin(i, set)
	{
		if (!topo_pu_obj(t, i)) {
			set_err(err, errlen, "PU %d is not in this topology (it has %d PUs)", i,
				topo_npus_all(t));
			n = -1;
			break;
		}
		if (!hwloc_bitmap_isset(t->allowed, (unsigned)i)) {
			char allowed[256];

			topo_allowed_list(t, allowed, sizeof(allowed));
			snprintf(
			    err, errlen,
			    "PU %d is outside the CPU affinity pcbench inherited (allowed: %s)", i,
			    allowed);
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

/* pair_of - the class of two different PUs. */
static enum topo_pair pair_of(const struct topo_pu *a, const struct topo_pu *b)
{
	if (a->core >= 0 && a->core == b->core)
		return PAIR_SMT;
	if (a->l3 >= 0 && a->l3 == b->l3)
		return PAIR_SAME_L3;
	if (a->package == b->package)
		return a->l3 >= 0 && b->l3 >= 0 ? PAIR_CROSS_L3 : PAIR_SAME_PACKAGE;
	return PAIR_CROSS_SOCKET;
}

enum topo_pair topo_pair_class(const struct topo *t, int os_a, int os_b)
{
	struct topo_pu a, b;

	if (os_a == os_b || topo_pu_info(t, os_a, &a) || topo_pu_info(t, os_b, &b))
		return PAIR_SAME_PU;
	return pair_of(&a, &b);
}

/* Order by package, L3, core: a core's PUs, then an L3 domain's, are adjacent. */
static int pu_domain_cmp(const void *x, const void *y)
{
	const struct topo_pu *a = x, *b = y;

	if (a->package != b->package)
		return a->package < b->package ? -1 : 1;
	if (a->l3 != b->l3)
		return a->l3 < b->l3 ? -1 : 1;
	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	return a->os - b->os;
}

static int same_domain(const struct topo_pu *a, const struct topo_pu *b)
{
	return a->package == b->package && a->l3 == b->l3;
}

/*
 * Every pair of different cores in two (package, L3) domains has the class of any one such
 * pair, so one PU per domain stands for it: O(n log n + domains^2) instead of O(n^2) pairs
 * (4096 PUs at -t max took minutes).
 */
void topo_pair_classes(const struct topo *t, const int *pus, int n, int present[PAIR_COUNT])
{
	struct topo_pu *p = xcalloc((size_t)n + 1, sizeof(*p));
	int m = 0, d = 0, *dom = xcalloc((size_t)n + 1, sizeof(*dom));

	for (int c = 0; c < PAIR_COUNT; c++)
		present[c] = 0;
	for (int i = 0; i < n; i++)
		if (!topo_pu_info(t, pus[i], &p[m]))
			m++;
	qsort(p, (size_t)m, sizeof(*p), pu_domain_cmp);
	for (int i = 0; i < m; i++) {
		if (i && p[i].os == p[i - 1].os)
			present[PAIR_SAME_PU] = 1;
		else if (i && same_domain(&p[i], &p[i - 1]))
			/* sorted by core: SMT siblings, and where the core changes, two cores */
			present[pair_of(&p[i], &p[i - 1])] = 1;
		if (!i || !same_domain(&p[i], &p[i - 1]))
			dom[d++] = i;
	}
	for (int a = 0; a < d; a++)
		for (int b = a + 1; b < d; b++)
			present[pair_of(&p[dom[a]], &p[dom[b]])] = 1;
	free(dom);
	free(p);
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
	int n = topo_npus_all(t);

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
	char *xml;
	int len, ret;

	/* Into memory, then through lib/outfile: hwloc's own file writer is not checked. */
	if (hwloc_topology_export_xmlbuffer(t->h, &xml, &len, 0)) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = outfile_write_all(path, xml, len > 0 ? (size_t)len - 1 : 0); /* len counts the NUL */
	hwloc_free_xmlbuffer(t->h, xml);
	if (ret)
		set_err(err, errlen, "%s: write failed", path);
	return ret;
}

int topo_bind_self(const struct topo *t, int os_index, char *err, size_t errlen)
{
	hwloc_bitmap_t set;
	int ret;

	if (!t->host) {
		set_err(err, errlen, "cannot bind on a topology that is not this machine's");
		return -1;
	}
	set = hwloc_bitmap_alloc();
	hwloc_bitmap_only(set, (unsigned)os_index);
	ret = hwloc_set_cpubind(t->h, set, HWLOC_CPUBIND_THREAD);
	if (ret)
		set_err(err, errlen, "hwloc_set_cpubind(PU %d): %s", os_index, strerror(errno));
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
		hwloc_obj_t pu = topo_pu_obj(t, pu0), numa = pu ? numa_of(t, pu) : NULL;

		out->node = numa ? (int)numa->os_index : 0;
		return 0;
	}
	if (!strcmp(spec, "interleave")) {
		out->interleave = 1;
		return 0;
	}
	if (strncmp(spec, "node:", 5)) {
		set_err(err, errlen, "expected first, node:N, interleave or each");
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
		set_err(err, errlen, "no such NUMA node (this topology has %s)", list);
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
		snprintf(buf, len, "node:%d", h->node);
}

void *topo_alloc_home(const struct topo *t, size_t len, const struct topo_home *h)
{
	void *p = topo_try_alloc_home(t, len, h);

	if (!p)
		die("memory", "topo_alloc_home", "%s", strerror(errno));
	return p;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 (older headers); older kernels: EINVAL */
#endif

/*
 * first_touch - fault in every page of [@p, @p + @len) (page-aligned) for writing, under the
 * area's memory policy: the kernel's MADV_POPULATE_WRITE, else a store of 0 per page (the
 * pages are zero already: fresh anonymous memory). Not a memset: a sanitizer intercepts that
 * and sets its shadow of the whole area (1.4 s of a run's 1.6 under TSan for the 64 MiB
 * arena), and the pages hold zeros either way. -1 (errno ENOMEM) when the kernel says the
 * pages cannot be had: storing into them would only bring the OOM killer.
 */
static int first_touch(void *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!madvise(p, len, MADV_POPULATE_WRITE))
		return 0;
	if (errno == ENOMEM)
		return -1;
	for (size_t off = 0; off < len; off += page) /* EINVAL: before Linux 5.14 */
		((volatile char *)p)[off] = 0;
	return 0;
}

void *topo_try_alloc_home(const struct topo *t, size_t len, const struct topo_home *h)
{
	hwloc_nodeset_t set;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	set = hwloc_bitmap_alloc();
	if (h->interleave)
		hwloc_bitmap_copy(set, hwloc_topology_get_topology_nodeset(t->h));
	else
		hwloc_bitmap_only(set, (unsigned)h->node);
	/* no memory binding here: first touch from the home thread still applies */
	(void)hwloc_set_area_membind(t->h, p, len, set,
				     h->interleave ? HWLOC_MEMBIND_INTERLEAVE : HWLOC_MEMBIND_BIND,
				     HWLOC_MEMBIND_BYNODESET);
	hwloc_bitmap_free(set);
	if (first_touch(p, len)) {
		munmap(p, len);
		errno = ENOMEM;
		return NULL;
	}
	return p;
}

void topo_free_home(const struct topo *t, void *p, size_t len)
{
	(void)t;
	munmap(p, len);
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
