// SPDX-License-Identifier: MIT
/*
 * test_machine.c - the machine's state from a fake sysfs/procfs tree (PCBENCH_SYSFS_ROOT,
 * PCBENCH_PROCFS_ROOT): every recorded field, the robot-style summary, one warning line per
 * bias (powersave governor, turbo on, load over 0.5 per CPU, a hypervisor, a busy SMT
 * sibling of a planned PU), and an empty tree recorded as "unknown" with one warning.
 */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "machine.h"
#include "topology.h"
#include "util.h"

static char root[256];

/* put - write @text to root/@rel, creating its directories. */
static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	CHECK(f && fputs(text, f) >= 0 && !fclose(f), "cannot write %s", path);
}

static const char *field(const struct machine *m, const char *key)
{
	const char *v = json_string_value(json_object_get(m->json, key));

	return v ? v : "(not a string)";
}

static int has_warning(const struct machine *m, const char *part)
{
	for (int i = 0; i < m->nwarnings; i++)
		if (strstr(m->warnings[i], part))
			return 1;
	return 0;
}

static const char *stat_idle = "cpu  100 0 100 1000 0 0 0 5 0 0\n"
			       "cpu0 50 0 50 500 0 0 0 3 0 0\n"
			       "cpu1 50 0 50 500 0 0 0 2 0 0\n";
static const char *stat_busy = "cpu  200 0 100 1000 0 0 0 5 0 0\n"
			       "cpu0 50 0 50 500 0 0 0 3 0 0\n"
			       "cpu1 150 0 50 500 0 0 0 2 0 0\n";

/* busy_later - during machine_check's sampling, PU 1 (PU 0's sibling) works 100 ticks. */
static void *busy_later(void *arg)
{
	struct timespec t = {0, 50 * 1000 * 1000};

	(void)arg;
	nanosleep(&t, NULL);
	put("proc/stat.tmp", stat_busy);
	{
		char a[512], b[512];

		snprintf(a, sizeof(a), "%s/proc/stat.tmp", root);
		snprintf(b, sizeof(b), "%s/proc/stat", root);
		CHECK(!rename(a, b), "rename %s", a);
	}
	return NULL;
}

