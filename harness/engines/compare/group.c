// SPDX-License-Identifier: MIT
/*
 * group.c - compare: every row to its side, group, entry and cell; the base of each
 * scenario; the blocks (what one table shows) in the scenarios' order; keys not compared.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "harness.h"
#include "num.h"

/* ---- building sides, groups, entries and cells ---- */

static long scenario_rank(struct compare *c, const char *scenario)
{
	for (int i = 0; all_scenarios[i]; i++)
		if (!strcmp(all_scenarios[i]->name, scenario))
			return i;
	return 1000000 + cmp_first_seen(c, "scenario", scenario);
}

/*
 * registry_rank - where @name stands in the scenario's registry order (@dim "preset" or
 * "workload"); names this build does not know come after, in first-seen order.
 */
static long registry_rank(struct compare *c, const char *dim, const char *scenario,
			  const char *name)
{
	const struct scenario *sc = scenario_find(scenario);
	int preset = !strcmp(dim, "preset");
	char *k;
	long r;

	for (int i = 0; sc; i++) {
		const char *n = preset ? sc->presets[i].name : sc->workloads[i].name;

		if (!n)
			break;
		if (!strcmp(n, name))
			return i;
	}
	k = xasprintf("%s\x1f%s", scenario, name);
	r = 1000000 + cmp_first_seen(c, dim, k);
	free(k);
	return r;
}

/*
 * side_key - a row's side when sides come from rows: --by host, its host and topology_fp
 * ("host\x1ftopo"); --by kernel, its kernel_release and kernel_layout_fp (the label
 * context.json's real_kernel gives; a row without one, from a run without -s kernel, is
 * "unknown"). *@host and *@topo: the two parts, for the side's name.
 */
static char *side_key(const struct compare *c, const struct cmp_run *r, int row, const char **host,
		      const char **topo)
{
	if (c->o.by_kernel) {
		*host = cmp_cell_at(r, row, r->c_krel);
		*host = (*host)[0] ? *host : "unknown";
		*topo = cmp_cell_at(r, row, r->c_kfp);
	} else {
		*host = r->c_host >= 0 ? cmp_cell_at(r, row, r->c_host)
			: r->host      ? r->host
				       : r->label;
		*topo = cmp_cell_at(r, row, r->c_topo);
	}
	return xasprintf("%s\x1f%s", *host, *topo);
}

int cmp_count_hosts(const struct compare *c, char **first)
{
	struct map seen = {0};
	int n;

	*first = NULL;
	for (int ri = 0; ri < c->nruns; ri++)
		for (int row = 0; row < c->runs[ri].t->nrows; row++) {
			const char *host, *topo;
			char *key = side_key(c, &c->runs[ri], row, &host, &topo);

			if (cmp_map_get(&seen, key) < 0) {
				cmp_map_put(&seen, key, 1);
				if (!*first)
					*first = xstrdup(host);
			}
			free(key);
		}
	n = (int)seen.n;
	for (size_t i = 0; i < seen.cap; i++)
		free(seen.keys[i]);
	free(seen.keys);
	free(seen.vals);
	return n;
}

static int side_of(struct compare *c, int ri, int row)
{
	const struct cmp_run *r = &c->runs[ri];
	const char *host, *topo;
	char *key;
	int s;

	if (c->one_run)
		return 0;
	if (!c->o.by_host)
		return ri;
	key = side_key(c, r, row, &host, &topo);
	s = cmp_map_get(&c->smap, key);
	if (s < 0) {
		struct side *sd;

		s = c->nsides;
		c->sides = xrealloc(c->sides, (size_t)(s + 1) * sizeof(*c->sides));
		sd = &c->sides[c->nsides++];
		memset(sd, 0, sizeof(*sd));
		sd->name = topo[0] ? xasprintf("%s#%s", host, topo) : xstrdup(host);
		if (c->o.by_kernel) /* the machine it ran on */
			host = r->c_host >= 0 ? cmp_cell_at(r, row, r->c_host)
			       : r->host      ? r->host
					      : r->label;
		sd->host = xstrdup(host);
		sd->cpu = r->cpu_model && r->host && !strcmp(r->host, host) ? r->cpu_model : NULL;
		sd->state = sd->cpu ? r->machine : NULL;
		cmp_map_put(&c->smap, key, s);
	}
	{
		struct side *sd = &c->sides[s];

		if (sd->last_run != ri + 1) {
			char *runs =
			    sd->runs ? xasprintf("%s;%s", sd->runs, r->label) : xstrdup(r->label);

			free(sd->runs);
			sd->runs = runs;
			sd->last_run = ri + 1;
		}
	}
	free(key);
	return s;
}

