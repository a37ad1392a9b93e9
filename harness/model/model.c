// SPDX-License-Identifier: MIT
/*
 * model.c - the coherence model (see model.h and docs/model.md).
 *
 * Virtual CPUs are ucontext coroutines on the calling thread, each looping over
 * run(shared, tstate, 1) of the tracing build. Every traced access enters model_hook(),
 * which first lets the scheduler choose who executes the next access (possibly switching
 * away), and then, when this virtual CPU is chosen, records the access in the MESI
 * simulator right before it really executes. So the simulated order is the execution order.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <ucontext.h>
#include <unistd.h>

#include "csv.h"
#include "commands.h"
#include "measure.h"
#include "model.h"
#include "plan.h"
#include "num.h"
#include "stop.h"
#include "util.h"

#define STACK_SIZE (256 * 1024)
#define MAX_OBJECTS 64
#define NO_PROGRESS_STEPS (1u << 20) /* steps without a finished operation: a stuck wait */
#define RR_OP_VALVE 1024	     /* rr-op: accesses in one operation before it must yield */

const char *const model_interleave_names[MODEL_INTERLEAVE_COUNT] = {"random", "rr-access", "rr-op"};
const char *const model_ev_names[MEV_COUNT] = {"hitm_local",	"hitm_remote", "clean_c2c",
					       "invalidations", "upgrades",    "misses_to_memory"};
const char *const model_csv_cols[MODEL_NCOLS] = {
    "model_hitm_local_per_op",
    "model_hitm_remote_per_op",
    "model_clean_c2c_per_op",
    "model_transfers_per_op",
    "model_invalidations_per_op",
    "model_upgrades_per_op",
    "model_misses_to_memory_per_op",
    "model_accesses_per_op",
    "model_load_hitm_local_per_op",
    "model_load_hitm_remote_per_op",
    "model_rfo_hitm_local_per_op",
    "model_rfo_hitm_remote_per_op",
    "model_transfers_same_l3_per_op",
    "model_transfers_cross_l3_per_op",
    "model_transfers_same_package_per_op",
    "model_transfers_cross_socket_per_op",
};

/* MESI states of one line in one private-cache domain (a core). */
enum { MESI_I, MESI_S, MESI_E, MESI_M };

/* ---- simulator state ---- */

struct lstate {
	uintptr_t addr; /* first byte of the line */
	uint8_t *st;	/* state per domain */
	int owner;	/* domain holding the line E or M, or -1 */
	int nvalid;	/* domains holding a copy */
	int object;	/* object of the first access, -1 for private memory */
	int nparked;	/* vCPUs parked on this line */
};

/* One (address, site, op) seen: its field, its line and what it was charged. */
struct acc {
	uintptr_t addr;
	const char *site;
	int op, used;
	int field, line;
	uint64_t accesses, ev[MEV_COUNT], xfer[PAIR_COUNT];
};

struct vcpu {
	ucontext_t uc;
	void *stack, *ts;
	int dom;
	long ops;	  /* operations completed */
	long op_accesses; /* accesses in the current operation (rr-op) */
	int started, stopped;
	int parked; /* line index this vCPU spins on while parked, or -1 */
};

struct sim {
	const struct scenario *sc;
	void *shared;
	struct model_opts o;
	int T, D;
	struct vcpu *v;
	int *dom_pkg;  /* package of each domain */
	uint8_t *pair; /* D x D pair classes */
	ucontext_t main_uc;
	int cur;
	int *active, nactive;
	uint64_t rng;
	uint64_t steps, progress_step;
	int nfinished, all_done, stuck;

	int nobj;
	struct bench_object objs[MAX_OBJECTS];
	size_t objsize[MAX_OBJECTS];
	struct model_field *fields;
	uintptr_t *fstart; /* absolute first byte of each field */
	int nfields, capfields, nstatic, private_field;
	int *byaddr; /* the static fields sorted by address */

	struct lstate *lines;
	int nlines, caplines;
	int *lmap; /* open addressing: line index + 1, or 0 */
	size_t lcap;

	struct acc *acc;
	size_t acap, nacc;
};

/* The one simulation in progress (the hook is a global). */
static struct sim *cur_sim;

/* ---- small helpers ---- */

/* splitmix64: the scheduler's PRNG. */
static uint64_t rng_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static void *grow(void *p, int *cap, int need, size_t elem)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	if (*cap < need)
		*cap = need;
	p = realloc(p, (size_t)*cap * elem);
	if (!p)
		usage_error("memory", "model", "out of memory");
	return p;
}

void model_opts_default(struct model_opts *o)
{
	*o = (struct model_opts){MODEL_RANDOM, 1, 2000, 200, 64};
}

int model_opt_set(struct model_opts *o, const char *name, const char *value, char *err,
		  size_t errlen)
{
	long v;

	if (!strcmp(name, "interleave")) {
		for (int i = 0; i < MODEL_INTERLEAVE_COUNT; i++) {
			if (!strcmp(value, model_interleave_names[i])) {
				o->interleave = (enum model_interleave)i;
				return 0;
			}
		}
		snprintf(err, errlen, "expected random, rr-access or rr-op");
		return -1;
	}
	if (!strcmp(name, "seed")) {
		uint64_t s;

		if (num_u64(value, &s)) {
			snprintf(err, errlen, "expected an unsigned 64-bit integer");
			return -1;
		}
		o->seed = s;
		return 0;
	}
	if (!strcmp(name, "ops") || !strcmp(name, "warmup")) {
		int ops = name[0] == 'o';

		if (num_long(value, 10, ops, 100000000, &v)) {
			snprintf(err, errlen, "expected an integer in [%d, 100000000]", ops);
			return -1;
		}
		*(ops ? &o->ops : &o->warmup) = v;
		return 0;
	}
	if (!strcmp(name, "line-size")) {
		if (num_long(value, 10, 8, 4096, &v) || (v & (v - 1))) {
			snprintf(err, errlen, "expected a power of two in [8, 4096]");
			return -1;
		}
		o->line_size = (int)v;
		return 0;
	}
	snprintf(err, errlen, "no such model option");
	return -1;
}

/* ---- fields: the objects of the shared state, flattened ---- */

static int add_field(struct sim *s, int obj, const char *path, const char *leaf, long off,
		     long size)
{
	struct model_field *f;
	int id = s->nfields;

	s->fields = grow(s->fields, &s->capfields, id + 1, sizeof(*s->fields));
	s->fstart = realloc(s->fstart, (size_t)s->capfields * sizeof(*s->fstart));
	if (!s->fstart)
		usage_error("memory", "model", "out of memory");
	f = &s->fields[id];
	memset(f, 0, sizeof(*f));
	if (obj >= 0)
		snprintf(f->name, sizeof(f->name), "%.40s%s%.80s", s->objs[obj].name,
			 path[0] == '+' ? "" : ".", path);
	else
		snprintf(f->name, sizeof(f->name), "%.80s", path);
	snprintf(f->leaf, sizeof(f->leaf), "%.63s", leaf);
	f->object = obj;
	f->offset = off;
	f->size = size;
	s->fstart[id] = obj >= 0 ? (uintptr_t)s->objs[obj].base + (uintptr_t)off : 0;
	s->nfields++;
	return id;
}

