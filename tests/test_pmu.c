// SPDX-License-Identifier: MIT
/*
 * test_pmu.c - the counters module: every table string encodes for its PMU (through
 * LIBPFM_ENCODE_INACTIVE), --list-events for named PMUs, --events parsing and errors,
 * software events counted for real on this thread and on two threads, absent hardware
 * events reported with a note, and the multiplex scaling arithmetic.
 * Exits 77 (ctest SKIP) only when perf_event_open cannot count software events here.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "pmu.h"

#include "check.h"
#include "pmu_events.h"
#include "pmu_int.h"

/*
 * Page faults per page touched: at most 2 normally; ThreadSanitizer also faults in the
 * shadow memory of every page (about 3 per page), so its bound is wider.
 */
#if defined(__SANITIZE_THREAD__)
#define FAULTS_PER_PAGE 4.0
#else
#define FAULTS_PER_PAGE 2.0
#endif

/* pfm_knows - does this libpfm4 have PMU @name? */
static int pfm_knows(const char *name)
{
	pfm_pmu_info_t pi;
	pfm_pmu_t p;

	pfm_for_all_pmus(p)
	{
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) == PFM_SUCCESS && pi.name && !strcmp(pi.name, name))
			return 1;
	}
	return 0;
}

/* check_row - row @r (of PMU @pmu, alias resolved) is well formed and encodes as it says. */
static void check_row(const char *pmu, const struct pmu_row *r)
{
	const struct pmu_cpu *c = pmu_cpu_by_name(pmu);
	int pseudo = !c;
	struct perf_event_attr attr, raw;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	char via[128], err[256];
	int rc;

	CHECK(pmu_is_abstract(r->event), "%s: %s is not an abstract event", pmu, r->event);
	CHECK(r->note != NULL, "%s %s: note is NULL", pmu, r->event);
	if (!strncmp(pmu, "amd64", 5) && !strncmp(r->event, "hitm", 4))
		CHECK(!r->str && !r->terms, "%s: %s must not be mapped (AMD fills are not HITM)",
		      pmu, r->event);
	if (!r->str && !r->terms) {
		CHECK(r->note && r->note[0], "%s %s: unmapped row without a reason", pmu, r->event);
		return;
	}
	if (r->terms) {
		CHECK(!pseudo, "%s %s: terms on a pseudo PMU", pmu, r->event);
		rc = pmu_sysfs_encode(r->terms, c ? c->vendor : "GenuineIntel", 0, &raw, via,
				      sizeof(via), err, sizeof(err));
		CHECK(rc >= 0, "%s %s: terms %s: %s", pmu, r->event, r->terms, err);
	}
	if (!r->str)
		return;
	if (!pseudo)
		CHECK(!strncmp(r->str, pmu, strlen(pmu)) && !strncmp(r->str + strlen(pmu), "::", 2),
		      "%s %s: %s is not qualified with its PMU", pmu, r->event, r->str);
	if (!pseudo && !pfm_knows(pmu)) {
		/* emr, gnr, zen5 with libpfm4 4.13: the terms are the encoding. */
		CHECK(r->terms != NULL, "%s %s: libpfm4 lacks %s and the row has no terms", pmu,
		      r->event, pmu);
		return;
	}
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	rc = pfm_get_os_event_encoding(r->str, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	CHECK(rc == PFM_SUCCESS, "%s %s: %s does not encode: %s", pmu, r->event, r->str,
	      pfm_strerror(rc));
	if (rc != PFM_SUCCESS)
		return;
	CHECK(attr.exclude_kernel, "%s: user mode expected", r->str);
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	memset(&pi, 0, sizeof(pi));
	pi.size = sizeof(pi);
	rc = pfm_get_event_info(arg.idx, PFM_OS_NONE, &ei);
	if (rc == PFM_SUCCESS)
		rc = pfm_get_pmu_info(ei.pmu, &pi);
	CHECK(rc == PFM_SUCCESS, "%s: no event/pmu info", r->str);
	if (rc == PFM_SUCCESS && !pseudo)
		CHECK(!strcmp(pi.name, pmu), "%s encodes for PMU %s, not %s", r->str, pi.name, pmu);
	if (r->terms)
		CHECK(attr.type == PERF_TYPE_RAW && attr.config == raw.config &&
			  attr.config1 == raw.config1,
		      "%s: libpfm4 encodes type %u config %#llx config1 %#llx, the terms %s give "
		      "%#llx,%#llx",
		      r->str, attr.type, (unsigned long long)attr.config,
		      (unsigned long long)attr.config1, r->terms, (unsigned long long)raw.config,
		      (unsigned long long)raw.config1);
	if (!strcmp(r->event, "task_clock") || !strcmp(r->event, "page_faults"))
		CHECK(attr.type == PERF_TYPE_SOFTWARE, "%s: not a software event", r->str);
}

/*
 * Every PMU of the table (aliases resolved) has one row per hardware abstract event; every
 * string encodes for its own PMU to what its terms say; an alias rewrites the prefix.
 */
static void test_table(void)
{
	const struct pmu_cpu *c;
	const struct pmu_row *raw;
	const char *a;
	struct pmu_row r;
	char buf[256];

	for (int i = 0; (raw = pmu_table_at(i)); i++) {
		CHECK(pmu_cpu_by_name(raw->pmu) || !strcmp(raw->pmu, "software") ||
			  !strncmp(raw->pmu, "generic", 7),
		      "row %d: PMU %s is not in the PMU table", i, raw->pmu);
		CHECK(!pmu_cpu_by_name(raw->pmu) || !pmu_cpu_by_name(raw->pmu)->alias_of,
		      "row %d: %s is an alias: it has no rows of its own", i, raw->pmu);
		if (!pmu_cpu_by_name(raw->pmu))
			check_row(raw->pmu, raw);
	}
	for (int p = 0; (c = pmu_cpu_at(p)); p++) {
		CHECK(c->source && c->source[0] && c->desc && c->vendor, "%s: no source", c->name);
		CHECK(!c->alias_of || pmu_cpu_by_name(c->alias_of), "%s: alias of unknown %s",
		      c->name, c->alias_of);
		for (int k = 0; (a = pmu_table_abstract(k)); k++) {
			int found;

			if (!strcmp(a, "task_clock") || !strcmp(a, "page_faults"))
				continue;
			found = pmu_table_find(c->name, a, &r, buf, sizeof(buf));
			CHECK(found, "%s: no row for %s", c->name, a);
			if (found)
				check_row(c->name, &r);
		}
	}
	/* The alias column: clx's strings are skx's with the prefix rewritten. */
	CHECK(pmu_table_find("clx", "hitm_local", &r, buf, sizeof(buf)) &&
		  !strcmp(r.str, "clx::MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM"),
	      "clx hitm_local: '%s'", r.str);
	CHECK(pmu_table_find("emr", "rfo_hitm", &r, buf, sizeof(buf)) &&
		  !strcmp(r.str, "emr::OCR:DEMAND_RFO_L3_HIT_SNOOP_HITM") &&
		  !strcmp(r.terms, "event=0x2a,umask=0x01,offcore_rsp=0x10003c0002"),
	      "emr rfo_hitm: '%s' '%s'", r.str, r.terms);
	/* The CPU key. */
	CHECK(pmu_cpu_by_id("GenuineIntel", 6, 207) == pmu_cpu_by_name("emr"), "6/207 is emr");
	CHECK(pmu_cpu_by_id("GenuineIntel", 6, 173) == pmu_cpu_by_name("gnr"), "6/173 is gnr");
	CHECK(pmu_cpu_by_id("GenuineIntel", 6, 174) == pmu_cpu_by_name("gnr"), "6/174 is gnr");
	CHECK(pmu_cpu_by_id("AuthenticAMD", 0x1a, 0x44) == pmu_cpu_by_name("amd64_fam1ah_zen5"),
	      "1a/44 is zen5");
	CHECK(pmu_cpu_by_id("GenuineIntel", 6, 143) == NULL, "spr is libpfm4's to detect");
}

static char *list(const char *pmu, int *rc, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	FILE *f = mem_out(&buf, &len);

	err[0] = 0;
	*rc = pmu_list_events(f, pmu, err, errlen);
	fclose(f);
	return buf;
}

/* line_of - the output line whose first word is @event, or "" */
static const char *line_of(const char *out, const char *event, char *line, size_t len)
{
	size_t n = strlen(event);

	for (const char *p = out; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l > n && !strncmp(p, event, n) && p[n] == ' ') {
			snprintf(line, len, "%.*s", (int)l, p);
			return line;
		}
		p = nl ? nl + 1 : NULL;
	}
	line[0] = 0;
	return line;
}

