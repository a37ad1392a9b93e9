// SPDX-License-Identifier: MIT
/*
 * pmu_resolve.c - the set of events a run counts (--events): each abstract event encoded
 * for this machine's PMU (pmu_encode.c), each libpfm4 string as given, every one probed
 * once (open + close on the calling thread) so that the absent note is known before
 * anything is measured; and the set as JSON for context.json.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "pmu_int.h"
#include "strbuf.h"
#include "util.h"

static struct pmu_ev *set_find(struct pmu_set *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->ev[i].name, name))
			return &s->ev[i];
	return NULL;
}

static struct pmu_ev *set_add(struct pmu_set *s, const char *name, const char *str)
{
	struct pmu_ev *e;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->ev = xrealloc(s->ev, (size_t)s->cap * sizeof(*e));
	}
	e = &s->ev[s->n++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	e->str = str && str[0] ? xstrdup(str) : NULL;
	return e;
}

static void set_absent(struct pmu_ev *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_absent(struct pmu_ev *e, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	e->ok = 0;
	free(e->why);
	e->why = xstrdup(buf);
}

/* set_probe - finish @e's attr and open it once here; absent with the reason if that fails. */
static void set_probe(struct pmu_ev *e)
{
	char why[160];
	int rc;

	finish_attr(&e->attr);
	e->sw = e->attr.type == PERF_TYPE_SOFTWARE;
	rc = probe(&e->attr);
	if (rc) {
		open_reason(why, sizeof(why), &e->attr, rc);
		set_absent(e, "%s", why);
		return;
	}
	e->ok = 1;
}

/* add_abstract - add abstract event @name as the set's PMU maps it. */
static void add_abstract(struct pmu_set *s, const char *name)
{
	struct pmu_enc enc;
	struct pmu_ev *e;

	if (set_find(s, name))
		return;
	pmu_encode_event(s->pmu, name, s->kernel, &enc);
	e = set_add(s, name, enc.str);
	e->attr = enc.attr;
	e->source = xstrdup(enc.source);
	e->encoded = enc.encoded;
	if (!enc.mapped || !enc.encoded || !enc.present)
		set_absent(e, "%s", enc.why);
	else if (s->foreign && e->attr.type != PERF_TYPE_SOFTWARE)
		set_absent(e, "PMU %s not present", s->pmu);
	else
		set_probe(e);
}

/* stem - column stem of a libpfm4 string: [A-Za-z0-9_] kept (lowercased), the rest '_'. */
static char *stem(const char *str)
{
	char *s = xstrdup(str);

	for (char *p = s; *p; p++)
		*p = isalnum((unsigned char)*p) || *p == '_' ? (char)tolower((unsigned char)*p)
							     : '_';
	return s;
}

/* add_string - add fully qualified libpfm4 string @str; 0 with @err on a parse error. */
static int add_string(struct pmu_set *s, const char *str, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	struct pmu_ev *e, *old;
	char *name = stem(str);
	char pmu[64];
	int present, rc;

	rc = pfm_encode(str, s->kernel, &attr, &present, pmu, sizeof(pmu));
	if (rc != PFM_SUCCESS) {
		set_err(err, errlen, "--events: %s: libpfm4 cannot encode it (%s: %s)", str,
			pfm_errname(rc), pfm_strerror(rc));
		free(name);
		return 0;
	}
	if (!s->kernel && !attr.exclude_kernel) {
		set_err(err, errlen, "--events: %s: kernel-mode counting needs --events-kernel",
			str);
		free(name);
		return 0;
	}
	old = set_find(s, name);
	if (old) {
		int same = old->str && !strcmp(old->str, str);

		if (!same)
			set_err(err, errlen, "--events: %s: its column %s is already used%s%s", str,
				name, old->str ? " by " : "", old->str ? old->str : "");
		free(name);
		return same;
	}
	e = set_add(s, name, str);
	free(name);
	e->attr = attr;
	e->source = xstrdup("libpfm4");
	e->encoded = 1;
	if (!present)
		set_absent(e, "PMU %s not present", pmu);
	else if (s->foreign && attr.type != PERF_TYPE_SOFTWARE)
		set_absent(e, "PMU %s not present", s->pmu);
	else
		set_probe(e);
	return 1;
}

