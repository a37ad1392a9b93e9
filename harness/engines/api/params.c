// SPDX-License-Identifier: MIT
/* params.c - scenario parameters: resolution, validation, and the scenario-side accessors. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "num.h"
#include "util.h"

struct bench_cfg {
	const struct scenario *sc;
	const struct bench_preset *preset;
	const struct bench_workload *wl;
	int threads;
	int nparams;
	char **values;
	const struct layout *layout; /* of the BENCH_LAYOUT parameter (layout_get), or NULL */
};

void bench_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_err(err, errlen, fmt, ap); /* the scenarios' name for set_err */
	va_end(ap);
}

/*
 * The harness's own parameters: every scenario accepts them after its own, with one
 * implementation in the harness (work: measure.c spins it after every operation).
 */
const struct bench_param harness_params[] = {
    {"work", "0",
     "ns of private, uncontended work after every operation (calibrated once per run, see "
     "context.json; 0: none)",
     NULL, 0, 100000000},
    {0},
};

const struct bench_param *scenario_param(const struct scenario *sc, int i)
{
	int n = 0;

	while (sc->params && sc->params[n].name)
		n++;
	if (i < n)
		return &sc->params[i];
	for (int k = 0; harness_params[k].name; k++)
		if (i - n == k)
			return &harness_params[k];
	return NULL;
}

void bench_note(const char *fmt, ...)
{
	static char *seen[32];
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	char buf[1024];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&lock);
	for (i = 0; i < 32 && seen[i] && strcmp(seen[i], buf); i++)
		;
	if (i == 32 || !seen[i]) {
		if (i < 32)
			seen[i] = xstrdup(buf);
		warn_msg("note: %s", buf);
	}
	pthread_mutex_unlock(&lock);
}

static int param_index(const struct scenario *sc, const char *name, size_t len)
{
	const struct bench_param *p;

	for (int i = 0; (p = scenario_param(sc, i)); i++)
		if (strlen(p->name) == len && !strncmp(p->name, name, len))
			return i;
	return -1;
}

int scenario_layout_param(const struct scenario *sc)
{
	const struct bench_param *p;

	for (int i = 0; (p = scenario_param(sc, i)); i++)
		if ((p->choices && !strcmp(p->choices, BENCH_LAYOUT)) || p == sc->layout_param)
			return i;
	return -1;
}

int scenario_takes_layout(const struct scenario *sc)
{
	int i = scenario_layout_param(sc);
	const char *c = i < 0 ? NULL : scenario_param(sc, i)->choices;

	return c && !strcmp(c, BENCH_LAYOUT);
}

int param_arg_known(const struct scenario *sc, const char *arg)
{
	return param_index(sc, arg, strcspn(arg, "=")) >= 0;
}

/*
 * apply_user - one -D NAME=VALUE: the value is everything after the first '=', spaces
 * included (a layout path with a space); a name @sc does not have is skipped (another
 * selected scenario has it: selection_check made sure).
 */
static void apply_user(const struct scenario *sc, char **values, const char *arg)
{
	size_t len = strcspn(arg, "=");
	int i = param_index(sc, arg, len);

	if (i >= 0 && arg[len] == '=') {
		free(values[i]);
		values[i] = xstrdup(arg + len + 1);
	}
}

/* apply - apply a scenario's own "k=v k=v" set to @values; unknown keys are errors. */
static int apply(const struct scenario *sc, char **values, const char *set, const char *from,
		 char *err, size_t errlen)
{
	const char *p = set;

	while (p && *p) {
		const char *end, *eq;
		int i;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		end = strchr(p, ' ');
		if (!end)
			end = p + strlen(p);
		eq = memchr(p, '=', (size_t)(end - p));
		if (!eq) {
			bench_error(err, errlen, "%s: %.*s: expected name=value", from,
				    (int)(end - p), p);
			return -1;
		}
		i = param_index(sc, p, (size_t)(eq - p));
		if (i < 0) {
			bench_error(err, errlen, "%s: %.*s: scenario %s has no such parameter",
				    from, (int)(eq - p), p, sc->name);
			return -1;
		}
		if (i >= 0) {
			free(values[i]);
			values[i] = strndup(eq + 1, (size_t)(end - eq - 1));
		}
		p = end;
	}
	return 0;
}

static int validate(const struct bench_param *pd, const char *v, char *err, size_t errlen)
{
	long x;

	if (pd->choices == NULL) {
		const char *d = v + (v[0] == '-');

		/* 010 is read as ten by a person and as eight by strtol: refused, not guessed. */
		if (d[0] == '0' && d[1] >= '0' && d[1] <= '9') {
			bench_error(err, errlen,
				    "%s: %s: a leading zero is ambiguous (octal?): write the "
				    "decimal number, or 0x for hex",
				    pd->name, v);
			return -1;
		}
		if (num_long(v, 0, pd->min, pd->max, &x)) {
			bench_error(err, errlen, "%s: %s: expected an integer in [%ld, %ld]",
				    pd->name, v, pd->min, pd->max);
			return -1;
		}
		return 0;
	}
	if (!strcmp(pd->choices, BENCH_LAYOUT))
		return 0; /* loaded by cfg_new_layout, once all values are valid */
	if (!strcmp(pd->choices, BENCH_FILE))
		return 0; /* read and validated by the scenario's check() */
	for (const char *c = pd->choices; *c;) {
		size_t n = strcspn(c, "|");

		if (strlen(v) == n && !strncmp(c, v, n))
			return 0;
		c += n + (c[n] == '|');
	}
	bench_error(err, errlen, "%s: %s: expected one of %s", pd->name, v, pd->choices);
	return -1;
}