static void test_list(void)
{
	char err[512], line[1024];
	char *out;
	int rc;

	out = list("spr", &rc, err, sizeof(err));
	CHECK(rc == 0, "list spr: rc %d: %s", rc, err);
	line_of(out, "hitm_local", line, sizeof(line));
	CHECK(strstr(line, "MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD") != NULL,
	      "list spr: hitm_local line lacks XSNP_FWD: '%s'", line);
	CHECK(strstr(line, " libpfm4 ") && strstr(line, "type 4 config 0x4d2"),
	      "list spr: hitm_local does not encode with libpfm4: '%s'", line);
	line_of(out, "task_clock", line, sizeof(line));
	CHECK(strstr(line, "perf::TASK-CLOCK") != NULL, "list spr: task_clock line '%s'", line);
	free(out);

	out = list("icx", &rc, err, sizeof(err));
	CHECK(rc == 0, "list icx: rc %d: %s", rc, err);
	line_of(out, "hitm_local", line, sizeof(line));
	CHECK(strstr(line, "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM") != NULL,
	      "list icx: hitm_local line lacks XSNP_HITM: '%s'", line);
	free(out);

	out = list("amd64_fam19h_zen4", &rc, err, sizeof(err));
	CHECK(rc == 0, "list zen4: rc %d: %s", rc, err);
	line_of(out, "hitm_local", line, sizeof(line));
	CHECK(line[0] && !strstr(line, "::"), "list zen4: hitm_local must be unmapped: '%s'", line);
	line_of(out, "c2c_fill_remote", line, sizeof(line));
	CHECK(strstr(line, "FAR_CACHE_NEAR_FAR") != NULL, "list zen4: c2c_fill_remote '%s'", line);
	free(out);

	out = list(NULL, &rc, err, sizeof(err));
	CHECK(rc == 0, "list (this machine): rc %d: %s", rc, err);
	line_of(out, "task_clock", line, sizeof(line));
	CHECK(line[0], "list (this machine): no task_clock line");
	free(out);

	out = list("nosuchpmu", &rc, err, sizeof(err));
	CHECK(rc != 0 && strstr(err, "nosuchpmu"), "list nosuchpmu: rc %d err '%s'", rc, err);
	free(out);
	out = list("generic", &rc, err, sizeof(err));
	CHECK(rc != 0, "list generic (a pseudo PMU) should be an error");
	free(out);
}

