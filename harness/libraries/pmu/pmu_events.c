// SPDX-License-Identifier: MIT
/*
 * pmu_events.c - the event tables, as data. Every event encoding of pcbench lives here and
 * nowhere else; the rest of harness/pmu only reads these tables.
 *
 * pmus[]: one row per PMU { name, alias_of, CPU key (vendor, family, models), desc, source }.
 *   alias_of  the PMU uses alias_of's event rows, with the "alias_of::" prefix of each
 *             string rewritten to "name::" (a clx host does not encode skx:: strings).
 *   CPU key   set for the CPUs libpfm4 4.13 (Debian 12) does not know: such a CPU is looked
 *             up here by vendor, family and model, and its events are encoded by libpfm4
 *             when a later libpfm4 knows the PMU name, else from the rows' terms through the
 *             kernel's sysfs PMU description (pmu_sysfs.c).
 *   source    where the rows' encodings come from (printed by --list-events; docs/counters.md).
 *
 * rows[]: { pmu, abstract event, libpfm4 string, terms, note }.
 *   pmu       a PMU of pmus[], or a pseudo PMU:
 *               "software"          rows offered on every machine (perf software events);
 *               "generic"           rows offered when the CPU has no PMU of the table;
 *               "generic:<vendor>"  the same, only on a CPU of that CPUID vendor (first).
 *   str       the fully qualified libpfm4 string; NULL when libpfm4 has none for it.
 *   terms     the raw encoding as the kernel's sysfs format terms (event, umask, offcore_rsp):
 *             used when libpfm4 cannot encode str. Each equals what libpfm4 encodes where
 *             libpfm4 4.13 knows the PMU (tests/test_pmu.c). str and terms both NULL marks
 *             an event deliberately not mapped for that PMU (the note says why).
 *   note      a short phrase printed by --list-events (and, for unmapped rows, in the note).
 *
 * Sources for skx..zen4 and arm_n1..v2: each row's libpfm4 4.13 event table (the last column of
 * pmus[]), strings and encodings checked with LIBPFM_ENCODE_INACTIVE=1 (docs/counters.md).
 */
#include <stdio.h>
#include <string.h>

#include "pmu_events.h"

#define INTEL "GenuineIntel"
#define AMD "AuthenticAMD"
#define ARM "ARM" /* MIDR implementer 0x41 (lib/armcpu.c) */

