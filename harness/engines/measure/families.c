// SPDX-License-Identifier: MIT
/* families.c - what a measurement run covers: the selected families, resolved and placed. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "num.h"
#include "run.h"
#include "util.h"

static void add_param_col(struct measure_run *run, const char *name)
{
	for (int i = 0; i < run->nparam_cols; i++)
		if (!strcmp(run->param_cols[i], name))
			return;
	if (run->nparam_cols < SELECTION_MAX_PARAMS)
		run->param_cols[run->nparam_cols++] = name;
}

const char *family_param(const struct measure_run *run, const struct family *f, int i)
{
	for (int j = 0; scenario_param(f->sc, j); j++)
		if (!strcmp(scenario_param(f->sc, j)->name, run->param_cols[i]))
			return cfg_value(f->cfg, j);
	return "";
}

/* fams_append - @f becomes the run's next family. */
static void fams_append(struct measure_run *run, const struct family *f)
{
	run->fams = xrealloc(run->fams, (size_t)(run->nfams + 1) * sizeof(*f));
	run->fams[run->nfams++] = *f;
}

/* What build_families gives every family it adds (add_families' @arg). */
struct build {
	struct measure_run *run;
	const struct options *o;
	const struct topo *topo;
	int counts[MAX_THREAD_COUNTS], ncounts;
	char **homes;
	regex_t *re; /* --benchmark_filter, or NULL */
	int negate;
	const struct layout *layout; /* --layout, resolved once, or NULL */
	/* With --layout: the first pick of the scenario being added whose configuration
	 * refused it (its scenario's check() with that layout), and why. */
	struct pick refused;
	char why[1024];
};

/*
 * add_family - one (scenario, preset, workload, threads, home), resolved and placed. With
 * --layout, a configuration that cannot use it is not an error here: it returns 1 with the
 * reason in b->why (build_families then leaves the scenario out, or refuses it by name).
 */
static int add_family(struct build *b, struct family f, const struct selection *sel,
		      const char *sweep)
{
	char err[512], *p = f.name, *end = f.name + sizeof(f.name);

	p += snprintf(p, (size_t)(end - p), "%s/preset:%s/workload:%s%s/placement:%s/threads:%d",
		      f.sc->name, f.preset->name, f.wl->name, sweep, f.placement, f.threads);
	if (strcmp(f.home_spec, "first"))
		snprintf(p, (size_t)(end - p), "/home:%s", f.home_spec);
	if (b->re && (regexec(b->re, f.name, 0, NULL, 0) == 0) == b->negate)
		return 0;
	if (family_config(&f, sel, b->why, sizeof(b->why))) {
		if (!b->layout)
			usage_error("configuration", f.name, "%s", b->why);
		return 1;
	}
	if (family_place(&f, b->topo, err, sizeof(err)))
		usage_error("--placement", f.placement, "%s", err);
	if (cfg_layout(f.cfg)) {
		snprintf(f.layout_fp, sizeof(f.layout_fp), "%016llx",
			 (unsigned long long)layout_fingerprint(cfg_layout(f.cfg)));
	} else if (f.sc->computed_layout) {
		struct layout *l = f.sc->computed_layout(f.cfg);

		if (l)
			snprintf(f.layout_fp, sizeof(f.layout_fp), "%016llx",
				 (unsigned long long)layout_fingerprint(l));
		layout_free(l);
	}
	if (f.pus && topo_home_parse(b->topo, f.home_spec, f.pus[0], &f.home, err, sizeof(err)))
		usage_error("--home", f.home_spec, "%s", err);
	if (f.pus && f.sc->skip)
		f.sc->skip(f.cfg, f.skip, sizeof(f.skip));
	fams_append(b->run, &f);
	return 0;
}

/* in_choices - @v is one of "a|b|c". */
static int in_choices(const char *choices, const char *v)
{
	size_t n = strlen(v);

	for (const char *c = choices; *c;) {
		size_t k = strcspn(c, "|");

		if (k == n && !strncmp(c, v, n))
			return 1;
		c += k + (c[k] == '|');
	}
	return 0;
}