static void test_parse(void)
{
	char err[512];
	struct pmu_set *s;
	const char *note;

	err[0] = 0;
	s = pmu_resolve("nosuchevent", 0, err, sizeof(err));
	CHECK(!s && strstr(err, "nosuchevent"), "nosuchevent: set %p err '%s'", (void *)s, err);
	pmu_set_free(s);
	err[0] = 0;
	s = pmu_resolve("perf::NOSUCH", 0, err, sizeof(err));
	CHECK(!s && strstr(err, "perf::NOSUCH"), "perf::NOSUCH: set %p err '%s'", (void *)s, err);
	pmu_set_free(s);
	s = pmu_resolve("task_clock,bogus", 0, err, sizeof(err));
	CHECK(!s && strstr(err, "bogus"), "task_clock,bogus: err '%s'", err);
	pmu_set_free(s);
	s = pmu_resolve("spr::MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", 0, err, sizeof(err));
	CHECK(!s && strstr(err, "PFM_ERR_ATTR"), "spr XSNP_HITM: err '%s'", err);
	pmu_set_free(s);
	s = pmu_resolve("auto,none", 0, err, sizeof(err));
	CHECK(!s, "auto,none should be an error");
	pmu_set_free(s);
	s = pmu_resolve("task_clock,,page_faults", 0, err, sizeof(err));
	CHECK(!s, "an empty name should be an error");
	pmu_set_free(s);
	s = pmu_resolve("perf::TASK-CLOCK:k", 0, err, sizeof(err));
	CHECK(!s && strstr(err, "--events-kernel"), "kernel modifier without kernel: '%s'", err);
	pmu_set_free(s);

	s = pmu_resolve("none", 0, err, sizeof(err));
	CHECK(s && pmu_nevents(s) == 0 && !strcmp(pmu_absent_note(s), ""), "none");
	CHECK(pmu_thread_open(s) == NULL, "none: a thread state");
	pmu_set_free(s);
	/* NULL is accepted everywhere. */
	CHECK(pmu_nevents(NULL) == 0 && pmu_event_name(NULL, 0) == NULL, "NULL set");
	pmu_thread_enable(NULL);
	pmu_thread_disable(NULL);
	pmu_thread_read(NULL, NULL);
	pmu_thread_close(NULL);

	/* Names: abstract, qualified (stem), duplicates merged. */
	s = pmu_resolve(" task_clock , perf::PAGE-FAULTS,task_clock", 0, err, sizeof(err));
	CHECK(s != NULL, "qualified list: %s", err);
	if (s) {
		CHECK(pmu_nevents(s) == 2, "qualified list: %d events", pmu_nevents(s));
		CHECK(!strcmp(pmu_event_name(s, 0), "task_clock"), "stem 0 '%s'",
		      pmu_event_name(s, 0));
		CHECK(pmu_event_name(s, 1) && !strcmp(pmu_event_name(s, 1), "perf__page_faults"),
		      "stem 1 '%s'", pmu_event_name(s, 1));
		CHECK(pmu_event_name(s, 2) == NULL, "name past the end");
	}
	pmu_set_free(s);

	/* A known PMU that is not here: absent, not an error. */
	s = pmu_resolve("spr::MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD", 0, err, sizeof(err));
	CHECK(s != NULL, "spr string: %s", err);
	if (s) {
		note = pmu_absent_note(s);
		CHECK(!strcmp(pmu_event_name(s, 0), "spr__mem_load_l3_hit_retired_xsnp_fwd"),
		      "spr stem '%s'", pmu_event_name(s, 0));
		CHECK(strstr(note, "spr__mem_load_l3_hit_retired_xsnp_fwd") &&
			  strstr(note, "not present"),
		      "spr note '%s'", note);
	}
	pmu_set_free(s);

	/* --events-kernel: refused with the reason where paranoid forbids it. */
	s = pmu_resolve("task_clock", 1, err, sizeof(err));
	if (geteuid() != 0 && s == NULL)
		CHECK(strstr(err, "perf_event_paranoid") != NULL, "kernel refusal: '%s'", err);
	else
		CHECK(s != NULL, "kernel counting as root: %s", err);
	pmu_set_free(s);
}

