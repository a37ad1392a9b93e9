// SPDX-License-Identifier: MIT
/*
 * pmu_sample.c - sampling where a thread spends its time (--profile): one sampling event
 * per measuring thread (cycles where the PMU allows it, else the software cpu-clock), its
 * ring buffer drained after the window, each sample's IP and kernel callchain handed on.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pmu_int.h"
#include "util.h"

#define SAMPLE_PAGES 128     /* the ring's data pages: 512 KiB, about 5000 samples of 8 frames */
#define SAMPLE_MAX 5000	     /* samples a window aims at, at most */
#define SAMPLE_MIN_NS 100000 /* and at most one per 100 us of a thread's time */

struct pmu_sampler {
	int fd;
	void *ring;
	size_t len;
};

/* attr - the sampling event of @p: IP and the kernel part of the callchain, 8 frames. */
static void attr(struct perf_event_attr *a, const struct pmu_sample_plan *p)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = p->hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	a->config = p->hw ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = p->period;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	a->exclude_callchain_user = 1;
	a->sample_max_stack = 8;
	a->disabled = 1;
	a->exclude_hv = 1;
	a->wakeup_events = 1u << 30; /* nobody polls: no wake-ups */
}

int pmu_sample_plan(struct pmu_sample_plan *p, double window_s)
{
	struct perf_event_attr a;
	double per = window_s * 1e9 / SAMPLE_MAX;
	int e;

	memset(p, 0, sizeof(*p));
	/* cycles: about 10 kHz at 2.5 GHz, the same spacing as the cpu-clock period */
	p->hw = 1;
	p->period = (uint64_t)(per > SAMPLE_MIN_NS ? per : SAMPLE_MIN_NS) * 2.5;
	attr(&a, p);
	e = probe(&a);
	if (!e) {
		snprintf(p->event, sizeof(p->event), "cycles");
		snprintf(p->note, sizeof(p->note), "cycles, one sample per %llu cycles",
			 (unsigned long long)p->period);
		return 0;
	}
	char cyc[128], why[128];

	open_reason(cyc, sizeof(cyc), &a, e);
	p->hw = 0;
	p->period = (uint64_t)(per > SAMPLE_MIN_NS ? per : SAMPLE_MIN_NS);
	attr(&a, p);
	e = probe(&a);
	if (e) {
		open_reason(why, sizeof(why), &a, e);
		snprintf(p->note, sizeof(p->note), "no sampling: cycles: %s; cpu-clock: %s", cyc,
			 why);
		return -1;
	}
	snprintf(p->event, sizeof(p->event), "cpu-clock");
	snprintf(p->note, sizeof(p->note),
		 "cpu-clock every %llu us (cycles: %s); on a VM the samples skid to where "
		 "interrupts are enabled again",
		 (unsigned long long)p->period / 1000, cyc);
	return 0;
}

struct pmu_sampler *pmu_sample_open(const struct pmu_sample_plan *p, char *why, size_t len)
{
	struct perf_event_attr a;
	struct pmu_sampler *s;
	long page = sysconf(_SC_PAGESIZE);
	int fd;

	attr(&a, p);
	fd = sys_open(&a, -1);
	if (fd < 0) {
		open_reason(why, len, &a, -fd);
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->fd = fd;
	s->len = (size_t)page * (SAMPLE_PAGES + 1);
	s->ring = mmap(NULL, s->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s->ring == MAP_FAILED) {
		snprintf(why, len, "mmap of the sample ring: %s", strerror(errno));
		close(fd);
		free(s);
		return NULL;
	}
	return s;
}

void pmu_sample_enable(struct pmu_sampler *s)
{
	if (s)
		ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
}

void pmu_sample_disable(struct pmu_sampler *s)
{
	if (s)
		ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* ring_copy - @n bytes at @off (mod @size) of the data area into @dst. */
static void ring_copy(const unsigned char *data, uint64_t size, uint64_t off, void *dst, size_t n)
{
	uint64_t at = off % size, first = size - at < n ? size - at : n;

	memcpy(dst, data + at, first);
	memcpy((unsigned char *)dst + first, data, n - first);
}

uint64_t pmu_sample_drain(struct pmu_sampler *s, pmu_sample_fn fn, void *arg, uint64_t *lost)
{
	struct perf_event_mmap_page *pg;
	const unsigned char *data;
	uint64_t head, tail, n = 0;

	*lost = 0;
	if (!s)
		return 0;
	pg = s->ring;
	data = (const unsigned char *)s->ring + pg->data_offset;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		uint64_t rec[2 + 1 + 256];

		ring_copy(data, pg->data_size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.size - sizeof(h) <= sizeof(rec))
			ring_copy(data, pg->data_size, tail + sizeof(h), rec, h.size - sizeof(h));
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 16 &&
		    h.size - sizeof(h) <= sizeof(rec)) {
			uint64_t nr = rec[1];
			const uint64_t *chain = &rec[2];
			int k = 0;

			if (16 + nr * 8 > h.size - sizeof(h))
				nr = 0;
			/* the kernel frames, without the PERF_CONTEXT_* markers */
			uint64_t frames[16];

			for (uint64_t i = 0; i < nr && k < 16; i++)
				if (chain[i] < (uint64_t)-4095)
					frames[k++] = chain[i];
			fn(arg, rec[0], frames, k);
			n++;
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			*lost += rec[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

void pmu_sample_close(struct pmu_sampler *s)
{
	if (!s)
		return;
	munmap(s->ring, s->len);
	close(s->fd);
	free(s);
}