static const struct pmu_cpu pmus[] = {
    {"skx", NULL, INTEL, 0, {0}, "Skylake-SP", "libpfm4 4.13 lib/events/intel_skl_events.h"},
    {"clx",
     "skx",
     INTEL,
     0,
     {0},
     "Cascade Lake-SP (the skx table)",
     "libpfm4 4.13 lib/events/intel_skl_events.h"},
    {"icx", NULL, INTEL, 0, {0}, "Ice Lake-SP", "libpfm4 4.13 lib/events/intel_icl_events.h"},
    {"spr", NULL, INTEL, 0, {0}, "Sapphire Rapids", "libpfm4 4.13 lib/events/intel_spr_events.h"},
    /*
     * Emerald Rapids: libpfm4 commit 52632c7 (2023-05-01, after 4.13) "EmeraldRapid shares
     * the same PMU as SapphireRapid" detects model 207 as emr over the spr table; Linux
     * perf's emeraldrapids event files give the same codes for these events.
     */
    {"emr",
     "spr",
     INTEL,
     6,
     {207, 0},
     "Emerald Rapids (the spr table)",
     "spr encodings: libpfm4 52632c7 (EMR shares SPR's PMU), intel_spr_events.h"},
    /*
     * Granite Rapids (models 173, 174: libpfm4 23d0b7c, 2024-06). Codes checked against
     * Linux tools/perf/pmu-events/arch/x86/graniterapids/cache.json (torvalds/linux
     * 0e089088): MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD 0xd2/0x4, MEM_LOAD_L3_MISS_RETIRED.
     * REMOTE_HITM 0xd3/0x4, LONGEST_LAT_CACHE.MISS 0x2e/0x41, OCR.DEMAND_RFO.L3_HIT.
     * SNOOP_HITM 0x2a/0x1 with MSR value 0x10003C0002, the spr codes: so the spr rows, under
     * the gnr:: prefix (libpfm4 intel_gnr_events.h has these names).
     */
    {"gnr",
     "spr",
     INTEL,
     6,
     {173, 174, 0},
     "Granite Rapids (the spr table)",
     "Linux perf graniterapids/cache.json; libpfm4 23d0b7c intel_gnr_events.h"},
    {"amd64_fam17h_zen2",
     NULL,
     AMD,
     0,
     {0},
     "AMD Zen 2",
     "libpfm4 4.13 lib/events/amd64_events_fam17h_zen2.h"},
    {"amd64_fam19h_zen3",
     NULL,
     AMD,
     0,
     {0},
     "AMD Zen 3",
     "libpfm4 4.13 lib/events/amd64_events_fam19h_zen3.h"},
    {"amd64_fam19h_zen4",
     NULL,
     AMD,
     0,
     {0},
     "AMD Zen 4 (4.13 detects model 0x11 only)",
     "libpfm4 4.13 lib/events/amd64_events_fam19h_zen4.h"},
    /*
     * Zen 5, family 0x1A, every model (libpfm4 e50b6a4/18f2a3e, 2024-07). Codes checked
     * against Linux tools/perf/pmu-events/arch/x86/amdzen5/load-store.json (torvalds/linux
     * 7237cb3e): ls_any_fills_from_sys event 0x44, near_cache 0x04, dram_io_near 0x08,
     * far_cache 0x10, dram_io_far 0x40; pipeline.json: ls_not_halted_cyc 0x76,
     * ex_ret_instr 0xc0.
     */
    {"amd64_fam1ah_zen5",
     NULL,
     AMD,
     0x1a,
     {-1},
     "AMD Zen 5 (family 0x1A)",
     "Linux perf amdzen5/load-store.json, pipeline.json; libpfm4 e50b6a4 "
     "amd64_events_fam1ah_zen5.h"},
    /*
     * Arm Neoverse (arm64). libpfm4 4.13 knows them and detects them from /proc/cpuinfo; the
     * CPU key (implementer 0x41, the MIDR part) also finds them from sysfs midr_el1. The
     * four tables give these events the same codes (checked with LIBPFM_ENCODE_INACTIVE=1
     * on an arm64 libpfm4 4.13): N2, V1 and V2 use N1's rows under their own prefix.
     */
    {"arm_n1",
     NULL,
     ARM,
     0x41,
     {0xd0c, 0},
     "Arm Neoverse N1 (Graviton2, Ampere Altra)",
     "libpfm4 4.13 lib/events/arm_neoverse_n1_events.h"},
    {"arm_n2",
     "arm_n1",
     ARM,
     0x41,
     {0xd49, 0},
     "Arm Neoverse N2 (the arm_n1 rows)",
     "libpfm4 4.13 lib/events/arm_neoverse_n2_events.h (N1's codes)"},
    {"arm_v1",
     "arm_n1",
     ARM,
     0x41,
     {0xd40, 0},
     "Arm Neoverse V1, Graviton3 (the arm_n1 rows)",
     "libpfm4 4.13 lib/events/arm_neoverse_v1_events.h (N1's codes)"},
    {"arm_v2",
     "arm_n1",
     ARM,
     0x41,
     {0xd4f, 0},
     "Arm Neoverse V2, Graviton4 and Grace (the arm_n1 rows)",
     "libpfm4 4.13 lib/events/arm_neoverse_v2_events.h (N1's codes)"},
};

/* The abstract events, in column order. */
static const char *const abstract_events[] = {
    "cycles",	      "instructions",	 "llc_miss", "hitm_local", "hitm_remote",
    "c2c_fill_local", "c2c_fill_remote", "rfo_hitm", "task_clock", "page_faults",
};

#define NO_HITM_AMD "AMD has no HITM counter; see c2c_fill_*"
#define NO_C2C_INTEL "Intel counts HITM directly (hitm_*); clean cross-core fills not mapped"
#define HITM_LOCAL "retired loads, HitM in another core of this socket"
#define HITM_REMOTE "retired loads, HitM in another socket"
#define RFO_HITM "demand RFOs (stores), L3 hit, HitM in another core of this socket"
#define FILL_LOCAL "L1D fills from another CCX's cache, address homed on this node; not HITM"
#define FILL_REMOTE "L1D fills from another CCX's cache, address homed on another node; not HITM"
#define NO_HITM_ARM                                                                                \
	"Arm PMUs have no HITM event; perf c2c reads Arm SPE's data source instead (next step)"
#define LLC_PROXY "proxy: L1D fills from outside the CCX (other CCX cache, DRAM, IO)"

