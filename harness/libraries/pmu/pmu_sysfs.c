// SPDX-License-Identifier: MIT
/*
 * pmu_sysfs.c - raw encoding terms through the kernel's sysfs PMU description.
 *
 * The kernel describes each event source in <sysfs>/bus/event_source/devices/<pmu>/: its
 * perf_event_attr.type in "type", and in format/<term> where a term's bits go, e.g.
 * format/event "config:0-7", format/offcore_rsp "config1:0-63", or on AMD format/event
 * "config:0-7,32-35" (the value's bits fill the ranges low bits first). The core PMU is
 * "cpu", or "cpu_core" on hybrid parts; on arm64 a PMU with a "cpus" file (armv8_pmuv3_0,
 * or per cluster: armv8_cortex_a72, armv8_neoverse_n1), of a dynamic type. The sysfs root
 * is injectable (PCBENCH_SYSFS_ROOT).
 *
 * Without a core PMU in sysfs (a VM, or a CPU described for another machine) the kernel's
 * core formats below are used, with type PERF_TYPE_RAW: they are what Linux exports
 * (PMU_FORMAT_ATTR in arch/x86/events/intel/core.c, arch/x86/events/amd/core.c and
 * drivers/perf/arm_pmuv3.c; an Arm PMU takes PERF_TYPE_RAW events as its own).
 *
 * An Arm PMU accepts a raw common event (codes below 0x40, 0x4000..0x403f) whether or not
 * its PMCEID registers say it is implemented, and then counts 0. Its sysfs events/ lists
 * the implemented ones only: pmu_sysfs_unimplemented checks there.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_int.h"
#include "sysfs.h"
#include "util.h"

static const struct {
	const char *vendor, *term, *spec;
} builtin[] = {
    {"GenuineIntel", "event", "config:0-7"},   {"GenuineIntel", "umask", "config:8-15"},
    {"GenuineIntel", "edge", "config:18"},     {"GenuineIntel", "inv", "config:23"},
    {"GenuineIntel", "cmask", "config:24-31"}, {"GenuineIntel", "offcore_rsp", "config1:0-63"},
    {"GenuineIntel", "ldlat", "config1:0-15"}, {"AuthenticAMD", "event", "config:0-7,32-35"},
    {"AuthenticAMD", "umask", "config:8-15"},  {"AuthenticAMD", "edge", "config:18"},
    {"AuthenticAMD", "inv", "config:23"},      {"AuthenticAMD", "cmask", "config:24-31"},
    {"ARM", "event", "config:0-15"},
};

#define DEVICES "bus/event_source/devices"

/* is_core - device @name has a "cpus" file: a core PMU of some CPUs (Arm, hybrid x86). */
static int is_core(const struct dirent *e)
{
	char rel[512], buf[8];

	if (e->d_name[0] == '.')
		return 0;
	snprintf(rel, sizeof(rel), DEVICES "/%s/cpus", e->d_name);
	return !sysfs_read(rel, buf, sizeof(buf));
}

/*
 * core_pmu - the sysfs core PMU's name and type: "cpu" or "cpu_core" (x86), else the first
 * by name of the PMUs with a "cpus" file (arm64: armv8_pmuv3_0, or one per cluster such as
 * armv8_cortex_a53 and armv8_cortex_a72; their type is dynamic). *@arm says which kind.
 * 1, or 0 when there is none.
 */
static int core_pmu(char *name, size_t len, unsigned *type, int *arm)
{
	static const char *const names[] = {"cpu", "cpu_core"};
	char rel[512], buf[32], dir[4096];
	struct dirent **list;
	int n, found = 0;

	*arm = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(rel, sizeof(rel), DEVICES "/%s/type", names[i]);
		if (!sysfs_read(rel, buf, sizeof(buf))) {
			snprintf(name, len, "%s", names[i]);
			*type = (unsigned)strtoul(buf, NULL, 0);
			return 1;
		}
	}
	sysfs_path(dir, sizeof(dir), DEVICES);
	n = scandir(dir, &list, is_core, alphasort);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), DEVICES "/%s/type", list[i]->d_name);
		if (!found && !sysfs_read(rel, buf, sizeof(buf))) {
			snprintf(name, len, "%s", list[i]->d_name);
			*type = (unsigned)strtoul(buf, NULL, 0);
			found = *arm = 1;
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	return found;
}

int have_core_pmu(void)
{
	char dir[4096], rel[512], buf[32], name[64];
	unsigned type;
	struct dirent *e;
	DIR *d;
	int arm, found = core_pmu(name, sizeof(name), &type, &arm);

	sysfs_path(dir, sizeof(dir), DEVICES);
	if (found || !(d = opendir(dir)))
		return 1; /* found, or cannot tell: do not claim there is none */
	/* Other architectures name their core PMU otherwise: any source of type RAW. */
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), DEVICES "/%s/type", e->d_name);
		found = !sysfs_read(rel, buf, sizeof(buf)) && atoi(buf) == PERF_TYPE_RAW;
	}
	closedir(d);
	return found;
}

