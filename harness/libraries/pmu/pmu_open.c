// SPDX-License-Identifier: MIT
/* pmu_open.c - perf_event_open for the calling thread, probing, and why it fails. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu_int.h"

#define READ_FORMAT                                                                                \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |     \
	 PERF_FORMAT_ID)

void finish_attr(struct perf_event_attr *a)
{
	a->disabled = 1;
	a->exclude_hv = 1;
	a->inherit = 0;
	a->sample_period = 0;
	a->freq = 0;
	a->sample_type = 0;
	a->read_format = READ_FORMAT;
}

int sys_open(struct perf_event_attr *a, int group_fd)
{
	long fd = syscall(SYS_perf_event_open, a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

int probe(const struct perf_event_attr *a)
{
	struct perf_event_attr c = *a;
	char pmu[64];
	int fd;

	/* Opened, it would count 0: absent, as the kernel refuses such a generic event. */
	if (pmu_sysfs_unimplemented(a, pmu, sizeof(pmu)))
		return ENOENT;
	fd = sys_open(&c, -1);

	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

const char *errname(int e)
{
	static _Thread_local char buf[24];
	const char *s = strerrorname_np(e);

	if (s)
		return s;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

int read_int_file(const char *path, int dfl)
{
	FILE *f = fopen(path, "r");
	int v;

	if (!f)
		return dfl;
	if (fscanf(f, "%d", &v) != 1)
		v = dfl;
	fclose(f);
	return v;
}

int paranoid(void)
{
	return read_int_file("/proc/sys/kernel/perf_event_paranoid", -99);
}

static int is_hw(const struct perf_event_attr *a)
{
	return a->type != PERF_TYPE_SOFTWARE && a->type != PERF_TYPE_TRACEPOINT &&
	       a->type != PERF_TYPE_BREAKPOINT;
}

void open_reason(char *buf, size_t len, const struct perf_event_attr *a, int e)
{
	char pmu[64];

	if (e == ENOENT && is_hw(a) && !have_core_pmu())
		snprintf(buf, len, "no hardware PMU (perf_event_open ENOENT)");
	else if (e == ENOENT && pmu_sysfs_unimplemented(a, pmu, sizeof(pmu)))
		snprintf(buf, len,
			 "not implemented by PMU %s (not in its PMCEID: not in sysfs events/)",
			 pmu);
	else if (e == ENOENT && is_hw(a) && pmu_sysfs_arm_core(pmu, sizeof(pmu)))
		snprintf(buf, len,
			 "not implemented by PMU %s (perf_event_open ENOENT: not in its PMCEID)",
			 pmu);
	else if (e == EACCES || e == EPERM)
		snprintf(buf, len, "perf_event_open %s (perf_event_paranoid=%d)", errname(e),
			 paranoid());
	else
		snprintf(buf, len, "perf_event_open %s", errname(e));
}
