/* SPDX-License-Identifier: MIT */
/*
 * report.h - the end-of-run tables, in the seeds' form: per scenario, workload, placement
 * and thread count, each preset's median ops/s over repetitions, its spread, and its
 * change against the scenario's base preset (its first, the seed's "before").
 */
#ifndef PCBENCH_REPORT_H
#define PCBENCH_REPORT_H

#include <stdio.h>

#include "plan.h"

struct report;

struct report *report_new(void);
/* report_add - one measured repetition of @f (ops_per_s is ignored unless status is ok). */
void report_add(struct report *r, const struct family *f, enum status status, double ops_per_s);
void report_print(const struct report *r, FILE *out);
void report_free(struct report *r);

#endif