static void full_tree(void)
{
	struct machine m;
	struct topo *t;
	char err[256], sys[300], proc[300];
	pthread_t th;
	int pus[] = {0};

	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "intel_pstate\n");
	put("sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("sys/devices/system/cpu/smt/control", "on\n");
	put("sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n");
	put("sys/devices/system/cpu/vulnerabilities/spectre_v2", "Mitigation: Enhanced IBRS\n");
	put("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put("sys/kernel/mm/transparent_hugepage/defrag", "always defer [madvise] never\n");
	put("sys/class/dmi/id/sys_vendor", "QEMU\n");
	put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
			    "model\t\t: 106\nmodel name\t: Fake Xeon\nstepping\t: 6\n"
			    "microcode\t: 0xd000390\nphysical id\t: 0\n"
			    "flags\t\t: fpu vme hypervisor avx2\n\n"
			    "processor\t: 1\nvendor_id\t: GenuineIntel\nphysical id\t: 1\n"
			    "flags\t\t: fpu vme hypervisor avx2\n\n");
	put("proc/sys/kernel/numa_balancing", "1\n");
	put("proc/sys/kernel/perf_event_paranoid", "-1\n");
	put("proc/sys/kernel/osrelease", "6.1.0-fake\n");
	put("proc/cmdline", "ro quiet mitigations=off\n");
	put("proc/loadavg", "3.00 2.50 1.25 2/300 4242\n");
	put("proc/meminfo", "MemTotal:       134217728 kB\nMemFree: 1 kB\n");
	put("proc/stat", stat_idle);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	setenv("PCBENCH_SYSFS_ROOT", sys, 1);
	setenv("PCBENCH_PROCFS_ROOT", proc, 1);

	machine_read(&m);
	CHECK(!strcmp(field(&m, "cpu_vendor"), "GenuineIntel"), "cpu_vendor %s",
	      field(&m, "cpu_vendor"));
	CHECK(!strcmp(field(&m, "cpu_model_number"), "106") &&
		  !strcmp(field(&m, "cpu_stepping"), "6") &&
		  !strcmp(field(&m, "cpu_model"), "Fake Xeon"),
	      "cpu identity");
	CHECK(!strcmp(field(&m, "microcode"), "0xd000390"), "microcode %s", field(&m, "microcode"));
	CHECK(!strcmp(field(&m, "cpufreq_governor"), "powersave") &&
		  !strcmp(field(&m, "cpufreq_driver"), "intel_pstate"),
	      "cpufreq");
	CHECK(!strcmp(field(&m, "turbo"), "on"), "turbo %s", field(&m, "turbo"));
	CHECK(!strcmp(field(&m, "thp_enabled"), "always") &&
		  !strcmp(field(&m, "thp_defrag"), "madvise"),
	      "thp %s %s", field(&m, "thp_enabled"), field(&m, "thp_defrag"));
	CHECK(!strcmp(field(&m, "numa_balancing"), "1"), "numa_balancing");
	CHECK(!strcmp(field(&m, "perf_event_paranoid"), "-1"), "perf_event_paranoid");
	CHECK(!strcmp(field(&m, "kernel_release"), "6.1.0-fake"), "kernel_release");
	CHECK(!strcmp(field(&m, "mitigations"), "off"), "mitigations %s", field(&m, "mitigations"));
	CHECK(!strcmp(json_string_value(json_object_get(json_object_get(m.json, "vulnerabilities"),
							"spectre_v2")),
		      "Mitigation: Enhanced IBRS"),
	      "vulnerabilities");
	CHECK(!strcmp(field(&m, "hypervisor"), "QEMU"), "hypervisor %s", field(&m, "hypervisor"));
	CHECK(json_integer_value(json_object_get(m.json, "memory_bytes")) == 137438953472LL,
	      "memory_bytes");
	CHECK(json_real_value(json_array_get(json_object_get(m.json, "loadavg_start"), 0)) == 3.0,
	      "loadavg_start");
	CHECK(!strcmp(m.summary, "2 sockets, 2 threads, 128G, governor powersave, turbo on, SMT "
				 "on, ucode 0xd000390, hypervisor QEMU"),
	      "summary: %s", m.summary);

	t = topo_load_synthetic("core:2 pu:2", err, sizeof(err));
	CHECK(t != NULL, "synthetic: %s", err);
	pthread_create(&th, NULL, busy_later, NULL);
	machine_check(&m, t, pus, 1);
	pthread_join(th, NULL);
	CHECK(has_warning(&m, "governor powersave"), "no governor warning");
	CHECK(has_warning(&m, "turbo/boost on"), "no turbo warning");
	CHECK(has_warning(&m, "load average 3.00 on 2 CPUs"), "no load warning");
	CHECK(has_warning(&m, "hypervisor QEMU"), "no hypervisor warning");
	CHECK(has_warning(&m, "PU 1, the SMT sibling of planned PU 0, is 100% busy"),
	      "no busy-sibling warning");
	CHECK(!has_warning(&m, "unknown"), "a full tree reports something unknown");
	CHECK(m.nwarnings == 5, "%d warnings, want 5", m.nwarnings);
	CHECK(json_array_size(json_object_get(m.json, "warnings")) == 5, "warnings in the JSON");
	for (int i = 0; i < m.nwarnings; i++)
		CHECK(!strchr(m.warnings[i], '\n'), "a warning of more than one line");
	put("proc/loadavg", "0.50 0.50 0.50 1/300 4242\n");
	machine_load_end(&m);
	CHECK(json_real_value(json_array_get(json_object_get(m.json, "loadavg_end"), 0)) == 0.5,
	      "loadavg_end");
	topo_free(t);
	machine_free(&m);
}

/* empty_tree - nothing exposed: every field unknown, one warning saying so, no other. */
static void empty_tree(void)
{
	struct machine m;
	char sys[300];

	snprintf(sys, sizeof(sys), "%s/empty", root);
	mkdir(sys, 0755);
	setenv("PCBENCH_SYSFS_ROOT", sys, 1);
	setenv("PCBENCH_PROCFS_ROOT", sys, 1);
	machine_read(&m);
	machine_check(&m, NULL, NULL, 0);
	CHECK(!strcmp(field(&m, "cpufreq_governor"), "unknown") &&
		  !strcmp(field(&m, "microcode"), "unknown") &&
		  !strcmp(field(&m, "hypervisor"), "unknown") &&
		  !strcmp(field(&m, "turbo"), "unknown"),
	      "empty tree: not unknown");
	CHECK(m.nwarnings == 1 && has_warning(&m, "recorded as unknown: ") &&
		  has_warning(&m, "cpufreq_governor") && has_warning(&m, "turbo"),
	      "empty tree: want one 'unknown' warning, got %d", m.nwarnings);
	CHECK(strstr(m.summary, "governor unknown") != NULL, "summary: %s", m.summary);
	machine_free(&m);
}