static void test_scale(void)
{
	double mux = -1, v;

	v = pmu_scale(1000, 500, 500, &mux);
	CHECK(v == 1000 && mux == 1.0, "equal: %g mux %g", v, mux);
	v = pmu_scale(1000, 1000, 500, &mux);
	CHECK(v == 2000 && mux == 0.5, "half: %g mux %g", v, mux);
	v = pmu_scale(300, 1000, 250, &mux);
	CHECK(v == 1200 && mux == 0.25, "quarter: %g mux %g", v, mux);
	v = pmu_scale(0, 1000, 1000, &mux);
	CHECK(v == 0 && mux == 1.0, "zero count: %g mux %g", v, mux);
	v = pmu_scale(1000, 1000, 0, &mux);
	CHECK(v < 0, "never running: %g", v);
	v = pmu_scale(0, 0, 0, &mux);
	CHECK(v < 0, "never enabled: %g", v);
	v = pmu_scale(1000, 500, 600, &mux);
	CHECK(v == 1000 && mux == 1.0, "running > enabled: %g mux %g", v, mux);
	v = pmu_scale(UINT64_C(1) << 62, 3, 1, NULL);
	CHECK(v > 1.3e19 && v < 1.4e19, "large: %g", v);
}

static double thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * A counted window's thread CPU time and wall time. task_clock is the time the thread was on
 * a CPU, which on a VM includes the steal the thread's CPU time leaves out (a window of 20 ms
 * of CPU time once counted 34.5 ms under a busy host). So a count is checked against both:
 * at least half the CPU time, and no more than the window's wall time (with 5% + 1 ms for
 * the enable and disable calls); a count that leaked into the spins around the window
 * exceeds the wall time.
 */