static void add_struct_fields(struct sim *s, int obj, const struct layout *l,
			      const struct layout_struct *ls, long base, const char *prefix,
			      int depth)
{
	for (int i = 0; i < ls->nfields; i++) {
		const struct layout_field *f = &ls->fields[i];
		char path[128];

		snprintf(path, sizeof(path), "%s%s", prefix, f->name);
		if (f->kind == LK_STRUCT && f->type >= 0 && f->type < l->nstructs && depth < 8) {
			char p2[130];

			snprintf(p2, sizeof(p2), "%s.", path);
			add_struct_fields(s, obj, l, &l->structs[f->type], base + (long)f->offset,
					  p2, depth + 1);
			continue;
		}
		add_field(s, obj, path, f->name, base + (long)f->offset, (long)f->size);
	}
}

static struct sim *sort_sim; /* qsort has no context argument */

static int cmp_byaddr(const void *a, const void *b)
{
	uintptr_t x = sort_sim->fstart[*(const int *)a], y = sort_sim->fstart[*(const int *)b];

	if (x != y)
		return x < y ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

static void build_fields(struct sim *s)
{
	s->private_field = -1;
	for (int i = 0; i < s->nobj; i++) {
		const struct layout_struct *ls =
		    s->objs[i].layout ? layout_find_struct(s->objs[i].layout, s->objs[i].sname)
				      : NULL;

		s->objsize[i] = ls ? ls->size : 0;
		if (ls)
			add_struct_fields(s, i, s->objs[i].layout, ls, 0, "", 0);
	}
	s->nstatic = s->nfields;
	s->byaddr = xcalloc((size_t)s->nstatic + 1, sizeof(int));
	for (int i = 0; i < s->nstatic; i++)
		s->byaddr[i] = i;
	sort_sim = s;
	qsort(s->byaddr, (size_t)s->nstatic, sizeof(int), cmp_byaddr);
	sort_sim = NULL;
}

/* field_at - the field at @a: a layout field, "<object>+0xOFF", or (private). */
static int field_at(struct sim *s, uintptr_t a, unsigned size)
{
	int lo = 0, hi = s->nstatic;
	char path[40];

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (s->fstart[s->byaddr[mid]] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo - 1; i >= 0 && i >= lo - 4; i--) { /* a few back: unions, nesting */
		int f = s->byaddr[i];

		if (a < s->fstart[f] + (uintptr_t)s->fields[f].size)
			return f;
	}
	for (int o = 0; o < s->nobj; o++) {
		uintptr_t base = (uintptr_t)s->objs[o].base;
		long off = (long)(a - base);

		if (a < base || a >= base + s->objsize[o])
			continue;
		for (int f = s->nstatic; f < s->nfields; f++)
			if (s->fields[f].object == o && s->fields[f].offset == off)
				return f;
		snprintf(path, sizeof(path), "+0x%lx", (unsigned long)off);
		return add_field(s, o, path, path, off, size);
	}
	if (s->private_field < 0)
		s->private_field = add_field(s, -1, "(private)", "(private)", 0, 0);
	return s->private_field;
}

/* ---- lines and accesses ---- */

static int line_get(struct sim *s, uintptr_t a, int object)
{
	uintptr_t key = a / (uintptr_t)s->o.line_size;
	size_t h;

	if ((size_t)s->nlines * 2 >= s->lcap) {
		size_t cap = s->lcap ? 2 * s->lcap : 256;
		int *m = xcalloc(cap, sizeof(int));

		for (int i = 0; i < s->nlines; i++) {
			h = mix(s->lines[i].addr / (uintptr_t)s->o.line_size) & (cap - 1);
			while (m[h])
				h = (h + 1) & (cap - 1);
			m[h] = i + 1;
		}
		free(s->lmap);
		s->lmap = m;
		s->lcap = cap;
	}
	h = mix(key) & (s->lcap - 1);
	while (s->lmap[h]) {
		if (s->lines[s->lmap[h] - 1].addr == key * (uintptr_t)s->o.line_size)
			return s->lmap[h] - 1;
		h = (h + 1) & (s->lcap - 1);
	}
	s->lines = grow(s->lines, &s->caplines, s->nlines + 1, sizeof(*s->lines));
	s->lines[s->nlines] = (struct lstate){
	    .addr = key * (uintptr_t)s->o.line_size,
	    .st = xcalloc((size_t)s->D, 1),
	    .owner = -1,
	    .object = object,
	};
	s->lmap[h] = ++s->nlines;
	return s->nlines - 1;
}

static size_t acc_hash(uintptr_t a, const char *site, int op)
{
	return (size_t)mix((uint64_t)a * 31 + (uint64_t)(uintptr_t)site * 7 + (uint64_t)op);
}

static struct acc *acc_get(struct sim *s, uintptr_t a, const char *site, int op, unsigned size)
{
	struct acc *e;
	size_t h;

	if (s->nacc * 2 >= s->acap) {
		size_t cap = s->acap ? 2 * s->acap : 1024;
		struct acc *n = xcalloc(cap, sizeof(*n));

		for (size_t i = 0; i < s->acap; i++) {
			if (!s->acc[i].used)
				continue;
			h = acc_hash(s->acc[i].addr, s->acc[i].site, s->acc[i].op) & (cap - 1);
			while (n[h].used)
				h = (h + 1) & (cap - 1);
			n[h] = s->acc[i];
		}
		free(s->acc);
		s->acc = n;
		s->acap = cap;
	}
	h = acc_hash(a, site, op) & (s->acap - 1);
	while (s->acc[h].used) {
		e = &s->acc[h];
		if (e->addr == a && e->site == site && e->op == op)
			return e;
		h = (h + 1) & (s->acap - 1);
	}
	e = &s->acc[h];
	e->used = 1;
	e->addr = a;
	e->site = site;
	e->op = op;
	e->field = field_at(s, a, size);
	e->line = line_get(s, a, s->fields[e->field].object);
	s->nacc++;
	return e;
}

/* ---- MESI ---- */

/* nearest - the domain holding a copy of @ln that is nearest to @d (lowest on ties). */
static int nearest(const struct sim *s, const struct lstate *ln, int d)
{
	int best = -1;

	for (int i = 0; i < s->D; i++)
		if (i != d && ln->st[i] != MESI_I &&
		    (best < 0 || s->pair[d * s->D + i] < s->pair[d * s->D + best]))
			best = i;
	return best;
}

static int invalidate_others(const struct sim *s, struct lstate *ln, int d)
{
	int n = 0;

	for (int i = 0; i < s->D; i++) {
		if (i != d && ln->st[i] != MESI_I) {
			ln->st[i] = MESI_I;
			n++;
		}
	}
	return n;
}

/* access - domain @d reads or writes @ln; charge the events to @a when @counted. */
static void access_line(struct sim *s, struct lstate *ln, int d, int write, struct acc *a,
			int counted)
{
	uint8_t *st = ln->st;
	int src = -1, ev = -1, inval = 0, upgrade = 0;

	if (!write) {
		if (st[d] != MESI_I)
			return;
		if (ln->owner >= 0) {
			src = ln->owner;
			ev = st[src] == MESI_M
				 ? (s->dom_pkg[src] == s->dom_pkg[d] ? MEV_HITM_LOCAL
								     : MEV_HITM_REMOTE)
				 : MEV_CLEAN_C2C;
			st[src] = MESI_S;
			ln->owner = -1;
			st[d] = MESI_S;
			ln->nvalid++;
		} else if (ln->nvalid) {
			src = nearest(s, ln, d);
			ev = MEV_CLEAN_C2C;
			st[d] = MESI_S;
			ln->nvalid++;
		} else {
			ev = MEV_MISS;
			st[d] = MESI_E;
			ln->owner = d;
			ln->nvalid = 1;
		}
	} else {
		switch (st[d]) {
		case MESI_M:
			return;
		case MESI_E:
			st[d] = MESI_M; /* silent */
			return;
		case MESI_S:
			upgrade = 1;
			break;
		default:
			if (ln->owner >= 0) {
				src = ln->owner;
				ev = st[src] == MESI_M
					 ? (s->dom_pkg[src] == s->dom_pkg[d] ? MEV_HITM_LOCAL
									     : MEV_HITM_REMOTE)
					 : MEV_CLEAN_C2C;
			} else if (ln->nvalid) {
				src = nearest(s, ln, d);
				ev = MEV_CLEAN_C2C;
			} else {
				ev = MEV_MISS;
			}
		}
		inval = invalidate_others(s, ln, d);
		st[d] = MESI_M;
		ln->owner = d;
		ln->nvalid = 1;
	}
	if (!counted)
		return;
	if (ev >= 0)
		a->ev[ev]++;
	if (src >= 0)
		a->xfer[s->pair[d * s->D + src]]++;
	a->ev[MEV_INVAL] += (uint64_t)inval;
	a->ev[MEV_UPGRADE] += (uint64_t)upgrade;
}

/* ---- the scheduler ---- */

/* The runnable vCPUs are s->active: neither stopped nor parked. */
static void deactivate(struct sim *s, int id)
{
	int k = 0;

	for (int i = 0; i < s->nactive; i++)
		if (s->active[i] != id)
			s->active[k++] = s->active[i];
	s->nactive = k;
}

static int pick(struct sim *s)
{
	if (s->o.interleave == MODEL_RANDOM)
		return s->active[(int)(((rng_next(&s->rng) >> 32) * (uint64_t)s->nactive) >> 32)];
	for (int k = 1; k <= s->T; k++) {
		int n = (s->cur + k) % s->T;

		if (!s->v[n].stopped && s->v[n].parked < 0)
			return n;
	}
	return s->cur;
}

static void switch_to(struct sim *s, int n)
{
	int me = s->cur;

	s->cur = n;
	s->v[n].started = 1;
	swapcontext(&s->v[me].uc, &s->v[n].uc);
	/* resumed: whoever chose us set s->cur back to us */
}

/*
 * tick - count a step; give up on everyone when no operation completes for too long, or
 * when the command is asked to stop (lib/stop.h).
 */
static void tick(struct sim *s)
{
	if (++s->steps - s->progress_step > NO_PROGRESS_STEPS || stop_requested) {
		s->stuck = 1; /* a wait that cannot end here: give up on everyone still running */
		swapcontext(&s->v[s->cur].uc, &s->main_uc);
	}
}

/* step - one scheduling decision; returns when the calling virtual CPU is chosen again. */
static void step(struct sim *s)
{
	int n;

	if (!s->nactive) { /* everyone waits on a lock: nothing can ever run again */
		s->stuck = 1;
		swapcontext(&s->v[s->cur].uc, &s->main_uc);
	}
	n = pick(s);
	if (n != s->cur)
		switch_to(s, n);
}

/*
 * park - the calling vCPU spins on a held lock whose line its core holds: every load
 * would hit and change nothing, so it sleeps until someone writes that line.
 */
static void park(struct sim *s, int line)
{
	s->v[s->cur].parked = line;
	s->lines[line].nparked++;
	deactivate(s, s->cur);
	step(s);
}

/* wake - a write to @line: the vCPUs parked on it look again (in id order). */
static void wake(struct sim *s, int line)
{
	for (int i = 0; i < s->T && s->lines[line].nparked; i++) {
		if (s->v[i].parked == line) {
			s->v[i].parked = -1;
			s->lines[line].nparked--;
			s->active[s->nactive++] = i;
		}
	}
}

/*
 * lock_busy - a lock attempt or a wait-loop load (access.h) whose @size bytes at @addr are
 * non-zero: the lock is held, the wait goes on.
 */
static int lock_busy(enum pc_op op, const volatile void *addr, unsigned size)
{
	if (op != PC_OP_WAIT && op != PC_OP_LOCK)
		return 0;
	switch (size) {
	case 1:
		return atomic_load_explicit((_Atomic unsigned char *)addr, memory_order_relaxed) !=
		       0;
	case 2:
		return atomic_load_explicit((_Atomic unsigned short *)addr, memory_order_relaxed) !=
		       0;
	case 4:
		return atomic_load_explicit((pc_lock *)addr, memory_order_relaxed) != 0;
	default:
		return 0;
	}
}

static void model_hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	struct sim *s = cur_sim;
	struct vcpu *v = &s->v[s->cur];
	struct acc *a;
	int counted, write = pc_op_is_write(op);

	tick(s);
	if (s->o.interleave != MODEL_RR_OP || ++v->op_accesses % RR_OP_VALVE == 0 ||
	    lock_busy(op, addr, size))
		step(s);
	a = acc_get(s, (uintptr_t)addr, site, (int)op, size);
	/* the wait loop of a held lock (access.h reports each retry as a PC_OP_WAIT) */
	while (op == PC_OP_WAIT && lock_busy(op, addr, size) &&
	       s->lines[a->line].st[v->dom] != MESI_I) {
		park(s, a->line);
		a = acc_get(s, (uintptr_t)addr, site, (int)op, size); /* others may have grown it */
	}
	/* This virtual CPU executes the access now. */
	counted = v->ops >= s->o.warmup && v->ops < s->o.warmup + s->o.ops;
	if (counted)
		a->accesses++;
	access_line(s, &s->lines[a->line], v->dom, write, a, counted);
	if (write && s->lines[a->line].nparked)
		wake(s, a->line);
}

