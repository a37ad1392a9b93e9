// SPDX-License-Identifier: MIT
/* machine.c - the machine's state, its summary line and the warnings before measuring. */
#include "machine.h"

#include <dirent.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __x86_64__
#include <cpuid.h>
#endif

#include "armcpu.h"
#include "sysfs.h"
#include "topology.h"
#include "util.h"

#define UNKNOWN "unknown"

/* One fact read from one file: its key in context.json, the root and the path under it. */
struct fact {
	const char *key;
	int proc; /* under /proc, else under /sys */
	const char *rel;
};

/* The facts that are one line of one file; the derived ones are made in machine_read. */
static const struct fact facts[] = {
    {"cpufreq_governor", 0, "devices/system/cpu/cpu0/cpufreq/scaling_governor"},
    {"cpufreq_driver", 0, "devices/system/cpu/cpu0/cpufreq/scaling_driver"},
    {"smt_control", 0, "devices/system/cpu/smt/control"},
    {"thp_enabled", 0, "kernel/mm/transparent_hugepage/enabled"},
    {"thp_defrag", 0, "kernel/mm/transparent_hugepage/defrag"},
    {"numa_balancing", 1, "sys/kernel/numa_balancing"},
    {"perf_event_paranoid", 1, "sys/kernel/perf_event_paranoid"},
    {"kernel_release", 1, "sys/kernel/osrelease"},
    {"cmdline", 1, "cmdline"},
};
#define NFACTS (int)(sizeof(facts) / sizeof(facts[0]))

static int read_fact(int proc, const char *rel, char *buf, size_t len)
{
	return proc ? procfs_read(rel, buf, len) : sysfs_read(rel, buf, len);
}

/* selected - "always [madvise] never" -> "madvise" (THP's files mark the choice). */
static void selected(char *v)
{
	char *a = strchr(v, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b)
		memmove(v, a + 1, (size_t)(b - a - 1)), v[b - a - 1] = '\0';
}

static const char *str(const struct machine *m, const char *key)
{
	const char *v = json_string_value(json_object_get(m->json, key));

	return v ? v : UNKNOWN;
}

static void set(struct machine *m, const char *key, const char *v)
{
	json_object_set_new(m->json, key, json_string(v && *v ? v : UNKNOWN));
}

/*
 * package_ids - the distinct physical_package_id of CPUs 0..@ncpus-1 in sysfs (arm64's
 * cpuinfo has no "physical id"); 0 when sysfs has none.
 */
static int package_ids(int ncpus)
{
	long seen[256];
	int n = 0;

	for (int c = 0; c < ncpus && n < 256; c++) {
		char rel[96], v[32];
		int dup = 0;
		long id;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id",
			 c);
		if (sysfs_read(rel, v, sizeof(v)))
			continue;
		id = strtol(v, NULL, 10);
		for (int i = 0; i < n; i++)
			dup |= seen[i] == id;
		if (!dup)
			seen[n++] = id;
	}
	return n;
}