/* has_event - the PMU's sysfs events/ has a file saying "event=@code". -1: no events/. */
static int has_event(const char *pmu, unsigned code)
{
	char dir[4096], rel[512], buf[64];
	struct dirent *e;
	DIR *d;
	int found = 0;

	snprintf(rel, sizeof(rel), DEVICES "/%s/events", pmu);
	sysfs_path(dir, sizeof(dir), rel);
	if (!(d = opendir(dir)))
		return -1;
	while (!found && (e = readdir(d))) {
		const char *p;

		snprintf(rel, sizeof(rel), DEVICES "/%s/events/%s", pmu, e->d_name);
		if (e->d_name[0] != '.' && !sysfs_read(rel, buf, sizeof(buf)) &&
		    (p = strstr(buf, "event=")) && strtoul(p + 6, NULL, 0) == code)
			found = 1;
	}
	closedir(d);
	return found;
}

int pmu_sysfs_arm_core(char *pmu, size_t len)
{
	unsigned type;
	int arm;

	return core_pmu(pmu, len, &type, &arm) && arm;
}

int pmu_sysfs_unimplemented(const struct perf_event_attr *a, char *pmu, size_t len)
{
	unsigned type, code = (unsigned)(a->config & 0xffff);
	int arm;

	if (!core_pmu(pmu, len, &type, &arm) || !arm ||
	    (a->type != PERF_TYPE_RAW && a->type != type) || a->config >> 16)
		return 0;
	/* the common events, which PMCEID0/1 (and their high halves) say are implemented */
	if (code >= 0x40 && (code < 0x4000 || code >= 0x4040))
		return 0;
	return has_event(pmu, code) == 0;
}

/* place - put @value's bits into @a as @spec ("config1:0-63", "config:0-7,32-35") says. */
static int place(struct perf_event_attr *a, const char *spec, uint64_t value, char *err,
		 size_t errlen)
{
	const char *colon = strchr(spec, ':'), *p;
	__u64 *field;
	int used = 0;

	if (!colon)
		goto bad;
	if (!strncmp(spec, "config:", 7))
		field = &a->config;
	else if (!strncmp(spec, "config1:", 8))
		field = &a->config1;
	else if (!strncmp(spec, "config2:", 8))
		field = &a->config2;
	else
		goto bad;
	for (p = colon + 1; *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0 || lo > 63)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo || hi > 63)
				goto bad;
		}
		for (long b = lo; b <= hi; b++, used++)
			if (used < 64 && (value >> used) & 1)
				*field |= 1ULL << b;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			goto bad;
	}
	if (used < 64 && value >> used) {
		set_err(err, errlen, "value 0x%llx does not fit format \"%s\"",
			(unsigned long long)value, spec);
		return -1;
	}
	return 0;
bad:
	set_err(err, errlen, "cannot parse format \"%s\"", spec);
	return -1;
}

int pmu_sysfs_encode(const char *terms, const char *vendor, int kernel,
		     struct perf_event_attr *attr, char *via, size_t vialen, char *err,
		     size_t errlen)
{
	char pmu[64], rel[192], spec[128], *copy, *rest, *tok;
	unsigned type = PERF_TYPE_RAW;
	int arm, sysfs = core_pmu(pmu, sizeof(pmu), &type, &arm), rc = sysfs;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->exclude_kernel = !kernel;
	attr->exclude_guest = 1;
	if (sysfs)
		snprintf(via, vialen, "sysfs %s", pmu);
	else
		snprintf(via, vialen, "built-in format");
	rest = copy = strdup(terms);
	if (!copy) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	while (rc >= 0 && (tok = strsep(&rest, ","))) {
		char *eq = strchr(tok, '='), *end;
		uint64_t value = 1;

		if (eq) {
			*eq = 0;
			errno = 0;
			value = strtoull(eq + 1, &end, 0);
			if (errno || end == eq + 1 || *end) {
				set_err(err, errlen, "term %s=%s: not a number", tok, eq + 1);
				rc = -1;
				break;
			}
		}
		spec[0] = 0;
		if (sysfs) {
			snprintf(rel, sizeof(rel), DEVICES "/%s/format/%s", pmu, tok);
			if (sysfs_read(rel, spec, sizeof(spec))) {
				set_err(err, errlen, "term %s: no %s/%s", tok, sysfs_root(), rel);
				rc = -1;
				break;
			}
		} else {
			for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
				if (!strcmp(builtin[i].vendor, vendor) &&
				    !strcmp(builtin[i].term, tok))
					snprintf(spec, sizeof(spec), "%s", builtin[i].spec);
			if (!spec[0]) {
				set_err(err, errlen,
					"term %s: no cpu PMU in sysfs and no built-in %s format",
					tok, vendor);
				rc = -1;
				break;
			}
		}
		if (place(attr, spec, value, err, errlen))
			rc = -1;
	}
	free(copy);
	return rc;
}
