// SPDX-License-Identifier: MIT
/*
 * layout_suggest_hitm.c - `layout suggest --hitm RUN`: the per-field loads and stores per
 * CPU that `hitm report` maps from a `hitm record` run (hitm_map.c), written as a probe
 * recipe, so that the suggestion is traced and modelled as with --recipe. The rule (also
 * docs/layouts.md, "Accesses from a hitm run"): every CPU that sampled an access to the
 * target struct is a role of one thread; its steps per operation are the sampled fields, each
 * load and store in proportion to its samples (the most sampled (CPU, field, op) of the run
 * gets SG_HITM_STEPS steps, every other sampled one round(SG_HITM_STEPS x its share), at
 * least 1); a store is `store`, `add` on an atomic field, `lock`/`unlock` on a lock.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitm.h"
#include "layout_suggest.h"
#include "outfile.h"
#include "recipe.h"
#include "strbuf.h"
#include "util.h"

#define SG_HITM_STEPS 16

/* One located sample of a struct's field: whose, where, what. */
struct hs {
	int cpu, tid, obj; /* obj: index into the collection's names */
	const struct layout_leaf *leaf;
	const struct hitm_object *o;
	int store, hitm;
};

struct collect {
	struct hs *s;
	int n, cap;
	char (*names)[64]; /* objects by name, in first-seen order */
	int nnames;
	long holes; /* samples in an object but in no field */
};

static int obj_index(struct collect *c, const char *name)
{
	for (int i = 0; i < c->nnames; i++)
		if (!strcmp(c->names[i], name))
			return i;
	c->names = xrealloc(c->names, (size_t)(c->nnames + 1) * sizeof(*c->names));
	snprintf(c->names[c->nnames], sizeof(c->names[0]), "%s", name);
	return c->nnames++;
}

/* collect - every located load or store inside an object (hitm_hit_fn). */
static void collect(void *ctx, const struct hitm_sample *s, const struct hitm_hit *h)
{
	struct collect *c = ctx;

	if (!h->w || h->obj < 0 || s->op == HOP_OTHER)
		return;
	if (!h->leaf) {
		c->holes++;
		return;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->s = xrealloc(c->s, (size_t)c->cap * sizeof(*c->s));
	}
	c->s[c->n++] = (struct hs){s->cpu,
				   s->tid,
				   obj_index(c, h->w->objs[h->obj].name),
				   h->leaf,
				   &h->w->objs[h->obj],
				   s->op == HOP_STORE,
				   s->src == HSRC_HITM_LOCAL || s->src == HSRC_HITM_REMOTE};
}

/* The counts of one (role, object, field) of the target struct. */
struct acc {
	int role, obj;
	const struct layout_leaf *leaf;
	long n[2]; /* loads, stores */
};

struct role {
	int key; /* the CPU, or the thread when a sample has no CPU */
	long samples, loads, stores, hitm;
};

/* recipe_name - @in as a recipe NAME ([A-Za-z_][A-Za-z0-9_]*) into @out. */
static void recipe_name(const char *in, char *out, size_t len)
{
	size_t k = 0;

	if (!(in[0] == '_' || (in[0] >= 'A' && in[0] <= 'Z') || (in[0] >= 'a' && in[0] <= 'z')))
		out[k++] = 'o';
	for (; *in && k + 1 < len && k + 1 < RECIPE_NAME_MAX; in++)
		out[k++] = (*in == '_' || (*in >= '0' && *in <= '9') ||
			    (*in >= 'A' && *in <= 'Z') || (*in >= 'a' && *in <= 'z'))
			       ? *in
			       : '_';
	out[k] = '\0';
}

/* word - the leaf is an aligned 8-byte word (what load and store take). */
static int word(const struct layout_leaf *lf)
{
	return lf->size == 8 && lf->offset % 8 == 0 && lf->field->kind != LK_ARRAY;
}

/* step - one access (@store, else a load) of @ref, leaf @lf, as a step; 0 when none takes it. */
static int step(struct sb *b, const struct layout_leaf *lf, const char *ref, int store)
{
	enum layout_kind k = lf->field->kind;

	if (!store && word(lf) && k != LK_LOCK)
		sb_printf(b, "; load %s", ref);
	else if (store && k == LK_LOCK)
		sb_printf(b, "; lock %s; unlock %s", ref, ref);
	else if (store && word(lf))
		sb_printf(b, k == LK_ATOMIC ? "; add %s 1" : "; store %s 1", ref);
	else
		return 0;
	return 1;
}