/* cpuinfo - the first processor's identity, CPU count, sockets and the hypervisor flag. */
static void cpuinfo(struct machine *m, int *hv_flag)
{
	static const char *const keys[][2] = {
	    {"vendor_id", "cpu_vendor"},   {"cpu family", "cpu_family"},
	    {"model", "cpu_model_number"}, {"stepping", "cpu_stepping"},
	    {"microcode", "microcode"},	   {"model name", "cpu_model"},
	};
	/* arm64's identity (MIDR_EL1's fields), set only where cpuinfo has them */
	static const char *const arm_keys[][2] = {
	    {"CPU implementer", "cpu_implementer"},
	    {"CPU variant", "cpu_variant"},
	    {"CPU part", "cpu_part"},
	    {"CPU revision", "cpu_revision"},
	};
	FILE *f = procfs_open("cpuinfo");
	char *line = NULL, sockets[64] = "";
	size_t cap = 0;
	int first = 1, nsockets = 0, impl = -1, part = -1;

	*hv_flag = -1;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		set(m, keys[k][1], NULL);
	while (f && getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':'), *v;
		size_t n;

		if (!colon)
			continue;
		v = colon + 1 + strspn(colon + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		for (n = (size_t)(colon - line); n && (line[n - 1] == ' ' || line[n - 1] == '\t');)
			n--;
		line[n] = '\0';
		if (!strcmp(line, "processor")) {
			first = m->ncpus++ == 0;
		} else if (!strcmp(line, "physical id") && strlen(v) < 4) {
			char tag[8];

			snprintf(tag, sizeof(tag), ",%s,", v);
			if (!strstr(sockets, tag) &&
			    strlen(sockets) + strlen(tag) < sizeof(sockets)) {
				strcat(sockets, tag);
				nsockets++;
			}
		} else if (first && !strcmp(line, "flags")) {
			*hv_flag = strstr(v, " hypervisor") || !strncmp(v, "hypervisor", 10);
		} else if (first) {
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
				if (!strcmp(line, keys[k][0]))
					set(m, keys[k][1], v);
			for (size_t k = 0; k < sizeof(arm_keys) / sizeof(arm_keys[0]); k++)
				if (!strcmp(line, arm_keys[k][0]))
					set(m, arm_keys[k][1], v);
			if (!strcmp(line, "CPU implementer"))
				impl = (int)strtol(v, NULL, 0);
			else if (!strcmp(line, "CPU part"))
				part = (int)strtol(v, NULL, 0);
		}
	}
	/* arm64: no vendor_id nor model name; the implementer's and the part's names */
	if (impl >= 0 && part >= 0) {
		const char *vendor = arm_implementer_name(impl);
		char name[96];

		arm_cpu_text(impl, part, name, sizeof(name));
		if (vendor)
			set(m, "cpu_vendor", vendor);
		set(m, "cpu_model", name);
	}
	free(line);
	if (f)
		fclose(f);
	json_object_set_new(m->json, "cpus_online",
			    m->ncpus ? json_integer(m->ncpus) : json_null());
	if (!nsockets)
		nsockets = package_ids(m->ncpus);
	json_object_set_new(m->json, "sockets", nsockets ? json_integer(nsockets) : json_null());
}

/* hypervisor_vendor - from CPUID leaf 0x40000000 on this machine, else sysfs. */
static void hypervisor(struct machine *m, int flag)
{
	char v[64] = "";

	if (flag == 0) {
		set(m, "hypervisor", "none");
		return;
	}
#ifdef __x86_64__
	if (flag == 1 && !procfs_overridden()) {
		static const char *const names[][2] = {
		    {"KVMKVMKVM", "KVM"},	  {"Microsoft Hv", "Hyper-V"},
		    {"VMwareVMware", "VMware"},	  {"XenVMMXenVMM", "Xen"},
		    {"TCGTCGTCGTCG", "QEMU TCG"}, {"ACRNACRNACRN", "ACRN"},
		    {"bhyve bhyve ", "bhyve"},
		};
		unsigned a, b, c, d;
		char sig[13] = "";

		__cpuid(0x40000000, a, b, c, d);
		memcpy(sig, &b, 4), memcpy(sig + 4, &c, 4), memcpy(sig + 8, &d, 4);
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strncmp(sig, names[i][0], strlen(names[i][0])))
				snprintf(v, sizeof(v), "%s", names[i][1]);
	}
#endif
	if (!v[0] && sysfs_read("hypervisor/type", v, sizeof(v)))
		v[0] = '\0';
	if (!v[0] && sysfs_read("class/dmi/id/sys_vendor", v, sizeof(v)))
		v[0] = '\0';
	if (!v[0] && sysfs_virt_board())
		snprintf(v, sizeof(v), "QEMU (virt board)");
	if (!v[0] && flag == 1)
		snprintf(v, sizeof(v), "yes (vendor not exposed)");
	set(m, "hypervisor", v);
}

