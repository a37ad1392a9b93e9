// SPDX-License-Identifier: MIT
/*
 * test_layout.c - the layout parser and the built-in layouts. The expected kernel offsets are
 * typed in here from the kernel sources, not read from benches/layouts, so a wrong .layout
 * file fails. argv[1] is the source directory (to compare the embedded texts with the files).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layout.h"
#include "check.h"

struct exp_field {
	const char *name;
	long offset, size;
	const char *kind; /* "plain", "atomic", "ptr" or a struct name */
};

/* Linux v6.0, x86_64: struct page_counter, 14 unpadded words. */
static const struct exp_field pc_v60[] = {
    {"usage", 0, 8, "atomic"},
    {"min", 8, 8, "plain"},
    {"low", 16, 8, "plain"},
    {"high", 24, 8, "plain"},
    {"max", 32, 8, "plain"},
    {"emin", 40, 8, "plain"},
    {"min_usage", 48, 8, "atomic"},
    {"children_min_usage", 56, 8, "atomic"},
    {"elow", 64, 8, "plain"},
    {"low_usage", 72, 8, "atomic"},
    {"children_low_usage", 80, 8, "atomic"},
    {"watermark", 88, 8, "plain"},
    {"failcnt", 96, 8, "plain"},
    {"parent", 104, 8, "ptr"},
};

/* After 408587baee39: usage alone on line 0, sometimes-written on line 1, read-mostly line 2. */
static const struct exp_field pc_v61[] = {
    {"usage", 0, 8, "atomic"},
    {"emin", 64, 8, "plain"},
    {"min_usage", 72, 8, "atomic"},
    {"children_min_usage", 80, 8, "atomic"},
    {"elow", 88, 8, "plain"},
    {"low_usage", 96, 8, "atomic"},
    {"children_low_usage", 104, 8, "atomic"},
    {"watermark", 112, 8, "plain"},
    {"failcnt", 120, 8, "plain"},
    {"min", 128, 8, "plain"},
    {"low", 136, 8, "plain"},
    {"high", 144, 8, "plain"},
    {"max", 152, 8, "plain"},
    {"parent", 160, 8, "ptr"},
};

static const struct exp_field mcg_v60[] = {
    {"css.parent", 192, 8, "ptr"},	  {"id", 200, 8, "plain"},
    {"memory", 208, 112, "page_counter"}, {"swap", 320, 112, "page_counter"},
    {"kmem", 432, 112, "page_counter"},	  {"tcpmem", 544, 112, "page_counter"},
    {"high_work", 656, 32, "plain"},	  {"socket_pressure", 3856, 8, "plain"},
};

static const struct exp_field mcg_v61[] = {
    {"css.parent", 192, 8, "ptr"},	  {"id", 200, 8, "plain"},
    {"memory", 256, 192, "page_counter"}, {"swap", 448, 192, "page_counter"},
    {"kmem", 640, 192, "page_counter"},	  {"tcpmem", 832, 192, "page_counter"},
    {"high_work", 1024, 32, "plain"},	  {"socket_pressure", 1688, 8, "plain"},
};

struct exp_layout {
	const char *name;
	const struct exp_field *pc, *mcg;
	size_t npc, nmcg;
	long pc_size, pc_align, mcg_size, mcg_align;
	long memory_usage, swap_high;
};

static const struct exp_layout expected[] = {
    {"v6.0", pc_v60, mcg_v60, ARRAY_SIZE(pc_v60), ARRAY_SIZE(mcg_v60), 112, 8, 4032, 64, 208,
     320 + 24},
    {"v6.1", pc_v61, mcg_v61, ARRAY_SIZE(pc_v61), ARRAY_SIZE(mcg_v61), 192, 64, 2176, 64, 256,
     448 + 144},
};

static const char *kind_str(const struct layout *l, const struct layout_field *f)
{
	switch (f->kind) {
	case LK_PLAIN:
		return "plain";
	case LK_ATOMIC:
		return "atomic";
	case LK_PTR:
		return "ptr";
	case LK_LOCK:
		return "lock";
	case LK_ARRAY:
		return "array";
	case LK_STRUCT:
		if (f->type >= 0 && f->type < l->nstructs)
			return l->structs[f->type].name;
		return "(bad struct index)";
	}
	return "(bad kind)";
}

