// SPDX-License-Identifier: MIT
/*
 * placement.c - placement policies: the table of named policies (topo_policies[]) and hwloc
 * location strings. Every order is made inside the PUs this process may use (t->allowed),
 * which is every PU of an XML or synthetic topology.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_command.h"
#include "topo_impl.h"
#include "util.h"

/*
 * in_set - @o has PUs in @set, and all of its usable PUs are in @set. With every PU usable
 * this is hwloc's "inside the cpuset"; with fewer, an object counts by its usable PUs.
 */
static int in_set(const struct topo *t, hwloc_const_cpuset_t set, hwloc_obj_t o)
{
	hwloc_bitmap_t usable;
	int in;

	if (!hwloc_bitmap_intersects(o->cpuset, set))
		return 0;
	usable = hwloc_bitmap_alloc();
	hwloc_bitmap_and(usable, o->cpuset, t->allowed);
	in = hwloc_bitmap_isincluded(usable, set);
	hwloc_bitmap_free(usable);
	return in;
}

/* next_in - the next object of @type after @prev (NULL: the first) in_set @set. */
static hwloc_obj_t next_in(const struct topo *t, hwloc_const_cpuset_t set, hwloc_obj_type_t type,
			   hwloc_obj_t prev)
{
	while ((prev = hwloc_get_next_obj_by_type(t->h, type, prev)))
		if (in_set(t, set, prev))
			return prev;
	return NULL;
}

static int count_in(const struct topo *t, hwloc_const_cpuset_t set, hwloc_obj_type_t type)
{
	int n = 0;

	for (hwloc_obj_t o = NULL; (o = next_in(t, set, type, o));)
		n++;
	return n;
}

/* part - a new bitmap: @a's PUs that are also in @b (free with hwloc_bitmap_free). */
static hwloc_bitmap_t part(hwloc_const_cpuset_t a, hwloc_const_cpuset_t b)
{
	hwloc_bitmap_t s = hwloc_bitmap_alloc();

	hwloc_bitmap_and(s, a, b);
	return s;
}

/* Orders of PUs. Each fills @out with OS indexes and returns how many. */

/* pus_in - the PUs of @set in logical order. */
static int pus_in(const struct topo *t, hwloc_const_cpuset_t set, int *out)
{
	int n = 0;
	hwloc_obj_t pu = NULL;

	while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(t->h, set, HWLOC_OBJ_PU, pu)))
		out[n++] = (int)pu->os_index;
	return n;
}

/*
 * nth_pu - the @rank-th PU of @core in @set (logical order), or NULL: through the core's
 * own PUs, where hwloc's search by rank starts from the first PU of the machine (that made
 * cores, smt and cross-socket O(PUs^2)).
 */
static hwloc_obj_t nth_pu(hwloc_obj_t core, hwloc_const_cpuset_t set, unsigned rank)
{
	hwloc_obj_t pu = core;

	while (pu && pu->type != HWLOC_OBJ_PU)
		pu = pu->first_child;
	for (; pu && hwloc_bitmap_isset(core->cpuset, pu->os_index); pu = pu->next_cousin)
		if (hwloc_bitmap_isset(set, pu->os_index) && !rank--)
			return pu;
	return NULL;
}

/* pus_under - the PUs of @o in @set, in logical order (nth_pu's walk). */
static int pus_under(hwloc_obj_t o, hwloc_const_cpuset_t set, int *out)
{
	int n = 0;
	hwloc_obj_t pu;

	while ((pu = nth_pu(o, set, (unsigned)n)))
		out[n++] = (int)pu->os_index;
	return n;
}