/* stop - the calling virtual CPU leaves for good, at an operation boundary. */
static void stop(struct sim *s, int id)
{
	s->v[id].stopped = 1;
	deactivate(s, id);
	if (!s->nactive) { /* the last one (or only parked ones are left) */
		swapcontext(&s->v[id].uc, &s->main_uc);
		return; /* not reached */
	}
	switch_to(s, pick(s));
}

static void vcpu_main(int id)
{
	struct sim *s = cur_sim;
	struct vcpu *v = &s->v[id];
	long total = s->o.warmup + s->o.ops;

	for (;;) {
		if (s->all_done) /* everyone has done its operations: stop between two */
			stop(s, id);
		v->op_accesses = 0;
		s->sc->run(s->shared, v->ts, 1);
		v->ops++;
		/* progress: an operation someone still needed (or, at the end, any) */
		if (v->ops <= total || s->all_done)
			s->progress_step = s->steps;
		if (v->ops == total && ++s->nfinished == s->T)
			s->all_done = meas_model_done = 1; /* waits in run() end now */
		tick(s);
		step(s); /* an operation boundary is a scheduling point too */
	}
}

/* ---- results ---- */

static struct sim *cmp_s;

static int line_key_cmp(const struct lstate *a, const struct lstate *b, int ia, int ib)
{
	if ((a->object < 0) != (b->object < 0))
		return a->object < 0 ? 1 : -1;
	if (a->object >= 0) {
		if (a->object != b->object)
			return a->object < b->object ? -1 : 1;
		if (a->addr != b->addr)
			return a->addr < b->addr ? -1 : 1;
	}
	return ia - ib;
}

static int cmp_line_idx(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return line_key_cmp(&cmp_s->lines[a], &cmp_s->lines[b], a, b);
}