static void check_struct(const struct layout *l, const char *sname, long size, long align,
			 const struct exp_field *exp, size_t n)
{
	const struct layout_struct *s = layout_find_struct(l, sname);
	char what[160];

	CHECK(s, "%s: no struct %s", l->name, sname);
	if (!s)
		return;
	snprintf(what, sizeof(what), "%s: %s size", l->name, sname);
	CHECK_EQ(what, s->size, size);
	snprintf(what, sizeof(what), "%s: %s align", l->name, sname);
	CHECK_EQ(what, s->align, align);
	snprintf(what, sizeof(what), "%s: %s number of fields", l->name, sname);
	CHECK_EQ(what, s->nfields, n);
	for (size_t i = 0; i < n; i++) {
		const struct layout_field *f = i < (size_t)s->nfields ? &s->fields[i] : NULL;

		snprintf(what, sizeof(what), "%s: %s.%s offset", l->name, sname, exp[i].name);
		CHECK_EQ(what, layout_offset(l, sname, exp[i].name), exp[i].offset);
		if (!f)
			continue;
		CHECK(!strcmp(f->name, exp[i].name), "%s: %s field %zu: got %s, expected %s",
		      l->name, sname, i, f->name, exp[i].name);
		snprintf(what, sizeof(what), "%s: %s.%s size", l->name, sname, f->name);
		CHECK_EQ(what, f->size, exp[i].size);
		CHECK(!strcmp(kind_str(l, f), exp[i].kind), "%s: %s.%s kind: got %s, expected %s",
		      l->name, sname, f->name, kind_str(l, f), exp[i].kind);
	}
}

/* Leaf fields (not nested structs) of struct @s at base @base, with absolute offsets. */
struct leaf {
	char path[160];
	long offset, size;
};

static int flatten(const struct layout *l, const struct layout_struct *s, long base,
		   const char *prefix, struct leaf *out, int n, int max)
{
	for (int i = 0; i < s->nfields; i++) {
		const struct layout_field *f = &s->fields[i];
		char path[160];

		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", f->name);
		if (f->kind == LK_STRUCT) {
			n = flatten(l, &l->structs[f->type], base + (long)f->offset, path, out, n,
				    max);
		} else if (n < max) {
			snprintf(out[n].path, sizeof(out[n].path), "%s", path);
			out[n].offset = base + (long)f->offset;
			out[n].size = (long)f->size;
			n++;
		}
	}
	return n;
}

/* How many other non-empty leaf fields of mem_cgroup share the 64-byte line of @path. */
static int line_sharers(const struct layout *l, const char *path, int verbose)
{
	const struct layout_struct *s = layout_find_struct(l, "mem_cgroup");
	struct leaf leaves[128];
	long off = layout_offset(l, "mem_cgroup", path);
	long lo = off / 64 * 64, hi = lo + 64;
	int n, shared = 0;

	if (!s || off < 0)
		return -1;
	n = flatten(l, s, 0, "", leaves, 0, (int)ARRAY_SIZE(leaves));
	for (int i = 0; i < n; i++) {
		if (!strcmp(leaves[i].path, path) || !leaves[i].size)
			continue;
		if (leaves[i].offset < hi && leaves[i].offset + leaves[i].size > lo) {
			shared++;
			if (verbose)
				fprintf(stderr, "  %s: %s at %ld shares line %ld with %s\n",
					l->name, leaves[i].path, leaves[i].offset, lo / 64, path);
		}
	}
	return shared;
}

