// SPDX-License-Identifier: MIT
/*
 * test_layout_cmd.c - layouts from outside, through the library (the CLI is layout_cmd.sh):
 *
 *  1. every built-in layout survives layout_to_text -> layout_parse with the same structs,
 *     fields, offsets, sizes, kinds and fingerprint, and writes the same text again;
 *  2. flattened leaves and lookups by path and by offset agree with layout_offset();
 *  3. pahole fixtures (tests/fixtures/pahole): each import equals its expected layout file
 *     (tests/golden/layout/import-*.layout) and has the offsets and kinds typed in here;
 *     every bad fixture fails at the line and with the problem its "# expect:" line names;
 *     every truncation of a good fixture gives a layout or a clean error;
 *  4. recipes: parsing, binding, thread assignment; every bad recipe fixture fails at its
 *     line; truncations;
 *  5. the probe's built-in page_counter-direct recipe, and the fixture for patch A, make
 *     the same accesses per operation as the page_counter scenario's `direct` workload
 *     (per object, byte offset and op, counted through the tracing build), and a different
 *     recipe does not;
 *  6. the probe's roles, values and locks on a made-up struct, run through the API.
 *
 * argv[1] is the source directory (for the fixtures). Linked with the tracing build.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "layout.h"
#include "pahole.h"
#include "recipe.h"
#include "check.h"

static const char *srcdir = ".";

static char *fixture(const char *dir, const char *name)
{
	char path[4096];
	char *t;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s/%s", srcdir, dir, name);
	t = read_all(path);
	CHECK(t, "cannot read fixture %s", path);
	return t;
}

/* The "# expect: LINE: FRAGMENT" line of a fixture. */
static int expect_of(const char *text, int *line, char *frag, size_t len)
{
	const char *e = strstr(text, "# expect: ");
	const char *nl;

	if (!e || sscanf(e + 10, "%d", line) != 1)
		return -1;
	e = strchr(e + 10, ':');
	if (!e)
		return -1;
	e += 2;
	nl = strchr(e, '\n');
	snprintf(frag, len, "%.*s", (int)(nl ? nl - e : (long)strlen(e)), e);
	return 0;
}

/* A bad-input fixture: its file name, text, and the error it expects ("NAME:LINE: ...FRAG"). */
struct bad_fixture {
	const char *name;
	const char *text;
	char prefix[300]; /* "NAME:LINE: " */
	char frag[256];
};

/*
 * each_bad - @fn on every fixture bad-*@ext of tests/fixtures/@dir, with the error its
 * "# expect: LINE: FRAG" line names (a fixture without one fails). Returns how many it read.
 */
static int each_bad(const char *dir, const char *ext, void (*fn)(const struct bad_fixture *))
{
	char dirpath[4096];
	DIR *d;
	struct dirent *e;
	int n = 0;

	snprintf(dirpath, sizeof(dirpath), "%s/tests/fixtures/%s", srcdir, dir);
	d = opendir(dirpath);
	CHECK(d, "cannot open %s", dirpath);
	while (d && (e = readdir(d))) {
		struct bad_fixture f = {.name = e->d_name};
		char *text;
		int line;

		if (strncmp(e->d_name, "bad-", 4) || !strstr(e->d_name, ext))
			continue;
		text = fixture(dir, e->d_name);
		if (!text)
			continue;
		n++;
		f.text = text;
		if (!expect_of(text, &line, f.frag, sizeof(f.frag))) {
			snprintf(f.prefix, sizeof(f.prefix), "%s:%d: ", e->d_name, line);
			fn(&f);
		} else {
			CHECK(0, "%s: no '# expect:' line", e->d_name);
		}
		free(text);
	}
	if (d)
		closedir(d);
	return n;
}

/* want_error - @f was @refused with @err, which starts "NAME:LINE: " and holds the fragment. */
static void want_error(const struct bad_fixture *f, int refused, const char *err, const char *got)
{
	CHECK(refused && !strncmp(err, f->prefix, strlen(f->prefix)) && strstr(err, f->frag),
	      "%s: want '%s...%s', got '%s'", f->name, f->prefix, f->frag, got);
}

/* ---- 1. round trips ---- */