static int cmp_attr(const void *x, const void *y)
{
	const struct model_attr *a = x, *b = y;
	int c;

	if (a->line != b->line)
		return a->line - b->line;
	if (a->field != b->field)
		return a->field - b->field;
	if ((c = strcmp(a->site, b->site)))
		return c;
	return (int)a->op - (int)b->op;
}

static void build_result(struct sim *s, struct model_result *r)
{
	int *order = xcalloc((size_t)s->nlines + 1, sizeof(int));
	int *newidx = xcalloc((size_t)s->nlines + 1, sizeof(int));
	uint64_t *laccess = xcalloc((size_t)s->nlines + 1, sizeof(uint64_t));
	int n = 0, npriv = 0, na = 0;
	long L = s->o.line_size;

	r->nobjects = s->nobj;
	r->objects = xcalloc((size_t)s->nobj + 1, sizeof(*r->objects));
	for (int i = 0; i < s->nobj; i++)
		snprintf(r->objects[i], sizeof(r->objects[i]), "%s", s->objs[i].name);
	r->nfields = s->nfields;
	r->fields = xcalloc((size_t)s->nfields + 1, sizeof(*r->fields));
	memcpy(r->fields, s->fields, (size_t)s->nfields * sizeof(*r->fields));

	/* lines accessed in the measured phase, in a stable order */
	for (size_t i = 0; i < s->acap; i++)
		if (s->acc[i].used)
			laccess[s->acc[i].line] += s->acc[i].accesses;
	for (int i = 0; i < s->nlines; i++) {
		newidx[i] = -1;
		if (laccess[i])
			order[n++] = i;
	}
	cmp_s = s;
	qsort(order, (size_t)n, sizeof(int), cmp_line_idx);
	cmp_s = NULL;
	r->nlines = n;
	r->lines = xcalloc((size_t)n + 1, sizeof(*r->lines));
	for (int k = 0; k < n; k++) {
		const struct lstate *ln = &s->lines[order[k]];
		struct model_line *ml = &r->lines[k];

		newidx[order[k]] = k;
		ml->object = ln->object;
		if (ln->object >= 0) {
			ml->offset = (long)(ln->addr - (uintptr_t)s->objs[ln->object].base);
			if (ml->offset >= 0 && ml->offset % L == 0)
				snprintf(ml->name, sizeof(ml->name), "%s line %ld",
					 s->objs[ln->object].name, ml->offset / L);
			else
				snprintf(ml->name, sizeof(ml->name), "%s %+ld",
					 s->objs[ln->object].name, ml->offset);
		} else {
			snprintf(ml->name, sizeof(ml->name), "(private) #%d", ++npriv);
		}
		ml->fields = xcalloc((size_t)s->nfields + 1, sizeof(int));
		for (int f = 0; f < s->nfields; f++) {
			int on = s->fields[f].object >= 0
				     ? s->fstart[f] < ln->addr + (uintptr_t)L &&
					   s->fstart[f] + (uintptr_t)s->fields[f].size > ln->addr
				     : ln->object < 0 && f == s->private_field;

			if (on)
				ml->fields[ml->nfields++] = f;
		}
	}

	/* attributions, merged by (line, field, site name, op) */
	r->attrs = xcalloc(s->nacc + 1, sizeof(*r->attrs));
	for (size_t i = 0; i < s->acap; i++) {
		const struct acc *e = &s->acc[i];
		struct model_attr *a;

		if (!e->used || !e->accesses)
			continue;
		a = &r->attrs[na++];
		a->field = e->field;
		a->line = newidx[e->line];
		snprintf(a->site, sizeof(a->site), "%s", e->site ? e->site : "?");
		a->op = (enum pc_op)e->op;
		a->accesses = e->accesses;
		memcpy(a->ev, e->ev, sizeof(a->ev));
		memcpy(a->xfer, e->xfer, sizeof(a->xfer));
	}
	qsort(r->attrs, (size_t)na, sizeof(*r->attrs), cmp_attr);
	r->nattrs = 0;
	for (int i = 0; i < na; i++) {
		struct model_attr *a = &r->attrs[i],
				  *last = r->nattrs ? &r->attrs[r->nattrs - 1] : NULL;

		if (last && !cmp_attr(last, a)) {
			last->accesses += a->accesses;
			for (int e = 0; e < MEV_COUNT; e++)
				last->ev[e] += a->ev[e];
			for (int c = 0; c < PAIR_COUNT; c++)
				last->xfer[c] += a->xfer[c];
			continue;
		}
		r->attrs[r->nattrs++] = *a;
	}
	for (int i = 0; i < r->nattrs; i++) {
		const struct model_attr *a = &r->attrs[i];
		struct model_line *ml = &r->lines[a->line];

		r->accesses += a->accesses;
		ml->accesses += a->accesses;
		if (!pc_op_is_write((enum pc_op)a->op)) {
			r->load_hitm[0] += a->ev[MEV_HITM_LOCAL];
			r->load_hitm[1] += a->ev[MEV_HITM_REMOTE];
		}
		for (int e = 0; e < MEV_COUNT; e++) {
			r->ev[e] += a->ev[e];
			ml->ev[e] += a->ev[e];
		}
		for (int c = 0; c < PAIR_COUNT; c++) {
			r->xfer[c] += a->xfer[c];
			ml->xfer[c] += a->xfer[c];
		}
	}
	free(order);
	free(newidx);
	free(laccess);
}

void model_result_free(struct model_result *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nlines; i++)
		free(r->lines[i].fields);
	free(r->lines);
	free(r->fields);
	free(r->attrs);
	free(r->objects);
	memset(r, 0, sizeof(*r));
}

/* ---- one run ---- */

static void sim_free(struct sim *s)
{
	for (int i = 0; i < s->T; i++)
		free(s->v[i].stack);
	for (int i = 0; i < s->nlines; i++)
		free(s->lines[i].st);
	free(s->v);
	free(s->dom_pkg);
	free(s->pair);
	free(s->active);
	free(s->fields);
	free(s->fstart);
	free(s->byaddr);
	free(s->lines);
	free(s->lmap);
	free(s->acc);
}

/* domains - one private-cache domain per core (SMT siblings share it). */
static int domains(struct sim *s, const struct topo *t, const int *pus, char *err, size_t errlen)
{
	int *core = xcalloc((size_t)s->T, sizeof(int)), *rep = xcalloc((size_t)s->T, sizeof(int));

	s->dom_pkg = xcalloc((size_t)s->T, sizeof(int));
	for (int i = 0; i < s->T; i++) {
		struct topo_pu pu;
		int key, d;

		if (topo_pu_info(t, pus[i], &pu)) {
			snprintf(err, errlen, "PU %d is not in topology %s", pus[i],
				 topo_source(t));
			free(core);
			free(rep);
			return -1;
		}
		key = pu.core >= 0 ? pu.core : -1 - pu.os;
		for (d = 0; d < s->D && core[d] != key; d++)
			;
		if (d == s->D) {
			core[d] = key;
			rep[d] = pus[i];
			s->dom_pkg[d] = pu.package;
			s->D++;
		}
		s->v[i].dom = d;
	}
	s->pair = xcalloc((size_t)s->D * (size_t)s->D, 1);
	for (int a = 0; a < s->D; a++)
		for (int b = 0; b < s->D; b++)
			s->pair[a * s->D + b] =
			    a == b ? PAIR_SAME_PU : (uint8_t)topo_pair_class(t, rep[a], rep[b]);
	free(core);
	free(rep);
	return 0;
}

