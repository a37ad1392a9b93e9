/* SPDX-License-Identifier: MIT */
/*
 * machine.h - the state of the machine that biases contention results: CPU identity and
 * microcode, cpufreq governor and turbo, SMT, THP, NUMA balancing, mitigations, the kernel
 * command line, perf_event_paranoid, load, memory, hypervisor. Read from sysfs and procfs
 * through lib/sysfs (PCBENCH_SYSFS_ROOT, PCBENCH_PROCFS_ROOT: a fake tree in tests), kept
 * in context.json's "machine" object ("unknown" where this machine does not expose it),
 * summed up in one robot-style line, and checked before measuring (docs/measuring.md).
 */
#ifndef PCBENCH_MACHINE_H
#define PCBENCH_MACHINE_H

#include <stddef.h>

struct topo;

#define MACHINE_MAX_WARNINGS 16

struct machine {
	struct json_t *json; /* the "machine" object of context.json */
	char summary[512];   /* "1 socket, 2 threads, 7.8G, governor performance, ..." */
	char *warnings[MACHINE_MAX_WARNINGS];
	int nwarnings;
	int ncpus; /* online CPUs (/proc/cpuinfo), 0 if unknown */
};

/* machine_read - read the machine's state now (load average "at start"). */
void machine_read(struct machine *m);

/*
 * machine_check - the warnings before measuring on PUs @pus (@n of them, OS indexes, the
 * union over the plan) of @t: a governor other than performance, turbo on, load above 0.5
 * per CPU, a hypervisor, the planned PUs' SMT siblings busy, and once what is unknown.
 * Each is one line in m->warnings and in the JSON ("warnings").
 */
void machine_check(struct machine *m, const struct topo *t, const int *pus, int n);

/* machine_load_end - record the load average at the end of the run. */
void machine_load_end(struct machine *m);

/* The ticks of one CPU in /proc/stat (USER_HZ, 10 ms on common kernels). */
struct cpu_ticks {
	unsigned long long total, idle, steal; /* idle: idle + iowait */
};
/* machine_cpu_ticks - CPU @cpu's line of <procfs>/stat; 0, or -1 when there is none. */
int machine_cpu_ticks(int cpu, struct cpu_ticks *t);

/* machine_json_text - the "machine" object as compact JSON (free() it). */
char *machine_json_text(const struct machine *m);

void machine_free(struct machine *m);

#endif
