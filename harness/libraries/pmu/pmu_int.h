/* SPDX-License-Identifier: MIT */
/*
 * pmu_int.h - what the files of harness/pmu share (not for the rest of pcbench):
 *   pmu_host.c    libpfm4 initialization, this machine's CPU and PMU, libpfm4 encoding;
 *   pmu_sysfs.c   raw terms encoded through the kernel's sysfs PMU description;
 *   pmu_encode.c  one abstract event for one PMU: the table row, the encoding, its source;
 *   pmu_open.c    perf_event_open, probing, and the reasons it fails;
 *   pmu_resolve.c the set of events a run counts (--events), and its JSON;
 *   pmu_thread.c  per-thread counting;
 *   pmu_list.c    --list-events and the counters of the --dry-run plan.
 */
#ifndef PCBENCH_PMU_INT_H
#define PCBENCH_PMU_INT_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include "pmu.h"
#include "pmu_events.h"

/* ---- pmu_host.c ---- */

/* This machine, as pcbench sees it. */
struct pmu_host {
	char pmu[64];	  /* PMU of the table used here; "" when none */
	const char *how;  /* how pmu was found: "libpfm4" or "CPU table"; "" */
	char core[64];	  /* first core PMU libpfm4 detected, in the table or not; "" */
	int cntrs;	  /* generic counters of that PMU; 0 unknown */
	char vendor[24];  /* CPUID vendor string, or "unknown" */
	int family;	  /* -1 unknown */
	int model;	  /* -1 unknown */
	int arm;	  /* arm64: vendor is the MIDR implementer's name, family its code,
			     model the part */
	const char *from; /* where the CPU identity was read: "sysfs modalias", "sysfs
			     midr_el1", "cpuid", "" */
};

/*
 * pfm_ready - initialize libpfm4 (LIBPFM_ENCODE_INACTIVE=1) and detect this machine, once.
 * Returns 1, or 0 with "what: value: why" in @err.
 */
int pfm_ready(char *err, size_t errlen, const char *what, const char *value);
/* pmu_host - this machine (after pfm_ready). */
const struct pmu_host *pmu_host(void);
/* pmu_host_redetect - detect again, e.g. after PCBENCH_SYSFS_ROOT changed (tests). */
void pmu_host_redetect(void);
/* pmu_host_desc - "GenuineIntel family 6 model 207" (or "unknown CPU") into @buf. */
void pmu_host_desc(char *buf, size_t len);
/* pfm_errname - "PFM_ERR_ATTR" for a libpfm4 return code. */
const char *pfm_errname(int rc);
/*
 * pfm_encode - libpfm4 string -> @attr (user mode, or user + kernel). Returns the PFM code;
 * on success *present says whether libpfm4 sees the event's PMU here, and @pmu names it.
 */
int pfm_encode(const char *str, int kernel, struct perf_event_attr *attr, int *present, char *pmu,
	       size_t pmulen);
/* pfm_pmu_desc - libpfm4's description of PMU @name, or NULL when libpfm4 lacks it. */
const char *pfm_pmu_desc(const char *name, int *present);

/* ---- pmu_sysfs.c ---- */

/*
 * pmu_sysfs_encode - encode raw @terms ("event=0xd2,umask=0x04,offcore_rsp=0x...") through
 * the sysfs description of the core PMU (cpu, or cpu_core on hybrid parts): its type and
 * format/<term> files. Without one, the kernel's built-in x86 formats for @vendor are used
 * with type PERF_TYPE_RAW (what the lab machine's kernel will say). @via says which
 * ("sysfs cpu", "built-in format").
 * Returns 1 (sysfs), 0 (built-in), or -1 with the reason in @err.
 */
int pmu_sysfs_encode(const char *terms, const char *vendor, int kernel,
		     struct perf_event_attr *attr, char *via, size_t vialen, char *err,
		     size_t errlen);
