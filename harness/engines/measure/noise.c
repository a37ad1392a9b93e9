// SPDX-License-Identifier: MIT
/* noise.c - per-thread scheduler counters and per-CPU steal, for disturbed windows. */
#include "noise.h"

#include <stdio.h>
#ifdef __x86_64__
#include <cpuid.h>
#endif
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "machine.h"
#include "sysfs.h"
#include "util.h"

double noise_thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void noise_thread_read(struct noise_thread *s)
{
	struct rusage ru;
	char line[256];
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->cpu_s = noise_thread_cpu_s();
	if (!getrusage(RUSAGE_THREAD, &ru))
		s->nivcsw = ru.ru_nivcsw;
	/* schedstat: time on the CPU, time waiting on a run queue, timeslices (ns) */
	s->delay_before = now_s();
	if (!procfs_read("thread-self/schedstat", line, sizeof(line)))
		s->have_delay = sscanf(line, "%*u %llu", &s->delay_ns) == 1;
	s->delay_after = now_s();
	f = procfs_open("thread-self/sched");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.nr_migrations", 16)) {
			char *colon = strchr(line, ':');

			s->have_migrations =
			    colon && sscanf(colon + 1, "%llu", &s->migrations) == 1;
			break;
		}
	if (f)
		fclose(f);
}

double noise_delay_frac(const struct noise_thread *a, const struct noise_thread *b)
{
	double span = b->delay_after - a->delay_before;

	if (!a->have_delay || !b->have_delay || span <= 0 || b->delay_ns < a->delay_ns)
		return -1;
	return (double)(b->delay_ns - a->delay_ns) * 1e-9 / span;
}

static int proc_stat_steal(int cpu, unsigned long long *ticks)
{
	struct cpu_ticks t;

	if (machine_cpu_ticks(cpu, &t))
		return -1;
	*ticks = t.steal;
	return 0;
}

int (*noise_steal_reader)(int cpu, unsigned long long *ticks) = proc_stat_steal;

static int hypervisor_present(void)
{
	static int known = -1;
	char v[64];

	if (known < 0) {
		known = 0;
#ifdef __x86_64__
		unsigned a, b, c, d;

		if (__get_cpuid(1, &a, &b, &c, &d))
			known = (c >> 31) & 1;
#endif
		if (!known && !sysfs_read("hypervisor/type", v, sizeof(v)))
			known = v[0] != '\0';
		if (!known)
			known = sysfs_virt_board();
	}
	return known;
}

int (*noise_hypervisor)(void) = hypervisor_present;

const char *const noise_kind_names[NOISE_NKINDS] = {
    [NOISE_NONE] = "",
    [NOISE_RUN_DELAY] = "run_delay",
    [NOISE_STEAL] = "steal",
    [NOISE_GAPS] = "host_preemption",
    [NOISE_IMBALANCE] = "imbalance",
    [NOISE_REMAP] = "remap",
    [NOISE_STARVED] = "starved",
};

double noise_gap_lost(const struct noise_gaps *g, double *median_ns)
{
	uint64_t seen = 0;
	double med = 0, lost = 0;

	*median_ns = 0;
	if (g->n < NOISE_GAP_MIN_BATCHES)
		return 0;
	for (int b = 0; b < NOISE_GAP_BINS; b++) {
		seen += g->count[b];
		if (2 * seen >= g->n) { /* the bin that holds the median: its mean */
			med = g->sum_ns[b] / (double)g->count[b];
			break;
		}
	}
	for (int b = 0; b < NOISE_GAP_BINS; b++)
		if (g->count[b] && g->sum_ns[b] / (double)g->count[b] > NOISE_GAP_K * med)
			lost += g->sum_ns[b] - (double)g->count[b] * med;
	*median_ns = med;
	return lost;
}
