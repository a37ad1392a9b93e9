/* SPDX-License-Identifier: MIT */
/*
 * pmu_events.h - the event tables as data (pmu_events.c): the PMUs pcbench knows (one row
 * each, with an alias column and a CPU key) and the per-PMU rows mapping each abstract event
 * to a libpfm4 string and to raw encoding terms. Read by the rest of harness/pmu and tests.
 */
#ifndef PCBENCH_PMU_EVENTS_H
#define PCBENCH_PMU_EVENTS_H

#include <stddef.h>

/* A PMU of the table. */
struct pmu_cpu {
	const char *name;     /* libpfm4 PMU name; also the prefix of its rows' strings */
	const char *alias_of; /* NULL, or the PMU whose rows this one uses (prefix rewritten) */
	const char *vendor;   /* CPUID vendor */
	int family;	      /* CPU key: family (extended family added); 0: no key, the PMU
				 is found by libpfm4's detection */
	int models[4];	      /* CPU key: models, 0-terminated; models[0] == -1: any model */
	const char *desc;     /* the CPUs it covers */
	const char *source;   /* where the encodings of its rows come from */
};

/* One row: abstract event @event on PMU @pmu. */
struct pmu_row {
	const char *pmu;
	const char *event;
	const char *str;   /* fully qualified libpfm4 string; NULL: deliberately not mapped */
	const char *terms; /* raw encoding in the kernel's sysfs format terms
			      ("event=0xd2,umask=0x04"), used when libpfm4 cannot encode @str;
			      NULL: none */
	const char *note;  /* short phrase for --list-events and absent notes; never NULL */
};

/* pmu_cpu_at - PMU @i of the table; NULL past the end. */
const struct pmu_cpu *pmu_cpu_at(int i);
/* pmu_cpu_by_name - the PMU named @name, or NULL (pseudo PMUs are not PMUs). */
const struct pmu_cpu *pmu_cpu_by_name(const char *name);
/* pmu_cpu_by_id - the PMU keyed by this CPU (vendor, family, model), or NULL. */
const struct pmu_cpu *pmu_cpu_by_id(const char *vendor, int family, int model);

/* pmu_table_size - rows in the table; pmu_table_at - row @i as written (no alias). */
int pmu_table_size(void);
const struct pmu_row *pmu_table_at(int i);

/*
 * pmu_table_find - the row of @event for @pmu (a PMU of the table or a pseudo PMU:
 * "software", "generic", "generic:<vendor>"). An alias PMU gets its target's row with the
 * "target::" prefix of the string rewritten to "pmu::" in @buf. Returns 1 and fills @out,
 * or 0 when there is no row.
 */
int pmu_table_find(const char *pmu, const char *event, struct pmu_row *out, char *buf,
		   size_t buflen);

/* pmu_table_abstract - the abstract event @i in column order; NULL past the end. */
const char *pmu_table_abstract(int i);
/* pmu_is_abstract - @name is an abstract event. */
int pmu_is_abstract(const char *name);

#endif
