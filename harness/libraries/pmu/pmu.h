/* SPDX-License-Identifier: MIT */
/*
 * pmu.h - hardware and software counters through libpfm4 and perf_event_open: abstract
 * events (cycles, hitm_local, ...) mapped per PMU by a data table, opened per benchmark
 * thread, enabled only around the measured window, scaled for multiplexing, and reported as
 * absent (with a reason) rather than as zero when they cannot be counted.
 */
#ifndef PCBENCH_PMU_H
#define PCBENCH_PMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/* The events a run counts, resolved once before anything is measured. */
struct pmu_set;

/*
 * pmu_resolve - resolve @spec: "auto" (every abstract event this PMU has), "none", or a
 * comma-separated list of abstract names and fully qualified libpfm strings
 * ("pmu::EVENT:UMASK"). @kernel adds kernel-mode counting (--events-kernel).
 * Returns NULL with "what: value: why" in @err for a name that is neither (exit 2).
 * Events that are known but cannot be counted here are NOT errors: they stay in the set
 * and are reported absent, with a reason.
 */
struct pmu_set *pmu_resolve(const char *spec, int kernel, char *err, size_t errlen);
/*
 * pmu_resolve_for - the same for PMU @pmu of the table (--dry-run --pmu NAME); NULL: this
 * machine's. Events of a PMU that is not this machine's are encoded, never opened.
 */
struct pmu_set *pmu_resolve_for(const char *spec, int kernel, const char *pmu, char *err,
				size_t errlen);
/* pmu_check_name - 1 if @name is a PMU of the table, else 0 with the known names in @err. */
int pmu_check_name(const char *name, char *err, size_t errlen);
void pmu_set_free(struct pmu_set *s);

/* pmu_nevents - events in the set; pmu_event_name - the column stem of event @i. */
int pmu_nevents(const struct pmu_set *s);
const char *pmu_event_name(const struct pmu_set *s, int i);
/* pmu_event_source - where event @i's encoding comes from: "libpfm4", "table (sysfs cpu)". */
const char *pmu_event_source(const struct pmu_set *s, int i);
/* pmu_set_json - the set for context.json: CPU, PMU, and per event its source, encoding
 * and whether it is counted. */
json_t *pmu_set_json(const struct pmu_set *s);
/* pmu_print_set - the set as a table (the --dry-run plan). */
void pmu_print_set(FILE *out, const struct pmu_set *s);
/* pmu_absent_note - one short phrase naming every event that cannot be counted here and
 * why (errno or PFM error), or "" when all can. Printed once per run and put into the rows. */
const char *pmu_absent_note(const struct pmu_set *s);

/* Per-thread counting state. */
struct pmu_thread;

/*
 * pmu_thread_open - open the set's events for the calling thread (after it is pinned,
 * before the barrier), in as many groups as needed. Never fails: what cannot be opened is
 * absent. NULL set or no events gives NULL, which the other calls accept.
 */
struct pmu_thread *pmu_thread_open(const struct pmu_set *s);
void pmu_thread_enable(struct pmu_thread *t);  /* reset and enable, just before the window */
void pmu_thread_disable(struct pmu_thread *t); /* just after the window */

/* One event's reading for one thread. */
struct pmu_value {
	int present;  /* 0: absent (the cell stays empty) */
	double value; /* scaled: raw * enabled / running */
	double mux;   /* running / enabled; 1.0 when never multiplexed */
};

/* pmu_thread_read - read every event into @out[0..pmu_nevents). */
void pmu_thread_read(struct pmu_thread *t, struct pmu_value *out);
void pmu_thread_close(struct pmu_thread *t);

/*
 * pmu_scale - multiplex scaling: @raw counted while running @running ns of @enabled ns.
 * Returns the estimate and sets *mux; a never-running event is absent (returns -1).
 */
double pmu_scale(uint64_t raw, uint64_t enabled, uint64_t running, double *mux);

/*
 * Sampling (--profile): one event per measuring thread, cycles where the PMU allows it,
 * else the software cpu-clock; each sample's IP and up to 8 kernel frames.
 */
struct pmu_sample_plan {
	int hw;		 /* cycles; else cpu-clock */
	uint64_t period; /* cycles, or ns of the thread's time */
	char event[16];	 /* "cycles", "cpu-clock", or "" when sampling is refused */
	char note[320];	 /* what was chosen and why (or why nothing can be sampled) */
};
/*
 * pmu_sample_plan - choose the event and a period giving at most about 5000 samples per
 * thread in a window of @window_s (and at most one per 100 us). 0, or -1 with the reason
 * in p->note when neither event can sample here.
 */
int pmu_sample_plan(struct pmu_sample_plan *p, double window_s);
struct pmu_sampler;
/* pmu_sample_open - for the calling thread, disabled; NULL with @why when refused. */
struct pmu_sampler *pmu_sample_open(const struct pmu_sample_plan *p, char *why, size_t len);
void pmu_sample_enable(struct pmu_sampler *s); /* NULL is accepted by all of these */
void pmu_sample_disable(struct pmu_sampler *s);
/* One sample: its IP, and its kernel callchain without context markers (@chain[0] is
 * usually @ip again). */
typedef void (*pmu_sample_fn)(void *arg, uint64_t ip, const uint64_t *chain, int n);
/* pmu_sample_drain - @fn on every sample in the ring; the samples; *@lost: those lost. */
uint64_t pmu_sample_drain(struct pmu_sampler *s, pmu_sample_fn fn, void *arg, uint64_t *lost);
void pmu_sample_close(struct pmu_sampler *s);

/* pmu_list_events - the table for this machine's PMU or @pmu_name (--list-events). */
int pmu_list_events(FILE *out, const char *pmu_name, char *err, size_t errlen);

#endif