/*
 * sweep_values - the values of --param @nv ("NAME=V1,V2") for scenario @sc: a list when
 * @sc's parameter NAME is an integer or a choice (not a file, whose names may hold commas)
 * and every comma-separated element is one (-D batch=32,64), or when NAME is @sc's layout
 * parameter and the value is not an existing file (-D layout=v6.0,mine.layout: one family
 * per layout, compared in blocks); else the one value. Returns how many.
 */
static int sweep_values(const struct scenario *sc, const char *nv, char ***out)
{
	const char *eq = strchr(nv, '=');
	const struct bench_param *bp = NULL;
	struct stat st;
	char **v;
	int n = 0, li = scenario_layout_param(sc);

	for (int i = 0; eq && scenario_param(sc, i) && !bp; i++)
		if (strlen(scenario_param(sc, i)->name) == (size_t)(eq - nv) &&
		    !strncmp(scenario_param(sc, i)->name, nv, (size_t)(eq - nv)))
			bp = scenario_param(sc, i);
	if (eq && bp && li >= 0 && bp == scenario_param(sc, li) && strchr(eq + 1, ',') &&
	    stat(eq + 1, &st)) {
		v = split_list(eq + 1);
		for (n = 0; v && v[n]; n++)
			v[n] = xasprintf("%.*s%s", (int)(eq - nv + 1), nv, v[n]);
		if (n >= 2) {
			*out = v;
			return n;
		}
		for (int i = 0; i < n; i++)
			free(v[i]);
		free(v);
	}
	if (!eq || !strchr(eq + 1, ',') || !bp) {
		*out = xcalloc(2, sizeof(char *));
		(*out)[0] = xstrdup(nv);
		return 1;
	}
	v = split_list(eq + 1);
	for (n = 0; v && v[n]; n++) {
		long x;
		int ok =
		    bp && (!bp->choices ? !num_long(v[n], 0, bp->min, bp->max, &x)
					: bp->choices[0] != '<' && in_choices(bp->choices, v[n]));

		if (!ok) {
			free(v);
			*out = xcalloc(2, sizeof(char *));
			(*out)[0] = xstrdup(nv);
			return 1;
		}
	}
	if (n < 2) {
		free(v);
		*out = xcalloc(2, sizeof(char *));
		(*out)[0] = xstrdup(nv);
		return 1;
	}
	for (int i = 0; i < n; i++)
		v[i] = xasprintf("%.*s%s", (int)(eq - nv + 1), nv, v[i]);
	*out = v;
	return n;
}

/*
 * placements - the -P values: a comma-separated list when every element is a policy name
 * (an hwloc location is taken whole: hwloc-calc says whether it is one), else the one value.
 */
static char **placements(const char *spec)
{
	char **v = split_list(spec);

	for (int i = 0; !v || !v[0] || v[i]; i++)
		if (!v || !v[0] || !topo_policy_find(v[i])) {
			free(v);
			v = xcalloc(2, sizeof(char *));
			v[0] = xstrdup(spec);
			return v;
		}
	return v;
}

/*
 * add_families - the families of pick @k: one per placement (-P list), value of a swept
 * parameter (-D NAME=V1,V2: the cartesian product, each value in the family name and its
 * param_ column), thread count and memory home.
 */
