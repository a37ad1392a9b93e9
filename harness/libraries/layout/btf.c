// SPDX-License-Identifier: MIT
/*
 * btf.c - layouts from BTF with libbpf (see btf.h).
 *
 * Each requested struct is rendered as the text `pahole -E -C NAME` prints: every member on
 * its own line with a "/ * OFFSET SIZE * /" comment (offsets from the start of the outermost
 * struct), nested structs and unions expanded in place with "/ * typedef NAME * /" before
 * typedef'd ones, bit-fields as "TYPE NAME:BITS; / * UNIT: BIT SIZE * /", and the summary
 * "/ * size: N, cachelines: C, members: M * /". pahole_to_layout() then applies the one set
 * of rules for kinds, unions, anonymous members, bit-fields and alignment.
 *
 * The BTF is checked first (btf_check.c): the walk trusts its ids and offsets.
 */
#include "btf.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "infile.h"
#include "layout.h"
#include "strbuf.h"
#include "util.h"

#define MAX_DEPTH 32
#define CACHELINE 64

/* The most text a BTF import renders (a DAG of nested structs can expand without end). */
#define MAX_TEXT (16 << 20)

struct render {
	const struct btf *btf;
	struct sb out;
	char *err;
	size_t errlen;
	int failed;
	/*
	 * Per type id, computed once (linear in the BTF, not exponential in its nesting):
	 * the natural and the inferred alignment, and the state of each walk (0 not yet,
	 * 1 in progress: met again, the type contains itself; 2 done). on_path marks the
	 * structs being rendered.
	 */
	long *natural, *align;
	unsigned char *nat_state, *align_state, *on_path;
	__u32 ntypes;
	const char *what; /* the BTF's path, for messages */
	size_t max_text;  /* the most text rendered (MAX_TEXT) */
};

static void fail(struct render *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct render *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	r->failed = 1;
	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
}

static const char *name_of(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);

	return n ? n : "";
}

/*
 * resolve - skip const/volatile/restrict/type tags and typedefs from type @id; the outermost
 * typedef's name into *@tdef (NULL when there is none). Returns the type (NULL for void).
 */
static const struct btf_type *resolve(const struct btf *btf, __u32 *id, const char **tdef)
{
	for (int guard = 0; guard < 64; guard++) {
		const struct btf_type *t = *id ? btf__type_by_id(btf, *id) : NULL;

		if (!t)
			return NULL;
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
			if (tdef && !*tdef)
				*tdef = name_of(btf, t);
			/* fall through */
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			*id = t->type;
			continue;
		default:
			return t;
		}
	}
	return NULL;
}

/* type_text - the C type of @id as a declaration's type ("struct page_counter", "u64"). */
static void type_text_n(const struct btf *btf, __u32 id, struct sb *s, int depth)
{
	const char *tdef = NULL;
	const struct btf_type *t = resolve(btf, &id, &tdef);

	if (depth > MAX_DEPTH) { /* a pointer to itself: a cycle of pointer types */
		sb_printf(s, "void");
		return;
	}
	if (tdef) {
		sb_printf(s, "%s", tdef);
		return;
	}
	if (!t) {
		sb_printf(s, "void");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		sb_printf(s, "%s%s%s", btf_is_union(t) ? "union" : "struct",
			  name_of(btf, t)[0] ? " " : "", name_of(btf, t));
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (name_of(btf, t)[0])
			sb_printf(s, "enum %s", name_of(btf, t));
		else
			sb_printf(s, "%s", t->size == 8 ? "long unsigned int" : "unsigned int");
		break;
	case BTF_KIND_PTR:
		type_text_n(btf, t->type, s, depth + 1);
		sb_printf(s, " *");
		break;
	case BTF_KIND_ARRAY:
		type_text_n(btf, btf_array(t)->type, s, depth + 1);
		break;
	case BTF_KIND_FUNC_PROTO:
		sb_printf(s, "void");
		break;
	default:
		sb_printf(s, "%s", name_of(btf, t));
	}
}