struct span {
	double cpu, wall;
};

static int in_span(double value, struct span sp)
{
	return value > 0.5 * sp.cpu && value < 1.05 * sp.wall + 1e6;
}

/* spin - burn @ns of this thread's CPU time; returns the CPU time spent. */
static double spin(double ns)
{
	double t0 = thread_cpu_ns(), t;

	do
		t = thread_cpu_ns();
	while (t - t0 < ns);
	return t - t0;
}

/*
 * counted - one counted window on @t: @ns of spinning, then one write to each page of a
 * fresh @len-byte mapping (none when 0; no huge pages), then 20 ms more with counting off.
 * Returns the thread's CPU time and the wall time inside the window (they include the
 * faults taken touching pages: slow under TSan); the counts are in @v.
 */
static struct span counted(struct pmu_thread *t, double ns, size_t len, struct pmu_value *v)
{
	char *mem =
	    len ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
		: NULL;
	struct span sp;

	if (mem == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	if (mem)
		madvise(mem, len, MADV_NOHUGEPAGE);
	sp.wall = wall_ns();
	sp.cpu = thread_cpu_ns();
	pmu_thread_enable(t);
	spin(ns);
	for (size_t i = 0; i < len; i += 4096)
		mem[i] = 1;
	pmu_thread_disable(t);
	sp.cpu = thread_cpu_ns() - sp.cpu;
	sp.wall = wall_ns() - sp.wall;
	spin(20e6);
	pmu_thread_read(t, v);
	if (mem)
		munmap(mem, len);
	return sp;
}

struct worker {
	const struct pmu_set *s;
	struct span sp;
	struct pmu_value v[4];
};

static void *worker(void *arg)
{
	struct worker *w = arg;
	struct pmu_thread *t = pmu_thread_open(w->s);

	w->sp.wall = wall_ns();
	pmu_thread_enable(t);
	w->sp.cpu = spin(50e6);
	pmu_thread_disable(t);
	w->sp.wall = wall_ns() - w->sp.wall;
	pmu_thread_read(t, w->v);
	pmu_thread_close(t);
	return NULL;
}

/* Software events counted for real. Returns 0, or 77 when perf_event_open is unavailable. */
static int test_software(void)
{
	struct pmu_value v[4];
	struct pmu_thread *t;
	struct pmu_set *s;
	const char *note;
	char err[512];
	struct span sp;
	size_t len = 4 << 20;

	s = pmu_resolve("task_clock,page_faults", 0, err, sizeof(err));
	CHECK(s != NULL, "task_clock: %s", err);
	if (!s)
		return 0;
	note = pmu_absent_note(s);
	if (note[0] &&
	    (strstr(note, "EACCES") || strstr(note, "EPERM") || strstr(note, "ENOSYS"))) {
		printf("SKIP: software events: %s\n", note);
		pmu_set_free(s);
		return 77;
	}
	CHECK(!note[0], "software events absent: '%s'", note);

	t = pmu_thread_open(s);
	CHECK(t != NULL, "no thread state");
	/* Counting is off before enable: this spin must not count. */
	spin(20e6);
	sp = counted(t, 100e6, len, v);
	CHECK(v[0].present, "task_clock absent");
	CHECK(v[0].mux == 1.0, "task_clock mux %g", v[0].mux);
	CHECK(in_span(v[0].value, sp),
	      "task_clock %.0f ns for %.0f ns of thread CPU time, %.0f ns wall", v[0].value, sp.cpu,
	      sp.wall);
	CHECK(v[1].present && v[1].mux == 1.0, "page_faults present %d mux %g", v[1].present,
	      v[1].mux);
	CHECK(v[1].value >= 1 && v[1].value <= FAULTS_PER_PAGE * (double)(len / 4096) + 64,
	      "page_faults %.0f for %zu pages", v[1].value, len / 4096);
	printf("task_clock %.0f ns (thread CPU time %.0f ns), page_faults %.0f (%zu pages)\n",
	       v[0].value, sp.cpu, v[1].value, len / 4096);

	/* Later windows on the same thread state start from zero and count every member. */
	for (int w = 0; w < 4; w++) {
		size_t wlen = w % 2 ? 0 : 1 << 20;

		sp = counted(t, 20e6, wlen, v);
		CHECK(v[0].present && in_span(v[0].value, sp),
		      "window %d: task_clock %.0f ns for %.0f ns (%.0f ns wall)", w + 2, v[0].value,
		      sp.cpu, sp.wall);
		if (wlen)
			CHECK(v[1].present && v[1].value >= 1 &&
				  v[1].value <= FAULTS_PER_PAGE * (double)(wlen / 4096) + 64,
			      "window %d: page_faults %.0f for %zu pages", w + 2, v[1].value,
			      wlen / 4096);
		else
			CHECK(v[1].present && v[1].value < 64,
			      "window %d: page_faults %.0f without touching", w + 2, v[1].value);
	}
	pmu_thread_close(t);

	/* Several groups per thread (forced): each group is enabled, read and scaled alone. */
	for (int max = 1; max <= 2; max++) {
		struct pmu_set *m;
		char val[16];

		snprintf(val, sizeof(val), "%d", max);
		setenv("PCBENCH_PMU_GROUP_MAX", val, 1);
		m = pmu_resolve("task_clock,page_faults,perf::CPU-CLOCK", 0, err, sizeof(err));
		unsetenv("PCBENCH_PMU_GROUP_MAX");
		CHECK(m && pmu_nevents(m) == 3 && !pmu_absent_note(m)[0], "group max %d: %s", max,
		      m ? pmu_absent_note(m) : err);
		if (!m)
			continue;
		t = pmu_thread_open(m);
		for (int w = 0; w < 2; w++) {
			size_t wlen = 1 << 20;

			sp = counted(t, 20e6, wlen, v);
			for (int i = 0; i < 3; i++)
				CHECK(v[i].present && v[i].mux == 1.0,
				      "group max %d window %d: event %d present %d mux %g", max, w,
				      i, v[i].present, v[i].mux);
			CHECK(in_span(v[0].value, sp) && in_span(v[2].value, sp),
			      "group max %d window %d: task_clock %.0f cpu_clock %.0f for %.0f ns "
			      "(%.0f ns wall)",
			      max, w, v[0].value, v[2].value, sp.cpu, sp.wall);
			CHECK(v[1].value >= 1 &&
				  v[1].value <= FAULTS_PER_PAGE * (double)(wlen / 4096) + 64,
			      "group max %d window %d: page_faults %.0f", max, w, v[1].value);
		}
		pmu_thread_close(t);
		pmu_set_free(m);
	}

	/* Two threads, each with its own groups. */
	{
		struct worker w[2] = {{.s = s}, {.s = s}};
		pthread_t th[2];

		for (int i = 0; i < 2; i++)
			if (pthread_create(&th[i], NULL, worker, &w[i])) {
				perror("pthread_create");
				exit(1);
			}
		for (int i = 0; i < 2; i++) {
			pthread_join(th[i], NULL);
			CHECK(w[i].v[0].present && in_span(w[i].v[0].value, w[i].sp),
			      "thread %d: task_clock %.0f ns for %.0f ns (%.0f ns wall)", i,
			      w[i].v[0].value, w[i].sp.cpu, w[i].sp.wall);
		}
	}
	pmu_set_free(s);
	return 0;
}

/* consistent - every event of @s is either counted or named in the note; returns #absent. */
static int consistent(struct pmu_set *s, const char *label)
{
	struct pmu_value v[32];
	struct pmu_thread *t;
	const char *note = pmu_absent_note(s);
	int n = pmu_nevents(s), absent = 0;

	CHECK(n <= 32, "%s: %d events", label, n);
	if (n > 32)
		return 0;
	t = pmu_thread_open(s);
	pmu_thread_enable(t);
	spin(5e6);
	pmu_thread_disable(t);
	pmu_thread_read(t, v);
	pmu_thread_close(t);
	for (int i = 0; i < n; i++) {
		const char *name = pmu_event_name(s, i);
		size_t l = strlen(name);
		int named = 0;

		/* Whole-word match in the note's name lists ("a,b: why; c: why"). */
		for (const char *p = note; (p = strstr(p, name)); p++)
			if ((p == note || p[-1] == ',' || p[-1] == ' ') &&
			    (p[l] == ',' || p[l] == ':'))
				named = 1;
		CHECK(v[i].present != named, "%s: %s present %d, named in the note %d", label, name,
		      v[i].present, named);
		absent += !v[i].present;
	}
	return absent;
}

static void test_auto(void)
{
	int no_pmu = access("/sys/bus/event_source/devices/cpu", F_OK) != 0;
	struct pmu_set *s;
	const char *note;
	char err[512];
	int absent;

	s = pmu_resolve("auto", 0, err, sizeof(err));
	CHECK(s != NULL, "auto: %s", err);
	if (!s)
		return;
	note = pmu_absent_note(s);
	printf("auto: %d events; note: %s\n", pmu_nevents(s), note[0] ? note : "(none)");
	CHECK(pmu_nevents(s) >= 2, "auto: %d events", pmu_nevents(s));
	absent = consistent(s, "auto");
	if (no_pmu) /* this VM: hardware events absent, with the errno */
		CHECK(absent >= 1 && strstr(note, "ENOENT"), "auto without a PMU: %d absent, '%s'",
		      absent, note);
	pmu_set_free(s);

	/* An abstract event this host may not map: counted, or absent with a reason. */
	s = pmu_resolve("hitm_local,task_clock", 0, err, sizeof(err));
	CHECK(s != NULL, "hitm_local: %s", err);
	if (s) {
		consistent(s, "hitm_local");
		if (no_pmu)
			CHECK(strstr(pmu_absent_note(s), "hitm_local") != NULL,
			      "hitm_local without a PMU: '%s'", pmu_absent_note(s));
	}
	pmu_set_free(s);
}

int main(void)
{
	int rc, skip;

	/* Before the first libpfm4 call, so that every PMU of the table encodes here. */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	rc = pfm_initialize();
	if (rc != PFM_SUCCESS) {
		fprintf(stderr, "FAIL: pfm_initialize: %s\n", pfm_strerror(rc));
		return 1;
	}
	test_table();
	test_list();
	test_parse();
	test_scale();
	skip = test_software();
	if (!skip)
		test_auto();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	if (skip)
		return 77;
	printf("ok\n");
	return 0;
}