static const struct pmu_row rows[] = {
    /* Skylake-SP; Cascade Lake-SP (clx) uses these rows through its alias. */
    {"skx", "cycles", "skx::CPU_CLK_UNHALTED:THREAD_P", "event=0x3c", ""},
    {"skx", "instructions", "skx::INST_RETIRED:ANY_P", "event=0xc0", ""},
    {"skx", "llc_miss", "skx::LONGEST_LAT_CACHE:MISS", "event=0x2e,umask=0x41", ""},
    {"skx", "hitm_local", "skx::MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", "event=0xd2,umask=0x04",
     HITM_LOCAL},
    {"skx", "hitm_remote", "skx::MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", "event=0xd3,umask=0x04",
     HITM_REMOTE},
    {"skx", "c2c_fill_local", NULL, NULL, NO_C2C_INTEL},
    {"skx", "c2c_fill_remote", NULL, NULL, NO_C2C_INTEL},
    {"skx", "rfo_hitm", "skx::OFFCORE_RESPONSE_0:DMND_RFO:L3_HIT:SNP_HITM",
     "event=0xb7,umask=0x01,offcore_rsp=0x10003c0002", RFO_HITM},

    /* Ice Lake-SP. */
    {"icx", "cycles", "icx::CPU_CLK_UNHALTED:THREAD_P", "event=0x3c", ""},
    {"icx", "instructions", "icx::INST_RETIRED:ANY_P", "event=0xc0", ""},
    {"icx", "llc_miss", "icx::LONGEST_LAT_CACHE:MISS", "event=0x2e,umask=0x41", ""},
    {"icx", "hitm_local", "icx::MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", "event=0xd2,umask=0x04",
     HITM_LOCAL},
    {"icx", "hitm_remote", "icx::MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", "event=0xd3,umask=0x04",
     HITM_REMOTE},
    {"icx", "c2c_fill_local", NULL, NULL, NO_C2C_INTEL},
    {"icx", "c2c_fill_remote", NULL, NULL, NO_C2C_INTEL},
    {"icx", "rfo_hitm", "icx::OCR:DEMAND_RFO_L3_HIT_SNOOP_HITM",
     "event=0xb7,umask=0x01,offcore_rsp=0x10003c0002", RFO_HITM},

    /* Sapphire Rapids; Emerald and Granite Rapids (emr, gnr) use them through their alias. */
    {"spr", "cycles", "spr::CPU_CLK_UNHALTED:THREAD_P", "event=0x3c", ""},
    {"spr", "instructions", "spr::INST_RETIRED:ANY_P", "event=0xc0", ""},
    {"spr", "llc_miss", "spr::LONGEST_LAT_CACHE:MISS", "event=0x2e,umask=0x41", ""},
    {"spr", "hitm_local", "spr::MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD", "event=0xd2,umask=0x04",
     HITM_LOCAL " (spr names the HITM bit XSNP_FWD)"},
    {"spr", "hitm_remote", "spr::MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", "event=0xd3,umask=0x04",
     HITM_REMOTE},
    {"spr", "c2c_fill_local", NULL, NULL, NO_C2C_INTEL},
    {"spr", "c2c_fill_remote", NULL, NULL, NO_C2C_INTEL},
    {"spr", "rfo_hitm", "spr::OCR:DEMAND_RFO_L3_HIT_SNOOP_HITM",
     "event=0x2a,umask=0x01,offcore_rsp=0x10003c0002", RFO_HITM},

    /* Zen 2: event 0x43 is demand fills only; LCL_CACHE also counts same-CCX L3 hits. */
    {"amd64_fam17h_zen2", "cycles", "amd64_fam17h_zen2::CYCLES_NOT_IN_HALT", "event=0x76", ""},
    {"amd64_fam17h_zen2", "instructions", "amd64_fam17h_zen2::RETIRED_INSTRUCTIONS", "event=0xc0",
     ""},
    {"amd64_fam17h_zen2", "llc_miss", NULL, NULL,
     "no per-thread L3-miss event: the fills-by-source event mixes same-CCX L3 hits in"},
    {"amd64_fam17h_zen2", "hitm_local", NULL, NULL, NO_HITM_AMD},
    {"amd64_fam17h_zen2", "hitm_remote", NULL, NULL, NO_HITM_AMD},
    {"amd64_fam17h_zen2", "c2c_fill_local",
     "amd64_fam17h_zen2::DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_CACHE",
     "event=0x43,umask=0x02",
     "demand fills from a cache, address on this die; includes same-CCX L3 hits; not HITM"},
    {"amd64_fam17h_zen2", "c2c_fill_remote",
     "amd64_fam17h_zen2::DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_RMT_CACHE",
     "event=0x43,umask=0x10", "demand fills from a cache, address on another die; not HITM"},
    {"amd64_fam17h_zen2", "rfo_hitm", NULL, NULL, NO_HITM_AMD},

    /* Zen 3: LCL/RMT is the home node of the address, not the supplier's socket. */
    {"amd64_fam19h_zen3", "cycles", "amd64_fam19h_zen3::CYCLES_NOT_IN_HALT", "event=0x76", ""},
    {"amd64_fam19h_zen3", "instructions", "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS", "event=0xc0",
     ""},
    {"amd64_fam19h_zen3", "llc_miss",
     "amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_LCL:MEM_IO_LCL:EXT_CACHE_"
     "RMT:MEM_IO_RMT",
     "event=0x44,umask=0x5c", LLC_PROXY},
    {"amd64_fam19h_zen3", "hitm_local", NULL, NULL, NO_HITM_AMD},
    {"amd64_fam19h_zen3", "hitm_remote", NULL, NULL, NO_HITM_AMD},
    {"amd64_fam19h_zen3", "c2c_fill_local",
     "amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_LCL", "event=0x44,umask=0x04",
     FILL_LOCAL},
    {"amd64_fam19h_zen3", "c2c_fill_remote",
     "amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_RMT", "event=0x44,umask=0x10",
     FILL_REMOTE},
    {"amd64_fam19h_zen3", "rfo_hitm", NULL, NULL, NO_HITM_AMD},

    /* Zen 4 (libpfm4 4.13 detects only model 0x11, Genoa). NEAR/FAR as for Zen 3. */
    {"amd64_fam19h_zen4", "cycles", "amd64_fam19h_zen4::CYCLES_NOT_IN_HALT", "event=0x76", ""},
    {"amd64_fam19h_zen4", "instructions", "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS", "event=0xc0",
     ""},
    {"amd64_fam19h_zen4", "llc_miss",
     "amd64_fam19h_zen4::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:FAR_"
     "CACHE_NEAR_FAR:DRAM_IO_FAR",
     "event=0x44,umask=0x5c", LLC_PROXY},
    {"amd64_fam19h_zen4", "hitm_local", NULL, NULL, NO_HITM_AMD},
    {"amd64_fam19h_zen4", "hitm_remote", NULL, NULL, NO_HITM_AMD},
    {"amd64_fam19h_zen4", "c2c_fill_local",
     "amd64_fam19h_zen4::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR",
     "event=0x44,umask=0x04", FILL_LOCAL},
    {"amd64_fam19h_zen4", "c2c_fill_remote",
     "amd64_fam19h_zen4::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:FAR_CACHE_NEAR_FAR",
     "event=0x44,umask=0x10", FILL_REMOTE},
    {"amd64_fam19h_zen4", "rfo_hitm", NULL, NULL, NO_HITM_AMD},

    /*
     * Zen 5: Zen 4's bits under new umask names (NEAR_FAR_CACHE_NEAR/_FAR). The llc_miss
     * proxy has terms only: its libpfm4 umask names were not checked.
     */
    {"amd64_fam1ah_zen5", "cycles", "amd64_fam1ah_zen5::CYCLES_NOT_IN_HALT", "event=0x76", ""},
    {"amd64_fam1ah_zen5", "instructions", "amd64_fam1ah_zen5::RETIRED_INSTRUCTIONS", "event=0xc0",
     ""},
    {"amd64_fam1ah_zen5", "llc_miss", NULL, "event=0x44,umask=0x5c", LLC_PROXY},
    {"amd64_fam1ah_zen5", "hitm_local", NULL, NULL, NO_HITM_AMD},
    {"amd64_fam1ah_zen5", "hitm_remote", NULL, NULL, NO_HITM_AMD},
    {"amd64_fam1ah_zen5", "c2c_fill_local",
     "amd64_fam1ah_zen5::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_FAR_CACHE_NEAR",
     "event=0x44,umask=0x04", FILL_LOCAL},
    {"amd64_fam1ah_zen5", "c2c_fill_remote",
     "amd64_fam1ah_zen5::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_FAR_CACHE_FAR",
     "event=0x44,umask=0x10", FILL_REMOTE},
    {"amd64_fam1ah_zen5", "rfo_hitm", NULL, NULL, NO_HITM_AMD},

    /*
     * Neoverse N1 (and N2, V1, V2 through their alias). The LL_ events count at the last
     * level the core sees, the interconnect's system cache (CMN) where it reports them.
     */
    {"arm_n1", "cycles", "arm_n1::CPU_CYCLES", "event=0x11", ""},
    {"arm_n1", "instructions", "arm_n1::INST_RETIRED", "event=0x08", "architecturally executed"},
    {"arm_n1", "llc_miss", "arm_n1::LL_CACHE_MISS_RD", "event=0x37",
     "last-level cache misses, reads only"},
    {"arm_n1", "hitm_local", NULL, NULL, NO_HITM_ARM},
    {"arm_n1", "hitm_remote", NULL, NULL, NO_HITM_ARM},
    {"arm_n1", "c2c_fill_local", NULL, NULL,
     "no Arm PMU event for fills from another core's cache; SPE's data source has them"},
    {"arm_n1", "c2c_fill_remote", "arm_n1::REMOTE_ACCESS", "event=0x31",
     "proxy: accesses served by another socket, cache or memory; not HITM"},
    {"arm_n1", "rfo_hitm", NULL, NULL, NO_HITM_ARM},

    /* A CPU with no PMU of this table. */
    {"generic:" INTEL, "llc_miss", "perf::CACHE-MISSES", NULL,
     "kernel generic event; LONGEST_LAT_CACHE.MISS on Intel"},
    {"generic", "cycles", "perf::CYCLES", NULL, "kernel generic event"},
    {"generic", "instructions", "perf::INSTRUCTIONS", NULL, "kernel generic event"},
    {"generic", "llc_miss", NULL, NULL,
     "perf::CACHE-MISSES counts L2 misses on AMD Zen; mapped on Intel only"},

    /* Software events, counted by the kernel wherever perf_event_open works. */
    {"software", "task_clock", "perf::TASK-CLOCK", NULL, "ns on CPU, software event"},
    {"software", "page_faults", "perf::PAGE-FAULTS", NULL, "software event"},
};