static void test_builtins(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
		const struct exp_layout *e = &expected[i];
		char err[512], what[160];
		struct layout *l = layout_load(e->name, err, sizeof(err));

		CHECK(l, "layout_load(%s) failed: %s", e->name, err);
		if (!l)
			continue;
		CHECK(!strcmp(l->name, e->name), "layout name: got %s, expected %s", l->name,
		      e->name);
		CHECK(!strncmp(l->source, "builtin:", 8), "%s: source %s is not builtin:", e->name,
		      l->source);
		CHECK(l->desc[0], "%s: no desc", e->name);
		check_struct(l, "page_counter", e->pc_size, e->pc_align, e->pc, e->npc);
		check_struct(l, "mem_cgroup", e->mcg_size, e->mcg_align, e->mcg, e->nmcg);

		snprintf(what, sizeof(what), "%s: mem_cgroup memory.usage", e->name);
		CHECK_EQ(what, layout_offset(l, "mem_cgroup", "memory.usage"), e->memory_usage);
		snprintf(what, sizeof(what), "%s: mem_cgroup swap.high", e->name);
		CHECK_EQ(what, layout_offset(l, "mem_cgroup", "swap.high"), e->swap_high);
		layout_free(l);
	}

	/* The cache-line facts the layouts exist for. */
	struct layout *l60 = layout_load("v6.0", NULL, 0), *l61 = layout_load("v6.1", NULL, 0);

	CHECK(l60 && l61, "cannot load v6.0 and v6.1");
	if (l60) {
		long u = layout_offset(l60, "mem_cgroup", "memory.usage");
		long h = layout_offset(l60, "mem_cgroup", "memory.high");
		long p = layout_offset(l60, "mem_cgroup", "css.parent");

		CHECK_EQ("v6.0: line of memory.usage", u / 64, 3);
		CHECK_EQ("v6.0: line of memory.high", h / 64, 3);
		CHECK_EQ("v6.0: line of css.parent", p / 64, 3);
		/* css.parent, id, memory.min, low, high, max, emin */
		CHECK_EQ("v6.0: fields sharing memory.usage's line",
			 line_sharers(l60, "memory.usage", 0), 7);
	}
	if (l61) {
		long u = layout_offset(l61, "mem_cgroup", "memory.usage");
		int n = line_sharers(l61, "memory.usage", 0);

		CHECK_EQ("v6.1: line of memory.usage", u / 64, 4);
		CHECK(n == 0, "v6.1: memory.usage is not alone on its line: %d sharers", n);
		if (n)
			line_sharers(l61, "memory.usage", 1);
		CHECK(layout_offset(l61, "mem_cgroup", "memory.high") / 64 != u / 64,
		      "v6.1: memory.high on the line of memory.usage");
	}
	layout_free(l60);
	layout_free(l61);
}

/* Every embedded text is its file in the source tree and parses; names are unique. */
static void test_embedded(const char *srcdir)
{
	const char *names[64];
	int nfiles = 0, n;

	for (int i = 0; layout_builtin[i].file; i++, nfiles++) {
		char err[512], path[4096];
		struct layout *l =
		    layout_parse(layout_builtin[i].text, layout_builtin[i].file, err, sizeof(err));

		CHECK(l, "built-in %s does not parse: %s", layout_builtin[i].file, err);
		layout_free(l);
		if (!srcdir)
			continue;
		snprintf(path, sizeof(path), "%s/benches/layouts/%s", srcdir,
			 layout_builtin[i].file);
		char *text = read_all(path);

		CHECK(text, "cannot read %s: %s", path, strerror(errno));
		if (text)
			CHECK(!strcmp(text, layout_builtin[i].text),
			      "embedded %s differs from %s (stale build?)", layout_builtin[i].file,
			      path);
		free(text);
	}
	CHECK(nfiles >= 2, "%d built-in layouts, expected at least 2", nfiles);
	n = layout_builtin_names(NULL, names, (int)ARRAY_SIZE(names));
	CHECK_EQ("layout_builtin_names(NULL) count", n, nfiles);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			CHECK(strcmp(names[i], names[j]), "built-in layout name %s used twice",
			      names[i]);
}

struct bad_case {
	const char *what;
	const char *text;
	int line;
	const char *word;  /* identifies the problem */
	const char *word2; /* the field or struct named, or NULL */
};

#define HEAD "layout t\nstruct s size 64 align 8\n" /* lines 1 and 2 */

