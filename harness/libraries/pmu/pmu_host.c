// SPDX-License-Identifier: MIT
/*
 * pmu_host.c - libpfm4 initialization, this machine's CPU and PMU, libpfm4 encoding.
 *
 * libpfm4 is initialized once, with LIBPFM_ENCODE_INACTIVE=1 so that fully qualified
 * strings of PMUs that are not present still encode (for --list-events --pmu).
 *
 * The PMU used here is, in order: the PMU of the table keyed by this CPU's vendor, family
 * and model (the CPUs libpfm4 4.13 does not know, and the Arm ones), else the PMU of the
 * table that libpfm4 detects. The CPU identity comes from sysfs (x86: devices/system/cpu/
 * modalias; arm64: cpu0's MIDR_EL1, the implementer as vendor name and family, the part
 * as model), else CPUID.
 * Under PCBENCH_SYSFS_ROOT the fake sysfs alone describes the machine: libpfm4's own
 * detection (CPUID of the real CPU) is not used.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "armcpu.h"
#include "pmu_int.h"
#include "sysfs.h"
#include "util.h"

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_rc = PFM_ERR_NOINIT;
static struct pmu_host host;

static int pmu_info(pfm_pmu_t p, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm_get_pmu_info(p, info) == PFM_SUCCESS && info->name;
}

/* vendor_name - the CPUID vendor string of the kernel's X86_VENDOR_* number. */
static void vendor_name(unsigned v, char *buf, size_t len)
{
	static const struct {
		unsigned id;
		const char *name;
	} names[] = {{0, "GenuineIntel"}, {2, "AuthenticAMD"}, {9, "HygonGenuine"}};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].id == v) {
			snprintf(buf, len, "%s", names[i].name);
			return;
		}
	snprintf(buf, len, "x86-vendor-%u", v);
}

/* cpu_from_sysfs - "cpu:type:x86,ven0000fam0006mod00CF:feature:..." */
static int cpu_from_sysfs(struct pmu_host *h)
{
	char line[256];
	unsigned v, f, m;
	const char *p;

	if (sysfs_read("devices/system/cpu/modalias", line, sizeof(line)) ||
	    !(p = strstr(line, "ven")) || sscanf(p, "ven%4xfam%4xmod%4x", &v, &f, &m) != 3)
		return 0;
	vendor_name(v, h->vendor, sizeof(h->vendor));
	h->family = (int)f;
	h->model = (int)m;
	h->from = "sysfs modalias";
	return 1;
}

/* cpu_from_midr - arm64: the implementer as vendor (its name) and family, the part as model. */
static int cpu_from_midr(struct pmu_host *h)
{
	struct arm_midr m;
	const char *name;

	if (!arm_midr_read(&m))
		return 0;
	name = arm_implementer_name(m.implementer);
	if (name)
		snprintf(h->vendor, sizeof(h->vendor), "%s", name);
	else
		snprintf(h->vendor, sizeof(h->vendor), "arm-implementer-0x%02x", m.implementer);
	h->family = m.implementer;
	h->model = m.part;
	h->arm = 1;
	h->from = "sysfs midr_el1";
	return 1;
}

static int cpu_from_cpuid(struct pmu_host *h)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, fam;

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return 0;
	memcpy(h->vendor, &b, 4);
	memcpy(h->vendor + 4, &d, 4);
	memcpy(h->vendor + 8, &c, 4);
	h->vendor[12] = 0;
	if (__get_cpuid(1, &a, &b, &c, &d)) {
		fam = (a >> 8) & 0xf;
		h->model = (int)((a >> 4) & 0xf);
		if (fam == 6 || fam == 0xf)
			h->model |= (int)((a >> 12) & 0xf0);
		if (fam == 0xf)
			fam += (a >> 20) & 0xff;
		h->family = (int)fam;
	}
	h->from = "cpuid";
	return 1;
#else
	(void)h;
	return 0;
#endif
}

static int table_has_pmu(const char *name)
{
	return pmu_cpu_by_name(name) != NULL;
}