/* turbo - "on", "off" or unknown, from intel_pstate's no_turbo or cpufreq's boost. */
static void turbo(struct machine *m)
{
	char v[32];

	if (!sysfs_read("devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v)))
		set(m, "turbo", atoi(v) ? "off" : "on");
	else if (!sysfs_read("devices/system/cpu/cpufreq/boost", v, sizeof(v)))
		set(m, "turbo", atoi(v) ? "on" : "off");
	else
		set(m, "turbo", NULL);
}

/* mitigations - every file of devices/system/cpu/vulnerabilities as an object, and the
 * mitigations= kernel parameter (the kernel's default when there is none). */
static void mitigations(struct machine *m)
{
	const char *cmdline = str(m, "cmdline"), *p = strstr(cmdline, "mitigations=");
	json_t *o = json_object();
	struct dirent **names = NULL;
	char dir[4096], rel[512], v[512];
	int n;

	sysfs_path(dir, sizeof(dir), "devices/system/cpu/vulnerabilities");
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/vulnerabilities/%s",
			 names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !sysfs_read(rel, v, sizeof(v)))
			json_object_set_new(o, names[i]->d_name, json_string(v));
		free(names[i]);
	}
	free(names);
	json_object_set_new(m->json, "vulnerabilities", json_object_size(o) ? o : json_null());
	if (!json_object_size(o))
		json_decref(o);
	if (p && (p == cmdline || p[-1] == ' '))
		snprintf(v, sizeof(v), "%.*s", (int)strcspn(p + 12, " "), p + 12);
	else
		snprintf(v, sizeof(v), "%s",
			 strcmp(cmdline, UNKNOWN) ? "kernel default (no mitigations= parameter)"
						  : UNKNOWN);
	set(m, "mitigations", v);
}

static void loadavg(struct machine *m, const char *key)
{
	char v[128];
	double a, b, c;

	if (procfs_read("loadavg", v, sizeof(v)) || sscanf(v, "%lf %lf %lf", &a, &b, &c) != 3)
		set(m, key, NULL);
	else
		json_object_set_new(m->json, key, json_pack("[f,f,f]", a, b, c));
}

static void memory(struct machine *m)
{
	FILE *f = procfs_open("meminfo");
	char line[256];
	long long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	json_object_set_new(m->json, "memory_bytes",
			    kb > 0 ? json_integer(kb * 1024) : json_null());
}

/* summary - the robot's header line: sockets, threads, memory, governor, turbo, ucode. */
static void summary(struct machine *m)
{
	json_t *s = json_object_get(m->json, "sockets");
	json_t *mem = json_object_get(m->json, "memory_bytes");
	double gib = json_is_integer(mem) ? (double)json_integer_value(mem) / (1 << 30) : 0;
	char sockets[32] = "? sockets", threads[32] = "? threads", memtxt[32] = "? memory";
	const char *hv = str(m, "hypervisor");
	size_t used;

	if (json_is_integer(s))
		snprintf(sockets, sizeof(sockets), "%lld socket%s", json_integer_value(s),
			 json_integer_value(s) == 1 ? "" : "s");
	if (m->ncpus)
		snprintf(threads, sizeof(threads), "%d threads", m->ncpus);
	if (gib > 0)
		snprintf(memtxt, sizeof(memtxt), gib < 10 ? "%.1fG" : "%.0fG", gib);
	used = (size_t)snprintf(m->summary, sizeof(m->summary),
				"%s, %s, %s, governor %s, turbo %s, SMT %s, ucode %s", sockets,
				threads, memtxt, str(m, "cpufreq_governor"), str(m, "turbo"),
				str(m, "smt_control"), str(m, "microcode"));
	if (strcmp(hv, "none") && used < sizeof(m->summary))
		snprintf(m->summary + used, sizeof(m->summary) - used, ", hypervisor %s", hv);
	json_object_set_new(m->json, "summary", json_string(m->summary));
}

void machine_read(struct machine *m)
{
	char v[4096];
	int hv;

	memset(m, 0, sizeof(*m));
	m->json = json_object();
	cpuinfo(m, &hv);
	for (int i = 0; i < NFACTS; i++) {
		if (read_fact(facts[i].proc, facts[i].rel, v, sizeof(v)))
			v[0] = '\0';
		else if (!strncmp(facts[i].key, "thp_", 4))
			selected(v);
		set(m, facts[i].key, v);
	}
	turbo(m);
	hypervisor(m, hv);
	mitigations(m);
	memory(m);
	loadavg(m, "loadavg_start");
	summary(m);
}

void machine_load_end(struct machine *m)
{
	loadavg(m, "loadavg_end");
}