/* key_add - "\x1f" and @s onto a map key: once per row and parameter, so no printf. */
static void key_add(struct sb *key, const char *s)
{
	sb_addc(key, '\x1f');
	sb_add(key, s, strlen(s));
}

/* family_key - a row's family in one run without its parameters: "sc\x1fpreset\x1f...". */
static void family_key(struct sb *key, const struct cmp_run *r, int row)
{
	static const int cols[] = {C_SCENARIO, C_PRESET,    C_LAYOUT,
				   C_WORKLOAD, C_PLACEMENT, C_THREADS};

	key->n = 0;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		key_add(key, cmp_cell_at(r, row, r->col[cols[i]]));
	key_add(key, cmp_cell_at(r, row, r->c_home));
	key_add(key, cmp_cell_at(r, row, r->c_host));
}

void cmp_find_sweeps(struct compare *c)
{
	const struct cmp_run *r = &c->runs[0];
	struct map first = {0};
	struct sb key = {0};

	c->sweep = xcalloc((size_t)c->nparams + 1, sizeof(int));
	if (!c->one_run)
		return;
	for (int row = 0; row < r->t->nrows; row++) {
		family_key(&key, r, row);
		for (int p = 0; p < c->nparams; p++) {
			size_t n = key.n;
			int seen;

			sb_printf(&key, "\x1f%d", p);
			seen = cmp_map_get(&first, sb_str(&key));
			if (seen < 0)
				cmp_map_put(&first, sb_str(&key), row);
			else if (strcmp(cmp_cell_at(r, row, r->param_col[p]),
					cmp_cell_at(r, seen, r->param_col[p])))
				c->sweep[p] = 1;
			key.n = n;
		}
	}
	for (size_t i = 0; i < first.cap; i++)
		free(first.keys[i]);
	free(first.keys);
	free(first.vals);
	free(key.p);
}

static int group_of(struct compare *c, int ri, int row)
{
	const struct cmp_run *r = &c->runs[ri];
	const char *sc = cmp_cell_at(r, row, r->col[C_SCENARIO]);
	const char *wl = cmp_cell_at(r, row, r->col[C_WORKLOAD]);
	const char *pl = cmp_cell_at(r, row, r->col[C_PLACEMENT]);
	const char *th = cmp_cell_at(r, row, r->col[C_THREADS]);
	const char *home = cmp_cell_at(r, row, r->c_home);
	const char *host = "";
	struct sb sweep = {0};

	c->has_home |= home[0] != '\0'; /* shown when some row says where the memory is */
	char *key;
	int g;

	/* One run: rows of several hosts (an appended --csv file) are never pooled. */
	if (c->one_run && r->c_host >= 0)
		host = cmp_cell_at(r, row, r->c_host);
	/* Values of a swept parameter (-D batch=32,64) are a grouping key, as threads are. */
	for (int p = 0; p < c->nparams; p++)
		if (c->sweep[p] && cmp_cell_at(r, row, r->param_col[p])[0])
			sb_printf(&sweep, "%s%s=%s", sweep.n ? " " : "", c->params[p],
				  cmp_cell_at(r, row, r->param_col[p]));
	key = xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", sc, wl, pl, th, home, host,
			cmp_cell_at(r, row, c->one_run ? r->c_topo : -1), sb_str(&sweep));
	g = cmp_map_get(&c->gmap, key);
	if (g < 0) {
		struct group *gr;

		g = c->ngroups;
		c->groups = xrealloc(c->groups, (size_t)(g + 1) * sizeof(*c->groups));
		gr = &c->groups[c->ngroups++];
		gr->scenario = xstrdup(sc);
		gr->workload = xstrdup(wl);
		gr->placement = xstrdup(pl);
		gr->threads = xstrdup(th);
		gr->home = xstrdup(home);
		gr->host = xstrdup(host);
		if (num_long(th, 10, LONG_MIN, LONG_MAX, &gr->nthreads))
			usage_error("RUN", r->csv_path, "line %d: threads \"%s\" is not an integer",
				    row + 2, th);
		gr->sc_rank = scenario_rank(c, sc);
		gr->wl_rank = registry_rank(c, "workload", sc, wl);
		gr->pl_rank = cmp_first_seen(c, "placement", pl);
		gr->home_rank = cmp_first_seen(c, "home", home);
		gr->host_rank = cmp_first_seen(c, "host", host);
		gr->sweep = xstrdup(sb_str(&sweep));
		gr->sweep_rank = cmp_first_seen(c, "sweep", gr->sweep);
		cmp_map_put(&c->gmap, key, g);
	}
	free(key);
	free(sweep.p);
	return g;
}