static const struct bad_case bad_cases[] = {
    {"overlap", HEAD "  a 0 8 atomic\n  b 4 8\nend\n", 4, "overlap", "b"},
    {"overlap inside", HEAD "  a 0 32\n  b 8 8\nend\n", 4, "overlap", "b"},
    {"out of bounds", HEAD "  a 0 8\n  b 60 8\nend\n", 4, "out of bounds", "b"},
    {"misaligned atomic", HEAD "  a 0 4\n  b 4 8 atomic\nend\n", 4, "aligned", "b"},
    {"misaligned ptr", HEAD "  p 12 8 ptr\nend\n", 3, "aligned", "p"},
    {"misaligned lock", HEAD "  l 2 4 lock\nend\n", 3, "aligned", "l"},
    {"misaligned big lock", HEAD "  l 4 32 lock\nend\n", 3, "aligned", "l"},
    {"align not power of two", "layout t\n\nstruct s size 48 align 24\nend\n", 3, "power of two",
     "s"},
    {"align zero", "layout t\nstruct s size 48 align 0\nend\n", 2, "power of two", "s"},
    {"size not multiple of align", "layout t\nstruct s size 60 align 8\nend\n", 2, "multiple", "s"},
    {"missing end at eof", HEAD "  a 0 8\n", 2, "end", "s"},
    {"missing end before struct", HEAD "  a 0 8\nstruct u size 8 align 8\nend\n", 2, "end", "s"},
    {"unknown kind", HEAD "  a 0 8 atomik\nend\n", 3, "unknown kind", "atomik"},
    {"struct kind used before it is defined", HEAD "  a 0 8 u\nend\nstruct u size 8 align 8\nend\n",
     3, "unknown kind", "a"},
    {"struct kind of itself", HEAD "  a 0 64 s\nend\n", 3, "unknown kind", "a"},
    {"missing layout line", "# comment\n\nstruct s size 8 align 8\nend\n", 3, "layout", NULL},
    {"layout line only later", "struct s size 8 align 8\nend\nlayout t\n", 1, "layout", NULL},
    {"no layout line at all", "# nothing\n", 1, "layout", NULL},
    {"duplicate field", HEAD "  a 0 8\n  a 8 8\nend\n", 4, "duplicate", "a"},
    {"duplicate struct", HEAD "end\nstruct s size 8 align 8\nend\n", 4, "duplicate", "s"},
    {"duplicate layout", HEAD "end\nlayout u\n", 4, "duplicate", "layout"},
    {"unknown keyword", "layout t\nstrcut s size 8 align 8\nend\n", 2, "unknown keyword", "strcut"},
    {"end without struct", "layout t\nend\n", 2, "end", NULL},
    {"no struct", "layout t\ndesc nothing here\n", 2, "no struct", NULL},
    {"nested size mismatch",
     "layout t\nstruct a size 16 align 8\n x 0 16\nend\nstruct b size 32 align 8\n"
     "  y 0 8 a\nend\n",
     6, "match", "y"},
    {"bad offset", HEAD "  a 0x 8\nend\n", 3, "number", "a"},
    {"negative size", HEAD "  a 0 -8\nend\n", 3, "number", "a"},
    {"huge offset", HEAD "  a 0x100000000 8\nend\n", 3, "number", "a"},
    {"too many words", HEAD "  a 0 8 plain extra\nend\n", 3, "NAME OFFSET SIZE", NULL},
    {"too few words", HEAD "  a 0\nend\n", 3, "NAME OFFSET SIZE", NULL},
    {"bad field name", HEAD "  a..b 0 8\nend\n", 3, "name", "a..b"},
    {"field name too long",
     HEAD "  a123456789012345678901234567890123456789012345678901234567890123 0 8\nend\n", 3,
     "name", NULL},
    {"reserved struct name", "layout t\nstruct ptr size 8 align 8\nend\n", 2, "reserved", "ptr"},
    {"struct line garbled", "layout t\nstruct s size 8 alignment 8\nend\n", 2, "struct NAME", NULL},
    {"end with words", HEAD "end s\n", 3, "end", NULL},
    {"desc inside struct", HEAD "desc x\nend\n", 2, "end", "s"},
    {"duplicate desc", "layout t\ndesc a\ndesc b\nstruct s size 8 align 8\nend\n", 3, "duplicate",
     "desc"},
    {"comment does not hide a missing end", HEAD "  a 0 8\n# end\n", 2, "end", NULL},
};