static void type_text(const struct btf *btf, __u32 id, struct sb *s)
{
	type_text_n(btf, id, s, 0);
}

static size_t pow2_div(size_t off, size_t cap)
{
	size_t a = 1;

	while (a < cap && off % (a * 2) == 0)
		a *= 2;
	return a;
}

/*
 * natural_align - the alignment the C compiler gives type @id (as libbpf's btf__align_of,
 * which recurses without a bound and so is never called here): a scalar its size up to a
 * pointer's, a struct its largest member's, or 1 when its members are packed. Memoized;
 * a struct that contains itself fails the render.
 */
static long natural_align(struct render *r, __u32 id)
{
	const struct btf *btf = r->btf;
	const struct btf_type *t = resolve(btf, &id, NULL);
	long ptr = (long)btf__pointer_size(btf), a = 1;

	if (ptr <= 0)
		ptr = 8;
	if (!t)
		return 1;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT:
		return t->size == 0 ? 1 : (long)t->size < ptr ? (long)t->size : ptr;
	case BTF_KIND_PTR:
		return ptr;
	case BTF_KIND_ARRAY:
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		break;
	default:
		return 1;
	}
	if (r->nat_state[id] == 2)
		return r->natural[id];
	if (r->nat_state[id] == 1) {
		fail(r, "BTF %s: type %u contains itself", r->what, id);
		return 1;
	}
	r->nat_state[id] = 1;
	if (btf_is_array(t)) {
		a = natural_align(r, btf_array(t)->type);
	} else {
		for (int i = 0; i < btf_vlen(t) && !r->failed; i++) {
			long m = natural_align(r, btf_members(t)[i].type);

			if (m > a)
				a = m;
			if (!btf_member_bitfield_size(t, (__u32)i) &&
			    btf_member_bit_offset(t, (__u32)i) % (8 * (__u32)m)) {
				a = 1; /* packed */
				break;
			}
		}
		if (a > 1 && t->size % (__u32)a)
			a = 1;
	}
	r->natural[id] = a;
	r->nat_state[id] = 2;
	return a;
}

static long type_align(struct render *r, __u32 id);

/*
 * member_align - the __aligned__ that the placement of member @i of @t implies: a member
 * after a hole, at an offset aligned beyond its type's alignment (at most a cache line).
 * 0 when none. *@prev_end tracks the end of the last member that has a size.
 */
static size_t member_align(struct render *r, const struct btf_type *t, int i, size_t *prev_end)
{
	const struct btf_member *m = btf_members(t) + i;
	size_t off = btf_member_bit_offset(t, (__u32)i) / 8, forced = 0;
	long size = btf_member_bitfield_size(t, (__u32)i) ? 0 : btf__resolve_size(r->btf, m->type);
	long natural = type_align(r, m->type);

	if (size <= 0)
		return 0;
	if (!btf_is_union(t) && i > 0 && off > *prev_end && off % CACHELINE == 0 &&
	    (size_t)natural < CACHELINE)
		forced = pow2_div(off, CACHELINE);
	*prev_end = off + (size_t)size;
	return forced > (size_t)natural ? forced : 0;
}

/*
 * type_align - alignment of type @id: natural, or as member_align infers for a struct.
 * Memoized per type (each struct's members are walked once); a struct that contains itself
 * fails the render.
 */
static long type_align(struct render *r, __u32 id)
{
	const struct btf_type *t = resolve(r->btf, &id, NULL);
	size_t prev_end = 0;
	long a = 1;

	if (!t)
		return 1;
	if (!btf_is_array(t) && !btf_is_composite(t))
		return natural_align(r, id);
	if (r->align_state[id] == 2)
		return r->align[id];
	if (r->align_state[id] == 1) {
		fail(r, "BTF %s: type %u contains itself", r->what, id);
		return 1;
	}
	r->align_state[id] = 1;
	if (btf_is_array(t)) {
		a = type_align(r, btf_array(t)->type);
	} else {
		for (int i = 0; i < btf_vlen(t) && !r->failed; i++) {
			long m = btf_member_bitfield_size(t, (__u32)i)
				     ? 1
				     : type_align(r, btf_members(t)[i].type);
			size_t f = member_align(r, t, i, &prev_end);

			if (m > a)
				a = m;
			if ((long)f > a)
				a = (long)f;
		}
	}
	r->align[id] = a;
	r->align_state[id] = 2;
	return a;
}