static void same_layout(const struct layout *a, const struct layout *b, const char *what)
{
	CHECK(!strcmp(a->name, b->name), "%s: name %s vs %s", what, a->name, b->name);
	CHECK(!strcmp(a->desc, b->desc), "%s: desc '%s' vs '%s'", what, a->desc, b->desc);
	CHECK_EQ(what, b->nstructs, a->nstructs);
	for (int i = 0; i < a->nstructs && i < b->nstructs; i++) {
		const struct layout_struct *x = &a->structs[i], *y = &b->structs[i];

		CHECK(!strcmp(x->name, y->name) && x->size == y->size && x->align == y->align &&
			  x->nfields == y->nfields,
		      "%s: struct %d: %s %zu/%zu/%d vs %s %zu/%zu/%d", what, i, x->name, x->size,
		      x->align, x->nfields, y->name, y->size, y->align, y->nfields);
		for (int j = 0; j < x->nfields && j < y->nfields; j++) {
			const struct layout_field *f = &x->fields[j], *g = &y->fields[j];

			CHECK(!strcmp(f->name, g->name) && f->offset == g->offset &&
				  f->size == g->size && f->kind == g->kind && f->type == g->type,
			      "%s: %s.%s %zu %zu %s vs %s %zu %zu %s", what, x->name, f->name,
			      f->offset, f->size, layout_kind_name(a, f), g->name, g->offset,
			      g->size, layout_kind_name(b, g));
		}
	}
	CHECK(layout_fingerprint(a) == layout_fingerprint(b), "%s: fingerprint %016llx vs %016llx",
	      what, (unsigned long long)layout_fingerprint(a),
	      (unsigned long long)layout_fingerprint(b));
}

static void test_roundtrip(void)
{
	int n = 0;

	for (int i = 0; layout_builtin[i].file; i++, n++) {
		char err[512], what[300];
		struct layout *a =
		    layout_parse(layout_builtin[i].text, layout_builtin[i].file, err, sizeof(err));
		struct layout *b;
		char *t1, *t2;

		CHECK(a, "built-in %s: %s", layout_builtin[i].file, err);
		if (!a)
			continue;
		t1 = layout_to_text(a);
		CHECK(t1, "layout_to_text(%s) failed", a->name);
		b = t1 ? layout_parse(t1, "roundtrip", err, sizeof(err)) : NULL;
		CHECK(b, "%s: the written text does not parse: %s", a->name, err);
		if (b) {
			snprintf(what, sizeof(what), "round trip of %s", a->name);
			same_layout(a, b, what);
			t2 = layout_to_text(b);
			/* The same text again, but for the first comment line (the source). */
			CHECK(t2 && !strcmp(strchr(t1, '\n'), strchr(t2, '\n')),
			      "%s: second round trip writes different text", a->name);
			free(t2);
			printf("round trip: %-6s %d structs, fingerprint %016llx: same\n", a->name,
			       a->nstructs, (unsigned long long)layout_fingerprint(b));
		}
		layout_free(b);
		free(t1);
		layout_free(a);
	}
	CHECK(n >= 2, "only %d built-in layouts", n);
	CHECK(layout_to_text(NULL) == NULL, "layout_to_text(NULL) is not NULL");
}

/* ---- 2. leaves ---- */

static void test_leaves(void)
{
	struct layout *l60 = layout_load("v6.0", NULL, 0), *l61 = layout_load("v6.1", NULL, 0);
	struct layout_leaf *lv = NULL, leaf;
	const struct layout_leaf *at;
	int n;

	CHECK(l60 && l61, "cannot load the built-ins");
	if (!l60 || !l61)
		goto out;
	n = layout_leaves(l60, "mem_cgroup", &lv);
	CHECK_EQ("v6.0 mem_cgroup leaves", n, 2 + 4 * 14 + 2);
	for (int i = 0; i < n; i++) {
		CHECK_EQ(lv[i].path, (long)lv[i].offset,
			 layout_offset(l60, "mem_cgroup", lv[i].path));
		CHECK(i == 0 || lv[i - 1].offset + lv[i - 1].size <= lv[i].offset,
		      "leaves %s and %s out of order or overlapping", lv[i - 1].path, lv[i].path);
		CHECK(lv[i].field->kind != LK_STRUCT, "leaf %s is a struct", lv[i].path);
		at = layout_leaf_at(lv, n, lv[i].offset + lv[i].size - 1);
		CHECK(at == &lv[i], "leaf_at(last byte of %s) is %s", lv[i].path,
		      at ? at->path : "NULL");
	}
	at = layout_leaf_at(lv, n, 208);
	CHECK(at && !strcmp(at->path, "memory.usage") && !strcmp(at->owner->name, "page_counter"),
	      "v6.0 leaf at 208: %s", at ? at->path : "NULL");
	at = layout_leaf_at(lv, n, 0);
	CHECK(!at, "v6.0 leaf at 0 (not described): %s", at ? at->path : "");
	at = layout_leaf_at(lv, n, 4031);
	CHECK(!at, "v6.0 leaf at 4031 (not described): %s", at ? at->path : "");
	at = layout_leaf_at(lv, n, 656 + 31);
	CHECK(at && !strcmp(at->path, "high_work"), "v6.0 leaf at 687: %s", at ? at->path : "NULL");
	free(lv);

	n = layout_leaves(l61, "mem_cgroup", &lv);
	at = layout_leaf_at(lv, n, 256 + 8);
	CHECK(!at, "v6.1: the 56-byte hole after memory.usage holds %s", at ? at->path : "");
	at = layout_leaf_at(lv, n, 448 + 160);
	CHECK(at && !strcmp(at->path, "swap.parent"), "v6.1 leaf at 608: %s",
	      at ? at->path : "NULL");
	free(lv);

	CHECK(!layout_find_leaf(l61, "mem_cgroup", "swap.high", &leaf) &&
		  leaf.offset == 448 + 144 && leaf.field->kind == LK_PLAIN &&
		  !strcmp(leaf.path, "swap.high"),
	      "v6.1 find_leaf swap.high: %zu", leaf.offset);
	CHECK(!layout_find_leaf(l61, "mem_cgroup", "memory", &leaf) && leaf.offset == 256 &&
		  leaf.field->kind == LK_STRUCT,
	      "v6.1 find_leaf memory");
	CHECK(!layout_find_leaf(l61, "mem_cgroup", "css.parent", &leaf) && leaf.offset == 192 &&
		  leaf.field->kind == LK_PTR,
	      "v6.1 find_leaf css.parent");
	CHECK(layout_find_leaf(l61, "mem_cgroup", "memory.nosuch", &leaf), "found memory.nosuch");
	CHECK(layout_find_leaf(l61, "nosuch", "usage", &leaf), "found a field of struct nosuch");
	CHECK_EQ("leaves of a missing struct", layout_leaves(l61, "nosuch", &lv), -1);
out:
	layout_free(l60);
	layout_free(l61);
}

