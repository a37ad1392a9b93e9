// SPDX-License-Identifier: MIT
/*
 * pmu_encode.c - one abstract event for one PMU: its table row, its perf_event_attr and
 * where that came from. libpfm4 encodes the row's string when it can; otherwise the row's
 * raw terms are encoded through sysfs (pmu_sysfs.c). The source is recorded either way.
 */
#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "pmu_int.h"

int pmu_is_pseudo(const char *pmu)
{
	return !strcmp(pmu, "software") || !strncmp(pmu, "generic", 7);
}

int pmu_find_row(const char *pmu, const char *event, struct pmu_row *out, char *buf, size_t buflen)
{
	char vend[32];
	const char *cand[3];
	int nc = 0;

	if (pmu[0]) {
		cand[nc++] = pmu;
	} else {
		snprintf(vend, sizeof(vend), "generic:%s", pmu_host()->vendor);
		cand[nc++] = vend;
		cand[nc++] = "generic";
	}
	cand[nc++] = "software";
	for (int c = 0; c < nc; c++)
		if (pmu_table_find(cand[c], event, out, buf, buflen))
			return 1;
	return 0;
}

/* unmapped - why @event has no encoding for @pmu. */
static void unmapped(struct pmu_enc *e, const char *pmu, const char *note)
{
	const struct pmu_host *h = pmu_host();
	char cpu[96];

	if (note[0] && pmu[0])
		snprintf(e->why, sizeof(e->why), "not mapped for %s (%s)", pmu, note);
	else if (note[0])
		snprintf(e->why, sizeof(e->why), "not mapped (%s)", note);
	else if (pmu[0])
		snprintf(e->why, sizeof(e->why), "not mapped for %s", pmu);
	else if (h->core[0])
		snprintf(e->why, sizeof(e->why), "not mapped: PMU %s is not in pcbench's table",
			 h->core);
	else {
		pmu_host_desc(cpu, sizeof(cpu));
		snprintf(e->why, sizeof(e->why),
			 "not mapped: %s is not in pcbench's table and libpfm4 detects no core PMU",
			 cpu);
	}
}

void pmu_encode_event(const char *pmu, const char *event, int kernel, struct pmu_enc *e)
{
	const struct pmu_host *h = pmu_host();
	const struct pmu_cpu *cpu = pmu_cpu_by_name(pmu);
	int here = pmu[0] && !strcmp(pmu, h->pmu);
	struct pmu_row r;
	char buf[256], pfmpmu[64], via[96], err[160];
	int rc = PFM_ERR_NOTFOUND, present = 0;

	memset(e, 0, sizeof(*e));
	if (!pmu_find_row(pmu, event, &r, buf, sizeof(buf)) || (!r.str && !r.terms)) {
		if (pmu_find_row(pmu, event, &r, buf, sizeof(buf)))
			snprintf(e->note, sizeof(e->note), "%s", r.note);
		unmapped(e, pmu, e->note);
		return;
	}
	e->mapped = 1;
	snprintf(e->note, sizeof(e->note), "%s", r.note);
	if (r.str) {
		snprintf(e->str, sizeof(e->str), "%s", r.str);
		rc = pfm_encode(r.str, kernel, &e->attr, &present, pfmpmu, sizeof(pfmpmu));
	}
	if (rc == PFM_SUCCESS) {
		e->encoded = 1;
		snprintf(e->source, sizeof(e->source), "libpfm4");
		/* A PMU found by the CPU table is this CPU's even where libpfm4 does not detect it.
		 */
		e->present = present || here;
		if (!e->present)
			snprintf(e->why, sizeof(e->why), "PMU %s not present", pfmpmu);
		return;
	}
	if (!r.terms) {
		snprintf(e->why, sizeof(e->why), "libpfm4 %s", pfm_errname(rc));
		return;
	}
	snprintf(e->str, sizeof(e->str), "%s", r.terms);
	if (pmu_sysfs_encode(r.terms, cpu ? cpu->vendor : h->vendor, kernel, &e->attr, via,
			     sizeof(via), err, sizeof(err)) < 0) {
		snprintf(e->why, sizeof(e->why), "table terms %s: %s", r.terms, err);
		return;
	}
	e->encoded = 1;
	snprintf(e->source, sizeof(e->source), "table (%s)", via);
	e->present = here;
	if (!e->present)
		snprintf(e->why, sizeof(e->why), "PMU %s not present", pmu);
}