static int add_families(const struct pick *k, void *arg)
{
	struct build *b = arg;
	const struct selection *sel = &b->o->sel;
	char **vals[SELECTION_MAX_PARAMS], **pls = b->run->placements;
	int nv[SELECTION_MAX_PARAMS], idx[SELECTION_MAX_PARAMS] = {0}, done = 0, ret = 0;

	for (int i = 0; i < sel->nparams; i++)
		nv[i] = sweep_values(k->sc, sel->params[i], &vals[i]);
	while (!done && !ret) {
		/* one combination: a selection of its own (configurations copy its values) */
		struct selection *one = xcalloc(1, sizeof(*one));
		char sw[200] = "";

		*one = *sel;
		for (int i = 0; i < sel->nparams; i++) {
			one->params[i] = vals[i][idx[i]];
			if (nv[i] > 1)
				snprintf(sw + strlen(sw), sizeof(sw) - strlen(sw), "/%s",
					 vals[i][idx[i]]);
		}
		for (int pl = 0; pls[pl] && !ret; pl++)
			for (int t = 0; t < b->ncounts && !ret; t++)
				for (int h = 0; b->homes[h] && !ret; h++) {
					struct family f = {
					    .sc = k->sc,
					    .preset = k->preset,
					    .wl = k->wl,
					    .placement = pls[pl],
					    .threads = b->counts[t],
					    .home_spec = b->homes[h],
					    .layout = b->layout,
					    .layout_name = b->o->layout,
					};

					if (add_family(b, f, one, sw)) {
						b->refused = *k;
						ret = 1;
					}
				}
		free(one);
		/* the next combination, the last parameter fastest */
		done = 1;
		for (int i = sel->nparams - 1; i >= 0 && done; i--) {
			if (++idx[i] < nv[i])
				done = 0;
			else
				idx[i] = 0;
		}
	}
	for (int i = 0; i < sel->nparams; i++) {
		for (int j = 0; j < nv[i]; j++)
			free(vals[i][j]);
		free(vals[i]);
	}
	return ret;
}

/* picks - counts the selected picks (selection_each). */
static int picks(const struct pick *k, void *arg)
{
	(void)k;
	++*(int *)arg;
	return 0;
}

/*
 * add_scenario - the families of scenario @sc. With --layout, every one of them must take
 * it (checked once, by building their own configurations with it): a scenario without a
 * layout parameter or one of whose families refuses it is left out with a note, or refused
 * when it was asked for by name (@named). Returns whether @sc was added.
 */
static int add_scenario(struct build *b, const struct scenario *sc, int named, char **pre,
			char **wls)
{
	struct measure_run *run = b->run;
	const char *lname = b->o->layout;
	int start = run->nfams, n = 0;
	const char *why = scenario_layout_param(sc) < 0
			      ? "it takes no layout"
			      : "its layout is computed from its parameters";

	b->why[0] = '\0';
	if (b->layout && !scenario_takes_layout(sc)) {
		selection_each(sc, pre, wls, picks, &n);
		if (!n)
			return 0; /* nothing of it is selected: nothing to say */
		if (named)
			usage_error("--layout", lname, "scenario %s cannot use it: %s", sc->name,
				    why);
		warn_msg("--layout %s: not for scenario %s (%s)", lname, sc->name, why);
		return 0;
	}
	if (!selection_each(sc, pre, wls, add_families, b))
		return 1;
	for (int i = start; i < run->nfams; i++)
		cfg_free(run->fams[i].cfg);
	run->nfams = start;
	if (named)
		usage_error("--layout", lname,
			    "scenario %s cannot use it (preset %s, workload %s): %s", sc->name,
			    b->refused.preset->name, b->refused.wl->name, b->why);
	warn_msg("--layout %s: not for scenario %s (%s)", lname, sc->name, b->why);
	return 0;
}

/* home_specs - the --home values a run measures: "each" is one per NUMA node. */
static char **home_specs(const char *spec, const struct topo *topo)
{
	struct topo_home h;
	char err[512], **v;
	int nodes[64], n;

	if (strcmp(spec, "each")) {
		if (topo_home_parse(topo, spec, 0, &h, err, sizeof(err)))
			usage_error("--home", spec, "%s", err);
		v = xcalloc(2, sizeof(char *));
		v[0] = xstrdup(spec);
		return v;
	}
	n = topo_nodes(topo, nodes, 64);
	v = xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++) {
		v[i] = xmalloc(24);
		snprintf(v[i], 24, "node:%d", nodes[i]);
	}
	return v;
}

static void build_matrix(struct measure_run *run, const struct options *o, const struct topo *topo);

