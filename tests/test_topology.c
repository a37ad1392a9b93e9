// SPDX-License-Identifier: MIT
/*
 * test_topology.c - compact and scatter placements on synthetic machines (hwloc parses the
 * description), placements that do not fit, and binding refused on a foreign topology.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "infile.h"
#include "topology.h"
#include "check.h"

/* counts - how many packages, L3 domains, cores and PUs-per-core the topology has. */
struct counts {
	int packages, l3s, cores, npus, smt, max_l3_per_pkg;
};

static struct counts count(struct topo *t)
{
	struct counts c = {0};
	int n = topo_npus(t), *pus = calloc((size_t)n, sizeof(int));
	char err[256];
	int l3_pkg[1024] = {0};

	topo_place(t, "compact", n, pus, err, sizeof(err));
	c.npus = n;
	for (int i = 0; i < n; i++) {
		struct topo_pu p;

		topo_pu_info(t, pus[i], &p);
		c.packages = p.package + 1 > c.packages ? p.package + 1 : c.packages;
		c.l3s = p.l3 + 1 > c.l3s ? p.l3 + 1 : c.l3s;
		c.cores = p.core + 1 > c.cores ? p.core + 1 : c.cores;
		if (p.l3 >= 0 && p.l3 < 1024)
			l3_pkg[p.l3] = p.package;
	}
	for (int p = 0; p < c.packages; p++) {
		int k = 0;

		for (int l = 0; l < c.l3s; l++)
			k += l3_pkg[l] == p;
		c.max_l3_per_pkg = k > c.max_l3_per_pkg ? k : c.max_l3_per_pkg;
	}
	c.smt = c.npus > c.cores;
	free(pus);
	return c;
}

/* check_policy - the defining property of @policy on @t, at @n threads. */
static void check_policy(struct topo *t, const char *name, const char *policy, int n,
			 struct counts c)
{
	int *pus = calloc((size_t)n, sizeof(int)), ret;
	struct topo_pu *p = calloc((size_t)n, sizeof(*p));
	char err[512];
	int expect_fit = 1;

	if (!strcmp(policy, "smt"))
		expect_fit = c.smt;
	else if (!strcmp(policy, "same-l3"))
		expect_fit = c.l3s > 0 && n <= c.npus / c.l3s;
	else if (!strcmp(policy, "cross-l3"))
		expect_fit = c.max_l3_per_pkg >= 2 && n <= c.npus / c.packages;
	else if (!strcmp(policy, "cross-socket"))
		expect_fit = c.packages >= 2;
	ret = topo_place(t, policy, n, pus, err, sizeof(err));
	if ((ret == TOPO_OK) != expect_fit) {
		fail("%s %s %d: placed=%d, expected %d (%s)", name, policy, n, ret == TOPO_OK,
		     expect_fit, err);
		goto out;
	}
	if (ret != TOPO_OK)
		goto out;
	for (int i = 0; i < n; i++) {
		topo_pu_info(t, pus[i], &p[i]);
		for (int j = 0; j < i; j++)
			if (pus[i] == pus[j])
				fail("%s %s %d: PU %d used twice", name, policy, n, pus[i]);
	}
	for (int i = 1; i < n; i++) {
		const struct topo_pu *a = &p[i - 1], *b = &p[i];

		if (!strcmp(policy, "compact") &&
		    (b->package < a->package || (b->package == a->package && b->core < a->core)))
			fail("%s compact: thread %d goes back in logical order", name, i);
		if (!strcmp(policy, "scatter") && c.packages >= 2 && b->package == a->package)
			fail("%s scatter %d: threads %d and %d in one package", name, n, i - 1, i);
		if (!strcmp(policy, "smt") && i % 2 && b->core != a->core)
			fail("%s smt %d: threads %d and %d not siblings", name, n, i - 1, i);
		if (!strcmp(policy, "same-l3") && b->l3 != p[0].l3)
			fail("%s same-l3 %d: thread %d outside thread 0's L3", name, n, i);
		if (!strcmp(policy, "cross-l3") && (b->l3 == a->l3 || b->package != a->package))
			fail("%s cross-l3 %d: threads %d and %d", name, n, i - 1, i);
		if (!strcmp(policy, "cross-socket") && b->package == a->package)
			fail("%s cross-socket %d: threads %d and %d in one package", name, n, i - 1,
			     i);
	}
	if (!strcmp(policy, "cores"))
		for (int i = 0; i < n && i < c.cores; i++)
			for (int j = 0; j < i; j++)
				if (p[i].core == p[j].core)
					fail("%s cores %d: a sibling (thread %d) before every core "
					     "is used",
					     name, n, i);
out:
	free(pus);
	free(p);
}