static void test_bad(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		char err[512], prefix[64];
		struct layout *l = layout_parse(c->text, "mem", err, sizeof(err));

		CHECK(!l, "bad case '%s' parsed", c->what);
		if (l) {
			layout_free(l);
			continue;
		}
		snprintf(prefix, sizeof(prefix), "mem:%d: ", c->line);
		CHECK(!strncmp(err, prefix, strlen(prefix)),
		      "bad case '%s': message '%s' not at '%s'", c->what, err, prefix);
		CHECK(strstr(err, c->word), "bad case '%s': message '%s' lacks '%s'", c->what, err,
		      c->word);
		CHECK(!c->word2 || strstr(err, c->word2), "bad case '%s': message '%s' lacks '%s'",
		      c->what, err, c->word2);
	}

	/* Small and missing error buffers are safe. */
	char small[12];

	CHECK(!layout_parse("layout t\n", "a-long-source-name", small, sizeof(small)),
	      "small buffer case parsed");
	CHECK(strlen(small) < sizeof(small), "small buffer overrun");
	CHECK(!layout_parse("layout t\n", NULL, NULL, 0), "NULL err case parsed");
	CHECK(!layout_parse(NULL, "x", small, sizeof(small)), "NULL text parsed");
	CHECK(!layout_parse("", "x", small, sizeof(small)), "empty text parsed");
}

static const char odd_text[] = "   # a layout file with everything optional in it\r\n"
			       "layout odd-1.0+x   # trailing comment\r\n"
			       "desc   text with   spaces  \t \n"
			       "\n"
			       "struct inner size 0x10 align 0x8\n"
			       "\tx 0 8 atomic\r\n"
			       "\ty 0X8 8 ptr\n"
			       "end # closes inner\n"
			       "struct mid size 32 align 16\n"
			       "  pad 0 0\n"
			       "  in 16 16 inner\n"
			       "  arr 0 16 array\n"
			       "  mark 16 0   # zero-size, inside in\n"
			       "  tail 32 0   # zero-size at the very end\n"
			       "end\n"
			       "struct outer size 128 align 64\n"
			       "  in.x 0 8    # a flat name that looks like a path\n"
			       "  in 8 16 inner\n"
			       "  m 64 32 mid\n"
			       "  l 96 32 lock\n"
			       "end"; /* no final newline */

static void test_odd(void)
{
	char err[512];
	struct layout *l = layout_parse(odd_text, "odd", err, sizeof(err));

	CHECK(l, "odd text does not parse: %s", err);
	if (!l)
		return;
	CHECK(!strcmp(l->name, "odd-1.0+x"), "odd name: '%s'", l->name);
	CHECK(!strcmp(l->desc, "text with   spaces"), "odd desc: '%s'", l->desc);
	CHECK(!strcmp(l->source, "odd"), "odd source: '%s'", l->source);
	CHECK_EQ("odd nstructs", l->nstructs, 3);
	CHECK_EQ("inner size", layout_find_struct(l, "inner")->size, 16);
	CHECK_EQ("inner.y offset (hex)", layout_offset(l, "inner", "y"), 8);
	CHECK_EQ("mid.in kind", layout_find_struct(l, "mid")->fields[1].kind, LK_STRUCT);
	CHECK_EQ("mid.in type", layout_find_struct(l, "mid")->fields[1].type, 0);
	CHECK_EQ("mid.arr kind", layout_find_struct(l, "mid")->fields[2].kind, LK_ARRAY);
	CHECK_EQ("mid.in line", layout_find_struct(l, "mid")->fields[1].line, 11);
	CHECK_EQ("outer line", layout_find_struct(l, "outer")->line, 16);
	CHECK_EQ("outer.l kind", layout_find_struct(l, "outer")->fields[3].kind, LK_LOCK);

	/* Exact names win over paths; paths recurse through nested structs. */
	CHECK_EQ("outer in.x (flat)", layout_offset(l, "outer", "in.x"), 0);
	CHECK_EQ("outer in.y (path)", layout_offset(l, "outer", "in.y"), 8 + 8);
	CHECK_EQ("outer m.in.y", layout_offset(l, "outer", "m.in.y"), 64 + 16 + 8);
	CHECK_EQ("outer m.tail", layout_offset(l, "outer", "m.tail"), 64 + 32);
	CHECK_EQ("outer m", layout_offset(l, "outer", "m"), 64);
	CHECK_EQ("outer m.arr.x (arr is not a struct)", layout_offset(l, "outer", "m.arr.x"), -1);
	CHECK_EQ("outer m.in.z", layout_offset(l, "outer", "m.in.z"), -1);
	CHECK_EQ("outer m.", layout_offset(l, "outer", "m."), -1);
	CHECK_EQ("outer .m", layout_offset(l, "outer", ".m"), -1);
	CHECK_EQ("outer empty path", layout_offset(l, "outer", ""), -1);
	CHECK_EQ("no such struct", layout_offset(l, "nosuch", "m"), -1);
	CHECK_EQ("NULL layout", layout_offset(NULL, "outer", "m"), -1);
	CHECK(!layout_find_struct(l, "nosuch"), "found struct nosuch");
	layout_free(l);
}