/* cores_first - inside @set, one PU of every core before any second sibling. */
static int cores_first(const struct topo *t, hwloc_const_cpuset_t set, int *out)
{
	int n = 0, more = 1;

	if (!count_in(t, set, HWLOC_OBJ_CORE))
		return pus_in(t, set, out);
	for (unsigned rank = 0; more; rank++) {
		hwloc_obj_t core = NULL;

		more = 0;
		while ((core = next_in(t, set, HWLOC_OBJ_CORE, core))) {
			hwloc_obj_t pu = nth_pu(core, set, rank);

			if (pu) {
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

/* spread - cores_first lists of every object of @type in @set, round-robin. */
static int spread(const struct topo *t, hwloc_const_cpuset_t set, hwloc_obj_type_t type, int *out)
{
	int k = count_in(t, set, type), n, npus = topo_npus_all(t);
	int **lists = xcalloc((size_t)k + 1, sizeof(int *)),
	    *len = xcalloc((size_t)k + 1, sizeof(int));
	hwloc_obj_t o = NULL;

	for (int i = 0; i < k; i++) {
		hwloc_bitmap_t mine;

		o = next_in(t, set, type, o);
		mine = part(o->cpuset, set);
		lists[i] = xcalloc((size_t)npus, sizeof(int));
		len[i] = cores_first(t, mine, lists[i]);
		hwloc_bitmap_free(mine);
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
	/*
	 * The first object of the type inside @container: down the first children (the tree
	 * is in logical order), O(depth); hwloc's search from the first object of the type
	 * made scatter O(PUs^2). Where the levels do not nest (no object at that depth on the
	 * way down), hwloc's search.
	 */
	for (first = container; first && first->depth < obj->depth; first = first->first_child)
		;
	if (!first || first->depth != obj->depth)
		first = hwloc_get_next_obj_inside_cpuset_by_type(t->h, container->cpuset, obj->type,
								 NULL);
	return first ? obj->logical_index - first->logical_index : 0;
}

/* The named policies. Each fills @out (room for every PU) with the PUs it offers, in the
 * order threads take them, and returns how many; with none, a reason in @err. */

static int place_compact(const struct topo *t, int n, int *out, char *err, size_t errlen)
{
	(void)n, (void)err, (void)errlen;
	return pus_in(t, t->allowed, out);
}

/*
 * scatter: round-robin over packages, then L3 caches, then cores, then PUs. Sorting by
 * (PU rank in core, core rank in L3, L3 rank in package, package) gives exactly that.
 */
static int place_scatter(const struct topo *t, int n, int *out, char *err, size_t errlen)
{
	int npus = topo_npus_all(t), k = 0;
	struct scatter_key *keys = xcalloc((size_t)npus, sizeof(*keys));
	hwloc_obj_t root = hwloc_get_root_obj(t->h);

	(void)n, (void)err, (void)errlen;
	for (int i = 0; i < npus; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t core = topo_ancestor(t, HWLOC_OBJ_CORE, pu);
		hwloc_obj_t pkg = topo_ancestor(t, HWLOC_OBJ_PACKAGE, pu);
		hwloc_obj_t l3 = topo_ancestor(t, HWLOC_OBJ_L3CACHE, pu);

		if (!hwloc_bitmap_isset(t->allowed, pu->os_index))
			continue;
		keys[k].k[0] = core ? rank(t, core, pu) : 0;
		keys[k].k[1] = core ? rank(t, l3 ? l3 : pkg ? pkg : root, core) : 0;
		keys[k].k[2] = l3 ? rank(t, pkg ? pkg : root, l3) : 0;
		keys[k].k[3] = pkg ? pkg->logical_index : 0;
		keys[k].k[4] = pu->logical_index;
		keys[k++].os_index = (int)pu->os_index;
	}
	qsort(keys, (size_t)k, sizeof(*keys), cmp_key);
	for (int i = 0; i < k; i++)
		out[i] = keys[i].os_index;
	free(keys);
	return k;
}

static int place_cores(const struct topo *t, int n, int *out, char *err, size_t errlen)
{
	(void)n, (void)err, (void)errlen;
	return cores_first(t, t->allowed, out);
}

static int place_smt(const struct topo *t, int n, int *out, char *err, size_t errlen)
{
	int avail = 0;

	(void)n;
	for (hwloc_obj_t core = NULL; (core = next_in(t, t->allowed, HWLOC_OBJ_CORE, core));) {
		hwloc_bitmap_t mine = part(core->cpuset, t->allowed);

		if (hwloc_bitmap_weight(mine) >= 2)
			avail += pus_under(core, t->allowed, out + avail);
		hwloc_bitmap_free(mine);
	}
	if (!avail)
		set_err(err, errlen, "no SMT: no core has two PUs");
	return avail;
}

/* weight_in - how many of @o's PUs are usable. */
static int weight_in(const struct topo *t, hwloc_obj_t o)
{
	hwloc_bitmap_t mine = part(o->cpuset, t->allowed);
	int w = hwloc_bitmap_weight(mine);

	hwloc_bitmap_free(mine);
	return w;
}

static int place_same_l3(const struct topo *t, int n, int *out, char *err, size_t errlen)
{
	hwloc_obj_t l3 = NULL, best = NULL;
	int avail = 0;

	while ((l3 = next_in(t, t->allowed, HWLOC_OBJ_L3CACHE, l3)))
		if (!best || weight_in(t, l3) > weight_in(t, best))
			best = l3;
	l3 = NULL;
	while ((l3 = next_in(t, t->allowed, HWLOC_OBJ_L3CACHE, l3)))
		if (weight_in(t, l3) >= n) {
			hwloc_bitmap_t mine = part(l3->cpuset, t->allowed);

			avail = cores_first(t, mine, out);
			hwloc_bitmap_free(mine);
			break;
		}
	if (!best)
		set_err(err, errlen, "no L3 cache level in this topology");
	else if (!avail)
		set_err(err, errlen, "%d threads do not fit in one L3 domain (at most %d PUs)", n,
			weight_in(t, best));
	return avail;
}

static int place_cross_l3(const struct topo *t, int n, int *out, char *err, size_t errlen)
{
	hwloc_obj_t pkg = NULL;
	int avail = 0;

	(void)n;
	while (!avail && (pkg = next_in(t, t->allowed, HWLOC_OBJ_PACKAGE, pkg))) {
		hwloc_bitmap_t mine = part(pkg->cpuset, t->allowed);

		if (count_in(t, mine, HWLOC_OBJ_L3CACHE) >= 2)
			avail = spread(t, mine, HWLOC_OBJ_L3CACHE, out);
		hwloc_bitmap_free(mine);
	}
	if (!avail)
		set_err(err, errlen, "no package has two L3 domains");
	return avail;
}

static int place_cross_socket(const struct topo *t, int n, int *out, char *err, size_t errlen)
{
	(void)n;
	if (count_in(t, t->allowed, HWLOC_OBJ_PACKAGE) >= 2)
		return spread(t, t->allowed, HWLOC_OBJ_PACKAGE, out);
	set_err(err, errlen, "one package: no other socket");
	return 0;
}

const struct topo_policy topo_policies[] = {
    {"compact", place_compact, "consecutive PUs in hwloc order"},
    {"scatter", place_scatter, "packages, L3s, cores, PUs in turn"},
    {"cores", place_cores, "a PU of every core before siblings"},
    {"smt", place_smt, "both SMT siblings, core by core"},
    {"same-l3", place_same_l3, "one L3 domain, one PU per core first"},
    {"cross-l3", place_cross_l3, "one package, alternating L3s"},
    {"cross-socket", place_cross_socket, "alternating packages"},
    {NULL, NULL, NULL},
};

const struct topo_policy *topo_policy_find(const char *name)
{
	for (const struct topo_policy *p = topo_policies; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/* policy_names - "compact, scatter, ..." into @buf. */
static void policy_names(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const struct topo_policy *p = topo_policies; p->name && used < len; p++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 p == topo_policies ? "" : ", ", p->name);
}

const char *topo_policy_usage(void)
{
	static char text[2048];
	size_t used = 0;

	if (text[0])
		return text;
	for (const struct topo_policy *p = topo_policies; p->name && used < sizeof(text); p++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s  %-14s%s",
					 p == topo_policies ? "" : "\n", p->name, p->help);
	return text;
}

/* keep_allowed - drop the PUs plans may not use from @pus; 0 with a reason if none is left. */
static int keep_allowed(const struct topo *t, int *pus, int n, char *err, size_t errlen)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (hwloc_bitmap_isset(t->allowed, (unsigned)pus[i]))
			pus[k++] = pus[i];
	if (!k && n)
		set_err(err, errlen, "its %d PU%s outside the CPU affinity pcbench inherited", n,
			n > 1 ? "s are all" : " is");
	return k;
}

/* location - PUs of an hwloc location string, as hwloc-calc itself resolves it. */
static int location(const struct topo *t, const char *loc, int *out, int max, char *err,
		    size_t errlen)
{
	char *argv[10], *buf;
	int argc = 0, status, n = 0;
	/* its stdout and stderr as one text (hwloc's complaints come on stderr) */
	struct run_cmd c = {.argv = argv, .out = RUN_CAPTURE, .err = RUN_TO_OUT, .max = 65535};

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
	if (run_start(&c, NULL, 0)) {
		set_err(err, errlen, "hwloc-calc (Debian package hwloc): %s",
			strerror(c.spawn_errno));
		return -1;
	}
	if (run_finish(&c, err, errlen)) {
		run_cmd_free(&c);
		return -1;
	}
	status = c.status;
	sb_add(&c.out_text, "", 0); /* a text even when it printed nothing */
	buf = c.out_text.p;

	/* The PU list is the line of digits and commas; anything else is hwloc talking. */
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (strspn(line, "0123456789,") == strlen(line)) {
			for (char *p = line; *p && n < max;) {
				out[n++] = (int)strtol(p, &p, 10);
				p += *p == ',';
			}
		} else if (strstr(line, "invalid") || strstr(line, "could not") ||
			   strstr(line, "ignored") || strstr(line, "failed")) {
			set_err(err, errlen, "hwloc: %s", line);
			n = -1;
			break;
		}
	}
	run_cmd_free(&c);
	if (n < 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !n) {
		set_err(err, errlen, "hwloc-calc resolves it to no PU");
		return -1;
	}
	return keep_allowed(t, out, n, err, errlen);
}

int topo_place(const struct topo *t, const char *policy, int n, int *pus, char *err, size_t errlen)
{
	const struct topo_policy *p = topo_policy_find(policy);
	int npus = topo_npus_all(t), avail, ret = TOPO_OK;
	int *all = xcalloc((size_t)npus + 1, sizeof(int));

	err[0] = '\0';
	if (p) {
		avail = p->place(t, n, all, err, errlen);
	} else {
		avail = location(t, policy, all, npus, err, errlen);
		if (avail < 0) {
			char why[512], names[256];

			snprintf(why, sizeof(why), "%s", err);
			policy_names(names, sizeof(names));
			set_err(err, errlen, "neither a policy (%s) nor an hwloc location: %s",
				names, why);
			ret = TOPO_UNKNOWN;
			goto out;
		}
	}
	if (n < 1 || n > avail) {
		int off = topo_npus_all(t) - topo_npus(t);

		if (!err[0] || avail)
			set_err(err, errlen, "%d threads need %d PUs (%s %s offers %d)", n, n,
				p ? "policy" : "location", policy, avail);
		if (off > 0 && !strstr(err, "affinity")) {
			size_t used = strlen(err);

			snprintf(err + used, errlen - used,
				 "; the CPU affinity pcbench inherited (taskset) leaves %d of the "
				 "%d PUs",
				 topo_npus(t), topo_npus_all(t));
		}
		ret = TOPO_NOFIT;
		goto out;
	}
	memcpy(pus, all, (size_t)n * sizeof(*pus));
out:
	free(all);
	return ret;
}