static void indent(struct render *r, int depth)
{
	for (int i = 0; i < depth; i++)
		sb_addc(&r->out, '\t');
}

static void render_block(struct render *r, __u32 id, const char *tdef, const char *name, size_t off,
			 size_t align_attr, int depth);

/* render_member - member @name of type @id at byte @off (absolute), @depth tabs in. */
static void render_member(struct render *r, __u32 id, const char *name, size_t off,
			  size_t align_attr, int depth)
{
	const struct btf *btf = r->btf;
	const char *tdef = NULL;
	__u32 rid = id;
	const struct btf_type *t = resolve(btf, &rid, &tdef);
	long size = btf__resolve_size(btf, id);
	struct sb decl = {0};
	char attr[64] = "";

	if (size < 0) {
		fail(r, "BTF %s: member %s: cannot size its type (type %u)", r->what, name, id);
		return;
	}
	if (r->out.n > r->max_text) {
		fail(r, "BTF %s: member %s: the structs expand to more than %zu KiB of text",
		     r->what, name, r->max_text >> 10);
		return;
	}
	if (align_attr)
		snprintf(attr, sizeof(attr), " __attribute__((__aligned__(%zu)))", align_attr);
	if (t && btf_is_composite(t)) {
		render_block(r, rid, tdef, name, off, align_attr, depth);
		return;
	}
	indent(r, depth);
	if (tdef)
		sb_printf(&decl, "/* typedef %s */ ", tdef);
	if (t && btf_is_ptr(t)) {
		__u32 pid = t->type;
		const struct btf_type *pt = resolve(btf, &pid, NULL);

		if (pt && btf_is_func_proto(pt)) {
			sb_printf(&decl, "void (*%s)(void)", name);
		} else {
			type_text(btf, t->type, &decl);
			sb_printf(&decl, " * %s", name);
		}
	} else if (t && btf_is_array(t)) {
		const struct btf_type *e = t;
		__u32 eid = rid;

		/* The element type, then every dimension (sized above: no cycle of arrays). */
		for (int k = 0; e && btf_is_array(e) && k < MAX_DEPTH; k++) {
			eid = btf_array(e)->type;
			e = resolve(btf, &eid, NULL);
		}
		type_text(btf, btf_array(t)->type, &decl);
		while (decl.n && (decl.p[decl.n - 1] == ' '))
			decl.p[--decl.n] = 0;
		sb_printf(&decl, " %s", name);
		e = t;
		for (int k = 0; e && btf_is_array(e) && k < MAX_DEPTH; k++) {
			__u32 nid = btf_array(e)->type;

			if (btf_array(e)->nelems)
				sb_printf(&decl, "[%u]", btf_array(e)->nelems);
			else
				sb_printf(&decl, "[]");
			e = resolve(btf, &nid, NULL);
		}
	} else {
		struct sb ty = {0};

		if (t && (btf_is_enum(t) || btf_is_enum64(t) || btf_is_int(t) || btf_is_float(t))) {
			__u32 bid = rid;

			type_text(btf, bid, &ty);
		} else {
			sb_printf(&ty, "void");
		}
		sb_printf(&decl, "%s %s", sb_str(&ty), name);
		free(ty.p);
	}
	sb_printf(&r->out, "%s%s; /* %5zu %5ld */\n", sb_str(&decl), attr, off, size);
	free(decl.p);
}