/* vcpu_init - the coroutine of virtual CPU @i (getcontext kept out of model_run's frame). */
static void vcpu_init(struct sim *s, int i)
{
	struct vcpu *v = &s->v[i];

	v->stack = xmalloc(STACK_SIZE);
	getcontext(&v->uc);
	v->uc.uc_stack.ss_sp = v->stack;
	v->uc.uc_stack.ss_size = STACK_SIZE;
	v->uc.uc_link = &s->main_uc;
	makecontext(&v->uc, (void (*)(void))vcpu_main, 1, i);
	v->parked = -1;
	s->active[s->nactive++] = i;
}

int model_run(const struct scenario *traced, const struct bench_cfg *cfg, const struct topo *t,
	      const int *pus, int threads, const struct model_opts *o, struct model_result *out)
{
	void (*saved_hook)(enum pc_op, const volatile void *, unsigned, const char *) =
	    pc_trace_hook;
	struct sim *s = xcalloc(1, sizeof(*s));
	char err[256] = "";
	int abandoned = 0;

	memset(out, 0, sizeof(*out));
	out->threads = threads;
	out->line_size = o->line_size;
	s->sc = traced;
	s->o = *o;
	s->T = threads;
	s->rng = o->seed;
	s->v = xcalloc((size_t)threads, sizeof(*s->v));
	s->active = xcalloc((size_t)threads, sizeof(int));
	if (threads < 1 || domains(s, t, pus, err, sizeof(err)))
		goto fail;
	out->domains = s->D;

	/* Un-instrumented: setup, per-thread setup, the object table. */
	pc_trace_hook = NULL;
	s->shared = traced->setup(cfg, err, sizeof(err));
	if (!s->shared)
		goto fail;
	for (int i = 0; i < threads; i++) {
		s->v[i].ts = traced->thread_setup(s->shared, i);
		if (!s->v[i].ts) {
			snprintf(err, sizeof(err), "thread %d: thread setup failed", i);
			goto teardown;
		}
	}
	s->nobj = traced->objects ? traced->objects(s->shared, s->objs, MAX_OBJECTS) : 0;
	build_fields(s);

	for (int i = 0; i < threads; i++)
		vcpu_init(s, i);
	cur_sim = s;
	s->cur = threads - 1;
	s->cur = pick(s);
	s->v[s->cur].started = 1;
	pc_trace_hook = model_hook;
	meas_model_done = 0;
	swapcontext(&s->main_uc, &s->v[s->cur].uc);
	meas_model_done = 0;
	pc_trace_hook = NULL;
	cur_sim = NULL;

	for (int i = 0; i < threads; i++)
		abandoned += s->v[i].started && !s->v[i].stopped;
	if (!s->all_done && stop_requested) {
		snprintf(err, sizeof(err), "interrupted");
		goto teardown;
	}
	if (!s->all_done) {
		snprintf(err, sizeof(err),
			 "no virtual CPU short of its operations completed one in %u steps (a "
			 "wait that cannot end in the model?)",
			 NO_PROGRESS_STEPS);
		goto teardown;
	}
	out->ok = 1;
	out->ops = (uint64_t)threads * (uint64_t)o->ops;
	out->steps = s->steps;
	if (abandoned)
		snprintf(out->reason, sizeof(out->reason),
			 "%d virtual CPUs waited forever after the measured operations and were "
			 "abandoned",
			 abandoned);
	build_result(s, out);

teardown:
	/*
	 * An abandoned vCPU may be inside an operation: its thread_teardown (which may touch
	 * shared state) is not run, only its block (bench_alloc'd, as every scenario's) freed.
	 */
	for (int i = 0; i < threads; i++) {
		if (!s->v[i].ts)
			continue;
		if (!s->v[i].started || s->v[i].stopped)
			traced->thread_teardown(s->shared, s->v[i].ts);
		else
			bench_free(s->v[i].ts);
	}
	traced->teardown(s->shared);
fail:
	if (!out->ok)
		snprintf(out->reason, sizeof(out->reason), "%s", err[0] ? err : "failed");
	pc_trace_hook = saved_hook;
	sim_free(s);
	free(s);
	return out->ok ? 0 : -1;
}

/* ---- output ---- */

double model_per_op(const struct model_result *r, enum model_ev e)
{
	return r->ops ? (double)r->ev[e] / (double)r->ops : 0;
}

double model_transfers_per_op(const struct model_result *r)
{
	return model_per_op(r, MEV_HITM_LOCAL) + model_per_op(r, MEV_HITM_REMOTE) +
	       model_per_op(r, MEV_CLEAN_C2C);
}

void model_csv_values(const struct model_result *r, char vals[MODEL_NCOLS][40])
{
	static const enum topo_pair cls[4] = {PAIR_SAME_L3, PAIR_CROSS_L3, PAIR_SAME_PACKAGE,
					      PAIR_CROSS_SOCKET};
	double ops = r->ops ? (double)r->ops : 1, v[MODEL_NCOLS];

	if (!r->ok) {
		for (int i = 0; i < MODEL_NCOLS; i++)
			vals[i][0] = '\0';
		return;
	}
	v[0] = (double)r->ev[MEV_HITM_LOCAL] / ops;
	v[1] = (double)r->ev[MEV_HITM_REMOTE] / ops;
	v[2] = (double)r->ev[MEV_CLEAN_C2C] / ops;
	v[3] =
	    (double)(r->ev[MEV_HITM_LOCAL] + r->ev[MEV_HITM_REMOTE] + r->ev[MEV_CLEAN_C2C]) / ops;
	v[4] = (double)r->ev[MEV_INVAL] / ops;
	v[5] = (double)r->ev[MEV_UPGRADE] / ops;
	v[6] = (double)r->ev[MEV_MISS] / ops;
	v[7] = (double)r->accesses / ops;
	v[8] = (double)r->load_hitm[0] / ops;
	v[9] = (double)r->load_hitm[1] / ops;
	v[10] = (double)(r->ev[MEV_HITM_LOCAL] - r->load_hitm[0]) / ops;
	v[11] = (double)(r->ev[MEV_HITM_REMOTE] - r->load_hitm[1]) / ops;
	for (int i = 0; i < 4; i++)
		v[12 + i] = (double)r->xfer[cls[i]] / ops;
	for (int i = 0; i < MODEL_NCOLS; i++)
		fmt_double(vals[i], sizeof(vals[i]), v[i]);
}

static void num(FILE *out, uint64_t n, uint64_t ops)
{
	if (n)
		fprintf(out, " %9.4f", (double)n / (double)ops);
	else
		fprintf(out, " %9s", "-");
}

static void ev_cells(FILE *out, const uint64_t *ev, uint64_t accesses, uint64_t ops)
{
	num(out, accesses, ops);
	num(out, ev[MEV_HITM_LOCAL], ops);
	num(out, ev[MEV_HITM_REMOTE], ops);
	num(out, ev[MEV_CLEAN_C2C], ops);
	num(out, ev[MEV_INVAL], ops);
	num(out, ev[MEV_UPGRADE], ops);
	num(out, ev[MEV_MISS], ops);
	fputc('\n', out);
}

static uint64_t line_xfers(const struct model_line *l)
{
	return l->ev[MEV_HITM_LOCAL] + l->ev[MEV_HITM_REMOTE] + l->ev[MEV_CLEAN_C2C];
}

static const struct model_result *cmp_r;