struct bench_cfg *cfg_new(const struct scenario *sc, const struct bench_preset *preset,
			  const struct bench_workload *wl, int threads, char *const *user,
			  int nuser, char *err, size_t errlen)
{
	return cfg_new_layout(sc, preset, wl, threads, user, nuser, NULL, NULL, err, errlen);
}

struct bench_cfg *cfg_new_layout(const struct scenario *sc, const struct bench_preset *preset,
				 const struct bench_workload *wl, int threads, char *const *user,
				 int nuser, const struct layout *layout, const char *layout_name,
				 char *err, size_t errlen)
{
	struct bench_cfg *cfg = xcalloc(1, sizeof(*cfg));
	int li = scenario_takes_layout(sc) ? scenario_layout_param(sc) : -1;
	char from[160];

	cfg->sc = sc;
	cfg->preset = preset;
	cfg->wl = wl;
	cfg->threads = threads;
	while (scenario_param(sc, cfg->nparams))
		cfg->nparams++;
	cfg->values = xcalloc((size_t)cfg->nparams + 1, sizeof(char *));
	for (int i = 0; i < cfg->nparams; i++)
		cfg->values[i] = xstrdup(scenario_param(sc, i)->def);

	snprintf(from, sizeof(from), "%s workload %s", sc->name, wl->name);
	if (apply(sc, cfg->values, wl->set, from, err, errlen))
		goto fail;
	snprintf(from, sizeof(from), "%s preset %s", sc->name, preset->name);
	if (apply(sc, cfg->values, preset->set, from, err, errlen))
		goto fail;
	for (int i = 0; i < nuser; i++)
		apply_user(sc, cfg->values, user[i]);
	if (layout) {
		if (li < 0) {
			set_err(err, errlen, "scenario %s takes no layout", sc->name);
			goto fail;
		}
		free(cfg->values[li]);
		cfg->values[li] = xstrdup(layout_name);
		cfg->layout = layout;
	}
	for (int i = 0; i < cfg->nparams; i++)
		if (validate(scenario_param(sc, i), cfg->values[i], err, errlen))
			goto fail;
	if (li >= 0 && !cfg->layout && !(cfg->layout = layout_get(cfg->values[li], err, errlen)))
		goto fail;
	if (sc->check && sc->check(cfg, err, errlen))
		goto fail;
	return cfg;
fail:
	cfg_free(cfg);
	return NULL;
}

void cfg_free(struct bench_cfg *cfg)
{
	if (!cfg)
		return;
	for (int i = 0; i < cfg->nparams; i++)
		free(cfg->values[i]);
	free(cfg->values);
	free(cfg);
}

const struct scenario *cfg_scenario(const struct bench_cfg *cfg)
{
	return cfg->sc;
}

const struct bench_preset *cfg_preset(const struct bench_cfg *cfg)
{
	return cfg->preset;
}

const char *cfg_value(const struct bench_cfg *cfg, int i)
{
	return cfg->values[i];
}

const char *cfg_layout_name(const struct bench_cfg *cfg)
{
	int i = scenario_layout_param(cfg->sc);

	return i < 0 ? "" : cfg->values[i];
}

const char *bench_str(const struct bench_cfg *cfg, const char *name)
{
	int i = param_index(cfg->sc, name, strlen(name));

	return i < 0 ? "" : cfg->values[i];
}

long bench_long(const struct bench_cfg *cfg, const char *name)
{
	long x = 0;

	num_long(bench_str(cfg, name), 0, LONG_MIN, LONG_MAX, &x);
	return x;
}

const char *bench_workload_name(const struct bench_cfg *cfg)
{
	return cfg->wl->name;
}

int bench_threads(const struct bench_cfg *cfg)
{
	return cfg->threads;
}

/* Layouts are loaded once per name for the whole process and never freed. */
static struct {
	char *name;
	struct layout *layout;
} layout_cache[64];
static pthread_mutex_t layout_lock = PTHREAD_MUTEX_INITIALIZER;

const struct layout *layout_get(const char *name, char *err, size_t errlen)
{
	struct layout *l = NULL;
	size_t i;

	pthread_mutex_lock(&layout_lock);
	for (i = 0; i < sizeof(layout_cache) / sizeof(layout_cache[0]) && layout_cache[i].name;
	     i++) {
		if (!strcmp(layout_cache[i].name, name)) {
			l = layout_cache[i].layout;
			goto out;
		}
	}
	if (i == sizeof(layout_cache) / sizeof(layout_cache[0])) {
		set_err(err, errlen, "%s: too many different layouts in one run", name);
		goto out;
	}
	l = layout_load(name, err, errlen);
	if (l) {
		layout_cache[i].name = xstrdup(name);
		layout_cache[i].layout = l;
	}
out:
	pthread_mutex_unlock(&layout_lock);
	return l;
}

const struct layout *bench_layout(const struct bench_cfg *cfg)
{
	return cfg->layout;
}

const struct bench_preset *preset_find(const struct scenario *sc, const char *name)
{
	for (int i = 0; sc->presets[i].name; i++)
		if (!strcmp(sc->presets[i].name, name))
			return &sc->presets[i];
	return NULL;
}

const struct bench_workload *workload_find(const struct scenario *sc, const char *name)
{
	for (int i = 0; sc->workloads[i].name; i++)
		if (!strcmp(sc->workloads[i].name, name))
			return &sc->workloads[i];
	return NULL;
}

const struct layout *cfg_layout(const struct bench_cfg *cfg)
{
	return cfg->layout;
}