static void add_auto(struct pmu_set *s)
{
	struct pmu_row r;
	char buf[256];
	const char *a;

	for (int i = 0; (a = pmu_table_abstract(i)); i++)
		if (pmu_find_row(s->pmu, a, &r, buf, sizeof(buf)) && (r.str || r.terms))
			add_abstract(s, a);
}

/* build_note - "a,b: why; c: why2" over the absent events, grouped by reason. */
static void build_note(struct pmu_set *s)
{
	struct sb note = {0};
	char *done = xcalloc((size_t)s->n + 1, 1);

	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].ok || done[i])
			continue;
		sb_printf(&note, "%s%s", note.n ? "; " : "", s->ev[i].name);
		for (int j = i + 1; j < s->n; j++) {
			if (!s->ev[j].ok && !done[j] && !strcmp(s->ev[j].why, s->ev[i].why)) {
				sb_printf(&note, ",%s", s->ev[j].name);
				done[j] = 1;
			}
		}
		sb_printf(&note, ": %s", s->ev[i].why);
	}
	free(done);
	s->note = note.p ? note.p : xstrdup("");
}

static void unknown_event(const char *tok, char *err, size_t errlen)
{
	char names[256] = "";
	size_t len = 0;
	const char *a;

	for (int i = 0; (a = pmu_table_abstract(i)) && len < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "", a);
	set_err(err, errlen,
		"--events: %s: unknown event (abstract names: %s; or a fully qualified libpfm4 "
		"string pmu::EVENT[:UMASK])",
		tok, names);
}

static int check_kernel(char *err, size_t errlen)
{
	struct perf_event_attr a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_hv = 1;
	finish_attr(&a);
	rc = probe(&a);
	if (rc == EACCES || rc == EPERM) {
		set_err(err, errlen,
			"--events-kernel: perf_event_paranoid=%d: kernel-mode counting not "
			"permitted (perf_event_open %s; needs perf_event_paranoid <= 1 or "
			"CAP_PERFMON)",
			paranoid(), errname(rc));
		return 0;
	}
	return 1;
}

void pmu_set_free(struct pmu_set *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n; i++) {
		free(s->ev[i].name);
		free(s->ev[i].str);
		free(s->ev[i].why);
		free(s->ev[i].source);
	}
	free(s->ev);
	free(s->note);
	free(s);
}

/* pmu_known - "skx, clx, ..." into @buf: the PMUs --pmu accepts. */
static void pmu_known(char *buf, size_t len)
{
	const struct pmu_cpu *c;
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; (c = pmu_cpu_at(i)) && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", c->name);
}

int pmu_check_name(const char *name, char *err, size_t errlen)
{
	char known[512];

	if (pmu_cpu_by_name(name))
		return 1;
	pmu_known(known, sizeof(known));
	set_err(err, errlen, "--pmu: %s: unknown PMU (known: %s)", name, known);
	return 0;
}