static int cmp_contended(const void *x, const void *y)
{
	const struct model_line *a = &cmp_r->lines[*(const int *)x],
				*b = &cmp_r->lines[*(const int *)y];
	uint64_t ta = line_xfers(a), tb = line_xfers(b);

	if (ta != tb)
		return ta > tb ? -1 : 1;
	ta = a->ev[MEV_INVAL] + a->ev[MEV_UPGRADE];
	tb = b->ev[MEV_INVAL] + b->ev[MEV_UPGRADE];
	if (ta != tb)
		return ta > tb ? -1 : 1;
	return *(const int *)x - *(const int *)y;
}

/* label_width - the widest field or site label of line @li, at least 50 columns. */
static int label_width(const struct model_result *r, int li)
{
	const struct model_line *l = &r->lines[li];
	int w = 50;

	for (int j = 0; j < l->nfields; j++) {
		const struct model_field *f = &r->fields[l->fields[j]];
		int n = 9 + (int)strlen(f->name);

		w = n > w ? n : w;
	}
	for (int a = 0; a < r->nattrs; a++) {
		const struct model_attr *at = &r->attrs[a];
		int n;

		if (at->line != li)
			continue;
		n = 12 + (int)(strlen(at->site) + strlen(r->fields[at->field].leaf) +
			       strlen(pc_op_name(at->op)));
		w = n > w ? n : w;
	}
	return w;
}

void model_print_lines(FILE *out, const struct model_result *r, int max)
{
	int *idx = xcalloc((size_t)r->nlines + 1, sizeof(int)), n = 0;
	const char *hdr = "%9s %9s %9s %9s %9s %9s %9s\n";

	for (int i = 0; i < r->nlines; i++)
		if (line_xfers(&r->lines[i]) || r->lines[i].ev[MEV_INVAL] ||
		    r->lines[i].ev[MEV_UPGRADE])
			idx[n++] = i;
	cmp_r = r;
	qsort(idx, (size_t)n, sizeof(int), cmp_contended);
	cmp_r = NULL;
	fprintf(out,
		"shared cache lines: %d contended of %d accessed (%d-byte lines; per operation)\n",
		n, r->nlines, r->line_size);
	for (int k = 0; k < n && (max < 0 || k < max); k++) {
		const struct model_line *l = &r->lines[idx[k]];
		int w = label_width(r, idx[k]);

		fprintf(out, "\n#%d %s", k + 1, l->name);
		if (l->object >= 0)
			fprintf(out, " (+0x%lx..+0x%lx)", (unsigned long)l->offset,
				(unsigned long)(l->offset + r->line_size - 1));
		fprintf(out, ": transfers/op %.4f", (double)line_xfers(l) / (double)r->ops);
		for (int c = PAIR_SAME_L3; c < PAIR_COUNT; c++)
			if (l->xfer[c])
				fprintf(out, ", %s %.4f", topo_pair_names[c],
					(double)l->xfer[c] / (double)r->ops);
		fprintf(out, "\n  %-*s", w, "offset  field / site:field op");
		fprintf(out, hdr, "accesses", "hitm_loc", "hitm_rem", "clean", "inval", "upgrades",
			"memory");
		fprintf(out, "  %-*s", w, "        line total");
		ev_cells(out, l->ev, l->accesses, r->ops);
		for (int j = 0; j < l->nfields; j++) {
			const struct model_field *f = &r->fields[l->fields[j]];
			uint64_t ev[MEV_COUNT] = {0}, acc = 0;
			char lab[256];

			for (int a = 0; a < r->nattrs; a++) {
				if (r->attrs[a].line != idx[k] || r->attrs[a].field != l->fields[j])
					continue;
				acc += r->attrs[a].accesses;
				for (int e = 0; e < MEV_COUNT; e++)
					ev[e] += r->attrs[a].ev[e];
			}
			if (f->object >= 0)
				snprintf(lab, sizeof(lab), "+0x%-5lx %s", (unsigned long)f->offset,
					 f->name);
			else
				snprintf(lab, sizeof(lab), "%-8s%s", "", f->name);
			fprintf(out, "  %-*s", w, lab);
			ev_cells(out, ev, acc, r->ops);
			for (int a = 0; a < r->nattrs; a++) {
				const struct model_attr *at = &r->attrs[a];

				if (at->line != idx[k] || at->field != l->fields[j])
					continue;
				snprintf(lab, sizeof(lab), "%10s%s:%s %s", "", at->site, f->leaf,
					 pc_op_name(at->op));
				fprintf(out, "  %-*s", w, lab);
				ev_cells(out, at->ev, at->accesses, r->ops);
			}
		}
	}
	if (max >= 0 && n > max)
		fprintf(out, "\n(%d more contended lines: --lines all)\n", n - max);
	free(idx);
}

/* ---- pcbench model ---- */

#define MAX_COUNTS 256
#define MAX_PARAMS 64

struct mfam {
	const struct scenario *sc;
	const struct bench_preset *preset;
	const struct bench_workload *wl;
	struct family f; /* placement only (plan.h's family_place) */
	struct model_result r;
	int done;
};

enum { O_TOPO = OPT_LONG, O_CSV, O_SEED, O_INTERLEAVE, O_OPS, O_WARMUP, O_LINE, O_LINES };

static const struct opt model_opts[] = {
    {"scenario", 's', "LIST", "scenarios (default: all)"},
    {"preset", 'p', "LIST", "presets (default: all of each scenario)"},
    {"workload", 'w', "LIST", "workloads (default: all)"},
    {"threads", 't', "LIST", "virtual CPUs, e.g. 2 | 2,8 | 1-4 | max (default: 2,8)"},
    {"placement", 'P', "NAME", "a policy or an hwloc location (default: scatter):"},
    {"topology", O_TOPO, "SPEC", "host (default) | FILE.xml | synthetic:STRING"},
    {"param", 'D', "NAME=VALUE", "set one scenario parameter (repeatable; VALUE may hold spaces)"},
    {"seed", O_SEED, "N", "seed of the random interleaving (default 1)"},
    {"interleave", O_INTERLEAVE, "MODE",
     "random (default: a seeded random virtual CPU executes\n"
     "each next access) | rr-access (lockstep, one access\n"
     "each) | rr-op (whole operations in turn: a lower bound)"},
    {"ops", O_OPS, "N", "measured operations per virtual CPU (default 2000)"},
    {"warmup", O_WARMUP, "N", "operations per virtual CPU before those (default 200)"},
    {"line-size", O_LINE, "BYTES",
     "coherence granule (default 64; 128 models the adjacent-\n"
     "line prefetcher pairing lines)"},
    {"lines", O_LINES, "N|all", "shared-cache-line blocks per family (default 10; 0: none)"},
    {"out", 'o', "DIR", "write DIR/model.csv (DIR is created; must not hold one)"},
    {"csv", O_CSV, "FILE", "write the CSV here (appends when the header matches)"},
    {"quiet", 'q', NULL, "no tables"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};

const struct cmd_help model_help = {
    .name = "model",
    .synopsis = "usage: pcbench model [options]\n",
    .about = "Predicts cache-line transfers and HITM per operation with a MESI model: runs the\n"
	     "tracing build of each scenario on virtual CPUs interleaved per access, on any\n"
	     "topology (nothing is measured or bound), and charges every event to the struct\n"
	     "field and the code site that caused it.\n",
    .opts = model_opts,
    .opt_more = selection_more,
    .after = "Same options, same output, byte for byte. Exit status: 0 ok, 1 a family failed,\n"
	     "2 bad usage, 4 everything skipped (placement does not fit the topology).\n"
	     "\n"
	     "Example:\n"
	     "  pcbench model -s page_counter -w stocked -t 2,8 -P scatter --topology \\\n"
	     "      'synthetic:pack:2 l3:1 group:4 [numa] l2:14 core:1 "
	     "pu:2(indexes=core:package)'\n",
};

struct mopts {
	struct selection sel;
	const char *out, *csv;
	int lines, quiet;
	struct model_opts mo;
};

static void parse_model_options(int argc, char **argv, struct mopts *o)
{
	struct opt_parser op;
	char err[256];
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->sel.threads = "2,8";
	o->sel.placement = "scatter";
	o->sel.topology = "host";
	o->lines = 10;
	model_opts_default(&o->mo);
	opt_init(&op, &model_help);
	while ((c = opt_next(&op, argc, argv)) != -1) {
		const char *name = NULL;

		if (selection_option(&o->sel, c, optarg))
			continue;
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case O_TOPO:
			o->sel.topology = optarg;
			break;
		case O_CSV:
			o->csv = optarg;
			break;
		case O_SEED:
			name = "seed";
			break;
		case O_INTERLEAVE:
			name = "interleave";
			break;
		case O_OPS:
			name = "ops";
			break;
		case O_WARMUP:
			name = "warmup";
			break;
		case O_LINE:
			name = "line-size";
			break;
		case O_LINES:
			if (!strcmp(optarg, "all"))
				o->lines = -1;
			else if (num_long(optarg, 10, 0, INT_MAX, &v))
				usage_error("--lines", optarg, "expected a count or all");
			else
				o->lines = (int)v;
			break;
		}
		if (name && model_opt_set(&o->mo, name, optarg, err, sizeof(err))) {
			char opt[32];

			snprintf(opt, sizeof(opt), "--%s", name);
			usage_error(opt, optarg, "%s", err);
		}
	}
	if (optind < argc)
		usage_error("argument", argv[optind], "unexpected (see model --help)");
}

