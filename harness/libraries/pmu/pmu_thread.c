// SPDX-License-Identifier: MIT
/*
 * pmu_thread.c - per-thread counting. Each benchmark thread opens its own groups: software
 * events in one group, hardware events in as few groups as the PMU holds (a new group
 * starts when the kernel refuses a member). Counts are scaled by time_enabled /
 * time_running of their group.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pmu_int.h"
#include "util.h"

struct pmu_group {
	int fd; /* leader */
	int n;	/* members, leader included */
	uint64_t *buf;
	uint64_t base_enabled, base_running;
};

struct pmu_thread {
	const struct pmu_set *s;
	int *fd;	/* per event; -1 when not open on this thread */
	int *grp;	/* per event: its group */
	uint64_t *id;	/* per event: PERF_EVENT_IOC_ID */
	uint64_t *base; /* per event: raw count at enable */
	int ng;
	struct pmu_group *g;
};

/* too_many - perf_event_open errors that mean "this group cannot take another member". */
static int too_many(int e)
{
	return e == EINVAL || e == ENOSPC || e == E2BIG;
}

static size_t group_bytes(int n)
{
	return (3 + 2 * (size_t)n) * sizeof(uint64_t);
}

struct pmu_thread *pmu_thread_open(const struct pmu_set *s)
{
	struct pmu_thread *t;
	int cur[2] = {-1, -1}; /* current group: [0] hardware, [1] software */

	if (!s || s->n == 0)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->s = s;
	t->fd = xmalloc((size_t)s->n * sizeof(int));
	t->grp = xmalloc((size_t)s->n * sizeof(int));
	t->id = xcalloc((size_t)s->n, sizeof(uint64_t));
	t->base = xcalloc((size_t)s->n, sizeof(uint64_t));
	t->g = xcalloc((size_t)s->n, sizeof(*t->g));
	for (int i = 0; i < s->n; i++) {
		const struct pmu_ev *e = &s->ev[i];
		struct perf_event_attr a = e->attr;
		int *g = &cur[e->sw], fd = -1;
		int max = s->force_max ? s->force_max : e->sw ? 0 : s->group_max;

		t->fd[i] = -1;
		t->grp[i] = -1;
		if (!e->ok)
			continue;
		if (*g >= 0 && max > 0 && t->g[*g].n >= max)
			*g = -1;
		if (*g >= 0) {
			/* Members stay enabled: the leader alone starts and stops the group. */
			a.disabled = 0;
			fd = sys_open(&a, t->g[*g].fd);
			if (fd < 0 && !too_many(-fd))
				continue; /* absent on this thread */
			if (fd < 0)
				*g = -1;
		}
		if (*g < 0) {
			a.disabled = 1;
			fd = sys_open(&a, -1);
			if (fd < 0)
				continue;
			*g = t->ng++;
			t->g[*g].fd = fd;
		}
		if (ioctl(fd, PERF_EVENT_IOC_ID, &t->id[i]) < 0) {
			/* Without its id the event cannot be found in the group read. */
			if (t->g[*g].fd == fd) {
				t->ng--;
				*g = -1;
			}
			close(fd);
			continue;
		}
		t->fd[i] = fd;
		t->grp[i] = *g;
		t->g[*g].n++;
	}
	for (int k = 0; k < t->ng; k++)
		t->g[k].buf = xcalloc(1, group_bytes(t->g[k].n));
	return t;
}

/* group_read - read group @k into its buffer: 1 when complete. */
static int group_read(struct pmu_thread *t, int k)
{
	struct pmu_group *g = &t->g[k];
	ssize_t want = (ssize_t)group_bytes(g->n);

	return read(g->fd, g->buf, (size_t)want) == want && g->buf[0] == (uint64_t)g->n;
}

/* group_value - event @i's raw count in its group's buffer; 0 with *found = 0 if missing. */
static uint64_t group_value(const struct pmu_thread *t, int i, int *found)
{
	const struct pmu_group *g = &t->g[t->grp[i]];

	for (int m = 0; m < g->n; m++) {
		if (g->buf[3 + 2 * m + 1] == t->id[i]) {
			*found = 1;
			return g->buf[3 + 2 * m];
		}
	}
	*found = 0;
	return 0;
}

void pmu_thread_enable(struct pmu_thread *t)
{
	if (!t)
		return;
	for (int k = 0; k < t->ng; k++) {
		struct pmu_group *g = &t->g[k];

		ioctl(g->fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		/* Times keep running across resets: remember them (and the counts, ~0). */
		g->base_enabled = g->base_running = 0;
		if (group_read(t, k)) {
			g->base_enabled = g->buf[1];
			g->base_running = g->buf[2];
		}
	}
	for (int i = 0; i < t->s->n; i++) {
		int found = 0;

		t->base[i] = t->fd[i] >= 0 ? group_value(t, i, &found) : 0;
	}
	/*
	 * The leader alone (its members were opened enabled). ENABLE with PERF_IOC_FLAG_GROUP
	 * re-enables members unreliably: on Linux 6.18 a page-fault member of a task-clock
	 * group read 0 in about half of the windows.
	 */
	for (int k = 0; k < t->ng; k++)
		ioctl(t->g[k].fd, PERF_EVENT_IOC_ENABLE, 0);
}

void pmu_thread_disable(struct pmu_thread *t)
{
	if (!t)
		return;
	for (int k = 0; k < t->ng; k++)
		ioctl(t->g[k].fd, PERF_EVENT_IOC_DISABLE, 0); /* stops its whole group */
}

void pmu_thread_read(struct pmu_thread *t, struct pmu_value *out)
{
	int *ok;

	if (!t)
		return;
	ok = xcalloc((size_t)t->ng + 1, sizeof(int));
	for (int k = 0; k < t->ng; k++)
		ok[k] = group_read(t, k);
	for (int i = 0; i < t->s->n; i++) {
		const struct pmu_group *g;
		uint64_t raw;
		int found = 0;
		double v, mux;

		out[i].present = 0;
		out[i].value = 0;
		out[i].mux = 0;
		if (t->fd[i] < 0 || !ok[t->grp[i]])
			continue;
		g = &t->g[t->grp[i]];
		raw = group_value(t, i, &found);
		if (!found)
			continue;
		v = pmu_scale(raw - t->base[i], g->buf[1] - g->base_enabled,
			      g->buf[2] - g->base_running, &mux);
		if (v < 0)
			continue;
		out[i].present = 1;
		out[i].value = v;
		out[i].mux = mux;
	}
	free(ok);
}

void pmu_thread_close(struct pmu_thread *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->s->n; i++)
		if (t->fd[i] >= 0)
			close(t->fd[i]);
	for (int k = 0; k < t->ng; k++)
		free(t->g[k].buf);
	free(t->g);
	free(t->fd);
	free(t->grp);
	free(t->id);
	free(t->base);
	free(t);
}

double pmu_scale(uint64_t raw, uint64_t enabled, uint64_t running, double *mux)
{
	double m = 1.0;

	if (running == 0) {
		if (mux)
			*mux = 0;
		return -1;
	}
	if (running < enabled)
		m = (double)running / (double)enabled;
	if (mux)
		*mux = m;
	return m < 1.0 ? (double)raw * ((double)enabled / (double)running) : (double)raw;
}