/*
 * layout_rank - @ly's place in run @r's -D layout=A,B (its families differ in layout only:
 * A is the base, as the first preset is), or LONG_MAX when not listed there.
 */
static long layout_rank(const struct cmp_run *r, const char *ly)
{
	long k = 0;
	size_t n = strlen(ly);

	for (const char *p = r->layouts; p && *p; k++) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, ly, n))
			return k;
		p += len + (p[len] == ',');
	}
	return LONG_MAX;
}

static int entry_of(struct compare *c, int ri, int row)
{
	const struct cmp_run *r = &c->runs[ri];
	const char *sc = cmp_cell_at(r, row, r->col[C_SCENARIO]);
	const char *pr = cmp_cell_at(r, row, r->col[C_PRESET]);
	const char *ly = cmp_cell_at(r, row, r->col[C_LAYOUT]);
	struct sb key = {0};
	int e;

	sb_add(&key, sc, strlen(sc));
	key_add(&key, pr);
	key_add(&key, ly);
	for (int i = 0; i < c->nparams; i++)
		key_add(&key, cmp_cell_at(r, row, r->param_col[i]));
	e = cmp_map_get(&c->emap, sb_str(&key));
	if (e < 0) {
		struct entry *en;

		e = c->nentries;
		c->entries = xrealloc(c->entries, (size_t)(e + 1) * sizeof(*c->entries));
		en = &c->entries[c->nentries++];
		memset(en, 0, sizeof(*en));
		en->scenario = xstrdup(sc);
		en->preset = xstrdup(pr);
		en->layout = xstrdup(ly);
		en->pv = xcalloc((size_t)c->nparams + 1, sizeof(char *));
		for (int i = 0; i < c->nparams; i++)
			en->pv[i] = xstrdup(cmp_cell_at(r, row, r->param_col[i]));
		en->sc_rank = scenario_rank(c, sc);
		en->preset_rank = registry_rank(c, "preset", sc, pr);
		en->layout_rank = layout_rank(r, ly);
		en->first = e;
		cmp_map_put(&c->emap, sb_str(&key), e);
	}
	free(key.p);
	return e;
}

