// SPDX-License-Identifier: MIT
/*
 * test_pmu_fallback.c - counters on CPUs that libpfm4 4.13 does not know. For each new CPU
 * a fake sysfs (PCBENCH_SYSFS_ROOT: devices/system/cpu/modalias, the core PMU's type and
 * format files) must give the PMU of the table, and exactly the perf_event_attr type, config
 * and config1 of every abstract event, with its source. An unknown CPU gets no HITM
 * encoding, only an absent note. Nothing here needs a hardware PMU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "check.h"
#include "pmu.h"
#include "pmu_int.h"

static char root[] = "/tmp/pcbench-sysfs-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* machine - a fresh fake sysfs: CPU (vendor code, family, model), core PMU @pmu of @type. */
static void machine(unsigned vendor, unsigned family, unsigned model, const char *pmu,
		    const char *type, int amd)
{
	char buf[256], rel[128];

	snprintf(buf, sizeof(buf), "rm -rf %s/devices %s/bus", root, root);
	if (system(buf))
		exit(1);
	snprintf(buf, sizeof(buf), "cpu:type:x86,ven%04Xfam%04Xmod%04X:feature:,0000,0001", vendor,
		 family, model);
	put("devices/system/cpu/modalias", buf);
	put("bus/event_source/devices/software/type", "1");
	if (!pmu)
		return;
	snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/type", pmu);
	put(rel, type);
#define FMT(term, spec)                                                                            \
	snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/format/%s", pmu, term);            \
	put(rel, spec)
	FMT("event", amd ? "config:0-7,32-35" : "config:0-7");
	FMT("umask", "config:8-15");
	FMT("edge", "config:18");
	FMT("inv", "config:23");
	FMT("cmask", "config:24-31");
	if (!amd) {
		FMT("offcore_rsp", "config1:0-63");
		FMT("ldlat", "config1:0-15");
	}
#undef FMT
}

/*
 * arm_machine - a fresh fake arm64 sysfs: cpu0's MIDR_EL1 @midr, core PMU @pmu of dynamic
 * type 8 with a "cpus" file, its events/ the common events @events (PMCEID's) lists, and an
 * uncore PMU with a cpumask (not a core PMU).
 */
static void arm_machine(const char *midr, const char *pmu, const char *const *events)
{
	char buf[256], rel[160];

	snprintf(buf, sizeof(buf), "rm -rf %s/devices %s/bus", root, root);
	if (system(buf))
		exit(1);
	put("devices/system/cpu/cpu0/regs/identification/midr_el1", midr);
	put("bus/event_source/devices/software/type", "1");
	put("bus/event_source/devices/arm_cmn_0/type", "9");
	put("bus/event_source/devices/arm_cmn_0/cpumask", "0");
	snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/type", pmu);
	put(rel, "8");
	snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/cpus", pmu);
	put(rel, "0-3");
	snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/format/event", pmu);
	put(rel, "config:0-15");
	for (int i = 0; events[i]; i += 2) {
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/events/%s", pmu, events[i]);
		put(rel, events[i + 1]);
	}
}

struct want {
	const char *event;
	unsigned type;
	unsigned long long config, config1;
};

/* check_cpu - resolve "auto" on the fake machine and compare every event with @w. */
static void check_cpu(const char *label, const char *pmu, const char *source, const struct want *w,
		      int nw)
{
	char err[512];
	struct pmu_set *s;
	json_t *j;
	char *js;

	pmu_host_redetect();
	CHECK(!strcmp(pmu_host()->pmu, pmu), "%s: PMU '%s', want %s", label, pmu_host()->pmu, pmu);
	CHECK(!strcmp(pmu_host()->how, "CPU table"), "%s: found by '%s'", label, pmu_host()->how);
	s = pmu_resolve("auto", 0, err, sizeof(err));
	CHECK(s != NULL, "%s: %s", label, err);
	if (!s)
		return;
	for (int k = 0; k < nw; k++) {
		int found = 0;

		for (int i = 0; i < pmu_nevents(s); i++) {
			const struct perf_event_attr *a = pmu_event_attr(s, i);

			if (strcmp(pmu_event_name(s, i), w[k].event))
				continue;
			found = 1;
			CHECK(a && a->type == w[k].type && a->config == w[k].config &&
				  a->config1 == w[k].config1,
			      "%s %s: type %u config %#llx config1 %#llx, want %u %#llx %#llx",
			      label, w[k].event, a ? a->type : 0,
			      a ? (unsigned long long)a->config : 0ULL,
			      a ? (unsigned long long)a->config1 : 0ULL, w[k].type, w[k].config,
			      w[k].config1);
			CHECK(a && a->exclude_kernel, "%s %s: user mode expected", label,
			      w[k].event);
			CHECK(!strcmp(pmu_event_source(s, i), source),
			      "%s %s: source '%s', want '%s'", label, w[k].event,
			      pmu_event_source(s, i), source);
		}
		CHECK(found, "%s: %s not in the auto set", label, w[k].event);
	}
	j = pmu_set_json(s);
	js = json_dumps(j, JSON_COMPACT);
	CHECK(js && strstr(js, "\"pmu\":\"") && strstr(js, pmu) && strstr(js, source),
	      "%s: context.json counters: %s", label, js);
	free(js);
	json_decref(j);
	pmu_set_free(s);
}