/* Truncating a valid text anywhere must give a clean result or a clean error, never a crash. */
static void test_truncations(void)
{
	const char *text = layout_builtin[0].text;
	size_t n = text ? strlen(text) : 0;
	char *buf = malloc(n + 1);

	CHECK(text && buf, "no built-in text, or out of memory");
	if (!text || !buf) {
		free(buf);
		return;
	}
	for (size_t i = 0; i <= n; i++) {
		char err[256] = "";
		struct layout *l;

		memcpy(buf, text, i);
		buf[i] = '\0';
		l = layout_parse(buf, "cut", err, sizeof(err));
		CHECK(l || !strncmp(err, "cut:", 4), "truncated at %zu: bad message '%s'", i, err);
		layout_free(l);
	}
	free(buf);
}

static uint64_t ref_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * 0x100000001b3ULL;
}

static uint64_t ref_str(uint64_t h, const char *s)
{
	size_t n = strlen(s) + 1;

	for (size_t i = 0; i < n; i++)
		h = ref_byte(h, (unsigned char)s[i]);
	return h;
}

static uint64_t ref_le64(uint64_t h, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	for (int i = 0; i < 8; i++)
		h = ref_byte(h, b[i]);
	return h;
}

static void test_fingerprint(void)
{
	struct layout *a = layout_load("v6.0", NULL, 0), *b = layout_load("v6.0", NULL, 0);
	struct layout *c = layout_load("v6.1", NULL, 0);

	CHECK(a && b && c, "cannot load the built-ins");
	if (a && b && c) {
		CHECK(layout_fingerprint(a) == layout_fingerprint(b),
		      "v6.0 fingerprint not stable: %016llx vs %016llx",
		      (unsigned long long)layout_fingerprint(a),
		      (unsigned long long)layout_fingerprint(b));
		CHECK(layout_fingerprint(a) != layout_fingerprint(c),
		      "v6.0 and v6.1 fingerprints equal: %016llx",
		      (unsigned long long)layout_fingerprint(a));
	}
	layout_free(a);
	layout_free(b);
	layout_free(c);

	/* The documented byte stream, computed independently. */
	struct layout *t =
	    layout_parse("layout t\nstruct s size 16 align 8\n a 0 8 atomic\n b 8 8\n"
			 "end\n",
			 "t", NULL, 0);
	struct layout *u = layout_parse("layout u\ndesc other\nstruct s size 16 align 8\n a 0 8\n"
					" b 8 8 ptr\nend\n",
					"u", NULL, 0);
	struct layout *v = layout_parse("layout t\nstruct s size 16 align 8\n a 0 8\n b 12 4\n"
					"end\n",
					"v", NULL, 0);
	uint64_t h = 0xcbf29ce484222325ULL;

	h = ref_str(h, "s");
	h = ref_le64(h, 16);
	h = ref_le64(h, 8);
	h = ref_le64(h, 2);
	h = ref_str(h, "a");
	h = ref_le64(h, 0);
	h = ref_le64(h, 8);
	h = ref_str(h, "b");
	h = ref_le64(h, 8);
	h = ref_le64(h, 8);
	CHECK(t && u && v, "fingerprint texts do not parse");
	if (t && u && v) {
		CHECK(layout_fingerprint(t) == h, "fingerprint: got %016llx, expected %016llx",
		      (unsigned long long)layout_fingerprint(t), (unsigned long long)h);
		CHECK(layout_fingerprint(t) == layout_fingerprint(u),
		      "fingerprint depends on name, desc or kinds");
		CHECK(layout_fingerprint(t) != layout_fingerprint(v),
		      "fingerprint ignores a field's offset and size");
	}
	layout_free(t);
	layout_free(u);
	layout_free(v);
}