void cmp_add_row(struct compare *c, int ri, int row)
{
	const struct cmp_run *r = &c->runs[ri];
	int s = side_of(c, ri, row), g = group_of(c, ri, row), e = entry_of(c, ri, row);
	const char *status = cmp_cell_at(r, row, r->col[C_STATUS]);
	const char *reason = cmp_cell_at(r, row, r->col[C_REASON]);
	char *key = xasprintf("%d\x1f%d\x1f%d", s, g, e);
	int ci = cmp_map_get(&c->cmap, key);
	struct cell *cl;

	if (ci < 0) {
		ci = c->ncells;
		c->cells = xrealloc(c->cells, (size_t)(ci + 1) * sizeof(*c->cells));
		cl = &c->cells[c->ncells++];
		memset(cl, 0, sizeof(*cl));
		cl->side = s;
		cl->group = g;
		cl->entry = e;
		cmp_map_put(&c->cmap, key, ci);
	}
	free(key);
	cl = &c->cells[ci];
	GROW(cl->rows, cl->nrows, cl->cap);
	cl->rows[cl->nrows++] = (struct rowref){ri, row};
	if (!strcmp(status, "ok")) {
		cl->nok++;
	} else if (!strcmp(status, "skipped")) {
		cl->nskip++;
		if (!cl->skip_reason)
			cl->skip_reason = reason;
	} else if (!strcmp(status, "disturbed")) {
		cl->ndist++;
		if (!cl->dist_reason)
			cl->dist_reason = reason;
	} else {
		/* "error", and anything that is not ok. */
		cl->nerr++;
		if (!cl->err_reason)
			cl->err_reason = reason[0] ? reason : status;
	}
}

static int cmp_long(long a, long b)
{
	return (a > b) - (a < b);
}

/* the order of groups and entries (qsort_r's @arg: the comparison) */
static int cmp_group_idx(const void *pa, const void *pb, void *arg)
{
	const struct compare *c = arg;
	const struct group *a = &c->groups[*(const int *)pa];
	const struct group *b = &c->groups[*(const int *)pb];
	int d;

	if ((d = cmp_long(a->sc_rank, b->sc_rank)) || (d = cmp_long(a->wl_rank, b->wl_rank)) ||
	    (d = cmp_long(a->pl_rank, b->pl_rank)) || (d = cmp_long(a->host_rank, b->host_rank)) ||
	    (d = cmp_long(a->home_rank, b->home_rank)) ||
	    (d = cmp_long(a->nthreads, b->nthreads)) ||
	    (d = cmp_long(a->sweep_rank, b->sweep_rank)))
		return d;
	return cmp_long(*(const int *)pa, *(const int *)pb);
}

static int cmp_entry_idx(const void *pa, const void *pb, void *arg)
{
	const struct compare *c = arg;
	const struct entry *a = &c->entries[*(const int *)pa];
	const struct entry *b = &c->entries[*(const int *)pb];
	int d;

	if ((d = cmp_long(a->sc_rank, b->sc_rank)) ||
	    (d = cmp_long(a->preset_rank, b->preset_rank)) ||
	    (d = cmp_long(a->layout_rank, b->layout_rank)))
		return d;
	return cmp_long(a->first, b->first);
}

int cmp_find_cell(const struct compare *c, int side, int group, int entry);

/* meet - entries @i and @j are measured in a common group (on any side). */
static int meet(const struct compare *c, int i, int j)
{
	for (int g = 0; g < c->ngroups; g++) {
		int hi = 0, hj = 0;

		for (int s = 0; s < c->nsides; s++) {
			hi |= cmp_find_cell(c, s, g, i) >= 0;
			hj |= cmp_find_cell(c, s, g, j) >= 0;
		}
		if (hi && hj)
			return 1;
	}
	return 0;
}

/*
 * Entry labels: preset [layout], plus the parameters that tell apart entries of the same
 * preset that appear in a common group (the same preset run with other -D values), or that
 * a sweep put in different groups (so that compare.csv's rows stay apart).
 */
static void label_entries(struct compare *c)
{
	for (int i = 0; i < c->nentries; i++) {
		struct entry *e = &c->entries[i];
		struct sb b = {0};

		sb_printf(&b, "%s", e->preset);
		if (e->layout[0])
			sb_printf(&b, " [%s]", e->layout);
		for (int p = 0; p < c->nparams; p++) {
			int varies = 0;

			for (int j = 0; j < c->nentries && !varies; j++) {
				const struct entry *f = &c->entries[j];

				varies = j != i && !strcmp(f->scenario, e->scenario) &&
					 !strcmp(f->preset, e->preset) &&
					 strcmp(f->pv[p], e->pv[p]) &&
					 (c->sweep[p] || meet(c, i, j));
			}
			if (varies)
				sb_printf(&b, " %s=%s", c->params[p], e->pv[p]);
		}
		e->label = b.p;
	}
}