/*
 * arm_tree - arm64's /proc/cpuinfo (tests/fixtures/cpuinfo: a Neoverse N1 of Graviton2 or
 * Altra, an AmpereOne): implementer, variant, part and revision kept, vendor and model
 * named from them; the x86 keys stay unknown. @sockets CPUs, one per package in sysfs (its
 * cpuinfo has no "physical id"): that many sockets; 0: none in sysfs, sockets null. @hv:
 * the hypervisor field wanted; "QEMU (virt board)" puts QEMU virt's device-tree compatible
 * ("linux,dummy-virt" and its NUL) into the tree, as an arm64 guest under TCG has it.
 */
static void arm_tree(const char *src, const char *fixture, const char *vendor, const char *model,
		     const char *variant, const char *part, int sockets, const char *hv)
{
	struct machine m;
	char sys[300], cmd[1024];
	json_t *s;

	snprintf(sys, sizeof(sys), "%s/arm", root);
	snprintf(cmd, sizeof(cmd),
		 "rm -rf '%s' && mkdir -p '%s/proc' && cp '%s/tests/fixtures/cpuinfo/%s' "
		 "'%s/proc/cpuinfo'",
		 sys, sys, src, fixture, sys);
	if (system(cmd)) {
		CHECK(0, "%s: cannot copy the fixture", fixture);
		return;
	}
	for (int c = 0; c < sockets; c++) {
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p '%s/devices/system/cpu/cpu%d/topology' && echo %d "
			 ">'%s/devices/system/cpu/cpu%d/topology/physical_package_id'",
			 sys, c, c, sys, c);
		CHECK(!system(cmd), "%s: cannot make cpu%d's topology", fixture, c);
	}
	if (!strcmp(hv, "QEMU (virt board)")) {
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p '%s/firmware/devicetree/base' && printf 'linux,dummy-virt\\0' "
			 ">'%s/firmware/devicetree/base/compatible'",
			 sys, sys);
		CHECK(!system(cmd), "%s: cannot make the device tree", fixture);
	}
	setenv("PCBENCH_SYSFS_ROOT", sys, 1);
	snprintf(cmd, sizeof(cmd), "%s/proc", sys);
	setenv("PCBENCH_PROCFS_ROOT", cmd, 1);
	machine_read(&m);
	CHECK(!strcmp(field(&m, "cpu_vendor"), vendor), "%s: cpu_vendor %s", fixture,
	      field(&m, "cpu_vendor"));
	CHECK(!strcmp(field(&m, "cpu_model"), model), "%s: cpu_model %s", fixture,
	      field(&m, "cpu_model"));
	CHECK(!strcmp(field(&m, "cpu_variant"), variant) && !strcmp(field(&m, "cpu_part"), part),
	      "%s: variant %s part %s", fixture, field(&m, "cpu_variant"), field(&m, "cpu_part"));
	CHECK(strcmp(field(&m, "cpu_implementer"), "unknown") &&
		  strcmp(field(&m, "cpu_revision"), "unknown"),
	      "%s: implementer or revision unknown", fixture);
	CHECK(!strcmp(field(&m, "cpu_family"), "unknown"), "%s: cpu_family %s", fixture,
	      field(&m, "cpu_family"));
	CHECK(!strcmp(field(&m, "hypervisor"), hv), "%s: hypervisor %s, want %s", fixture,
	      field(&m, "hypervisor"), hv);
	s = json_object_get(m.json, "sockets");
	CHECK(sockets ? json_integer_value(s) == sockets : json_is_null(s),
	      "%s: sockets %lld, want %d", fixture, (long long)json_integer_value(s), sockets);
	machine_free(&m);
}

int main(int argc, char **argv)
{
	const char *src = argc > 1 ? argv[1] : ".";
	char cmd[300];

	snprintf(root, sizeof(root), "/tmp/pcbench-machine-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	full_tree();
	empty_tree();
	arm_tree(src, "neoverse-n1", "ARM", "ARM Neoverse N1", "0x3", "0xd0c", 2,
		 "QEMU (virt board)");
	arm_tree(src, "ampereone", "Ampere", "Ampere AmpereOne", "0x0", "0xac3", 0, "unknown");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
	if (!failures)
		printf("ok: machine state from a fake tree\n");
	return failures != 0;
}