struct pmu_set *pmu_resolve_for(const char *spec, int kernel, const char *pmu, char *err,
				size_t errlen)
{
	struct pmu_set *s;
	char *copy, *rest, *tok;
	int ntok = 0, none = 0, ok = 1;

	if (!spec)
		spec = "auto";
	s = xcalloc(1, sizeof(*s));
	s->kernel = kernel;
	if (!strcmp(spec, "none")) {
		s->note = xstrdup("");
		return s;
	}
	if (!pfm_ready(err, errlen, "--events", spec) ||
	    (pmu && !pmu_check_name(pmu, err, errlen)) || (kernel && !check_kernel(err, errlen))) {
		pmu_set_free(s);
		return NULL;
	}
	snprintf(s->pmu, sizeof(s->pmu), "%s", pmu ? pmu : pmu_host()->pmu);
	s->foreign = pmu && strcmp(pmu, pmu_host()->pmu);
	s->group_max = pmu_host()->cntrs;
	if (s->group_max > 1 && read_int_file("/proc/sys/kernel/nmi_watchdog", 0) > 0)
		s->group_max--; /* the watchdog holds a counter */
	/* Debugging aid (and tests): force small groups, i.e. multiplexing. */
	if (getenv("PCBENCH_PMU_GROUP_MAX"))
		s->force_max = atoi(getenv("PCBENCH_PMU_GROUP_MAX"));
	if (s->force_max < 0)
		s->force_max = 0;

	rest = copy = xstrdup(spec);
	while (ok && (tok = strsep(&rest, ","))) {
		char *end;

		while (isspace((unsigned char)*tok))
			tok++;
		end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = 0;
		ntok++;
		if (!*tok) {
			set_err(err, errlen, "--events: %s: %s", spec[0] ? spec : "\"\"",
				spec[0] ? "empty event name" : "empty event list");
			ok = 0;
		} else if (!strcmp(tok, "none")) {
			none = 1;
		} else if (!strcmp(tok, "auto")) {
			add_auto(s);
		} else if (pmu_is_abstract(tok)) {
			add_abstract(s, tok);
		} else if (strstr(tok, "::")) {
			ok = add_string(s, tok, err, errlen);
		} else {
			unknown_event(tok, err, errlen);
			ok = 0;
		}
	}
	if (ok && none && ntok > 1) {
		set_err(err, errlen, "--events: %s: none cannot be combined with events", spec);
		ok = 0;
	}
	free(copy);
	if (!ok) {
		pmu_set_free(s);
		return NULL;
	}
	build_note(s);
	return s;
}

struct pmu_set *pmu_resolve(const char *spec, int kernel, char *err, size_t errlen)
{
	return pmu_resolve_for(spec, kernel, NULL, err, errlen);
}

int pmu_nevents(const struct pmu_set *s)
{
	return s ? s->n : 0;
}

const char *pmu_event_name(const struct pmu_set *s, int i)
{
	return s && i >= 0 && i < s->n ? s->ev[i].name : NULL;
}

const char *pmu_event_source(const struct pmu_set *s, int i)
{
	return s && i >= 0 && i < s->n && s->ev[i].source ? s->ev[i].source : "";
}

const struct perf_event_attr *pmu_event_attr(const struct pmu_set *s, int i)
{
	return s && i >= 0 && i < s->n && s->ev[i].encoded ? &s->ev[i].attr : NULL;
}

const char *pmu_absent_note(const struct pmu_set *s)
{
	return s && s->note ? s->note : "";
}

void pmu_attr_text(const struct perf_event_attr *a, char *buf, size_t len)
{
	if (!a)
		snprintf(buf, len, "-");
	else if (a->config1)
		snprintf(buf, len, "type %u config 0x%llx config1 0x%llx", a->type,
			 (unsigned long long)a->config, (unsigned long long)a->config1);
	else
		snprintf(buf, len, "type %u config 0x%llx", a->type, (unsigned long long)a->config);
}

json_t *pmu_set_json(const struct pmu_set *s)
{
	const struct pmu_host *h;
	json_t *j = json_object(), *evs = json_array();
	char cpu[128];

	if (!s) {
		json_decref(evs);
		return j;
	}
	h = pmu_host();
	pmu_host_desc(cpu, sizeof(cpu));
	json_object_set_new(j, "cpu", json_string(cpu));
	json_object_set_new(j, "pmu", json_string(s->pmu));
	json_object_set_new(j, "pmu_found_by", json_string(h->how));
	for (int i = 0; i < s->n; i++) {
		const struct pmu_ev *e = &s->ev[i];
		json_t *o = json_object();

		json_object_set_new(o, "name", json_string(e->name));
		json_object_set_new(o, "source", json_string(e->source ? e->source : ""));
		json_object_set_new(o, "string", e->str ? json_string(e->str) : json_null());
		if (e->encoded) {
			char hex[24];

			json_object_set_new(o, "type", json_integer(e->attr.type));
			snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)e->attr.config);
			json_object_set_new(o, "config", json_string(hex));
			snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)e->attr.config1);
			json_object_set_new(o, "config1", json_string(hex));
		}
		json_object_set_new(o, "counted", json_boolean(e->ok));
		if (!e->ok && e->why)
			json_object_set_new(o, "absent", json_string(e->why));
		json_array_append_new(evs, o);
	}
	json_object_set_new(j, "events", evs);
	return j;
}