static void detect(void)
{
	const struct pmu_cpu *c;
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	memset(&host, 0, sizeof(host));
	host.how = "";
	host.from = "";
	host.family = host.model = -1;
	snprintf(host.vendor, sizeof(host.vendor), "unknown");
	if (!cpu_from_sysfs(&host) && !cpu_from_midr(&host) && !sysfs_overridden())
		cpu_from_cpuid(&host);
	c = pmu_cpu_by_id(host.vendor, host.family, host.model);
	if (c) {
		snprintf(host.pmu, sizeof(host.pmu), "%s", c->name);
		host.how = "CPU table";
	}
	if (sysfs_overridden())
		return;
	/* First the default PMU if the table has it, then the first present one it has. */
	for (int pass = 0; pass < 2; pass++) {
		pfm_for_all_pmus(p)
		{
			if (!pmu_info(p, &info) || !info.is_present ||
			    info.type != PFM_PMU_TYPE_CORE)
				continue;
			if (!host.core[0]) {
				snprintf(host.core, sizeof(host.core), "%s", info.name);
				host.cntrs = info.num_cntrs;
			}
			if (!host.pmu[0] && (pass == 1 || info.is_dfl) &&
			    table_has_pmu(info.name)) {
				snprintf(host.pmu, sizeof(host.pmu), "%s", info.name);
				host.how = "libpfm4";
				host.cntrs = info.num_cntrs;
			}
		}
	}
}

static void pfm_init_once(void)
{
	/* Before the first libpfm4 call: it reads its environment in pfm_initialize. */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	pfm_rc = pfm_initialize();
	if (pfm_rc == PFM_SUCCESS)
		detect();
}

int pfm_ready(char *err, size_t errlen, const char *what, const char *value)
{
	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_rc == PFM_SUCCESS)
		return 1;
	set_err(err, errlen, "%s: %s: libpfm4 initialization failed (%s)", what, value,
		pfm_strerror(pfm_rc));
	return 0;
}

const struct pmu_host *pmu_host(void)
{
	return &host;
}

void pmu_host_redetect(void)
{
	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_rc == PFM_SUCCESS)
		detect();
}

void pmu_host_desc(char *buf, size_t len)
{
	const char *part = host.arm ? arm_part_name(host.family, host.model) : NULL;

	if (host.family < 0)
		snprintf(buf, len, "unknown CPU (vendor %s)", host.vendor);
	else if (host.arm)
		snprintf(buf, len, "%s implementer 0x%02x part 0x%03x%s%s%s", host.vendor,
			 host.family, host.model, part ? " (" : "", part ? part : "",
			 part ? ")" : "");
	else
		snprintf(buf, len, "%s family %d (0x%x) model %d (0x%x)", host.vendor, host.family,
			 host.family, host.model, host.model);
}

const char *pfm_errname(int rc)
{
	static const char *const names[] = {
	    "PFM_SUCCESS",	"PFM_ERR_NOTSUPP",  "PFM_ERR_INVAL",	"PFM_ERR_NOINIT",
	    "PFM_ERR_NOTFOUND", "PFM_ERR_FEATCOMB", "PFM_ERR_UMASK",	"PFM_ERR_NOMEM",
	    "PFM_ERR_ATTR",	"PFM_ERR_ATTR_VAL", "PFM_ERR_ATTR_SET", "PFM_ERR_TOOMANY",
	    "PFM_ERR_TOOSMALL",
	};

	if (rc <= 0 && -rc < (int)(sizeof(names) / sizeof(names[0])))
		return names[-rc];
	return "PFM_ERR_?";
}

int pfm_encode(const char *str, int kernel, struct perf_event_attr *attr, int *present, char *pmu,
	       size_t pmulen)
{
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	int rc;

	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	rc = pfm_get_os_event_encoding(str, kernel ? PFM_PLM0 | PFM_PLM3 : PFM_PLM3,
				       PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc != PFM_SUCCESS)
		return rc;
	attr->size = sizeof(*attr);
	/*
	 * Kernel generic events (perf::, perf_raw::) are the kernel's to accept or refuse, and
	 * so is an event whose PMU libpfm4 cannot tell (LIBPFM_FORCE_PMU hides the perf PMU).
	 */
	*present = 1;
	snprintf(pmu, pmulen, "?");
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(arg.idx, PFM_OS_NONE, &ei) == PFM_SUCCESS && pmu_info(ei.pmu, &pi)) {
		*present = pi.is_present || pi.type == PFM_PMU_TYPE_OS_GENERIC;
		snprintf(pmu, pmulen, "%s", pi.name);
	}
	return PFM_SUCCESS;
}

const char *pfm_pmu_desc(const char *name, int *present)
{
	static _Thread_local char desc[128];
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	pfm_for_all_pmus(p)
	{
		if (pmu_info(p, &info) && !strcmp(info.name, name)) {
			snprintf(desc, sizeof(desc), "%s", info.desc ? info.desc : "");
			if (present)
				*present = info.is_present;
			return desc;
		}
	}
	if (present)
		*present = 0;
	return NULL;
}
