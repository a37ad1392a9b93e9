/* SPDX-License-Identifier: MIT */
/*
 * objects.h - objects.json, written into every run directory: for each repetition of each
 * family, its window on CLOCK_MONOTONIC (the clock of `perf record --clockid monotonic`),
 * the PUs of its threads and where each modelled object was, with the layout it follows.
 * Addresses are reused across repetitions, so only the time tells which window a sampled
 * address belongs to. `pcbench hitm report` reads it (docs/hitm.md has the format).
 */
#ifndef PCBENCH_OBJECTS_H
#define PCBENCH_OBJECTS_H

#include <stddef.h>

#include "measure.h"
#include "plan.h"

struct objects_log;

/*
 * objects_log_new - an empty log. @topology: the topology spec the model can load again
 * ("topology.xml", relative to the run directory, or "synthetic:..."); @params: the run's
 * --param NAME=VALUE strings and its --layout or NULL (what cfg_new_layout needs besides the
 * family).
 */
struct objects_log *objects_log_new(const char *topology, char *const *params, int nparams,
				    const char *layout);

/*
 * objects_log_add - repetition @rep of @f, its objects as f->m captured them (call before
 * meas_reset) and its window from @r (none when the measurement failed).
 */
void objects_log_add(struct objects_log *log, const struct family *f, int rep,
		     const struct meas_result *r);

/* objects_log_write - the log as JSON to @path (outfile.h). 0, or -1 after the message. */
int objects_log_write(const struct objects_log *log, const char *path);

void objects_log_free(struct objects_log *log);

#endif