/* render_bitfield - "TYPE NAME:BITS; / * UNIT: BIT SIZE * /" at absolute bit @bit. */
static void render_bitfield(struct render *r, __u32 id, const char *name, size_t bit, unsigned bits,
			    int depth)
{
	long size = btf__resolve_size(r->btf, id);
	const char *tdef = NULL;
	__u32 rid = id;
	struct sb ty = {0};
	size_t unit;

	if (size <= 0) {
		fail(r, "bit-field %s: cannot size its type", name);
		return;
	}
	unit = bit / (8 * (size_t)size) * (size_t)size;
	/* A field crossing its storage unit: take the byte it starts in as the unit. */
	if (bit + bits > 8 * (unit + (size_t)size))
		unit = bit / 8;
	resolve(r->btf, &rid, &tdef);
	type_text(r->btf, rid, &ty);
	indent(r, depth);
	sb_printf(&r->out, "%s%s%s%s %s:%u; /* %5zu:%2zu %3ld */\n", tdef ? "/* typedef " : "",
		  tdef ? tdef : "", tdef ? " */ " : "", sb_str(&ty), name, bits, unit,
		  bit - 8 * unit, size);
	free(ty.p);
}

static void render_block(struct render *r, __u32 id, const char *tdef, const char *name, size_t off,
			 size_t align_attr, int depth)
{
	const struct btf *btf = r->btf;
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *tag = name_of(btf, t);
	long natural, align;
	size_t prev_end = 0;
	char attr[64] = "";

	if (depth >= MAX_DEPTH) {
		fail(r, "BTF %s: %s: nested more than %d deep", r->what, name, MAX_DEPTH);
		return;
	}
	if (r->on_path[id]) {
		fail(r, "BTF %s: %s %s contains itself (type %u, in %s)", r->what,
		     btf_is_union(t) ? "union" : "struct", tag[0] ? tag : "(anonymous)", id,
		     name[0] ? name : "(anonymous)");
		return;
	}
	natural = natural_align(r, id);
	align = type_align(r, id);
	if (r->failed)
		return;
	r->on_path[id] = 1;
	indent(r, depth);
	if (tdef)
		sb_printf(&r->out, "/* typedef %s */ ", tdef);
	sb_printf(&r->out, "%s%s%s {\n", btf_is_union(t) ? "union" : "struct", tag[0] ? " " : "",
		  tag);
	for (int i = 0; i < btf_vlen(t) && !r->failed; i++) {
		const struct btf_member *m = btf_members(t) + i;
		size_t bit = 8 * off + btf_member_bit_offset(t, (__u32)i);
		unsigned bits = btf_member_bitfield_size(t, (__u32)i);
		const char *mname = btf__name_by_offset(btf, m->name_off);
		size_t forced = member_align(r, t, i, &prev_end);
		__u32 mid = m->type;
		const struct btf_type *mt = resolve(btf, &mid, NULL);

		/* The old encoding: the bit-field's width and offset in its int type. */
		if (!bits && mt && btf_is_int(mt) && btf_int_bits(mt) != 8 * mt->size) {
			bits = btf_int_bits(mt);
			bit += btf_int_offset(mt);
		}
		if (bits)
			render_bitfield(r, m->type, mname ? mname : "", bit, bits, depth + 1);
		else
			render_member(r, m->type, mname ? mname : "", bit / 8, forced, depth + 1);
	}
	r->on_path[id] = 0;
	if (align > natural && align > 1)
		snprintf(attr, sizeof(attr), " __attribute__((__aligned__(%ld)))", align);
	indent(r, depth);
	if (depth == 0) {
		sb_printf(&r->out, "\n\t/* size: %u, cachelines: %u, members: %u */\n}%s;\n",
			  t->size, (t->size + CACHELINE - 1) / CACHELINE, btf_vlen(t), attr);
		return;
	}
	(void)align_attr;
	sb_printf(&r->out, "}%s%s%s; /* %5zu %5u */\n", attr, name[0] ? " " : "", name, off,
		  t->size);
}

