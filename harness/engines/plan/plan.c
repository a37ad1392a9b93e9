// SPDX-License-Identifier: MIT
/* plan.c - the selection options, the walk over what they select, and family placement. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "topology.h"
#include "num.h"
#include "opt.h"
#include "util.h"

const char *const status_names[] = {"ok", "error", "skipped", "disturbed"};

static int parse_count(const char *s, size_t len, int max, int *out)
{
	long v;

	if (len == 3 && !strncmp(s, "max", 3)) {
		*out = max;
		return 0;
	}
	if (num_longn(s, len, 10, 1, 1 << 20, &v))
		return -1;
	*out = (int)v;
	return 0;
}

int parse_threads(const char *s, int max, int *out, int cap, char *err, size_t errlen)
{
	int n = 0;

	if (!*s) {
		set_err(err, errlen, "empty list");
		return -1;
	}
	while (*s) {
		size_t len = strcspn(s, ",");
		const char *dash = memchr(s, '-', len);
		int lo, hi;

		if (dash ? parse_count(s, (size_t)(dash - s), max, &lo) ||
			       parse_count(dash + 1, len - (size_t)(dash - s) - 1, max, &hi)
			 : parse_count(s, len, max, &lo)) {
			set_err(err, errlen, "%.*s: expected N, N-M or max, N >= 1", (int)len, s);
			return -1;
		}
		if (!dash)
			hi = lo;
		if (hi < lo) {
			set_err(err, errlen, "%.*s: empty range", (int)len, s);
			return -1;
		}
		for (int v = lo; v <= hi; v++) {
			int dup = 0;

			for (int i = 0; i < n; i++)
				dup |= out[i] == v;
			if (dup)
				continue;
			if (n == cap) {
				set_err(err, errlen, "more than %d thread counts", cap);
				return -1;
			}
			out[n++] = v;
		}
		s += len;
		if (*s == ',')
			s++;
	}
	return n;
}

char **split_list(const char *s)
{
	size_t n = 2, len = strlen(s);
	char **v, *copy;
	int i = 0;

	for (const char *p = s; *p; p++)
		n += *p == ',';
	v = xmalloc(n * sizeof(char *) + len + 1);
	copy = memcpy((char *)(v + n), s, len + 1);
	for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
		v[i++] = tok;
	v[i] = NULL;
	return v;
}

int family_place(struct family *f, const struct topo *t, char *err, size_t errlen)
{
	int *pus = xcalloc((size_t)f->threads, sizeof(int));
	size_t used = 0;
	int ret = topo_place(t, f->placement, f->threads, pus, err, errlen);

	if (ret == TOPO_UNKNOWN) {
		free(pus);
		return -1;
	}
	if (ret == TOPO_NOFIT) {
		snprintf(f->skip, sizeof(f->skip), "placement %s: %s", f->placement, err);
		free(pus);
		return 0;
	}
	f->pus = pus;
	f->cpus = xcalloc((size_t)f->threads, 12);
	for (int i = 0; i < f->threads; i++)
		used += (size_t)sprintf(f->cpus + used, "%s%d", i ? ";" : "", pus[i]);
	return 0;
}

int family_config(struct family *f, const struct selection *s, char *err, size_t errlen)
{
	f->cfg = cfg_new_layout(f->sc, f->preset, f->wl, f->threads, s->params, s->nparams,
				f->layout, f->layout_name, err, errlen);
	return f->cfg ? 0 : -1;
}

void family_resolve(struct family *f, const struct selection *s, const struct topo *t,
		    const char *name)
{
	char err[512];

	if (family_config(f, s, err, sizeof(err)))
		usage_error("configuration", name, "%s", err);
	if (family_place(f, t, err, sizeof(err)))
		usage_error("--placement", s->placement, "%s", err);
}

int in_list(char **list, const char *name)
{
	if (!list)
		return 1;
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], name))
			return 1;
	return 0;
}

int scenario_selected(char **scn, const struct scenario *sc)
{
	return scn ? in_list(scn, sc->name) : !(sc->flags & BENCH_KERNEL);
}

int selection_each(const struct scenario *sc, char **pre, char **wls,
		   int (*fn)(const struct pick *k, void *arg), void *arg)
{
	for (int p = 0; sc->presets[p].name; p++) {
		if (!in_list(pre, sc->presets[p].name))
			continue;
		for (int w = 0; sc->workloads[w].name; w++) {
			struct pick k = {sc, &sc->presets[p], &sc->workloads[w]};
			int ret;

			if (in_list(wls, k.wl->name) && (ret = fn(&k, arg)))
				return ret;
		}
	}
	return 0;
}

void selection_add_param(struct selection *s, const char *arg)
{
	size_t len = strcspn(arg, "=");

	if (!arg[len] || !len)
		usage_error("--param", arg, "expected NAME=VALUE");
	if (opt_param_twice(s->params, s->nparams, arg))
		usage_error("--param", arg, "parameter %.*s given twice", (int)len, arg);
	if (s->nparams == SELECTION_MAX_PARAMS)
		usage_error("--param", arg, "more than %d parameters", SELECTION_MAX_PARAMS);
	s->params[s->nparams++] = (char *)arg;
}

void selection_param_opt(void *sel, const char *value, const struct opt *row)
{
	(void)row;
	selection_add_param(sel, value);
}

const char *selection_more(const char *name)
{
	return strcmp(name, "placement") ? NULL : topo_policy_usage();
}

void selection_check(const struct scenario *const *table, const struct selection *s, char **scn,
		     char **pre, char **wls)
{
	/* A name listed twice would measure its families twice: duplicate rows, false n. */
	for (int k = 0; k < 3; k++) {
		char **list = k == 0 ? scn : k == 1 ? pre : wls;

		for (int i = 0; list && list[i]; i++)
			for (int j = 0; j < i; j++)
				if (!strcmp(list[i], list[j]))
					usage_error(k == 0   ? "--scenario"
						    : k == 1 ? "--preset"
							     : "--workload",
						    list[i], "listed twice");
	}
	for (int i = 0; scn && scn[i]; i++) {
		int found = 0;

		for (int k = 0; table[k]; k++)
			found |= !strcmp(table[k]->name, scn[i]);
		if (!found)
			usage_error("--scenario", scn[i], "no such scenario (see --list)");
	}
	for (int k = 0; k < 2; k++) {
		char **list = k ? wls : pre;

		for (int i = 0; list && list[i]; i++) {
			int found = 0;

			for (int t = 0; table[t]; t++)
				if (scenario_selected(scn, table[t]))
					found |= k ? workload_find(table[t], list[i]) != NULL
						   : preset_find(table[t], list[i]) != NULL;
			if (!found)
				usage_error(k ? "--workload" : "--preset", list[i],
					    "no selected scenario has it (see --list)");
		}
	}
	for (int i = 0; i < s->nparams; i++) {
		size_t len = strcspn(s->params[i], "=");
		int found = 0;

		for (int t = 0; table[t]; t++)
			found |= scenario_selected(scn, table[t]) &&
				 param_arg_known(table[t], s->params[i]);
		if (!found)
			usage_error("--param", s->params[i],
				    "no selected scenario has parameter %.*s", (int)len,
				    s->params[i]);
	}
}