/* ---- 3. pahole ---- */

static struct layout *import(const char *name, const char *structs, char *out_text, size_t len)
{
	struct pahole_opts o = {.structs = structs};
	char err[1024];
	char *text = fixture("pahole", name), *lt;
	struct layout *l = NULL;

	if (!text)
		return NULL;
	lt = pahole_to_layout(text, name, &o, err, sizeof(err));
	CHECK(lt, "import %s: %s", name, err);
	if (lt) {
		l = layout_parse(lt, name, err, sizeof(err));
		CHECK(l, "import %s: the layout does not parse: %s", name, err);
		if (out_text)
			snprintf(out_text, len, "%s", lt);
	}
	free(lt);
	free(text);
	return l;
}

static void check_field(const struct layout *l, const char *sname, const char *path, long off,
			long size, const char *kind)
{
	struct layout_leaf lf;

	if (layout_find_leaf(l, sname, path, &lf)) {
		CHECK(0, "%s: no field %s.%s", l->name, sname, path);
		return;
	}
	CHECK((long)lf.offset == off && (long)lf.size == size &&
		  !strcmp(layout_kind_name(l, lf.field), kind),
	      "%s: %s.%s: %zu %zu %s, expected %ld %ld %s", l->name, sname, path, lf.offset,
	      lf.size, layout_kind_name(l, lf.field), off, size, kind);
}

/* Struct @sname of @a has the same fields (names, offsets, sizes, kinds) as in @b. */
static void same_struct(const struct layout *a, const struct layout *b, const char *sname)
{
	const struct layout_struct *x = layout_find_struct(a, sname),
				   *y = layout_find_struct(b, sname);

	CHECK(x && y, "struct %s missing in %s or %s", sname, a->name, b->name);
	if (!x || !y)
		return;
	CHECK(x->size == y->size && x->align == y->align && x->nfields == y->nfields,
	      "%s: %s has size %zu align %zu, %d fields; %s %zu %zu %d", sname, a->name, x->size,
	      x->align, x->nfields, b->name, y->size, y->align, y->nfields);
	for (int i = 0; i < x->nfields && i < y->nfields; i++)
		CHECK(!strcmp(x->fields[i].name, y->fields[i].name) &&
			  x->fields[i].offset == y->fields[i].offset &&
			  x->fields[i].size == y->fields[i].size &&
			  !strcmp(layout_kind_name(a, &x->fields[i]),
				  layout_kind_name(b, &y->fields[i])),
		      "%s.%s differs between %s and %s", sname, x->fields[i].name, a->name,
		      b->name);
}

static void test_pahole_golden(void)
{
	static const char *const names[] = {"holey", "nested", "nested-relative", "multi"};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char in[128], gold[128], *got = malloc(1 << 16), *want;
		struct layout *l;

		snprintf(in, sizeof(in), "%s.txt", names[i]);
		snprintf(gold, sizeof(gold), "import-%s.layout", names[i]);
		if (!got)
			return;
		got[0] = '\0';
		l = import(in, NULL, got, 1 << 16);
		want = fixture("../golden/layout", gold); /* layout_cmd.sh rewrites them */
		CHECK(want && !strcmp(got, want),
		      "import of %s differs from tests/golden/layout/%s:\n%s", in, gold, got);
		free(want);
		free(got);
		layout_free(l);
	}
}