/* fixtures - every tests/topologies fixture against every policy's defining property. */
static void fixtures(const char *src)
{
	/* the policies whose defining property check_policy knows */
	static const char *const checked[] = {"compact", "scatter",  "cores",	    "smt",
					      "same-l3", "cross-l3", "cross-socket"};
	char pattern[512], err[512];
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s/tests/topologies/*.synthetic", src);
	if (glob(pattern, 0, NULL, &g) || g.gl_pathc < 6) {
		fail("fixtures: %s: want at least 6", pattern);
		return;
	}
	for (size_t f = 0; f < g.gl_pathc; f++) {
		struct topo *t = topo_load(g.gl_pathv[f], err, sizeof(err)); /* --topology FILE */
		struct counts c;

		if (!t) {
			fail("%s: %s", g.gl_pathv[f], err);
			continue;
		}
		c = count(t);
		for (const struct topo_policy *p = topo_policies; p->name; p++) {
			int ns[] = {1, 2, 4, 8, c.npus}, known = 0;

			for (size_t i = 0; i < sizeof(checked) / sizeof(checked[0]); i++)
				known |= !strcmp(checked[i], p->name);
			if (!known) {
				fail("policy %s: test_topology.c checks no property of it",
				     p->name);
				continue;
			}
			for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
				if (ns[k] <= c.npus)
					check_policy(t, g.gl_pathv[f], p->name, ns[k], c);
		}
		topo_free(t);
	}
	globfree(&g);
}

/* xml_roundtrip - an exported topology loads back as XML with the same fingerprint. */
static void xml_roundtrip(void)
{
	char err[512], path[] = "/tmp/pcbench-topo-XXXXXX", a[17], b[17];
	int fd = mkstemp(path);
	struct topo *t = topo_load_synthetic("pack:2 l3:2 core:2 pu:2", err, sizeof(err)), *x;

	if (fd < 0 || !t || topo_export_xml(t, path, err, sizeof(err))) {
		fail("xml export: %s", err);
		goto out;
	}
	x = topo_load(path, err, sizeof(err));
	if (!x) {
		fail("xml load: %s", err);
		goto out;
	}
	topo_fingerprint(t, a);
	topo_fingerprint(x, b);
	if (strcmp(a, b) || topo_is_host(x))
		fail("xml round trip: fingerprint %s vs %s, is_host %d", a, b, topo_is_host(x));
	topo_free(x);
out:
	topo_free(t);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
}

/*
 * load_text - topo_load of a file holding @text: its fingerprint in @fp, or NULL with the
 * error in @err.
 */
static int load_text(const char *text, char *fp, char *err, size_t errlen)
{
	char path[] = "/tmp/pcbench-topo-XXXXXX";
	int fd = mkstemp(path);
	struct topo *t = NULL;

	if (fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text))
		t = topo_load(path, err, errlen);
	else
		snprintf(err, errlen, "cannot write %s", path);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	if (t)
		topo_fingerprint(t, fp);
	topo_free(t);
	return t ? 0 : -1;
}

/*
 * synthetic_files - --topology FILE with a synthetic description: `#` comments and blank
 * lines before it are skipped, its line is taken whole (CRLF and trailing blanks cut), XML
 * is told apart by its start; a file with no description, or a bad one, names the file.
 */
static void synthetic_files(void)
{
	const char *desc = "pack:2 l3:1 core:3 pu:2(indexes=core:package)";
	static const char *const same[] = {
	    "# a comment\n# another\npack:2 l3:1 core:3 pu:2(indexes=core:package)\n",
	    "\n  # indented comment\n\t\npack:2 l3:1 core:3 pu:2(indexes=core:package)  \n",
	    "# CRLF\r\npack:2 l3:1 core:3 pu:2(indexes=core:package)\r\n# after\r\n",
	    "pack:2 l3:1 core:3 pu:2(indexes=core:package)", /* no newline, no comment */
	    "pack:2 l3:1 core:3 pu:2(indexes=core:package)\npack:9 core:9\n", /* the first only */
	};
	char want[17], got[17], err[512], xmlpath[] = "/tmp/pcbench-topo-XXXXXX";
	struct topo *t = topo_load_synthetic(desc, err, sizeof(err)), *x;
	char *xml = NULL, *top;
	int fd = mkstemp(xmlpath);

	if (fd >= 0)
		close(fd);
	if (!t || fd < 0) {
		fail("synthetic_files: %s", err);
		return;
	}
	topo_fingerprint(t, want);
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		if (load_text(same[i], got, err, sizeof(err)))
			fail("synthetic file %zu: %s", i, err);
		else if (strcmp(got, want))
			fail("synthetic file %zu: fingerprint %s, want %s", i, got, want);
	}
	if (!load_text("# only\n\n#comments\n", got, err, sizeof(err)) ||
	    !strstr(err, "neither hwloc XML"))
		fail("a comments-only file: '%s'", err);
	if (!load_text("# c\npack:2 nonsense:3\n", got, err, sizeof(err)) ||
	    !strstr(err, ":2: pack:2 nonsense:3: hwloc cannot parse"))
		fail("a bad description in a file: '%s'", err);
	/* XML by its start: `<topology` with no declaration or doctype */
	if (!topo_export_xml(t, xmlpath, err, sizeof(err)) &&
	    (xml = infile_read(xmlpath, 0, "XML", NULL, err, sizeof(err))) &&
	    (top = strstr(xml, "<topology"))) {
		if (load_text(top, got, err, sizeof(err)) || strcmp(got, want))
			fail("XML starting with <topology: '%s'", err);
		top[-1] = '\n'; /* after a blank line: XML still, which hwloc refuses */
		if (!load_text(top - 1, got, err, sizeof(err)) || strstr(err, "synthetic"))
			fail("XML after a blank line taken for a synthetic description: '%s'", err);
	} else
		fail("XML export for the <topology start: %s", err);
	free(xml);
	unlink(xmlpath);
	x = topo_load("/nonexistent/pcbench.synthetic", err, sizeof(err));
	if (x || !strstr(err, "a synthetic description"))
		fail("a missing file: '%s'", err);
	topo_free(x);
	topo_free(t);
}

