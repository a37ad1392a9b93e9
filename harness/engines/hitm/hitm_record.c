// SPDX-License-Identifier: MIT
/*
 * hitm_record.c - `pcbench hitm record [run options]`: the measurement those options
 * describe, run under `perf c2c record` with samples timed on CLOCK_MONOTONIC (the clock of
 * objects.json's windows); perf.data goes into the run directory. Everything about the run
 * is checked first (as pcbench measure checks it), then what sampling needs: the perf
 * binary, a PMU that samples memory accesses, perf_event_paranoid (sysfs and procfs under
 * lib/sysfs.h's injectable roots, for tests).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hitm.h"
#include "measure_dir.h"
#include "run_command.h"
#include "strbuf.h"
#include "sysfs.h"
#include "util.h"

/* in_path - the first executable @name in $PATH into @buf; -1 when there is none. */
static int in_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL;
	int found = -1;

	if (!path || !*path)
		return -1;
	copy = xstrdup(path);
	for (char *d = strtok_r(copy, ":", &save); d && found; d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", *d ? d : ".", name);
		found = access(buf, X_OK);
	}
	free(copy);
	return found;
}

/* mem_pmu - a PMU perf c2c samples memory accesses with, as perf itself looks for it. */
static int mem_pmu(void)
{
	static const char *const rel[] = {
	    "bus/event_source/devices/cpu/events/mem-loads",	  /* Intel */
	    "bus/event_source/devices/cpu_core/events/mem-loads", /* Intel hybrid */
	    "bus/event_source/devices/ibs_op",			  /* AMD IBS */
	    "bus/event_source/devices/arm_spe_0",		  /* Arm SPE */
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		sysfs_path(path, sizeof(path), rel[i]);
		if (!access(path, F_OK))
			return 1;
	}
	return 0;
}

/* perfmon_capable - CAP_PERFMON or CAP_SYS_ADMIN in the effective set. */
static int perfmon_capable(void)
{
	FILE *f = procfs_open("self/status");
	char line[256];
	unsigned long long caps = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	if (f)
		fclose(f);
	return (caps >> 38 & 1) || (caps >> 21 & 1);
}

/* missing - what sampling memory accesses needs and this machine lacks, "; "-separated. */
static int missing(char *buf, size_t len, char *perf, size_t plen)
{
	char val[32];
	size_t used = 0;
	int paranoid = 3;

	buf[0] = '\0';
	if (in_path("perf", perf, plen))
		used += (size_t)snprintf(buf + used, len - used,
					 "no perf binary: perf is not in PATH (Debian linux-perf, "
					 "Fedora perf)");
	if (!mem_pmu() && used < len)
		used +=
		    (size_t)snprintf(buf + used, len - used,
				     "%sno PMU: %s/bus/event_source/devices has no cpu PMU with "
				     "mem-loads, no ibs_op and no arm_spe (a VM without a virtual "
				     "PMU?)",
				     used ? "; " : "", sysfs_root());
	if (procfs_read("sys/kernel/perf_event_paranoid", val, sizeof(val)) ||
	    sscanf(val, "%d", &paranoid) != 1)
		paranoid = 3;
	if (paranoid > 1 && !perfmon_capable() && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 "%sperf_event_paranoid is %d: perf c2c record needs <= 1 "
					 "(sysctl kernel.perf_event_paranoid=1) or CAP_PERFMON",
					 used ? "; " : "", paranoid);
	return used > 0;
}

int hitm_record(int argc, char **argv, struct measure_dir *d)
{
	char why[2048], perf[PATH_MAX], self[PATH_MAX], data[PATH_MAX + 16];
	struct measure_dir dir;
	struct sb line = {0};
	struct run_cmd c = {.out = RUN_INHERIT, .err = RUN_INHERIT};
	char **av;
	int n = 0, st;
	ssize_t k;

	if (missing(why, sizeof(why), perf, sizeof(perf))) {
		warn_msg("hitm record: cannot sample memory accesses here: %s", why);
		return 2;
	}
	k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (k <= 0)
		die("hitm record", "/proc/self/exe", "%s", strerror(errno));
	self[k] = '\0';
	measure_dir_make(d); /* for perf.data; the measurement then finds it empty */
	dir = *d;
	snprintf(data, sizeof(data), "%s/perf.data", dir.path);

	av = xcalloc((size_t)argc + 24, sizeof(char *));
	av[n++] = perf;
	av[n++] = "c2c";
	av[n++] = "record";
	av[n++] = "-u"; /* the modelled objects are user memory */
	av[n++] = "--";
	av[n++] = "--clockid";
	av[n++] = "monotonic";
	av[n++] = "-o";
	av[n++] = data;
	av[n++] = "--";
	av[n++] = self;
	av[n++] = "measure";
	for (int i = 1; i < argc; i++)
		av[n++] = argv[i];
	if (dir.made_here) {
		av[n++] = "-o";
		av[n++] = dir.path;
	}
	if (!dir.events_set) {
		av[n++] = "--events";
		av[n++] = "none";
	}
	for (int i = 0; i < n; i++)
		sb_printf(&line, " %s", av[i]);
	warn_msg("hitm record:%s", sb_str(&line)); /* the user's arguments, escaped */
	free(line.p);
	/* a signal that ends us (exit 3) ends perf c2c record too (run_command.h) */
	c.argv = av;
	if (run_start(&c, why, sizeof(why))) {
		warn_msg("hitm record: %s", why); /* "hitm record: PERF: why", then 127 */
		st = 127;
	} else {
		if (run_finish(&c, why, sizeof(why)))
			die("hitm record", "waitpid", "%s", strerror(errno));
		st = run_exit_code(c.status);
	}
	free(av);
	if (!st)
		printf("perf.data: %s\nnext: pcbench hitm report %s\n", data, dir.path);
	else
		fprintf(stderr, "pcbench: hitm record: perf c2c record exited with %d\n", st);
	return st;
}