static void test_pahole_fixtures(void)
{
	struct layout *v60 = layout_load("v6.0", NULL, 0), *l;

	l = import("holey.txt", NULL, NULL, 0);
	if (l) {
		const struct layout_struct *s = layout_find_struct(l, "conn_stats");

		CHECK(s && s->size == 104 && s->align == 8, "holey: conn_stats size/align");
		check_field(l, "conn_stats", "state", 0, 1, "plain");
		check_field(l, "conn_stats", "rx_bytes", 8, 8, "atomic");
		check_field(l, "conn_stats", "dead", 24, 1, "plain"); /* 6 bits of a u32 unit */
		check_field(l, "conn_stats", "lock", 28, 4, "lock");
		check_field(l, "conn_stats", "peer", 32, 8, "ptr");
		check_field(l, "conn_stats", "done", 40, 8, "ptr");
		check_field(l, "conn_stats", "name", 50, 10, "array");
		check_field(l, "conn_stats", "hist", 64, 32, "array");
		check_field(l, "conn_stats", "users", 96, 4, "atomic");
		CHECK(layout_offset(l, "conn_stats", "zombie") < 0, "holey: zombie imported alone");
		CHECK(!strcmp(l->name, "conn_stats"), "holey: layout name %s", l->name);
	}
	layout_free(l);

	l = import("nested.txt", NULL, NULL, 0);
	if (l) {
		const struct layout_struct *s = layout_find_struct(l, "cg_head");

		CHECK(s && s->size == 440 && s->align == 8, "nested: cg_head size/align");
		check_field(l, "cg_head", "css", 0, 200, "css_stub");
		check_field(l, "cg_head", "css.parent", 192, 8, "ptr");
		check_field(l, "cg_head", "id", 200, 8, "mem_cgroup_id");
		check_field(l, "cg_head", "id.ref", 204, 4, "atomic");
		check_field(l, "cg_head", "memory", 208, 112, "page_counter");
		check_field(l, "cg_head", "memory.usage", 208, 8, "atomic");
		check_field(l, "cg_head", "memory.parent", 312, 8, "ptr");
		check_field(l, "cg_head", "swap.usage", 320, 8, "atomic");
		check_field(l, "cg_head", "swap.high", 344, 8, "plain");
		check_field(l, "cg_head", "flags", 432, 8, "plain");
		CHECK(layout_offset(l, "cg_head", "memsw") < 0, "nested: the union's memsw kept");
		if (v60)
			same_struct(l, v60, "page_counter");
	}
	layout_free(l);

	l = import("nested-relative.txt", NULL, NULL, 0);
	if (l) {
		check_field(l, "pair_head", "left", 8, 16, "half");
		check_field(l, "pair_head", "left.count", 8, 8, "atomic");
		check_field(l, "pair_head", "right.next", 32, 8, "ptr");
		check_field(l, "half", "next", 8, 8, "ptr");
	}
	layout_free(l);

	l = import("multi.txt", NULL, NULL, 0);
	if (l) {
		CHECK(l->nstructs == 2 && !strcmp(l->structs[0].name, "page_counter"),
		      "multi: page_counter must come first (it is nested)");
		check_field(l, "cg_small", "memory", 0, 112, "page_counter");
		check_field(l, "cg_small", "swap.max", 112 + 32, 8, "plain");
		check_field(l, "cg_small", "parent", 224, 8, "ptr");
		if (v60)
			same_struct(l, v60, "page_counter");
	}
	layout_free(l);

	/* --struct keeps the named structs and what they nest. */
	l = import("multi.txt", "page_counter", NULL, 0);
	CHECK(l && l->nstructs == 1 && !strcmp(l->name, "page_counter"),
	      "multi --struct page_counter: %d structs", l ? l->nstructs : -1);
	layout_free(l);
	l = import("multi.txt", "cg_small", NULL, 0);
	CHECK(l && l->nstructs == 2 && !strcmp(l->name, "cg_small"),
	      "multi --struct cg_small: %d structs", l ? l->nstructs : -1);
	layout_free(l);
	{
		char *text = fixture("pahole", "multi.txt"), err[512];
		struct pahole_opts o = {.structs = "nosuch", .name = "x"};
		char *t = text ? pahole_to_layout(text, "multi.txt", &o, err, sizeof(err)) : NULL;

		CHECK(!t && strstr(err, "no struct nosuch") && strstr(err, "cg_small"),
		      "--struct nosuch: '%s'", t ? t : err);
		free(t);
		o.structs = NULL;
		o.name = "my.layout-1";
		o.desc = "mine";
		t = text ? pahole_to_layout(text, "multi.txt", &o, err, sizeof(err)) : NULL;
		l = t ? layout_parse(t, "t", err, sizeof(err)) : NULL;
		CHECK(l && !strcmp(l->name, "my.layout-1") && !strcmp(l->desc, "mine"),
		      "--name/--desc: %s", err);
		layout_free(l);
		free(t);
		o.name = "bad name";
		t = text ? pahole_to_layout(text, "multi.txt", &o, err, sizeof(err)) : NULL;
		CHECK(!t && !strncmp(err, "multi.txt: ", 11) && strstr(err, "layout name"),
		      "bad --name: '%s'", t ? t : err);
		free(t);
		free(text);
	}
	layout_free(v60);
}