int cmp_find_cell(const struct compare *c, int side, int group, int entry)
{
	char key[64];

	snprintf(key, sizeof(key), "%d\x1f%d\x1f%d", side, group, entry);
	return cmp_map_get(&c->cmap, key);
}

static const char *scenario_base(const struct compare *c, const char *scenario)
{
	for (int i = 0; i < c->nsc; i++)
		if (!strcmp(c->sc_names[i], scenario))
			return c->sc_base[i];
	return NULL;
}

/* One-run mode: choose each scenario's base preset; --base must name a preset of the run. */
static void choose_bases(struct compare *c, const int *eorder)
{
	int found = 0;
	struct sb known = {0}, desc = {0};

	for (int k = 0; k < c->nentries; k++) {
		const struct entry *e = &c->entries[eorder[k]];
		int seen = 0;

		for (int i = 0; i < c->nsc; i++)
			seen |= !strcmp(c->sc_names[i], e->scenario);
		/* Every distinct preset, for the error message. */
		int listed = 0;

		for (int j = 0; j < k; j++)
			listed |= !strcmp(c->entries[eorder[j]].preset, e->preset);
		if (!listed)
			sb_printf(&known, "%s, ", e->preset);
		found |= c->o.base && !strcmp(e->preset, c->o.base);
		if (seen)
			continue;
		/* Entries are in preset order: the first one of a scenario is its first preset. */
		c->sc_names = xrealloc(c->sc_names, (size_t)(c->nsc + 1) * sizeof(char *));
		c->sc_base = xrealloc(c->sc_base, (size_t)(c->nsc + 1) * sizeof(char *));
		c->sc_names[c->nsc] = e->scenario;
		c->sc_base[c->nsc++] = e->preset;
	}
	if (c->o.base && !found) {
		known.p[known.n - 2] = '\0';
		usage_error("--base", c->o.base, "no such preset in %s (presets: %s)",
			    c->runs[0].arg, known.p);
	}
	for (int i = 0; i < c->nsc; i++) {
		int has = 0;

		for (int k = 0; k < c->nentries && c->o.base; k++)
			has |= !strcmp(c->entries[k].scenario, c->sc_names[i]) &&
			       !strcmp(c->entries[k].preset, c->o.base);
		if (has)
			c->sc_base[i] = (char *)c->o.base;
		sb_printf(&desc, "%s%s %s", i ? "; " : "", c->sc_names[i], c->sc_base[i]);
		if (c->o.base && !has)
			sb_printf(&desc, " (no %s here: its first preset)", c->o.base);
	}
	c->base_desc = c->o.base ? xasprintf("--base %s: %s", c->o.base, sb_str(&desc))
				 : xasprintf("per scenario, its first preset: %s", sb_str(&desc));
	free(known.p);
	free(desc.p);
}

char *cmp_key_text(const struct compare *c, const struct group *g, const struct entry *e)
{
	struct sb b = {0};

	sb_printf(&b, "%s", g->scenario);
	if (e)
		sb_printf(&b, " %s%s%s%s", e->preset, e->layout[0] ? " [" : "", e->layout,
			  e->layout[0] ? "]" : "");
	sb_printf(&b, " workload=%s placement=%s threads=%s", g->workload, g->placement,
		  g->threads);
	if (c->has_home)
		sb_printf(&b, " home=%s", g->home);
	if (c->one_run && c->nhosts > 1)
		sb_printf(&b, " host=%s", g->host);
	for (int p = 0; e && p < c->nparams; p++)
		if (e->pv[p][0])
			sb_printf(&b, " %s=%s", c->params[p], e->pv[p]);
	if (!e && g->sweep[0])
		sb_printf(&b, " %s", g->sweep);
	return b.p;
}

static void add_unmatched(struct compare *c, int group, int entry, char *what)
{
	c->um = xrealloc(c->um, (size_t)(c->num + 1) * sizeof(*c->um));
	c->um[c->num++] = (struct unmatched){group, entry, what};
}

