// SPDX-License-Identifier: MIT
/*
 * test_kernel.c - the `kernel` scenario against this machine's kernel, in the cgroup the
 * test starts in: every workload at 1 and 2 threads for 0.05 s windows. Checked: the
 * window succeeds with operations; one page fault per page written (page_fault*: the
 * software page_faults counter; page_fault1 is left alone when THP is "always"); for tcp
 * and hackbench, the note's messages received equal those sent; hackbench is skipped at 1
 * thread; and nothing leaks: the open descriptors and the mappings of this process are the
 * same after every workload ran as before. No time is asserted.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness.h"
#include "measure.h"
#include "pmu.h"
#include "sysfs.h"
#include "topology.h"

/* count_lines - the lines of @path (/proc/self/maps), or -1. */
static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

/*
 * measure - one window of @wl at @threads; 0 when it ran (ok or starved), -1 when skipped.
 * @warmup: the faults per page are not checked (under ASan the first pass over a mapping
 * also faults in its shadow, one page per 8: 1.125). Nor are they in a sanitized build at
 * all: TSan's shadow and meta pages fault with every written page (3.005 per page).
 */
static int measure(const struct scenario *sc, const char *wl, int threads, struct topo *t,
		   const struct pmu_set *pmu, int thp_always, int warmup)
{
	struct bench_cfg *cfg;
	struct measurement m;
	struct meas_result r;
	struct topo_home home;
	char err[512];
	int pus[2];

	cfg =
	    cfg_new(sc, &sc->presets[0], workload_find(sc, wl), threads, NULL, 0, err, sizeof(err));
	CHECK(cfg != NULL, "%s: %s", wl, err);
	if (!cfg)
		return -1;
	if (sc->skip && sc->skip(cfg, err, sizeof(err))) {
		printf("%s t=%d: skipped: %s\n", wl, threads, err);
		CHECK(!strcmp(wl, "hackbench") && threads == 1, "%s t=%d skipped: %s", wl, threads,
		      err);
		cfg_free(cfg);
		return -1;
	}
	CHECK(topo_place(t, "scatter", threads, pus, err, sizeof(err)) == 0, "place: %s", err);
	topo_home_parse(t, "first", pus[0], &home, err, sizeof(err));
	meas_init(&m, sc, cfg, t, threads, pus, 0.05, 0.005, &home);
	meas_set_noise(&m, 1.5, 0); /* only a starved window is disturbed */
	meas_set_counters(&m, pmu);
	meas_run(&m);
	meas_result(&m, &r);
	printf("%s t=%d: %s ops %llu (%llu..%llu per thread), page faults/op %.3f, note: %s\n", wl,
	       threads,
	       r.failed	     ? r.reason
	       : r.disturbed ? r.noise_reason
			     : "ok",
	       (unsigned long long)r.ops, (unsigned long long)r.ops_min,
	       (unsigned long long)r.ops_max, r.ev && r.ev[0].present ? r.ev[0].per_op : -1,
	       r.note);
	CHECK(!r.failed, "%s t=%d: %s", wl, threads, r.reason);
	if (!r.failed && !r.disturbed) {
		unsigned long long sent, recvd;

		CHECK(r.ops > 0, "%s t=%d: no operation", wl, threads);
		if (!warmup && !SANITIZED && !strncmp(wl, "page_fault", 10) && r.ev[0].present &&
		    !(thp_always && !strcmp(wl, "page_fault1")))
			CHECK(r.ev[0].per_op > 0.9 && r.ev[0].per_op < 1.1,
			      "%s t=%d: %.3f page faults per page written", wl, threads,
			      r.ev[0].per_op);
		if (!strcmp(wl, "tcp") || !strcmp(wl, "hackbench")) {
			CHECK(sscanf(r.note, "%llu messages sent, %llu received", &sent, &recvd) ==
				  2,
			      "%s t=%d: note %s", wl, threads, r.note);
			CHECK(sent == recvd && sent > 0, "%s t=%d: %llu sent, %llu received", wl,
			      threads, sent, recvd);
		}
	}
	meas_destroy(&m);
	cfg_free(cfg);
	return 0;
}

int main(void)
{
	static const char *const wls[] = {"page_fault1", "page_fault2", "page_fault3",
					  "fallocate1",	 "tcp",		"hackbench"};
	const struct scenario *sc = scenario_find("kernel");
	struct pmu_set *pmu;
	struct topo *t;
	char err[512], thp[128] = "";
	int fds, maps, thp_always;

	t = topo_load_host(err, sizeof(err));
	if (!t || !sc) {
		fprintf(stderr, "test_kernel: %s\n", t ? "no kernel scenario" : err);
		return 1;
	}
	CHECK(sc->flags & BENCH_KERNEL, "kernel: not flagged BENCH_KERNEL");
	pmu = pmu_resolve("page_faults", 0, err, sizeof(err));
	CHECK(pmu != NULL, "page_faults: %s", err);
	sysfs_read("kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp));
	thp_always = strstr(thp, "[always]") != NULL;
	if (topo_npus(t) < 2)
		printf("one PU: 2-thread cases skipped\n");
	/* first windows create what the process keeps (glibc's cached thread stacks, the
	 * counters' state): then the descriptors and mappings are counted */
	for (int threads = 1; threads <= 2 && threads <= topo_npus(t); threads++)
		measure(sc, "page_fault1", threads, t, pmu, thp_always, 1);
	fds = count_fds();
	maps = count_lines("/proc/self/maps");
	for (size_t i = 0; i < ARRAY_SIZE(wls); i++)
		for (int threads = 1; threads <= 2 && threads <= topo_npus(t); threads++)
			measure(sc, wls[i], threads, t, pmu, thp_always, 0);
	CHECK(count_fds() == fds, "open descriptors: %d before, %d after", fds, count_fds());
	/* a sanitizer's runtime maps memory of its own as the heap grows */
	CHECK(SANITIZED || count_lines("/proc/self/maps") == maps, "mappings: %d before, %d after",
	      maps, count_lines("/proc/self/maps"));
	pmu_set_free(pmu);
	topo_free(t);
	if (!failures)
		printf("test_kernel: ok (%d descriptors, %d mappings before and after)\n", fds,
		       maps);
	return failures != 0;
}