/* A bad pahole text: refused with the error its "# expect:" line names. */
static void pahole_bad(const struct bad_fixture *f)
{
	char err[1024];
	struct pahole_opts o = {0};
	char *t = pahole_to_layout(f->text, f->name, &o, err, sizeof(err));

	want_error(f, !t, err, t ? "(a layout)" : err);
	if (t)
		printf("%s", t);
	else
		printf("pahole fixture %-24s -> %s\n", f->name, err);
	free(t);
}

static void test_pahole_bad(void)
{
	int n = each_bad("pahole", ".txt", pahole_bad);

	CHECK(n >= 10, "only %d bad pahole fixtures", n);

	/* Without the built-in check, the bit-field is imported as plain bytes. */
	{
		char *text = fixture("pahole", "bad-bitfield-atomic.txt"), err[512];
		struct pahole_opts o = {.no_builtin_check = 1};
		char *t = text ? pahole_to_layout(text, "x", &o, err, sizeof(err)) : NULL;
		struct layout *l = t ? layout_parse(t, "x", err, sizeof(err)) : NULL;

		CHECK(l, "bit-field without the built-in check: %s", err);
		if (l)
			check_field(l, "page_counter", "usage", 8, 5, "plain");
		layout_free(l);
		free(t);
		free(text);
	}
}

/* Every prefix of a good text: a valid layout or an error naming the source. */
static void test_truncations(const char *dir, const char *name, int is_recipe)
{
	char *text = fixture(dir, name);
	size_t n = text ? strlen(text) : 0;
	char *buf = malloc(n + 1);
	int bad = 0;

	for (size_t i = 0; text && buf && i <= n && bad < 3; i++) {
		char err[1024] = "";

		memcpy(buf, text, i);
		buf[i] = '\0';
		if (is_recipe) {
			struct recipe *r = recipe_parse(buf, "cut", err, sizeof(err));

			if (!r && strncmp(err, "cut:", 4))
				bad++;
			recipe_free(r);
		} else {
			char *t = pahole_to_layout(buf, "cut", NULL, err, sizeof(err));
			struct layout *l = t ? layout_parse(t, "again", NULL, 0) : NULL;

			if ((!t && strncmp(err, "cut:", 4)) || (t && !l))
				bad++;
			layout_free(l);
			free(t);
		}
		CHECK(!bad, "%s truncated at %zu: '%s'", name, i, err);
	}
	free(buf);
	free(text);
}

/* ---- 4. recipes ---- */

static void test_recipes(void)
{
	const char *text = "# the issue's example\n"
			   "role writer: rmw usage 1; load max; load parent\n"
			   "role reader: load high; load parent # read-mostly\n"
			   "threads: writer*, reader 1\n";
	struct layout *l = layout_load("v6.1", NULL, 0);
	char err[1024];
	struct recipe *r = recipe_parse(text, "ex", err, sizeof(err));
	int role[8];

	CHECK(r && l, "issue example: %s", err);
	if (!r || !l)
		goto out;
	CHECK(r->nroles == 2 && r->roles[0].nsteps == 3 && r->roles[1].nsteps == 2,
	      "issue example: roles/steps");
	CHECK(r->roles[0].steps[0].op == RO_RMW && r->roles[0].steps[0].value == 1,
	      "rmw usage 1: op %d value %ld", r->roles[0].steps[0].op, r->roles[0].steps[0].value);
	CHECK(!recipe_bind(r, l, err, sizeof(err)), "bind to v6.1: %s", err);
	CHECK(r->nobjects == 1 && !strcmp(r->objects[0].name, "page_counter") &&
		  !strcmp(r->objects[0].sname, "page_counter"),
	      "implicit object: %s of %s", r->objects[0].name, r->objects[0].sname);
	CHECK_EQ("usage offset", r->roles[0].steps[0].offset, 0);
	CHECK_EQ("max offset", r->roles[0].steps[1].offset, 152);
	CHECK_EQ("high offset", r->roles[1].steps[0].offset, 144);
	CHECK(!recipe_assign(r, 1, role, err, sizeof(err)) && role[0] == 1,
	      "1 thread: the reader (%s)", err);
	CHECK(!recipe_assign(r, 3, role, err, sizeof(err)) && role[0] == 0 && role[1] == 0 &&
		  role[2] == 1,
	      "3 threads: writer, writer, reader (%s)", err);
	recipe_free(r);

	r = recipe_parse("role a: load x\nrole b: load x\nrole c: spin 3\n"
			 "threads: a *, b*, c 1\n",
			 "stars", err, sizeof(err));
	CHECK(r, "stars: %s", err);
	if (r) {
		int want[6] = {0, 0, 0, 1, 1, 2};

		CHECK(!recipe_assign(r, 6, role, err, sizeof(err)) &&
			  !memcmp(role, want, sizeof(want)),
		      "6 threads over a*, b*, c 1: %d %d %d %d %d %d", role[0], role[1], role[2],
		      role[3], role[4], role[5]);
		CHECK(r->roles[2].steps[0].op == RO_SPIN && r->roles[2].steps[0].value == 3,
		      "spin 3");
	}
	recipe_free(r);

	r = recipe_parse(
	    "object a page_counter\nobject b page_counter\n"
	    "role w: rmw a.usage 0x10; xchg b.parent; store b.max -3; cmpxchg a.min_usage\n",
	    "objs", err, sizeof(err));
	CHECK(r && !recipe_bind(r, l, err, sizeof(err)), "objs: %s", err);
	if (r) {
		const struct recipe_step *st = r->roles[0].steps;

		CHECK(st[0].obj == 0 && st[0].value == 16 && st[1].obj == 1 &&
			  st[1].offset == 160 && st[1].value == 0 && st[2].value == -3 &&
			  st[3].value == 1,
		      "objs: steps resolved wrongly");
		CHECK(!recipe_assign(r, 4, role, err, sizeof(err)) && role[3] == 0,
		      "one role, no threads line: every thread");
	}
	recipe_free(r);

	CHECK(!recipe_parse("", "empty", err, sizeof(err)) && !strncmp(err, "empty:1:", 8),
	      "empty recipe: '%s'", err);
	CHECK(!recipe_parse("role a: load x\nthreads: a*\nthreads: a*\n", "twice", err,
			    sizeof(err)) &&
		  !strncmp(err, "twice:3:", 8),
	      "two threads lines: '%s'", err);
	CHECK(!recipe_parse("role a: spin -1\n", "spin", err, sizeof(err)) &&
		  !strncmp(err, "spin:1:", 7),
	      "negative spin: '%s'", err);
out:
	layout_free(l);
}