void btf_source(const char *path, char *buf, size_t len)
{
	struct utsname u;

	if (!path || !path[0])
		path = BTF_VMLINUX;
	if (!strcmp(path, BTF_VMLINUX) && !uname(&u))
		snprintf(buf, len, "%s (kernel %s)", path, u.release);
	else
		snprintf(buf, len, "%s", path);
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* open_btf - libbpf's BTF of @path, or NULL with "@what@path: why" in @err. */
static struct btf *open_btf(const char *path, const char *what, char *err, size_t errlen)
{
	struct btf *btf;
	int e;

	libbpf_set_print(quiet);
	{ /* a FIFO or a device would never end (infile.h): refused before libbpf opens it */
		char why[PATH_MAX + 128];
		FILE *f = infile_open(path, 0, "BTF", why, sizeof(why));

		if (!f) {
			set_err(err, errlen, "%s%s", what, why);
			return NULL;
		}
		fclose(f);
	}
	btf = btf__parse(path, NULL);
	if (btf) {
		char why[256];

		if (!btf_check(btf, why, sizeof(why)))
			return btf;
		set_err(err, errlen, "%s%s: %s", what, path, why);
		btf__free(btf);
		return NULL;
	}
	e = errno;
	if (access(path, R_OK))
		set_err(err, errlen, "%s%s: %s%s", what, path, strerror(errno),
			!strcmp(path, BTF_VMLINUX) ? " (the kernel needs CONFIG_DEBUG_INFO_BTF)"
						   : "");
	else if (e == ENOENT || e == ENODATA)
		set_err(err, errlen,
			"%s%s: no BTF in it (no .BTF section: encode it with `pahole -J`)", what,
			path);
	else
		set_err(err, errlen, "%s%s: cannot read its BTF (%s)", what, path, strerror(e));
	return NULL;
}

/* render_init - the per-type tables of @r for @btf. */
static void render_init(struct render *r, const struct btf *btf)
{
	r->btf = btf;
	r->ntypes = btf__type_cnt(btf);
	r->natural = xcalloc(r->ntypes, sizeof(*r->natural));
	r->align = xcalloc(r->ntypes, sizeof(*r->align));
	r->nat_state = xcalloc(r->ntypes, 1);
	r->align_state = xcalloc(r->ntypes, 1);
	r->on_path = xcalloc(r->ntypes, 1);
}

static void render_free(struct render *r)
{
	free(r->natural);
	free(r->align);
	free(r->nat_state);
	free(r->align_state);
	free(r->on_path);
}

/*
 * render_structs - the text of every struct (or union) named in @structs (comma-separated)
 * of the checked @btf into @r->out; @what names the BTF in messages. 0, or -1 (r->err).
 */
static int render_structs(struct render *r, const struct btf *btf, const char *structs,
			  const char *what)
{
	char *names, *rest, *tok;

	render_init(r, btf);
	r->what = what;
	if (!r->max_text)
		r->max_text = MAX_TEXT;
	rest = names = xstrdup(structs);
	while (!r->failed && (tok = strsep(&rest, ","))) {
		__s32 id;

		if (!*tok)
			continue;
		id = btf__find_by_name_kind(btf, tok, BTF_KIND_STRUCT);
		if (id < 0)
			id = btf__find_by_name_kind(btf, tok, BTF_KIND_UNION);
		if (id < 0) {
			fail(r, "BTF %s has no struct %s", what, tok);
			break;
		}
		render_block(r, (__u32)id, NULL, tok, 0, 0, 0);
		sb_printf(&r->out, "\n");
	}
	free(names);
	render_free(r);
	return r->failed ? -1 : 0;
}

char *btf_text_from_buf(const void *data, size_t len, const char *structs, size_t max_text,
			char *err, size_t errlen)
{
	struct render r = {.err = err, .errlen = errlen, .max_text = max_text};
	struct btf *btf;

	libbpf_set_print(quiet);
	btf = btf__new(data, (__u32)(len > UINT32_MAX ? UINT32_MAX : len));
	if (!btf) {
		set_err(err, errlen, "not valid BTF (%s)", strerror(errno));
		return NULL;
	}
	if (!structs) { /* every struct and union, as the fuzz target asks */
		struct sb all = {0};

		for (__u32 id = 1; id < btf__type_cnt(btf) && id < 4096; id++) {
			const struct btf_type *t = btf__type_by_id(btf, id);
			const char *n = t ? btf__name_by_offset(btf, t->name_off) : NULL;

			if (t && btf_is_composite(t) && n && n[0] && !strchr(n, ','))
				sb_printf(&all, "%s,", n);
		}
		structs = all.p ? all.p : "";
		if (btf_check(btf, err, errlen) || render_structs(&r, btf, structs, "(buffer)")) {
			free(all.p);
			btf__free(btf);
			free(r.out.p);
			return NULL;
		}
		free(all.p);
		btf__free(btf);
		return r.out.p ? r.out.p : xstrdup("");
	}
	if (btf_check(btf, err, errlen) || render_structs(&r, btf, structs, "(buffer)")) {
		btf__free(btf);
		free(r.out.p);
		return NULL;
	}
	btf__free(btf);
	return r.out.p ? r.out.p : xstrdup("");
}

char *btf_to_layout(const char *path, const struct pahole_opts *opts, char *err, size_t errlen)
{
	struct render r = {.err = err, .errlen = errlen};
	struct pahole_opts po = *opts;
	char *layout = NULL, source[512], desc[600];
	struct btf *btf;

	if (!path || !path[0])
		path = BTF_VMLINUX;
	if (!opts->structs || !opts->structs[0]) {
		set_err(err, errlen, "BTF %s: --struct NAME[,NAME...] is required", path);
		return NULL;
	}
	btf = open_btf(path, "BTF ", err, errlen);
	if (!btf)
		return NULL;
	if (render_structs(&r, btf, opts->structs, path)) {
		btf__free(btf);
		free(r.out.p);
		return NULL;
	}
	btf__free(btf);
	btf_source(path, source, sizeof(source));
	snprintf(desc, sizeof(desc), "BTF %s", source);
	if (!po.desc)
		po.desc = desc;
	snprintf(source, sizeof(source), "btf:%s", path);
	layout = pahole_to_layout(sb_str(&r.out), source, &po, err, errlen);
	if (getenv("PCBENCH_BTF_DUMP"))
		fputs(sb_str(&r.out), stderr);
	free(r.out.p);
	return layout;
}

struct layout *btf_layout_load(const char *path, char *err, size_t errlen)
{
	struct pahole_opts po = {0};
	struct sb structs = {0};
	struct utsname u;
	struct layout *l = NULL;
	char name[LAYOUT_NAME_MAX], perr[256], source[512];
	struct btf *btf;
	char *text;

	if (!path || !path[0])
		path = BTF_VMLINUX;
	btf = open_btf(path, "btf:", err, errlen);
	if (!btf)
		return NULL;
	/* Every struct a built-in layout describes, that this BTF has. */
	for (int i = 0; layout_builtin[i].file; i++) {
		struct layout *b =
		    layout_parse(layout_builtin[i].text, "builtin", perr, sizeof(perr));

		for (int s = 0; b && s < b->nstructs; s++) {
			const char *sn = b->structs[s].name;
			char key[LAYOUT_NAME_MAX + 2];

			snprintf(key, sizeof(key), ",%s,", sn);
			if (btf__find_by_name_kind(btf, sn, BTF_KIND_STRUCT) < 0 ||
			    (structs.n && strstr(sb_str(&structs), key)))
				continue;
			sb_printf(&structs, "%s%s,", structs.n ? "" : ",", sn);
		}
		layout_free(b);
	}
	btf__free(btf);
	if (!structs.n) {
		set_err(err, errlen, "btf:%s: none of the structs of the built-in layouts is there",
			path);
		return NULL;
	}
	snprintf(name, sizeof(name), "btf");
	if (!strcmp(path, BTF_VMLINUX) && !uname(&u))
		snprintf(name, sizeof(name), "btf-%.58s", u.release);
	for (char *p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-",
			    *p))
			*p = '_';
	po.name = name;
	po.structs = sb_str(&structs) + 1;
	text = btf_to_layout(path, &po, err, errlen);
	free(structs.p);
	if (!text)
		return NULL;
	snprintf(source, sizeof(source), "btf:%s", path);
	l = layout_parse(text, source, err, errlen);
	free(text);
	return l;
}