/* preset_width - the preset column: the longest preset name of the scenario. */
static int preset_width(const struct scenario *sc)
{
	int w = 12;

	for (int p = 0; sc->presets[p].name; p++)
		if ((int)strlen(sc->presets[p].name) > w)
			w = (int)strlen(sc->presets[p].name);
	return w;
}

static void print_table_header(const struct mfam *f, const struct mopts *o)
{
	printf("\n%s  workload=%s  placement=%s  threads=%d  (model, per operation: %s "
	       "interleaving",
	       f->sc->name, f->wl->name, f->f.placement, f->f.threads,
	       model_interleave_names[o->mo.interleave]);
	if (o->mo.interleave == MODEL_RANDOM)
		printf(" seed %llu", (unsigned long long)o->mo.seed);
	printf(", %ld ops/vCPU after %ld, %d-byte lines)\n", o->mo.ops, o->mo.warmup,
	       o->mo.line_size);
	printf("%-*s %10s %11s %10s %10s %10s %9s %10s\n", preset_width(f->sc), "preset",
	       "hitm_local", "hitm_remote", "clean_c2c", "transfers", "invalidate", "upgrades",
	       "to_memory");
}

static void print_row(const struct mfam *f)
{
	const struct model_result *r = &f->r;

	printf("%-*s", preset_width(f->sc), f->preset->name);
	if (f->f.skip[0]) {
		printf(" skipped: %s\n", f->f.skip);
		return;
	}
	if (!r->ok) {
		printf(" error: %s\n", r->reason);
		return;
	}
	printf(" %10.4f %11.4f %10.4f %10.4f %10.4f %9.4f %10.4f\n",
	       model_per_op(r, MEV_HITM_LOCAL), model_per_op(r, MEV_HITM_REMOTE),
	       model_per_op(r, MEV_CLEAN_C2C), model_transfers_per_op(r),
	       model_per_op(r, MEV_INVAL), model_per_op(r, MEV_UPGRADE), model_per_op(r, MEV_MISS));
}

static const char *const fixed_cols[] = {
    "scenario",	 "preset",	 "layout",	    "workload",		"threads",
    "placement", "cpus",	 "topology_fp",	    "model_interleave", "model_seed",
    "model_ops", "model_warmup", "model_line_size",
};
#define NFIXED (int)(sizeof(fixed_cols) / sizeof(fixed_cols[0]))

struct csv_out {
	struct csv_writer *w[2];
	const char *cols[NFIXED + MODEL_NCOLS + 2 + MAX_PARAMS];
	const char *param_names[MAX_PARAMS];
	int ncols, nparam;
	const char *made_dir; /* -o DIR when this run created it */
};

static void open_csv(struct csv_out *c, const struct mopts *o, const struct scenario *const *table,
		     char **scn)
{
	char err[PATH_MAX + 256], path[PATH_MAX + 16];

	for (int i = 0; i < NFIXED; i++)
		c->cols[c->ncols++] = fixed_cols[i];
	for (int i = 0; i < MODEL_NCOLS; i++)
		c->cols[c->ncols++] = model_csv_cols[i];
	c->cols[c->ncols++] = "status";
	c->cols[c->ncols++] = "reason";
	for (int s = 0; table[s]; s++) {
		if (!in_list(scn, table[s]->name))
			continue;
		for (int j = 0; table[s]->params[j].name; j++) {
			const char *n = table[s]->params[j].name;
			int dup = !strcmp(n, "layout");

			for (int k = 0; k < c->nparam; k++)
				dup |= !strcmp(c->param_names[k], n);
			if (dup || c->nparam == MAX_PARAMS)
				continue;
			c->param_names[c->nparam++] = n;
			char *col = xmalloc(strlen(n) + 7);

			sprintf(col, "param_%s", n);
			c->cols[c->ncols++] = col;
		}
	}
	/* Checked before anything is created: a refused run leaves no trace. */
	if (o->csv && csv_check_new(o->csv, err, sizeof(err)))
		usage_error("--csv", o->csv, "%s", err);
	/* An existing --csv file is validated whole (opening it creates nothing). */
	if (o->csv && !access(o->csv, F_OK) &&
	    !(c->w[1] = csv_create(o->csv, c->cols, c->ncols, 1, err, sizeof(err))))
		usage_error("--csv", o->csv, "%s", err);
	if (o->out) {
		snprintf(path, sizeof(path), "%s/model.csv", o->out);
		if (o->csv && csv_same_file(o->csv, path))
			usage_error("--csv", o->csv, "is this run's own model.csv");
		if (!mkdir(o->out, 0755))
			c->made_dir = o->out;
		else if (errno != EEXIST)
			usage_error("--out", o->out, "%s", strerror(errno));
		if (!(c->w[0] = csv_create(path, c->cols, c->ncols, 0, err, sizeof(err))))
			usage_error("--out", o->out, "%s", err);
	}
	if (o->csv && !c->w[1] &&
	    !(c->w[1] = csv_create(o->csv, c->cols, c->ncols, 1, err, sizeof(err))))
		usage_error("--csv", o->csv, "%s", err);
}

