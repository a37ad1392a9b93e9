// SPDX-License-Identifier: MIT
/* recipe.c - the probe scenario's recipe parser, binder and thread assignment (recipe.h). */
#include "recipe.h"
#include "num.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[RO_COUNT] = {
    [RO_LOAD] = "load", [RO_STORE] = "store",	[RO_RMW] = "rmw",
    [RO_ADD] = "add",	[RO_XCHG] = "xchg",	[RO_CMPXCHG] = "cmpxchg",
    [RO_LOCK] = "lock", [RO_UNLOCK] = "unlock", [RO_SPIN] = "spin",
};

const char *recipe_op_name(enum recipe_op op)
{
	return (unsigned)op < RO_COUNT ? op_names[op] : "?";
}

int recipe_op_writes(enum recipe_op op)
{
	return op != RO_LOAD && op != RO_SPIN;
}

static void fail(char *err, size_t errlen, const char *source, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void fail(char *err, size_t errlen, const char *source, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return;
	n = snprintf(err, errlen, "%s:%d: ", source, line);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int valid_name(const char *s)
{
	if (!*s || strlen(s) >= RECIPE_NAME_MAX || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* A reference: names joined by single dots. */
static int valid_ref(const char *s)
{
	if (strlen(s) >= LAYOUT_PATH_MAX)
		return 0;
	for (;;) {
		if (!(isalpha((unsigned char)*s) || *s == '_'))
			return 0;
		while (isalnum((unsigned char)*s) || *s == '_')
			s++;
		if (!*s)
			return 1;
		if (*s++ != '.')
			return 0;
	}
}

/* A signed decimal or 0x hex number that fits a long. */
static int parse_value(const char *s, long *out)
{
	return num_long(s, 0, LONG_MIN, LONG_MAX, out);
}

static int find_role(const struct recipe *r, const char *name)
{
	for (int i = 0; i < r->nroles; i++)
		if (!strcmp(r->roles[i].name, name))
			return i;
	return -1;
}

/* Split @s at blanks into at most @max words; returns how many, or max + 1 when more. */
static int words(char *s, char **w, int max)
{
	int n = 0;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		w[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static int parse_step(struct recipe *r, struct recipe_role *ro, char *s, int line, char *err,
		      size_t errlen)
{
	struct recipe_step st;
	char *w[4];
	int n = words(s, w, 3), op = -1;

	if (!n)
		return 0; /* an empty step: "a; ; b" or a trailing ';' */
	for (int i = 0; i < RO_COUNT; i++)
		if (!strcmp(w[0], op_names[i]))
			op = i;
	if (op < 0) {
		fail(err, errlen, r->source, line,
		     "role %s: unknown step '%s' (want load, store, rmw, add, xchg, cmpxchg, lock, "
		     "unlock or spin)",
		     ro->name, w[0]);
		return -1;
	}
	memset(&st, 0, sizeof(st));
	st.op = (enum recipe_op)op;
	st.line = line;
	st.obj = -1;
	if (op == RO_SPIN) {
		if (n != 2 || parse_value(w[1], &st.value) || st.value < 0 ||
		    st.value > RECIPE_MAX_SPIN) {
			fail(err, errlen, r->source, line, "role %s: expected 'spin N', N in 0..%d",
			     ro->name, RECIPE_MAX_SPIN);
			return -1;
		}
	} else {
		int takes_value = op != RO_LOAD && op != RO_LOCK && op != RO_UNLOCK;

		if (n < 2 || n > (takes_value ? 3 : 2)) {
			fail(err, errlen, r->source, line, "role %s: expected '%s FIELD%s'",
			     ro->name, w[0], takes_value ? " [VALUE]" : "");
			return -1;
		}
		if (!valid_ref(w[1])) {
			fail(err, errlen, r->source, line,
			     "role %s: %s %s: bad field reference (want [OBJECT.]FIELD, names "
			     "[A-Za-z_][A-Za-z0-9_]* joined by dots)",
			     ro->name, w[0], w[1]);
			return -1;
		}
		snprintf(st.ref, sizeof(st.ref), "%s", w[1]);
		st.value = op == RO_RMW || op == RO_ADD || op == RO_CMPXCHG ? 1 : 0;
		if (n == 3 && parse_value(w[2], &st.value)) {
			fail(err, errlen, r->source, line, "role %s: %s %s: bad value '%s'",
			     ro->name, w[0], w[1], w[2]);
			return -1;
		}
	}
	if (ro->nsteps == RECIPE_MAX_STEPS) {
		fail(err, errlen, r->source, line, "role %s: more than %d steps", ro->name,
		     RECIPE_MAX_STEPS);
		return -1;
	}
	if (ro->nsteps == ro->cap) {
		int cap = ro->cap ? 2 * ro->cap : 16;
		void *ns = realloc(ro->steps, (size_t)cap * sizeof(*ro->steps));

		if (!ns) {
			fail(err, errlen, r->source, line, "out of memory");
			return -1;
		}
		ro->steps = ns;
		ro->cap = cap;
	}
	ro->steps[ro->nsteps++] = st;
	return 0;
}

static int parse_role(struct recipe *r, char *rest, int line, char *err, size_t errlen)
{
	char *colon = strchr(rest, ':'), *name, *s;
	struct recipe_role *ro;
	int i;

	if (!colon) {
		fail(err, errlen, r->source, line, "expected 'role NAME: STEP; STEP ...'");
		return -1;
	}
	*colon = '\0';
	name = trim(rest);
	if (!valid_name(name)) {
		fail(err, errlen, r->source, line,
		     "role '%s': bad name (want [A-Za-z_][A-Za-z0-9_]*, < %d chars)", name,
		     RECIPE_NAME_MAX);
		return -1;
	}
	i = find_role(r, name);
	if (i < 0) {
		if (r->nroles == RECIPE_MAX_ROLES) {
			fail(err, errlen, r->source, line, "more than %d roles", RECIPE_MAX_ROLES);
			return -1;
		}
		i = r->nroles++;
		snprintf(r->roles[i].name, sizeof(r->roles[i].name), "%s", name);
		r->roles[i].line = line;
	}
	ro = &r->roles[i];
	for (s = colon + 1;;) {
		char *semi = strchr(s, ';');

		if (semi)
			*semi = '\0';
		if (parse_step(r, ro, s, line, err, errlen))
			return -1;
		if (!semi)
			break;
		s = semi + 1;
	}
	return 0;
}

static int parse_threads(struct recipe *r, char *rest, int line, char *err, size_t errlen)
{
	char *colon = strchr(rest, ':'), *s;

	if (r->threads_line) {
		fail(err, errlen, r->source, line, "second 'threads:' line (first at line %d)",
		     r->threads_line);
		return -1;
	}
	if (!colon || *trim(rest) != ':') {
		fail(err, errlen, r->source, line, "expected 'threads: ROLE* | ROLE N, ...'");
		return -1;
	}
	r->threads_line = line;
	for (s = colon + 1;;) {
		char *comma = strchr(s, ','), *item, *w[3];
		struct recipe_share sh = {.line = line};
		int n;

		if (comma)
			*comma = '\0';
		item = trim(s);
		n = words(item, w, 2);
		/* "writer*" is "writer *" */
		if (n == 1 && strlen(w[0]) > 1 && w[0][strlen(w[0]) - 1] == '*') {
			w[0][strlen(w[0]) - 1] = '\0';
			w[1] = "*";
			n = 2;
		}
		if (n != 2) {
			fail(err, errlen, r->source, line,
			     "threads: expected 'ROLE*' or 'ROLE N', found '%s'", item);
			return -1;
		}
		sh.role = find_role(r, w[0]);
		if (sh.role < 0) {
			fail(err, errlen, r->source, line,
			     "threads: no role %s (roles must be defined before 'threads:')", w[0]);
			return -1;
		}
		for (int i = 0; i < r->nshares; i++) {
			if (r->shares[i].role == sh.role) {
				fail(err, errlen, r->source, line, "threads: role %s given twice",
				     w[0]);
				return -1;
			}
		}
		if (!strcmp(w[1], "*")) {
			sh.count = -1;
		} else if (parse_value(w[1], &sh.count) || sh.count < 1 || sh.count > 4096) {
			fail(err, errlen, r->source, line,
			     "threads: %s %s: expected '*' or a count in 1..4096", w[0], w[1]);
			return -1;
		}
		r->shares[r->nshares++] = sh;
		if (!comma)
			break;
		s = comma + 1;
	}
	return 0;
}

static int parse_object(struct recipe *r, char *rest, int line, char *err, size_t errlen)
{
	char *w[3];
	int n = words(rest, w, 2);

	if (n < 1 || n > 2) {
		fail(err, errlen, r->source, line, "expected 'object NAME [STRUCT]'");
		return -1;
	}
	if (!valid_name(w[0]) || (n == 2 && !valid_name(w[1]))) {
		fail(err, errlen, r->source, line,
		     "object %s: bad name (want [A-Za-z_][A-Za-z0-9_]*, < %d chars)", w[0],
		     RECIPE_NAME_MAX);
		return -1;
	}
	for (int i = 0; i < r->nobjects; i++) {
		if (!strcmp(r->objects[i].name, w[0])) {
			fail(err, errlen, r->source, line,
			     "object %s: defined twice (first at line %d)", w[0],
			     r->objects[i].line);
			return -1;
		}
	}
	if (r->nobjects == RECIPE_MAX_OBJECTS) {
		fail(err, errlen, r->source, line, "more than %d objects", RECIPE_MAX_OBJECTS);
		return -1;
	}
	snprintf(r->objects[r->nobjects].name, RECIPE_NAME_MAX, "%s", w[0]);
	snprintf(r->objects[r->nobjects].sname, RECIPE_NAME_MAX, "%s", n == 2 ? w[1] : "");
	r->objects[r->nobjects].line = line;
	r->nobjects++;
	return 0;
}

struct recipe *recipe_parse(const char *text, const char *source, char *err, size_t errlen)
{
	struct recipe *r = calloc(1, sizeof(*r));
	const char *s = text;
	int line = 0;

	if (err && errlen)
		err[0] = '\0';
	if (!r) {
		fail(err, errlen, source ? source : "(recipe)", 0, "out of memory");
		return NULL;
	}
	snprintf(r->source, sizeof(r->source), "%s", source ? source : "(recipe)");
	if (!text) {
		fail(err, errlen, r->source, 0, "no text");
		goto bad;
	}
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char *buf, *l, *hash, *kw;
		int rc = 0;

		line++;
		buf = malloc(n + 1);
		if (!buf) {
			fail(err, errlen, r->source, line, "out of memory");
			goto bad;
		}
		memcpy(buf, s, n);
		buf[n] = '\0';
		s = nl ? nl + 1 : s + n;
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		l = trim(buf);
		if (!*l) {
			free(buf);
			continue;
		}
		kw = l;
		while (*l && !isspace((unsigned char)*l) && *l != ':')
			l++;
		if (!strncmp(kw, "object", 6) && l - kw == 6 && *l != ':') {
			rc = parse_object(r, l, line, err, errlen);
		} else if (!strncmp(kw, "role", 4) && l - kw == 4) {
			rc = parse_role(r, l, line, err, errlen);
		} else if (!strncmp(kw, "threads", 7) && l - kw == 7) {
			rc = parse_threads(r, l, line, err, errlen);
		} else {
			fail(err, errlen, r->source, line,
			     "unknown statement '%.*s' (want object, role or threads)",
			     (int)(l - kw), kw);
			rc = -1;
		}
		free(buf);
		if (rc)
			goto bad;
	}
	if (!line)
		line = 1;
	if (!r->nroles) {
		fail(err, errlen, r->source, line, "no role (want 'role NAME: STEP; STEP ...')");
		goto bad;
	}
	for (int i = 0; i < r->nroles; i++) {
		int shared = !r->threads_line && r->nroles == 1;

		for (int j = 0; j < r->nshares; j++)
			shared |= r->shares[j].role == i;
		if (!r->roles[i].nsteps) {
			fail(err, errlen, r->source, r->roles[i].line, "role %s: no steps",
			     r->roles[i].name);
			goto bad;
		}
		if (!shared) {
			fail(err, errlen, r->source,
			     r->threads_line ? r->threads_line : r->roles[i].line,
			     "role %s has no threads: name it in 'threads: ...'%s",
			     r->roles[i].name,
			     r->threads_line ? "" : " (needed with more than one role)");
			goto bad;
		}
	}
	return r;
bad:
	recipe_free(r);
	return NULL;
}

void recipe_free(struct recipe *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nroles; i++)
		free(r->roles[i].steps);
	free(r);
}

static int find_object(const struct recipe *r, const char *name, size_t n)
{
	for (int i = 0; i < r->nobjects; i++)
		if (strlen(r->objects[i].name) == n && !strncmp(r->objects[i].name, name, n))
			return i;
	return -1;
}

/* Resolve @st's reference: its object and the path inside the object's struct. */
static int resolve(struct recipe *r, const struct layout *l, struct recipe_role *ro,
		   struct recipe_step *st, const char **path, char *err, size_t errlen)
{
	const char *dot = strchr(st->ref, '.');
	size_t n = dot ? (size_t)(dot - st->ref) : strlen(st->ref);
	int o = find_object(r, st->ref, n);

	if (o >= 0 && dot) {
		/* With one object, a field of its own name wins over the object prefix. */
		struct layout_leaf lf;

		if (r->nobjects > 1 || layout_find_leaf(l, r->objects[0].sname, st->ref, &lf)) {
			st->obj = o;
			*path = dot + 1;
			return 0;
		}
	}
	if (r->nobjects == 1) {
		st->obj = 0;
		*path = st->ref;
		return 0;
	}
	{
		char names[256] = "";
		size_t k = 0;

		for (int i = 0; i < r->nobjects && k < sizeof(names); i++)
			k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", i ? ", " : "",
					      r->objects[i].name);
		fail(err, errlen, r->source, st->line,
		     "role %s: %s %s: name the object first, OBJECT.FIELD (objects: %s)", ro->name,
		     recipe_op_name(st->op), st->ref, names);
	}
	return -1;
}

static const char *step_need(enum recipe_op op)
{
	switch (op) {
	case RO_RMW:
	case RO_ADD:
		return "an atomic field";
	case RO_XCHG:
	case RO_CMPXCHG:
		return "an atomic or ptr field";
	case RO_LOCK:
	case RO_UNLOCK:
		return "a lock field";
	default:
		return "a word";
	}
}

static int check_step(const struct recipe *r, const struct layout *l, const struct recipe_role *ro,
		      const struct recipe_step *st, const struct recipe_object *ob,
		      const char *path, const struct layout_leaf *lf, char *err, size_t errlen)
{
	const struct layout_field *f = lf->field;
	const char *op = recipe_op_name(st->op);

	if (f->kind == LK_STRUCT) {
		fail(err, errlen, r->source, st->line,
		     "role %s: %s %s: field %s is a nested struct %s: name one of its fields "
		     "(%s.FIELD)",
		     ro->name, op, st->ref, path, layout_kind_name(l, f), st->ref);
		return -1;
	}
	if (st->op == RO_LOCK || st->op == RO_UNLOCK) {
		if (f->kind != LK_LOCK || lf->size < 4 || lf->offset % 4) {
			fail(err, errlen, r->source, st->line,
			     "role %s: %s %s: field %s of struct %s is %s (%zu bytes): %s needs %s",
			     ro->name, op, st->ref, path, ob->sname, layout_kind_name(l, f),
			     lf->size, op, step_need(st->op));
			return -1;
		}
		return 0;
	}
	if (lf->size != 8 || lf->offset % 8) {
		fail(err, errlen, r->source, st->line,
		     "role %s: %s %s: field %s of struct %s is %zu bytes at offset %zu: the "
		     "accessor layer models naturally aligned 8-byte words (pc_word) and 4-byte "
		     "locks",
		     ro->name, op, st->ref, path, ob->sname, lf->size, lf->offset);
		return -1;
	}
	if (((st->op == RO_RMW || st->op == RO_ADD) && f->kind != LK_ATOMIC) ||
	    ((st->op == RO_XCHG || st->op == RO_CMPXCHG) && f->kind != LK_ATOMIC &&
	     f->kind != LK_PTR)) {
		fail(err, errlen, r->source, st->line,
		     "role %s: %s %s: field %s of struct %s is %s, not atomic: %s needs %s (a "
		     "plain word or a bit-field cannot take an atomic read-modify-write; mark the "
		     "field atomic in the layout if the kernel's type is atomic)",
		     ro->name, op, st->ref, path, ob->sname, layout_kind_name(l, f), op,
		     step_need(st->op));
		return -1;
	}
	return 0;
}

#define MAX_LOCKS 64

struct lockid {
	int obj;
	size_t off;
};

static int lock_index(struct lockid *ids, int *n, int obj, size_t off)
{
	for (int i = 0; i < *n; i++)
		if (ids[i].obj == obj && ids[i].off == off)
			return i;
	if (*n == MAX_LOCKS)
		return -1;
	ids[*n] = (struct lockid){obj, off};
	return (*n)++;
}

/* Locks: released in the role that takes them, never taken twice, one order for all. */
static int check_locks(const struct recipe *r, char *err, size_t errlen)
{
	struct lockid ids[MAX_LOCKS];
	int line_of[MAX_LOCKS][MAX_LOCKS]; /* [a][b]: a line where b is taken while a is held */
	unsigned char before[MAX_LOCKS][MAX_LOCKS];
	int nids = 0;

	memset(before, 0, sizeof(before));
	memset(line_of, 0, sizeof(line_of));
	for (int i = 0; i < r->nroles; i++) {
		const struct recipe_role *ro = &r->roles[i];
		int held[MAX_LOCKS], nheld = 0, held_line[MAX_LOCKS];

		for (int j = 0; j < ro->nsteps; j++) {
			const struct recipe_step *st = &ro->steps[j];
			int id, k;

			if (st->op != RO_LOCK && st->op != RO_UNLOCK)
				continue;
			id = lock_index(ids, &nids, st->obj, st->offset);
			if (id < 0) {
				fail(err, errlen, r->source, st->line, "more than %d locks",
				     MAX_LOCKS);
				return -1;
			}
			for (k = 0; k < nheld && held[k] != id; k++)
				;
			if (st->op == RO_LOCK) {
				if (k < nheld) {
					fail(
					    err, errlen, r->source, st->line,
					    "role %s: lock %s while holding it (since line %d): it "
					    "would deadlock",
					    ro->name, st->ref, held_line[k]);
					return -1;
				}
				for (int h = 0; h < nheld; h++) {
					before[held[h]][id] = 1;
					if (!line_of[held[h]][id])
						line_of[held[h]][id] = st->line;
				}
				held_line[nheld] = st->line;
				held[nheld++] = id;
			} else {
				if (k == nheld) {
					fail(err, errlen, r->source, st->line,
					     "role %s: unlock %s, which the role does not hold",
					     ro->name, st->ref);
					return -1;
				}
				held[k] = held[nheld - 1];
				held_line[k] = held_line[nheld - 1];
				nheld--;
			}
		}
		if (nheld) {
			fail(err, errlen, r->source, held_line[0],
			     "role %s: ends its operation holding a lock taken here: unlock it in "
			     "the same role",
			     ro->name);
			return -1;
		}
	}
	/* Transitive closure: a lock ordered before itself is a deadlock between roles. */
	for (int k = 0; k < nids; k++)
		for (int i = 0; i < nids; i++)
			for (int j = 0; i != j && before[i][k] && j < nids; j++)
				if (before[k][j] && !before[i][j]) {
					before[i][j] = 1;
					line_of[i][j] = line_of[k][j];
				}
	for (int i = 0; i < nids; i++) {
		for (int j = 0; j < nids; j++) {
			if (i != j && before[i][j] && before[j][i]) {
				fail(err, errlen, r->source,
				     line_of[i][j] > line_of[j][i] ? line_of[i][j] : line_of[j][i],
				     "locks taken in opposite orders (here and at line %d): roles "
				     "could deadlock",
				     line_of[i][j] > line_of[j][i] ? line_of[j][i] : line_of[i][j]);
				return -1;
			}
		}
	}
	return 0;
}

int recipe_bind(struct recipe *r, const struct layout *l, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!l || !l->nstructs) {
		fail(err, errlen, r->source, 1, "no layout to bind to");
		return -1;
	}
	if (!r->nobjects) {
		/* One implicit object, of the layout's first struct and named after it. */
		snprintf(r->objects[0].name, RECIPE_NAME_MAX, "%s", l->structs[0].name);
		r->objects[0].line = 0;
		r->nobjects = 1;
	}
	for (int i = 0; i < r->nobjects; i++) {
		struct recipe_object *ob = &r->objects[i];

		if (!ob->sname[0] || !ob->line)
			snprintf(ob->sname, sizeof(ob->sname), "%s", l->structs[0].name);
		if (!layout_find_struct(l, ob->sname)) {
			fail(err, errlen, r->source, ob->line ? ob->line : 1,
			     "object %s: layout %s (%s) has no struct %s", ob->name, l->name,
			     l->source, ob->sname);
			return -1;
		}
	}
	for (int i = 0; i < r->nroles; i++) {
		struct recipe_role *ro = &r->roles[i];

		for (int j = 0; j < ro->nsteps; j++) {
			struct recipe_step *st = &ro->steps[j];
			const struct recipe_object *ob;
			struct layout_leaf lf;
			const char *path;

			if (st->op == RO_SPIN)
				continue;
			if (resolve(r, l, ro, st, &path, err, errlen))
				return -1;
			ob = &r->objects[st->obj];
			if (!*path || layout_find_leaf(l, ob->sname, path, &lf)) {
				fail(err, errlen, r->source, st->line,
				     "role %s: %s %s: struct %s of layout %s (%s) has no field %s",
				     ro->name, recipe_op_name(st->op), st->ref, ob->sname, l->name,
				     l->source, path);
				return -1;
			}
			if (check_step(r, l, ro, st, ob, path, &lf, err, errlen))
				return -1;
			st->offset = lf.offset;
		}
	}
	return check_locks(r, err, errlen);
}

int recipe_assign(const struct recipe *r, int threads, int *role, char *err, size_t errlen)
{
	long fixed = 0;
	int stars = 0, t = 0;

	if (!r->nshares) {
		/* One role and no threads line: every thread takes it. */
		for (int i = 0; i < threads; i++)
			role[i] = 0;
		return 0;
	}
	for (int i = 0; i < r->nshares; i++) {
		if (r->shares[i].count < 0)
			stars++;
		else
			fixed += r->shares[i].count;
	}
	if (fixed > threads) {
		fail(err, errlen, r->source, r->threads_line,
		     "threads: the fixed counts need %ld threads, the run has %d", fixed, threads);
		return -1;
	}
	if (!stars && fixed < threads) {
		fail(err, errlen, r->source, r->threads_line,
		     "threads: the fixed counts give roles to %ld threads, the run has %d (give "
		     "one role '*')",
		     fixed, threads);
		return -1;
	}
	for (int i = 0, k = 0; i < r->nshares; i++) {
		long n = r->shares[i].count;

		if (n < 0) {
			/* The star roles share the rest; earlier ones get the remainder. */
			long rest = threads - fixed;

			n = rest / stars + (k < rest % stars);
			k++;
		}
		for (long j = 0; j < n && t < threads; j++)
			role[t++] = r->shares[i].role;
	}
	return 0;
}