void build_families(struct measure_run *run, const struct options *o, const struct topo *topo)
{
	char **scn = o->sel.scenarios ? split_list(o->sel.scenarios) : NULL;
	char **pre = o->sel.presets ? split_list(o->sel.presets) : NULL;
	char **wls = o->sel.workloads ? split_list(o->sel.workloads) : NULL;
	struct build b = {
	    .run = run, .o = o, .topo = topo, .homes = run->homes = home_specs(o->home, topo)};
	char err[512];
	regex_t re;

	run->placements = placements(o->sel.placement); /* families point into it */
	selection_check(all_scenarios, &o->sel, scn, pre, wls);
	if (o->matrix) {
		free(scn);
		free(pre);
		free(wls);
		build_matrix(run, o, topo);
		return;
	}
	b.ncounts = parse_threads(o->sel.threads, topo_npus(topo), b.counts, MAX_THREAD_COUNTS, err,
				  sizeof(err));
	if (b.ncounts < 0)
		usage_error("--threads", o->sel.threads, "%s", err);
	if (o->layout && !(b.layout = layout_get(o->layout, err, sizeof(err))))
		usage_error("--layout", o->layout, "%s", err);
	if (o->filter) {
		const char *pat = o->filter;

		b.negate = pat[0] == '-';
		pat += b.negate;
		if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB))
			usage_error("--benchmark_filter", o->filter, "not a valid extended regex");
		b.re = &re;
	}

	for (int s = 0; all_scenarios[s]; s++) {
		const struct scenario *sc = all_scenarios[s];

		if (!scenario_selected(scn, sc) || !add_scenario(&b, sc, scn != NULL, pre, wls))
			continue;
		for (int i = 0; scenario_param(sc, i); i++)
			if (i != scenario_layout_param(sc)) /* the layout column has it */
				add_param_col(run, scenario_param(sc, i)->name);
	}
	if (o->filter)
		regfree(&re);
	free(scn);
	free(pre);
	free(wls);
	if (!run->nfams)
		usage_error("selection", o->filter ? o->filter : "", "selects nothing to measure");
}

/*
 * build_matrix - the c2c probe on every pair of PUs (--matrix): one family per pair
 * (a, b) with a >= b, two threads pinned to a and b, one thread on the diagonal.
 */
static void build_matrix(struct measure_run *run, const struct options *o, const struct topo *topo)
{
	const struct scenario *sc = scenario_find("c2c");
	const char *wl = o->sel.workloads ? o->sel.workloads : "pingpong";
	int *cpus = xcalloc((size_t)topo_npus(topo), sizeof(int)), n;
	char err[512];

	if (!sc || (o->sel.scenarios && strcmp(o->sel.scenarios, "c2c")))
		usage_error("--matrix", o->sel.scenarios ? o->sel.scenarios : "",
			    "only for the c2c probe (-s c2c)");
	if (!workload_find(sc, wl))
		usage_error("--workload", wl, "c2c has no such workload (see --list)");
	n = topo_cpu_list(topo, o->matrix_cpus, cpus, topo_npus(topo), err, sizeof(err));
	if (n < 1)
		usage_error("--matrix-cpus", o->matrix_cpus ? o->matrix_cpus : "", "%s", err);
	for (int i = 0; i < n; i++) {
		for (int j = 0; j <= i; j++) {
			struct family f = {
			    .sc = sc,
			    .preset = &sc->presets[0],
			    .wl = workload_find(sc, wl),
			    .placement = "pair",
			    .threads = i == j ? 1 : 2,
			    .home_spec = "first",
			};

			f.matrix_ns = xcalloc((size_t)o->repetitions, sizeof(double));
			f.pus = xcalloc(2, sizeof(int));
			f.pus[0] = cpus[i];
			f.pus[1] = cpus[j];
			f.cpus = xcalloc(2, 12);
			snprintf(f.cpus, 24, i == j ? "%d" : "%d;%d", cpus[i], cpus[j]);
			snprintf(f.name, sizeof(f.name), "c2c/workload:%s/pair:%d-%d", wl, cpus[i],
				 cpus[j]);
			f.cfg = cfg_new(sc, f.preset, f.wl, f.threads, o->sel.params,
					o->sel.nparams, err, sizeof(err));
			if (!f.cfg)
				usage_error("configuration", f.name, "%s", err);
			if (topo_home_parse(topo, "first", f.pus[0], &f.home, err, sizeof(err)))
				usage_error("--home", "first", "%s", err);
			fams_append(run, &f);
		}
	}
	for (int i = 0; scenario_param(sc, i); i++)
		add_param_col(run, scenario_param(sc, i)->name);
	free(cpus);
}