int main(void)
{
	const char *hitm = "hitm_local", *note;
	struct pmu_set *s;
	char err[512];
	int rc;

	if (!mkdtemp(root))
		return 1;
	setenv("PCBENCH_SYSFS_ROOT", root, 1);
	if (!pfm_ready(err, sizeof(err), "test", "init")) {
		fprintf(stderr, "FAIL: %s\n", err);
		return 1;
	}

	/* Emerald Rapids, 6/207, and Granite Rapids, 6/173 and 6/174: the same codes. */
	{
		static const struct want w[] = {
		    {"cycles", 4, 0x3c, 0},	  {"instructions", 4, 0xc0, 0},
		    {"llc_miss", 4, 0x412e, 0},	  {"hitm_local", 4, 0x4d2, 0},
		    {"hitm_remote", 4, 0x4d3, 0}, {"rfo_hitm", 4, 0x12a, 0x10003c0002ULL},
		};
		machine(0, 6, 207, "cpu", "4", 0);
		check_cpu("emr", "emr", "table (sysfs cpu)", w, 6);
		machine(0, 6, 173, "cpu", "4", 0);
		check_cpu("gnr 173", "gnr", "table (sysfs cpu)", w, 6);
		machine(0, 6, 174, "cpu", "4", 0);
		check_cpu("gnr 174", "gnr", "table (sysfs cpu)", w, 6);
	}
	/* Zen 5, family 0x1A: AMD's event format (config:0-7,32-35). */
	{
		static const struct want w[] = {
		    {"cycles", 4, 0x76, 0},
		    {"instructions", 4, 0xc0, 0},
		    {"llc_miss", 4, 0x5c44, 0},
		    {"c2c_fill_local", 4, 0x444, 0},
		    {"c2c_fill_remote", 4, 0x1044, 0},
		};
		machine(2, 0x1a, 0x11, "cpu", "4", 1);
		check_cpu("zen5", "amd64_fam1ah_zen5", "table (sysfs cpu)", w, 5);
		s = pmu_resolve("hitm_local,rfo_hitm", 0, err, sizeof(err));
		note = s ? pmu_absent_note(s) : err;
		CHECK(s && strstr(note, "hitm_local,rfo_hitm: not mapped for amd64_fam1ah_zen5"),
		      "zen5 hitm: '%s'", note);
		pmu_set_free(s);
	}
	/* A hybrid layout: the core PMU is cpu_core, and its type is sysfs's, not 4. */
	{
		static const struct want w[] = {
		    {"hitm_local", 8, 0x4d2, 0},
		    {"rfo_hitm", 8, 0x12a, 0x10003c0002ULL},
		};
		machine(0, 6, 207, "cpu_core", "8", 0);
		check_cpu("cpu_core", "emr", "table (sysfs cpu_core)", w, 2);
	}
	/* A PMU whose format lacks a term: the event is absent, naming the file. */
	{
		char rel[128];

		machine(0, 6, 207, "cpu", "4", 0);
		snprintf(rel, sizeof(rel), "%s/bus/event_source/devices/cpu/format/offcore_rsp",
			 root);
		unlink(rel);
		pmu_host_redetect();
		s = pmu_resolve("rfo_hitm", 0, err, sizeof(err));
		note = s ? pmu_absent_note(s) : err;
		CHECK(s && strstr(note, "rfo_hitm: table terms") &&
			  strstr(note, "format/offcore_rsp"),
		      "missing format: '%s'", note);
		pmu_set_free(s);
	}
	/*
	 * Arm Neoverse N1 (MIDR 0x414fd0c1): found by the CPU table from midr_el1, its events
	 * through the armv8_pmuv3_0 PMU (type 8, found by its "cpus" file). Instructions are
	 * not in its PMCEID (events/ lacks inst_retired, as under QEMU TCG): absent with that
	 * reason, never opened to count 0. No HITM on Arm: the note says why.
	 */
	{
		static const char *const ev[] = {
		    "cpu_cycles",    "event=0x0011",  "ll_cache_miss_rd",
		    "event=0x0037",  "remote_access", "event=0x0031",
		    "stall_backend", "event=0x0024",  NULL,
		};
		static const struct want w[] = {
		    {"cycles", 8, 0x11, 0},
		    {"llc_miss", 8, 0x37, 0},
		    {"c2c_fill_remote", 8, 0x31, 0},
		};
		char desc[128];

		arm_machine("0x00000000414fd0c1", "armv8_pmuv3_0", ev);
		check_cpu("neoverse-n1", "arm_n1", "table (sysfs armv8_pmuv3_0)", w, 3);
		CHECK(have_core_pmu(), "neoverse-n1: no core PMU");
		pmu_host_desc(desc, sizeof(desc));
		CHECK(!strcmp(desc, "ARM implementer 0x41 part 0xd0c (Neoverse N1)"),
		      "neoverse-n1: CPU '%s'", desc);
		s = pmu_resolve("instructions,hitm_local,c2c_fill_local", 0, err, sizeof(err));
		note = s ? pmu_absent_note(s) : err;
		CHECK(s && strstr(note, "instructions: not implemented by PMU armv8_pmuv3_0 (not "
					"in its PMCEID: not in sysfs events/)"),
		      "neoverse-n1 instructions: '%s'", note);
		CHECK(
		    s && strstr(note, "hitm_local: not mapped for arm_n1 (Arm PMUs have no HITM") &&
			strstr(note, "perf c2c reads Arm SPE"),
		    "neoverse-n1 hitm: '%s'", note);
		CHECK(s && strstr(note, "c2c_fill_local: not mapped for arm_n1"),
		      "neoverse-n1 c2c_fill_local: '%s'", note);
		for (int i = 0; s && i < pmu_nevents(s); i++)
			CHECK(strcmp(pmu_event_name(s, i), "instructions") || !s->ev[i].ok,
			      "neoverse-n1: instructions counted");
		pmu_set_free(s);
	}
	/* Neoverse V2 (Grace, Graviton4), a per-cluster PMU name: N1's codes, v2's name. */
	{
		static const char *const ev[] = {"cpu_cycles", "event=0x0011", "inst_retired",
						 "event=0x0008", NULL};
		static const struct want w[] = {
		    {"cycles", 8, 0x11, 0},
		    {"instructions", 8, 0x08, 0},
		};

		arm_machine("0x00000000410fd4f0", "armv8_neoverse_v2", ev);
		check_cpu("neoverse-v2", "arm_v2", "table (sysfs armv8_neoverse_v2)", w, 2);
	}

	/* An unknown CPU: no HITM encoding, empty cells with a note. */
	machine(0, 6, 0xff, "cpu", "4", 0);
	pmu_host_redetect();
	CHECK(!pmu_host()->pmu[0], "unknown CPU: PMU '%s'", pmu_host()->pmu);
	s = pmu_resolve("auto,hitm_local", 0, err, sizeof(err));
	CHECK(s != NULL, "unknown CPU: %s", err);
	if (s) {
		note = pmu_absent_note(s);
		CHECK(strstr(note, hitm) &&
			  strstr(note, "GenuineIntel family 6 (0x6) model 255 (0xff) is not in "
				       "pcbench's table"),
		      "unknown CPU: note '%s'", note);
		for (int i = 0; i < pmu_nevents(s); i++)
			if (!strcmp(pmu_event_name(s, i), hitm))
				CHECK(pmu_event_attr(s, i) == NULL,
				      "unknown CPU: hitm_local encoded");
	}
	pmu_set_free(s);
	/* --pmu names the new PMUs; a bad one lists the known. */
	rc = pmu_check_name("nosuch", err, sizeof(err));
	CHECK(!rc && strstr(err, "emr") && strstr(err, "gnr") && strstr(err, "amd64_fam1ah_zen5") &&
		  strstr(err, "arm_n1, arm_n2, arm_v1, arm_v2"),
	      "--pmu nosuch: '%s'", err);

	snprintf(err, sizeof(err), "rm -rf %s", root);
	if (system(err))
		return 1;
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
