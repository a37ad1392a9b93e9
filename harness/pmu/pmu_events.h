/* SPDX-License-Identifier: MIT */
/* pmu_events.h - the per-PMU event table (pmu_events.c), for pmu.c and its test. */
#ifndef PCBENCH_PMU_EVENTS_H
#define PCBENCH_PMU_EVENTS_H

#include <stdint.h>

/* pmu_table_size - rows in the table. */
int pmu_table_size(void);
/*
 * pmu_table_row - row @i: PMU name, abstract event, libpfm4 string (NULL: deliberately not
 * mapped, @note says why), raw fallback encoding, note. Returns 0 past the end.
 */
int pmu_table_row(int i, const char **pmu, const char **event, const char **str,
		  uint64_t *raw_config, uint64_t *raw_config1, const char **note);
/* pmu_table_abstract - the abstract event @i in column order; NULL past the end. */
const char *pmu_table_abstract(int i);

#endif