int machine_cpu_ticks(int cpu, struct cpu_ticks *t)
{
	FILE *f = procfs_open("stat");
	char line[512], want[16];
	int found = 0;

	memset(t, 0, sizeof(*t));
	snprintf(want, sizeof(want), "cpu%d ", cpu);
	while (f && !found && fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = {0};

		if (strncmp(line, want, strlen(want)))
			continue;
		found = sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu",
			       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 4;
		for (int i = 0; i < 8; i++)
			t->total += v[i];
		t->idle = v[3] + v[4];
		t->steal = v[7];
	}
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

static void warn(struct machine *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct machine *m, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (m->nwarnings == MACHINE_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		m->warnings[m->nwarnings++] = s;
}

/* busy_siblings - warn about SMT siblings of planned PUs, outside the plan, busy > 25%. */
static void busy_siblings(struct machine *m, const struct topo *t, const int *pus, int n)
{
	int sib[256], nsib = 0, of[256];
	struct cpu_ticks a[256], b;
	struct timespec nap = {0, 200 * 1000 * 1000};

	for (int i = 0; i < n; i++) {
		int s[16], k = t ? topo_siblings(t, pus[i], s, 16) : 0;

		for (int j = 0; j < k && nsib < 256; j++) {
			int dup = 0;

			for (int u = 0; u < n; u++)
				dup |= pus[u] == s[j];
			for (int u = 0; u < nsib; u++)
				dup |= sib[u] == s[j];
			if (!dup) {
				of[nsib] = pus[i];
				sib[nsib++] = s[j];
			}
		}
	}
	if (!nsib)
		return;
	for (int i = 0; i < nsib; i++)
		machine_cpu_ticks(sib[i], &a[i]);
	nanosleep(&nap, NULL);
	for (int i = 0; i < nsib; i++) {
		double busy;

		if (machine_cpu_ticks(sib[i], &b) || b.total <= a[i].total)
			continue;
		busy = 1.0 - (double)(b.idle - a[i].idle) / (double)(b.total - a[i].total);
		if (busy > 0.25)
			warn(m,
			     "PU %d, the SMT sibling of planned PU %d, is %.0f%% busy: its work "
			     "shares that core with a measuring thread",
			     sib[i], of[i], busy * 100);
	}
}

void machine_check(struct machine *m, const struct topo *t, const int *pus, int n)
{
	const char *gov = str(m, "cpufreq_governor"), *hv = str(m, "hypervisor");
	json_t *load = json_object_get(m->json, "loadavg_start"), *w;
	char unknown[512] = "";
	size_t used = 0;

	const char *key;
	json_t *v;

	json_object_foreach(m->json, key, v)
	{
		if (json_is_string(v) && !strcmp(json_string_value(v), UNKNOWN) &&
		    used < sizeof(unknown))
			used += (size_t)snprintf(unknown + used, sizeof(unknown) - used, "%s%s",
						 used ? ", " : "", key);
	}
	if (used)
		warn(m, "not exposed by this machine, recorded as unknown: %s", unknown);
	if (strcmp(gov, UNKNOWN) && strcmp(gov, "performance"))
		warn(m, "cpufreq governor %s, not performance: clocks ramp during short windows",
		     gov);
	if (!strcmp(str(m, "turbo"), "on"))
		warn(m, "turbo/boost on: the clock depends on how many cores are busy, so thread "
			"counts are not measured at one frequency");
	if (json_is_array(load) && m->ncpus &&
	    json_real_value(json_array_get(load, 0)) > 0.5 * m->ncpus)
		warn(m,
		     "load average %.2f on %d CPUs (over 0.5 per CPU): other work competes with "
		     "the measuring threads",
		     json_real_value(json_array_get(load, 0)), m->ncpus);
	if (strcmp(hv, "none") && strcmp(hv, UNKNOWN))
		warn(m,
		     "hypervisor %s: vCPUs can be preempted (steal) or moved between host CPUs "
		     "during a window",
		     hv);
	busy_siblings(m, t, pus, n);
	w = json_array();
	for (int i = 0; i < m->nwarnings; i++)
		json_array_append_new(w, json_string(m->warnings[i]));
	json_object_set_new(m->json, "warnings", w);
}

char *machine_json_text(const struct machine *m)
{
	return json_dumps(m->json, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

void machine_free(struct machine *m)
{
	for (int i = 0; i < m->nwarnings; i++)
		free(m->warnings[i]);
	json_decref(m->json);
	memset(m, 0, sizeof(*m));
}