/* A bad recipe: refused (parse, bind or assign) with the error its "# expect:" names. */
static void recipe_bad(const struct bad_fixture *f)
{
	char err[1024] = "", lname[256] = "v6.1", lpath[4096];
	const char *lay = strstr(f->text, "# layout: ");
	struct layout *l;
	struct recipe *r;
	int role[2], rc = -1;

	if (lay)
		sscanf(lay + 10, "%255s", lname);
	snprintf(lpath, sizeof(lpath), "%s/tests/fixtures/layouts/%s", srcdir, lname);
	l = layout_load(strstr(lname, ".layout") ? lpath : lname, err, sizeof(err));
	CHECK(l, "%s: layout %s: %s", f->name, lname, err);
	r = recipe_parse(f->text, f->name, err, sizeof(err));
	if (r && l)
		rc = recipe_bind(r, l, err, sizeof(err));
	if (r && l && !rc)
		rc = recipe_assign(r, 2, role, err, sizeof(err));
	want_error(f, !r || rc, err, err);
	printf("recipe fixture %-22s -> %s\n", f->name, err);
	recipe_free(r);
	layout_free(l);
}

static void test_recipe_fixtures(void)
{
	int n = each_bad("recipes", ".recipe", recipe_bad);

	CHECK(n >= 12, "only %d bad recipe fixtures", n);
}

/* ---- 5. the probe against page_counter: accesses per operation ---- */

#define MAX_OBJ 16

struct inv_key {
	char obj[64];
	long off;
	int op;
	long n;
};

static struct {
	struct bench_object o[MAX_OBJ];
	size_t size[MAX_OBJ];
	int nobj;
	struct inv_key *k;
	int n, cap;
	long outside;
} inv;

static void inv_hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	const char *a = (const char *)addr;

	(void)size;
	(void)site;
	for (int i = 0; i < inv.nobj; i++) {
		const char *b = inv.o[i].base;

		if (a < b || a >= b + inv.size[i])
			continue;
		for (int j = 0; j < inv.n; j++) {
			if (inv.k[j].op == (int)op && inv.k[j].off == a - b &&
			    !strcmp(inv.k[j].obj, inv.o[i].name)) {
				inv.k[j].n++;
				return;
			}
		}
		if (inv.n == inv.cap) {
			inv.cap = inv.cap ? 2 * inv.cap : 64;
			inv.k = realloc(inv.k, (size_t)inv.cap * sizeof(*inv.k));
			if (!inv.k)
				exit(2);
		}
		snprintf(inv.k[inv.n].obj, sizeof(inv.k[inv.n].obj), "%s", inv.o[i].name);
		inv.k[inv.n].off = a - b;
		inv.k[inv.n].op = (int)op;
		inv.k[inv.n].n = 1;
		inv.n++;
		return;
	}
	inv.outside++;
}

struct inventory {
	struct inv_key *k;
	int n;
	long outside;
};