/* have_core_pmu - does sysfs describe a hardware core PMU here? */
int have_core_pmu(void);
/* pmu_sysfs_arm_core - the core PMU is an Arm one (a "cpus" file): 1 with its name, else 0. */
int pmu_sysfs_arm_core(char *pmu, size_t len);
/*
 * pmu_sysfs_unimplemented - @a is a common event of this machine's Arm core PMU that its
 * PMCEID registers do not list (its sysfs events/ lacks it: QEMU's TCG PMU, a core without
 * it): the kernel would open it and count 0. 1 with the PMU's name in @pmu, else 0.
 */
int pmu_sysfs_unimplemented(const struct perf_event_attr *a, char *pmu, size_t len);

/* ---- pmu_encode.c ---- */

/* One abstract event encoded for one PMU. */
struct pmu_enc {
	struct perf_event_attr attr;
	char str[256];	  /* the libpfm4 string or the terms used; "" when not mapped */
	char source[128]; /* "libpfm4", "table (sysfs cpu)", ...; "" when not encoded */
	int mapped;	  /* the table has a string or terms for it */
	int encoded;	  /* attr is valid */
	int present;	  /* its PMU is this machine's: it may be opened here */
	char why[192];	  /* when !mapped, !encoded or !present */
	char note[160];	  /* the row's note */
};

/*
 * pmu_find_row - the row of @event for @pmu ("" = no PMU of the table here: then
 * generic:<vendor>, generic), else the software row. Returns 1 with @out filled, or 0.
 */
int pmu_find_row(const char *pmu, const char *event, struct pmu_row *out, char *buf, size_t buflen);
/* pmu_encode_event - abstract @event for PMU @pmu ("" = this machine without one). */
void pmu_encode_event(const char *pmu, const char *event, int kernel, struct pmu_enc *e);
/* pmu_is_pseudo - "software", "generic", "generic:<vendor>". */
int pmu_is_pseudo(const char *pmu);

/* ---- pmu_open.c ---- */

/* finish_attr - the counting attributes every opened event gets. */
void finish_attr(struct perf_event_attr *a);
/* sys_open - perf_event_open for the calling thread on any CPU: fd, or -errno. */
int sys_open(struct perf_event_attr *a, int group_fd);
/* probe - open @a alone on this thread and close it: 0, or the errno. */
int probe(const struct perf_event_attr *a);
/* open_reason - a short phrase for perf_event_open failing with @e. */
void open_reason(char *buf, size_t len, const struct perf_event_attr *a, int e);
/* errname - "ENOENT" for errno @e. */
const char *errname(int e);
/* read_int_file - the integer in @path, or @dfl. */
int read_int_file(const char *path, int dfl);
/* paranoid - /proc/sys/kernel/perf_event_paranoid, or -99. */
int paranoid(void);

/* ---- pmu_resolve.c ---- */

/* One event of a set. */
struct pmu_ev {
	char *name;   /* column stem */
	char *str;    /* libpfm4 string or table terms, NULL when unmapped */
	char *source; /* "libpfm4", "table (sysfs cpu)", ... */
	struct perf_event_attr attr;
	int encoded; /* attr is valid */
	int sw;	     /* software event: counted in the software group */
	int ok;	     /* probe opened it: threads open it */
	char *why;
};

struct pmu_set {
	int n, cap;
	struct pmu_ev *ev;
	int kernel;
	char pmu[64];  /* the PMU it was resolved for; "" none */
	int foreign;   /* resolved for a PMU that is not this machine's (--dry-run --pmu) */
	int group_max; /* hardware events per group; 0: as many as the kernel accepts */
	int force_max; /* PCBENCH_PMU_GROUP_MAX: every group, software ones too; 0: unset */
	char *note;
};

/* pmu_event_attr - event @i's encoding, or NULL when it has none. */
const struct perf_event_attr *pmu_event_attr(const struct pmu_set *s, int i);
/* pmu_attr_text - "type 4 config 0x12a config1 0x10003c0002" ("-" for NULL). */
void pmu_attr_text(const struct perf_event_attr *a, char *buf, size_t len);

#endif
