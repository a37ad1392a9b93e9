// SPDX-License-Identifier: MIT
/*
 * pmu_list.c - --list-events (the table of one PMU: per abstract event its string or terms,
 * where the encoding comes from, the encoding, whether it opens here) and the counters of
 * the --dry-run plan (one resolved set).
 */
#include <stdio.h>
#include <string.h>

#include "pmu_int.h"
#include "table.h"
#include "util.h"

/* pmu_header - "pmu: NAME (...)" lines for PMU @target ("" none) as seen from here. */
static void pmu_header(FILE *out, const char *target, int named)
{
	const struct pmu_host *h = pmu_host();
	const struct pmu_cpu *c = target[0] ? pmu_cpu_by_name(target) : NULL;
	const char *desc;
	char cpu[128];
	int present = 0;

	pmu_host_desc(cpu, sizeof(cpu));
	if (!c) {
		fprintf(out,
			"pmu: none known (CPU %s; libpfm4 core PMU: %s): generic perf events "
			"only\n",
			cpu, h->core[0] ? h->core : "none");
		return;
	}
	desc = pfm_pmu_desc(target, &present);
	fprintf(out, "pmu: %s (%s%s%s), ", target, c->desc, desc ? "; libpfm4: " : "",
		desc ? desc : "; not in this libpfm4");
	if (!strcmp(target, h->pmu))
		fprintf(out, "this machine (found by %s: %s)\n", h->how, cpu);
	else
		fprintf(out, "not this machine: encoded only\n");
	if (c->alias_of)
		fprintf(out, "rows: those of %s, with the %s:: prefix rewritten to %s::\n",
			c->alias_of, c->alias_of, target);
	fprintf(out, "encodings from: %s\n", c->source);
	fprintf(
	    out, "raw terms encoded through: %s\n",
	    have_core_pmu()
		? "this machine's sysfs core PMU (type, format/*)"
		: "the kernel's built-in formats (x86, Arm), type 4 (no core PMU in sysfs here)");
	if (named && strcmp(target, h->pmu))
		fprintf(out, "this machine: %s (CPU %s)\n",
			h->pmu[0] ? h->pmu : "no PMU of the table (generic perf events)", cpu);
}

int pmu_list_events(FILE *out, const char *pmu_name, char *err, size_t errlen)
{
	static const struct table_col cols[] = {
	    {"event", 0},    {"string or terms", 0}, {"source", 0},
	    {"encoding", 0}, {"opens here", 0},	     {"note", 0},
	};
	int named = pmu_name && pmu_name[0];
	const char *target, *a;
	struct table *t;

	if (!pfm_ready(err, errlen, "--pmu", named ? pmu_name : "(this machine)"))
		return -1;
	if (named && !pmu_check_name(pmu_name, err, errlen))
		return -1;
	target = named ? pmu_name : pmu_host()->pmu;
	pmu_header(out, target, named);
	t = table_new(6, cols);
	for (int i = 0; (a = pmu_table_abstract(i)); i++) {
		char r[6][256];
		const char *cells[6];
		struct pmu_enc e;

		pmu_encode_event(target, a, 0, &e);
		snprintf(r[0], sizeof(r[0]), "%s", a);
		snprintf(r[1], sizeof(r[1]), "%s", e.str[0] ? e.str : "-");
		snprintf(r[2], sizeof(r[2]), "%s", e.encoded ? e.source : e.mapped ? "none" : "-");
		pmu_attr_text(e.encoded ? &e.attr : NULL, r[3], sizeof(r[3]));
		snprintf(r[5], sizeof(r[5]), "%s", e.note);
		if (!e.encoded) {
			snprintf(r[4], sizeof(r[4]), "-");
			snprintf(r[5], sizeof(r[5]), "%s", e.mapped || !e.note[0] ? e.why : e.note);
		} else if (!e.present) {
			snprintf(r[4], sizeof(r[4]), "n/a (%s)", e.why);
		} else {
			char why[160];
			int rc;

			finish_attr(&e.attr);
			rc = probe(&e.attr);
			if (rc)
				open_reason(why, sizeof(why), &e.attr, rc);
			snprintf(r[4], sizeof(r[4]), "%s%s", rc ? "no: " : "yes", rc ? why : "");
		}
		for (int c = 0; c < 6; c++)
			cells[c] = r[c];
		table_add(t, cells);
	}
	table_print(t, out, TABLE_TEXT);
	table_free(t);
	if (fflush(out) || ferror(out)) {
		set_err(err, errlen, "--list-events: output: write error");
		return -1;
	}
	return 0;
}

void pmu_print_set(FILE *out, const struct pmu_set *s)
{
	static const struct table_col cols[] = {
	    {"event", 0}, {"string or terms", 0}, {"source", 0}, {"encoding", 0}, {"counted", 0},
	};
	struct table *t;

	if (!s || !s->n)
		return;
	fprintf(out, "\ncounters: ");
	pmu_header(out, s->pmu, 0);
	t = table_new(5, cols);
	for (int i = 0; i < s->n; i++) {
		const struct pmu_ev *e = &s->ev[i];
		char enc[128], counted[300];
		const char *cells[5];

		pmu_attr_text(pmu_event_attr(s, i), enc, sizeof(enc));
		snprintf(counted, sizeof(counted), "%s%s",
			 e->ok ? "yes" : "no: ", e->ok ? "" : e->why);
		cells[0] = e->name;
		cells[1] = e->str ? e->str : "-";
		cells[2] = e->source && e->source[0] ? e->source : "-";
		cells[3] = enc;
		cells[4] = counted;
		table_add(t, cells);
	}
	table_print(t, out, TABLE_TEXT);
	table_free(t);
}