/* The accesses of @ops operations of one thread, after a warm-up, per (object, offset, op). */
static int inventory(const char *scenario, const char *preset, const char *workload,
		     char *const *user, int nuser, long ops, struct inventory *out)
{
	const struct scenario *sc = scenario_find(scenario);
	struct bench_cfg *cfg;
	char err[1024];
	void *shared, *ts;

	memset(out, 0, sizeof(*out));
	CHECK(sc, "no scenario %s", scenario);
	if (!sc)
		return -1;
	cfg = cfg_new(sc, preset_find(sc, preset), workload_find(sc, workload), 1, user, nuser, err,
		      sizeof(err));
	CHECK(cfg, "%s %s: %s", scenario, preset, err);
	if (!cfg)
		return -1;
	shared = sc->setup(cfg, err, sizeof(err));
	CHECK(shared, "%s setup: %s", scenario, err);
	if (!shared) {
		cfg_free(cfg);
		return -1;
	}
	ts = scenario_thread_setup(sc, shared, 0);
	sc->run(shared, ts, 16); /* warm-up: the first charge's watermark store */
	memset(&inv, 0, sizeof(inv));
	inv.nobj = scenario_objects(sc, shared, inv.o, MAX_OBJ);
	for (int i = 0; i < inv.nobj; i++)
		inv.size[i] = layout_find_struct(inv.o[i].layout, inv.o[i].sname)->size;
	pc_trace_hook = inv_hook;
	sc->run(shared, ts, (uint64_t)ops);
	pc_trace_hook = NULL;
	out->k = inv.k;
	out->n = inv.n;
	out->outside = inv.outside;
	inv.k = NULL;
	scenario_thread_teardown(sc, shared, ts);
	scenario_teardown(sc, shared);
	cfg_free(cfg);
	return 0;
}

static long inv_get(const struct inventory *v, const char *obj, long off, int op)
{
	for (int i = 0; i < v->n; i++)
		if (v->k[i].off == off && v->k[i].op == op && !strcmp(v->k[i].obj, obj))
			return v->k[i].n;
	return 0;
}

/* Every (object, offset, op) count equal in both; returns how many differ. */
static int inv_diff(const struct inventory *a, const struct inventory *b, int print)
{
	int d = 0;

	for (int i = 0; i < a->n; i++) {
		long other = inv_get(b, a->k[i].obj, a->k[i].off, a->k[i].op);

		if (other == a->k[i].n)
			continue;
		d++;
		if (print)
			fprintf(stderr, "    %s +%ld %s: %ld vs %ld\n", a->k[i].obj, a->k[i].off,
				pc_op_name((enum pc_op)a->k[i].op), a->k[i].n, other);
	}
	for (int i = 0; i < b->n; i++) {
		if (inv_get(a, b->k[i].obj, b->k[i].off, b->k[i].op))
			continue;
		d++;
		if (print)
			fprintf(stderr, "    %s +%ld %s: 0 vs %ld\n", b->k[i].obj, b->k[i].off,
				pc_op_name((enum pc_op)b->k[i].op), b->k[i].n);
	}
	return d;
}

static void print_rmw(const struct inventory *v, long ops)
{
	for (int i = 0; i < v->n; i++)
		if (pc_op_is_write((enum pc_op)v->k[i].op))
			printf("    %-4s +%-4ld %-10s %.3g per op\n", v->k[i].obj, v->k[i].off,
			       pc_op_name((enum pc_op)v->k[i].op), (double)v->k[i].n / (double)ops);
}

static void compare_probe(const char *pc_preset, const char *probe_preset, const char *recipe,
			  int want_same)
{
	char rparam[4200], *user[1] = {rparam};
	const long ops = 64;
	struct inventory a, b;
	int d;

	snprintf(rparam, sizeof(rparam), "recipe=%s", recipe);
	if (strstr(recipe, ".recipe"))
		snprintf(rparam, sizeof(rparam), "recipe=%s/tests/fixtures/recipes/%s", srcdir,
			 recipe);
	if (inventory("page_counter", pc_preset, "direct", NULL, 0, ops, &a))
		return;
	if (inventory("probe", probe_preset, "recipe", user, 1, ops, &b)) {
		free(a.k);
		return;
	}
	CHECK(a.n > 10 && !a.outside && !b.outside,
	      "inventory: %d keys, %ld and %ld accesses outside the objects", a.n, a.outside,
	      b.outside);
	d = inv_diff(&a, &b, want_same);
	if (want_same) {
		CHECK(!d,
		      "page_counter %s direct and probe %s %s differ in %d (object, offset, op)",
		      pc_preset, probe_preset, recipe, d);
		printf("page_counter %s direct == probe %s recipe %s: %d (object, offset, op) "
		       "counts equal over %ld ops; the writes per op:\n",
		       pc_preset, probe_preset, recipe, a.n, ops);
		print_rmw(&b, ops);
	} else {
		CHECK(d, "page_counter %s direct and probe %s %s should differ", pc_preset,
		      probe_preset, recipe);
		printf("page_counter %s direct != probe %s recipe %s: %d counts differ (as they "
		       "must)\n",
		       pc_preset, probe_preset, recipe, d);
	}
	free(a.k);
	free(b.k);
}