#define NELEM(a) (int)(sizeof(a) / sizeof((a)[0]))

const struct pmu_cpu *pmu_cpu_at(int i)
{
	return i >= 0 && i < NELEM(pmus) ? &pmus[i] : NULL;
}

const struct pmu_cpu *pmu_cpu_by_name(const char *name)
{
	for (int i = 0; i < NELEM(pmus); i++)
		if (!strcmp(pmus[i].name, name))
			return &pmus[i];
	return NULL;
}

const struct pmu_cpu *pmu_cpu_by_id(const char *vendor, int family, int model)
{
	for (int i = 0; i < NELEM(pmus); i++) {
		const struct pmu_cpu *c = &pmus[i];

		if (!c->family || strcmp(c->vendor, vendor) || c->family != family)
			continue;
		if (c->models[0] == -1)
			return c;
		for (int m = 0; m < NELEM(c->models) && c->models[m]; m++)
			if (c->models[m] == model)
				return c;
	}
	return NULL;
}

int pmu_table_size(void)
{
	return NELEM(rows);
}

const struct pmu_row *pmu_table_at(int i)
{
	return i >= 0 && i < NELEM(rows) ? &rows[i] : NULL;
}

int pmu_table_find(const char *pmu, const char *event, struct pmu_row *out, char *buf,
		   size_t buflen)
{
	const struct pmu_cpu *c = pmu_cpu_by_name(pmu);
	const char *from = c && c->alias_of ? c->alias_of : pmu;

	for (int i = 0; i < NELEM(rows); i++) {
		size_t n = strlen(from);

		if (strcmp(rows[i].pmu, from) || strcmp(rows[i].event, event))
			continue;
		*out = rows[i];
		out->pmu = pmu;
		/* The alias column: "from::EVENT" becomes "pmu::EVENT". */
		if (from != pmu && out->str && !strncmp(out->str, from, n) &&
		    !strncmp(out->str + n, "::", 2)) {
			snprintf(buf, buflen, "%s%s", pmu, out->str + n);
			out->str = buf;
		}
		return 1;
	}
	return 0;
}

const char *pmu_table_abstract(int i)
{
	return i >= 0 && i < NELEM(abstract_events) ? abstract_events[i] : NULL;
}

int pmu_is_abstract(const char *name)
{
	for (int i = 0; i < NELEM(abstract_events); i++)
		if (!strcmp(abstract_events[i], name))
			return 1;
	return 0;
}