static struct block *new_block(struct compare *c, int group, int entry, int ncols)
{
	struct block *b;

	c->blocks = xrealloc(c->blocks, (size_t)(c->nblocks + 1) * sizeof(*c->blocks));
	b = &c->blocks[c->nblocks++];
	b->group = group;
	b->entry = entry;
	b->ncols = ncols;
	b->cell = xcalloc((size_t)ncols, sizeof(int));
	b->label = xcalloc((size_t)ncols, sizeof(char *));
	b->res = xcalloc((size_t)ncols * (size_t)(c->nmetrics ? c->nmetrics : 1), sizeof(int));
	for (int i = 0; i < ncols * c->nmetrics; i++)
		b->res[i] = -1;
	return b;
}

void cmp_build_blocks(struct compare *c)
{
	int *gorder = xcalloc((size_t)c->ngroups, sizeof(int));
	int *eorder = xcalloc((size_t)c->nentries, sizeof(int));

	for (int i = 0; i < c->ngroups; i++)
		gorder[i] = i;
	for (int i = 0; i < c->nentries; i++)
		eorder[i] = i;
	qsort_r(gorder, (size_t)c->ngroups, sizeof(int), cmp_group_idx, c);
	qsort_r(eorder, (size_t)c->nentries, sizeof(int), cmp_entry_idx, c);
	label_entries(c);
	if (c->one_run)
		choose_bases(c, eorder);

	for (int gi = 0; gi < c->ngroups; gi++) {
		int g = gorder[gi];
		const struct group *gr = &c->groups[g];

		if (c->one_run) {
			const char *base = scenario_base(c, gr->scenario);
			int base_cell = -1, n = 0,
			    *cols = xcalloc((size_t)c->nentries, sizeof(int));

			for (int k = 0; k < c->nentries; k++) {
				int cl = cmp_find_cell(c, 0, g, eorder[k]);

				if (cl < 0)
					continue;
				if (base_cell < 0 && !strcmp(c->entries[eorder[k]].preset, base))
					base_cell = cl;
				else
					cols[n++] = cl;
			}
			if (base_cell < 0) {
				struct sb what = {0};

				sb_printf(&what, "no base %s; present:", base);
				for (int k = 0; k < n; k++)
					sb_printf(&what, " %s",
						  c->entries[c->cells[cols[k]].entry].label);
				add_unmatched(c, g, -1, what.p);
			} else { /* also a base alone: the summary shows its numbers */
				struct block *b = new_block(c, g, -1, n + 1);

				b->cell[0] = base_cell;
				for (int k = 0; k < n; k++)
					b->cell[k + 1] = cols[k];
				for (int k = 0; k <= n; k++)
					b->label[k] = c->entries[c->cells[b->cell[k]].entry].label;
			}
			free(cols);
			continue;
		}
		for (int k = 0; k < c->nentries; k++) {
			int e = eorder[k], present = 0,
			    *cl = xcalloc((size_t)c->nsides, sizeof(int));

			for (int s = 0; s < c->nsides; s++) {
				cl[s] = cmp_find_cell(c, s, g, e);
				present += cl[s] >= 0;
			}
			if (!present) {
				free(cl);
				continue;
			}
			if (present < c->nsides) {
				struct sb what = {0};
				int first = 1;

				sb_printf(&what, "only in");
				for (int s = 0; s < c->nsides; s++)
					if (cl[s] >= 0) {
						sb_printf(&what, "%s %s", first ? "" : ",",
							  c->sides[s].name);
						first = 0;
					}
				add_unmatched(c, g, e, what.p);
			}
			if (cl[0] >= 0 && present > 1) {
				struct block *b = new_block(c, g, e, c->nsides);

				for (int s = 0; s < c->nsides; s++) {
					b->cell[s] = cl[s];
					b->label[s] = c->sides[s].name;
				}
			}
			free(cl);
		}
	}
	free(gorder);
	free(eorder);
}