static void expect_place(const char *desc, const char *policy, int n, const int *want)
{
	char err[256];
	int got[64];
	struct topo *t = topo_load_synthetic(desc, err, sizeof(err));

	if (!t) {
		fprintf(stderr, "FAIL: %s: %s\n", desc, err);
		failures++;
		return;
	}
	if (topo_place(t, policy, n, got, err, sizeof(err)) != TOPO_OK) {
		fprintf(stderr, "FAIL: %s %s %d: %s\n", desc, policy, n, err);
		failures++;
	} else if (memcmp(got, want, (size_t)n * sizeof(int))) {
		fprintf(stderr, "FAIL: %s %s %d:\n  got ", desc, policy, n);
		for (int i = 0; i < n; i++)
			fprintf(stderr, " %d", got[i]);
		fprintf(stderr, "\n  want");
		for (int i = 0; i < n; i++)
			fprintf(stderr, " %d", want[i]);
		fprintf(stderr, "\n");
		failures++;
	}
	topo_free(t);
}

int main(int argc, char **argv)
{
	/* 2 packages x 2 L3 x 2 cores x 2 PUs, PUs numbered in tree order (P#0,P#1 siblings) */
	const char *tree = "pack:2 l3:2 core:2 pu:2";
	/* the same with Linux-style numbering: sibling of P#n is P#n+8 */
	const char *linux = "pack:2 l3:2 core:2 pu:2(indexes=core:package)";
	const int compact_tree[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	/* packages first (P#0 / P#8), then L3s (P#4 / P#12), then cores, then SMT siblings */
	const int scatter_tree[] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
	const int compact_linux[] = {0, 8, 1, 9, 2, 10, 3, 11};
	const int scatter_linux[] = {0, 4, 2, 6, 1, 5, 3, 7, 8, 12, 10, 14, 9, 13, 11, 15};
	char err[256];
	int pus[4];
	struct topo *t;

	expect_place(tree, "compact", 16, compact_tree);
	expect_place(tree, "scatter", 16, scatter_tree);
	expect_place(linux, "compact", 8, compact_linux);
	expect_place(linux, "scatter", 16, scatter_linux);
	expect_place("pack:1 l3:2 core:1 pu:1", "scatter", 2, (const int[]){0, 1});

	t = topo_load_synthetic(tree, err, sizeof(err));
	if (!t || topo_npus(t) != 16 || topo_is_host(t)) {
		fprintf(stderr, "FAIL: synthetic topology: npus/is_host\n");
		failures++;
	}
	if (t && topo_place(t, "scatter", 17, pus, err, sizeof(err)) != TOPO_NOFIT) {
		fprintf(stderr, "FAIL: 17 threads on 16 PUs placed\n");
		failures++;
	}
	if (t && (topo_place(t, "everywhere", 1, pus, err, sizeof(err)) != TOPO_UNKNOWN ||
		  !strstr(err, "neither a policy"))) {
		fprintf(stderr, "FAIL: unknown placement accepted: %s\n", err);
		failures++;
	}
	/* binding on a synthetic topology would be a silent no-op in hwloc: refused */
	if (t &&
	    (topo_bind_self(t, 0, err, sizeof(err)) == 0 || !strstr(err, "not this machine"))) {
		fprintf(stderr, "FAIL: binding on a synthetic topology was not refused\n");
		failures++;
	}
	topo_free(t);
	if (!topo_load_synthetic("pack:2 nonsense:3", err, sizeof(err)) && strstr(err, "nonsense"))
		;
	else {
		fprintf(stderr, "FAIL: bad synthetic string: %s\n", err);
		failures++;
	}
	fixtures(argc > 1 ? argv[1] : ".");
	xml_roundtrip();
	synthetic_files();
	if (!failures)
		printf("test_topology: ok\n");
	return failures != 0;
}