int sg_hitm_recipe(const struct sg_hitm_req *rq, struct sg_hitm_out *out)
{
	struct hitm_run run;
	struct hitm_read_stats st;
	struct collect c = {0};
	struct acc *acc = NULL;
	struct role *roles = NULL;
	char path[PATH_MAX + 32], err[PATH_MAX + 512];
	const char *sname = rq->sname;
	const struct layout *lay = NULL;
	int nacc = 0, nroles = 0, bycpu = 1, rc = 0, ps;
	long skipped = 0, cmax = 0, hitm_target = 0, ntarget = 0, other = 0;
	struct sb r = {0};

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/objects.json", rq->run);
	if (hitm_run_load(path, &run, err, sizeof(err)))
		return layout_usage_error("suggest: --hitm %s: %s", rq->run, err);
	ps = hitm_samples("layout suggest", rq->run, rq->script, &run, &st, collect, &c);
	if (ps == 127) {
		rc = 2;
		goto out;
	}
	if (ps)
		warn_msg("layout suggest: perf script exited with %d", ps);
	/* the target: --struct, else the struct with the most HITM loads (then samples) */
	if (!sname) {
		struct {
			const char *name;
			long hitm, n;
		} *by = xcalloc((size_t)c.n + 1, sizeof(*by));
		int nby = 0, best = -1;

		for (int i = 0; i < c.n; i++) {
			int k = 0;

			while (k < nby && strcmp(by[k].name, c.s[i].o->sname))
				k++;
			if (k == nby)
				by[nby++].name = c.s[i].o->sname;
			by[k].hitm += c.s[i].hitm;
			by[k].n++;
		}
		for (int k = 0; k < nby; k++)
			if (best < 0 || by[k].hitm > by[best].hitm ||
			    (by[k].hitm == by[best].hitm && by[k].n > by[best].n))
				best = k;
		sname = best >= 0 ? by[best].name : NULL;
		free(by);
	}
	if (!sname) {
		rc = layout_usage_error(
		    "suggest: --hitm %s: no sampled load or store in a field of a modelled "
		    "object (%ld samples, %ld outside every measured window)",
		    rq->run, st.samples, st.outside_windows);
		goto out;
	}
	for (int i = 0; i < c.n; i++) {
		const struct hs *s = &c.s[i];

		if (strcmp(s->o->sname, sname))
			continue;
		lay = lay ? lay : s->o->layout;
		if (s->cpu < 0 && s->o->layout == lay)
			bycpu = 0;
	}
	if (!lay) {
		rc = layout_usage_error(
		    "suggest: --hitm %s: --struct %s: no sampled access to a field of one", rq->run,
		    sname);
		goto out;
	}
	/* the roles and each one's counts per (object, field, op) */
	for (int i = 0; i < c.n; i++) {
		const struct hs *s = &c.s[i];
		int key = bycpu ? s->cpu : s->tid, ri, ai;

		if (strcmp(s->o->sname, sname))
			continue;
		if (s->o->layout != lay) { /* a run of several layouts: the first one's */
			other++;
			continue;
		}
		ntarget++;
		hitm_target += s->hitm;
		for (ri = 0; ri < nroles && roles[ri].key != key; ri++)
			;
		if (ri == nroles) {
			roles = xrealloc(roles, (size_t)(nroles + 1) * sizeof(*roles));
			roles[nroles++] = (struct role){.key = key};
		}
		roles[ri].samples++;
		roles[ri].loads += !s->store;
		roles[ri].stores += s->store;
		roles[ri].hitm += s->hitm;
		for (ai = 0; ai < nacc; ai++)
			if (acc[ai].role == ri && acc[ai].obj == s->obj &&
			    !strcmp(acc[ai].leaf->path, s->leaf->path))
				break;
		if (ai == nacc) {
			acc = xrealloc(acc, (size_t)(nacc + 1) * sizeof(*acc));
			acc[nacc++] = (struct acc){ri, s->obj, s->leaf, {0, 0}};
		}
		acc[ai].n[s->store]++;
	}
	if (nroles > RECIPE_MAX_ROLES || nroles > TRACE_MAX_VTHREADS) {
		rc = layout_usage_error(
		    "suggest: --hitm %s: %d %s sampled accesses to struct %s; a recipe has at "
		    "most %d roles",
		    rq->run, nroles, bycpu ? "CPUs" : "threads", sname, RECIPE_MAX_ROLES);
		goto out;
	}
	for (int i = 0; i < nacc; i++)
		for (int k = 0; k < 2; k++)
			cmax = acc[i].n[k] > cmax ? acc[i].n[k] : cmax;

	/* the recipe: objects, one role per CPU, one thread each at -t of the roles (shares of
	 * '*', so that a measurement at fewer threads takes the first roles, at more repeats
	 * them round-robin) */
	sb_printf(&r,
		  "# layout suggest --hitm %s: one role per %s, its sampled fields in "
		  "proportion\n",
		  rq->run, bycpu ? "CPU" : "thread");
	for (int i = 0; i < c.nnames; i++) {
		char nm[RECIPE_NAME_MAX];
		int used = 0;

		for (int j = 0; j < nacc; j++)
			used |= acc[j].obj == i;
		recipe_name(c.names[i], nm, sizeof(nm));
		if (used)
			sb_printf(&r, "object %s_%d %s\n", nm, i, sname);
	}
	/* a role's steps in passes, so that its fields interleave; each role starts with a
	 * private spin, so that one whose every field is left out is still a role */
	for (int ri = 0; ri < nroles; ri++) {
		sb_printf(&r, "role %s%d: spin 1", bycpu ? "cpu" : "tid", roles[ri].key);
		for (int pass = 0; pass < SG_HITM_STEPS; pass++)
			for (int i = 0; i < nacc; i++)
				for (int k = 0; k < 2; k++) {
					const struct acc *a = &acc[i];
					long q =
					    lround(SG_HITM_STEPS * (double)a->n[k] / (double)cmax);
					char nm[RECIPE_NAME_MAX], ref[LAYOUT_PATH_MAX + 80];

					if (a->role != ri || !a->n[k] || (q > 1 ? q : 1) <= pass)
						continue;
					recipe_name(c.names[a->obj], nm, sizeof(nm));
					snprintf(ref, sizeof(ref), "%s_%d.%s", nm, a->obj,
						 a->leaf->path);
					if (!step(&r, a->leaf, ref, k) && !pass)
						skipped += a->n[k];
				}
		sb_printf(&r, "\n");
	}
	sb_printf(&r, "threads:");
	for (int ri = 0; ri < nroles; ri++)
		sb_printf(&r, "%s %s%d*", ri ? "," : "", bycpu ? "cpu" : "tid", roles[ri].key);
	sb_printf(&r, "\n");
	snprintf(out->recipe, sizeof(out->recipe), "%s/hitm.recipe", rq->tmp);
	if (outfile_write_all(out->recipe, sb_str(&r), r.n)) {
		rc = 1;
		goto out;
	}
	if (!rq->layout) {
		char *text = layout_to_text(lay);

		snprintf(out->layout, sizeof(out->layout), "%s/hitm.layout", rq->tmp);
		rc = text ? outfile_write_all(out->layout, text, strlen(text)) ? 1 : 0
			  : layout_usage_error("suggest: out of memory");
		free(text);
		if (rc)
			goto out;
	}
	snprintf(out->sname, sizeof(out->sname), "%s", sname);
	out->nroles = nroles;
	{ /* the header's account */
		size_t k =
		    (size_t)snprintf(out->note, sizeof(out->note),
				     "hitm: %ld samples, %ld of them loads and stores in fields "
				     "of struct %s (%ld HITM); one role per %s:",
				     st.samples, ntarget, sname, hitm_target,
				     bycpu ? "CPU" : "thread (no CPU in the samples)");

		for (int ri = 0; ri < nroles && k < sizeof(out->note); ri++)
			k += (size_t)snprintf(out->note + k, sizeof(out->note) - k,
					      "%s %s%d %ld loads %ld stores %ld HITM",
					      ri ? "," : "", bycpu ? "cpu" : "tid", roles[ri].key,
					      roles[ri].loads, roles[ri].stores, roles[ri].hitm);
		if (skipped && k < sizeof(out->note))
			k += (size_t)snprintf(out->note + k, sizeof(out->note) - k,
					      "; %ld samples on fields no load or store step takes "
					      "(arrays, not 8-byte words) left out",
					      skipped);
		if (other && k < sizeof(out->note))
			snprintf(out->note + k, sizeof(out->note) - k,
				 "; %ld samples in objects of another layout of struct %s (the run "
				 "measured several; the first sampled one is used) left out",
				 other, sname);
	}
out:
	free(r.p);
	free(acc);
	free(roles);
	free(c.s);
	free(c.names);
	hitm_run_free(&run);
	return rc;
}