static void test_inventory(void)
{
	struct inventory v;
	char *user[1] = {"recipe=page_counter-direct"};
	struct layout *l61 = layout_load("v6.1", NULL, 0);
	long usage = l61 ? layout_offset(l61, "mem_cgroup", "memory.usage") : -1;
	long min_usage = l61 ? layout_offset(l61, "mem_cgroup", "memory.min_usage") : -1;

	/* The known atomic inventory of one direct op, on the probe itself. */
	if (!inventory("probe", "v6.1", "recipe", user, 1, 10, &v)) {
		CHECK_EQ("probe L3 memory.usage add_return / op",
			 inv_get(&v, "L3", usage, PC_OP_ADD_RETURN), 20);
		CHECK_EQ("probe root memory.usage add_return / op",
			 inv_get(&v, "root", usage, PC_OP_ADD_RETURN), 20);
		CHECK_EQ("probe L1 memory.min_usage xchg / op",
			 inv_get(&v, "L1", min_usage, PC_OP_XCHG), 20);
		CHECK_EQ("probe L2 memory.min_usage xchg / op",
			 inv_get(&v, "L2", min_usage, PC_OP_XCHG), 0);
		free(v.k);
	}
	layout_free(l61);
	compare_probe("+B", "v6.1", "page_counter-direct", 1);
	compare_probe("v6.0-rc1", "v6.0", "page_counter-direct", 1);
	compare_probe("+ABC", "v6.1", "page_counter-direct-A.recipe", 1);
	compare_probe("+A", "v6.0", "page_counter-direct-A.recipe", 1);
	/* The comparison can fail: patch A's xchg-free path is not the default recipe. */
	compare_probe("+ABC", "v6.1", "page_counter-direct", 0);
}

/* ---- 6. the probe's roles, values and locks ---- */

static void test_probe_run(void)
{
	const struct scenario *sc = scenario_find("probe");
	char lparam[4200], rparam[4200], *user[2] = {lparam, rparam}, err[1024];
	struct bench_object o[4];
	struct bench_cfg *cfg;
	void *shared, *ts[3];
	const char *b;

	snprintf(lparam, sizeof(lparam), "layout=%s/tests/fixtures/layouts/conn.layout", srcdir);
	snprintf(rparam, sizeof(rparam), "recipe=%s/tests/fixtures/recipes/conn.recipe", srcdir);
	CHECK(sc, "no probe scenario");
	if (!sc)
		return;
	cfg = cfg_new(sc, &sc->presets[0], &sc->workloads[0], 3, user, 2, err, sizeof(err));
	CHECK(cfg, "probe with conn: %s", err);
	if (!cfg)
		return;
	shared = sc->setup(cfg, err, sizeof(err));
	CHECK(shared, "probe setup: %s", err);
	if (!shared) {
		cfg_free(cfg);
		return;
	}
	for (int t = 0; t < 3; t++)
		ts[t] = scenario_thread_setup(sc, shared, t);
	/* threads: sender*, receiver 1 -> threads 0 and 1 send, thread 2 receives */
	for (int r = 0; r < 10; r++)
		for (int t = 0; t < 3; t++)
			CHECK(sc->run(shared, ts[t], 1) == 1, "run returned another count");
	CHECK_EQ("probe objects", scenario_objects(sc, shared, o, 4), 1);
	b = o[0].base;
	CHECK(!strcmp(o[0].name, "c") && !strcmp(o[0].sname, "conn"), "object %s of %s", o[0].name,
	      o[0].sname);
	CHECK_EQ("conn.tx (2 senders x 10)", atomic_load((pc_word *)(b + 16)), 20);
	CHECK_EQ("conn.rx (1 receiver x 10)", atomic_load((pc_word *)(b + 8)), 10);
	/* cmpxchg 1 then add 1 per op: the cmpxchg fails after the first add, then succeeds */
	CHECK(atomic_load((pc_word *)(b + 72)) >= 10, "conn.hits %ld",
	      atomic_load((pc_word *)(b + 72)));
	CHECK_EQ("conn.state (stored 2)", atomic_load((pc_word *)(b + 24)), 2);
	CHECK_EQ("conn.lock released", atomic_load((pc_lock *)(b + 0)), 0);
	for (int t = 0; t < 3; t++)
		scenario_thread_teardown(sc, shared, ts[t]);
	scenario_teardown(sc, shared);
	cfg_free(cfg);

	/* At one thread the receiver takes it and the senders get none. */
	cfg = cfg_new(sc, &sc->presets[0], &sc->workloads[0], 1, user, 2, err, sizeof(err));
	CHECK(cfg, "probe with conn at 1 thread: %s", err);
	cfg_free(cfg);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		srcdir = argv[1];
	test_roundtrip();
	test_leaves();
	test_pahole_golden();
	test_pahole_fixtures();
	test_pahole_bad();
	test_truncations("pahole", "nested.txt", 0);
	test_truncations("pahole", "holey.txt", 0);
	test_recipes();
	test_recipe_fixtures();
	test_truncations("recipes", "conn.recipe", 1);
	test_inventory();
	test_probe_run();
	if (failures) {
		fprintf(stderr, "test_layout_cmd: %d check(s) failed\n", failures);
		return 1;
	}
	printf("test_layout_cmd: all checks passed\n");
	return 0;
}