static void test_load(void)
{
	char err[1024], path[] = "/tmp/pcbench-test-layout-XXXXXX";
	struct layout *l;
	int fd;

	l = layout_load("v9.99-nosuch", err, sizeof(err));
	CHECK(!l, "layout_load of an unknown name succeeded");
	layout_free(l);
	CHECK(strstr(err, "v9.99-nosuch"), "unknown name: message '%s' lacks the name", err);
	CHECK(strstr(err, "v6.0") && strstr(err, "v6.1"),
	      "unknown name: message '%s' does not list the built-ins", err);

	l = layout_load("/tmp", err, sizeof(err));
	CHECK(!l, "layout_load of a directory succeeded");
	layout_free(l);
	CHECK(strstr(err, "/tmp"), "directory: message '%s' lacks the path", err);
	CHECK(!layout_load("", err, sizeof(err)), "layout_load of \"\" succeeded");
	CHECK(!layout_load(NULL, err, sizeof(err)), "layout_load of NULL succeeded");

	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp: %s", strerror(errno));
	if (fd < 0)
		return;
	const char good[] = "layout tmp\nstruct s size 8 align 8\n  a 0 8 atomic\nend\n";
	const char bad[] = "layout tmp\nstruct s size 16 align 8\n  a 4 8 atomic\nend\n";

	CHECK(write(fd, good, sizeof(good) - 1) == (ssize_t)(sizeof(good) - 1), "write: %s",
	      strerror(errno));
	close(fd);
	l = layout_load(path, err, sizeof(err));
	CHECK(l, "layout_load(%s) failed: %s", path, err);
	if (l) {
		CHECK(!strcmp(l->name, "tmp"), "file layout name '%s'", l->name);
		CHECK(!strcmp(l->source, path), "file layout source '%s', expected '%s'", l->source,
		      path);
		CHECK_EQ("file layout s.a", layout_offset(l, "s", "a"), 0);
	}
	layout_free(l);

	FILE *f = fopen(path, "w");

	CHECK(f, "fopen %s: %s", path, strerror(errno));
	if (f) {
		fputs(bad, f);
		fclose(f);
		l = layout_load(path, err, sizeof(err));
		CHECK(!l, "layout_load of an invalid file succeeded");
		layout_free(l);
		char prefix[128];

		snprintf(prefix, sizeof(prefix), "%s:3: ", path);
		CHECK(!strncmp(err, prefix, strlen(prefix)) && strstr(err, "aligned"),
		      "invalid file: message '%s', expected '%s...aligned'", err, prefix);
	}

	f = fopen(path, "wb");
	if (f) {
		fwrite("layout x\0junk", 1, 13, f);
		fclose(f);
		CHECK(!layout_load(path, err, sizeof(err)), "file with a NUL byte loaded");
	}
	unlink(path);
}

static void test_names(void)
{
	const char *names[16], *again[16];
	int n = layout_builtin_names("page_counter", names, (int)ARRAY_SIZE(names));
	int has60 = 0, has61 = 0;

	for (int i = 0; i < n; i++) {
		has60 |= !strcmp(names[i], "v6.0");
		has61 |= !strcmp(names[i], "v6.1");
	}
	CHECK(has60 && has61, "layout_builtin_names(page_counter): v6.0 %s, v6.1 %s (of %d)",
	      has60 ? "found" : "missing", has61 ? "found" : "missing", n);
	CHECK(layout_builtin_names(NULL, again, (int)ARRAY_SIZE(again)) >= n,
	      "layout_builtin_names(NULL) returns fewer than for page_counter");
	CHECK_EQ("names for a struct nobody defines",
		 layout_builtin_names("no_such_struct", again, (int)ARRAY_SIZE(again)), 0);
	CHECK_EQ("names with max 1", layout_builtin_names("page_counter", again, 1), 1);
	CHECK(n > 0 && again[0] == names[0], "names are not stable across calls");
	CHECK_EQ("names with max 0", layout_builtin_names("page_counter", again, 0), 0);
}

int main(int argc, char **argv)
{
	const char *srcdir = argc > 1 ? argv[1] : NULL;

	test_embedded(srcdir);
	test_builtins();
	test_bad();
	test_odd();
	test_truncations();
	test_fingerprint();
	test_load();
	test_names();
	if (failures) {
		fprintf(stderr, "test_layout: %d check(s) failed\n", failures);
		return 1;
	}
	printf("test_layout: all checks passed\n");
	return 0;
}