static int write_csv_row(struct csv_out *c, const struct mfam *f, const struct mopts *o,
			 const char *fp)
{
	char num[6][40], mv[MODEL_NCOLS][40];
	const char *v[NFIXED + MODEL_NCOLS + 2 + MAX_PARAMS] = {0};
	int k = 0, ret = 0;
	int ok = !f->f.skip[0] && f->r.ok;

	snprintf(num[0], 40, "%d", f->f.threads);
	snprintf(num[1], 40, "%llu", (unsigned long long)o->mo.seed);
	snprintf(num[2], 40, "%ld", o->mo.ops);
	snprintf(num[3], 40, "%ld", o->mo.warmup);
	snprintf(num[4], 40, "%d", o->mo.line_size);
	v[k++] = f->sc->name;
	v[k++] = f->preset->name;
	v[k++] = f->f.cfg ? cfg_layout_name(f->f.cfg) : "";
	v[k++] = f->wl->name;
	v[k++] = num[0];
	v[k++] = f->f.placement;
	v[k++] = f->f.cpus ? f->f.cpus : "";
	v[k++] = fp;
	v[k++] = model_interleave_names[o->mo.interleave];
	v[k++] = o->mo.interleave == MODEL_RANDOM ? num[1] : "";
	v[k++] = num[2];
	v[k++] = num[3];
	v[k++] = num[4];
	if (ok)
		model_csv_values(&f->r, mv);
	for (int i = 0; i < MODEL_NCOLS; i++)
		v[k++] = ok ? mv[i] : "";
	v[k++] = f->f.skip[0] ? "skipped" : f->r.ok ? "ok" : "error";
	v[k++] = f->f.skip[0] ? f->f.skip : f->r.reason;
	for (int i = 0; i < c->nparam; i++, k++)
		for (int j = 0; f->sc->params[j].name; j++)
			if (!strcmp(f->sc->params[j].name, c->param_names[i]))
				v[k] = cfg_value(f->f.cfg, j);
	for (int i = 0; i < 2; i++) {
		if (c->w[i] && csv_write_row(c->w[i], v)) {
			fprintf(stderr, "pcbench: model: write: %s: %s\n", csv_path(c->w[i]),
				strerror(errno));
			ret = -1;
		}
	}
	return ret;
}

int model_cli(const struct scenario *const *table, int argc, char **argv)
{
	struct mopts o;
	struct csv_out csv = {0};
	struct mfam *fams = NULL;
	int nfams = 0, counts[MAX_COUNTS], ncounts, ok = 0, errors = 0, write_failed = 0, group = 0;
	char err[512], fp[17];
	char **scn, **pre, **wls;
	struct topo *topo;

	parse_model_options(argc, argv, &o);
	scn = o.sel.scenarios ? split_list(o.sel.scenarios) : NULL;
	pre = o.sel.presets ? split_list(o.sel.presets) : NULL;
	wls = o.sel.workloads ? split_list(o.sel.workloads) : NULL;
	selection_check(table, &o.sel, scn, pre, wls);
	topo = topo_load(o.sel.topology, err, sizeof(err));
	if (!topo)
		usage_error("--topology", o.sel.topology, "%s", err);
	topo_fingerprint(topo, fp);
	ncounts =
	    parse_threads(o.sel.threads, topo_npus(topo), counts, MAX_COUNTS, err, sizeof(err));
	if (ncounts < 0)
		usage_error("--threads", o.sel.threads, "%s", err);

	/* families: scenario, workload, threads, preset (one table per first three) */
	for (int s = 0; table[s]; s++) {
		const struct scenario *sc = table[s];

		if (!in_list(scn, sc->name))
			continue;
		for (int w = 0; sc->workloads[w].name; w++) {
			if (!in_list(wls, sc->workloads[w].name))
				continue;
			for (int t = 0; t < ncounts; t++) {
				for (int p = 0; sc->presets[p].name; p++) {
					struct mfam m = {.sc = sc,
							 .preset = &sc->presets[p],
							 .wl = &sc->workloads[w]};
					char name[256];

					if (!in_list(pre, sc->presets[p].name))
						continue;
					snprintf(name, sizeof(name),
						 "%s/preset:%s/workload:%s/threads:%d", sc->name,
						 m.preset->name, m.wl->name, counts[t]);
					m.f.sc = sc;
					m.f.preset = m.preset;
					m.f.wl = m.wl;
					m.f.placement = o.sel.placement;
					m.f.threads = counts[t];
					m.f.cfg =
					    cfg_new(sc, m.preset, m.wl, counts[t], o.sel.params,
						    o.sel.nparams, err, sizeof(err));
					if (!m.f.cfg)
						usage_error("configuration", name, "%s", err);
					if (family_place(&m.f, topo, err, sizeof(err)))
						usage_error("--placement", o.sel.placement, "%s",
							    err);
					fams = realloc(fams, (size_t)(nfams + 1) * sizeof(*fams));
					if (!fams)
						usage_error("memory", "families", "out of memory");
					fams[nfams++] = m;
				}
			}
		}
	}
	if (!nfams)
		usage_error("selection", "", "selects nothing to model");
	open_csv(&csv, &o, table, scn);
	stop_install(STOP_FLAG, 1);

	for (int i = 0; i < nfams && !stop_requested; i++) {
		struct mfam *f = &fams[i];
		int first = !i || fams[i - 1].sc != f->sc || fams[i - 1].wl != f->wl ||
			    fams[i - 1].f.threads != f->f.threads;
		int last = i + 1 == nfams || fams[i + 1].sc != f->sc || fams[i + 1].wl != f->wl ||
			   fams[i + 1].f.threads != f->f.threads;

		if (!f->f.skip[0]) {
			model_run(f->sc, f->f.cfg, topo, f->f.pus, f->f.threads, &o.mo, &f->r);
			if (stop_requested) /* cut short: no row for it */
				break;
			ok += f->r.ok;
			errors += !f->r.ok;
		}
		if (write_csv_row(&csv, f, &o, fp))
			write_failed = 1;
		if (o.quiet)
			continue;
		if (first) {
			group = i;
			print_table_header(f, &o);
		}
		print_row(f);
		if (!last || !o.lines)
			continue;
		/* the shared-cache-line view of every preset of this table */
		for (int k = group; k <= i; k++) {
			if (fams[k].f.skip[0] || !fams[k].r.ok)
				continue;
			printf("\n--- %s/%s/%s threads=%d placement=%s cpus=%s ---\n",
			       fams[k].sc->name, fams[k].wl->name, fams[k].preset->name,
			       fams[k].f.threads, fams[k].f.placement, fams[k].f.cpus);
			model_print_lines(stdout, &fams[k].r, o.lines);
		}
	}
	for (int i = 0; i < 2; i++)
		if (csv_close_or_remove(csv.w[i]))
			write_failed = 1;
	if (csv.made_dir)
		rmdir(csv.made_dir); /* only when empty: an interrupted run's only trace */
	if (stop_requested)
		fprintf(stderr, "pcbench: model: interrupted (%s): the rows written are whole\n",
			strsignal(stop_requested));
	for (int i = 0; i < nfams; i++) {
		model_result_free(&fams[i].r);
		cfg_free(fams[i].f.cfg);
		free(fams[i].f.pus);
		free(fams[i].f.cpus);
	}
	for (int i = NFIXED + MODEL_NCOLS + 2; i < csv.ncols; i++)
		free((char *)csv.cols[i]);
	free(fams);
	free(scn);
	free(pre);
	free(wls);
	topo_free(topo);
	if (stop_requested)
		return 3;
	if (errors || write_failed)
		return 1;
	return ok ? 0 : 4;
}

/* The tracing build's table; weak, so that programs without it still link. */
extern const struct scenario *const all_scenarios_traced[] __attribute__((weak));

int model_main(int argc, char **argv)
{
	if (!all_scenarios_traced) {
		fprintf(stderr, "pcbench: model: this program was linked without the tracing build "
				"of the scenarios\n");
		return 2;
	}
	return model_cli(all_scenarios_traced, argc, argv);
}
