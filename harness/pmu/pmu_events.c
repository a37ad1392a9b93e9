// SPDX-License-Identifier: MIT
/*
 * pmu_events.c - the per-PMU event table, as data: which libpfm4 string counts each
 * abstract event on each PMU that libpfm4 4.13 knows. Every event string of pcbench lives
 * here and nowhere else; pmu.c only reads this table.
 *
 * Rows are { pmu, abstract event, libpfm string, raw fallback, note }:
 *   pmu        a libpfm4 PMU name (skx, clx, icx, spr, amd64_fam17h_zen2, amd64_fam19h_zen3,
 *              amd64_fam19h_zen4), or a pseudo PMU:
 *                "software"          rows offered on every machine (perf software events);
 *                "generic"           rows offered when libpfm detects no PMU of this table;
 *                "generic:<vendor>"  the same, only on a CPU whose CPUID vendor is <vendor>
 *                                    (checked before "generic").
 *   str        the fully qualified libpfm4 string; NULL marks an event deliberately not
 *              mapped for that PMU (the note says why). An event with no row is unmapped too.
 *   raw_config, raw_config1
 *              PERF_TYPE_RAW encoding used when the string does not encode (another libpfm
 *              version); 0 when none. Each equals what libpfm4 4.13 encodes (tests/test_pmu.c).
 *   note       a short phrase printed by --list-events (and, for unmapped rows, in the
 *              absent note).
 *
 * Sources: ../shared/reference/counters-and-topology.md part A (strings and encodings
 * checked with libpfm4 4.13 and LIBPFM_ENCODE_INACTIVE=1).
 */
#include <stddef.h>
#include <stdint.h>

#include "pmu_events.h"

struct pmu_event_row {
	const char *pmu;
	const char *event;
	const char *str;
	uint64_t raw_config;
	uint64_t raw_config1;
	const char *note;
};

/* The abstract events, in column order. */
static const char *const abstract_events[] = {
    "cycles",	      "instructions",	 "llc_miss", "hitm_local", "hitm_remote",
    "c2c_fill_local", "c2c_fill_remote", "rfo_hitm", "task_clock", "page_faults",
};

#define NO_HITM_AMD "AMD has no HITM counter; see c2c_fill_*"
#define NO_C2C_INTEL "Intel counts HITM directly (hitm_*); clean cross-core fills not mapped"

static const struct pmu_event_row rows[] = {
    /* Skylake-SP and Cascade Lake-SP: one event table, two PMU names. */
    {"skx", "cycles", "skx::CPU_CLK_UNHALTED:THREAD_P", 0x3c, 0, NULL},
    {"skx", "instructions", "skx::INST_RETIRED:ANY_P", 0xc0, 0, NULL},
    {"skx", "llc_miss", "skx::LONGEST_LAT_CACHE:MISS", 0x412e, 0, NULL},
    {"skx", "hitm_local", "skx::MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", 0x4d2, 0,
     "retired loads, HitM in another core of this socket"},
    {"skx", "hitm_remote", "skx::MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", 0x4d3, 0,
     "retired loads, HitM in another socket"},
    {"skx", "c2c_fill_local", NULL, 0, 0, NO_C2C_INTEL},
    {"skx", "c2c_fill_remote", NULL, 0, 0, NO_C2C_INTEL},
    {"skx", "rfo_hitm", "skx::OFFCORE_RESPONSE_0:DMND_RFO:L3_HIT:SNP_HITM", 0x1b7, 0x10003c0002,
     "demand RFOs (stores), L3 hit, HitM in another core of this socket"},

    {"clx", "cycles", "clx::CPU_CLK_UNHALTED:THREAD_P", 0x3c, 0, NULL},
    {"clx", "instructions", "clx::INST_RETIRED:ANY_P", 0xc0, 0, NULL},
    {"clx", "llc_miss", "clx::LONGEST_LAT_CACHE:MISS", 0x412e, 0, NULL},
    {"clx", "hitm_local", "clx::MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", 0x4d2, 0,
     "retired loads, HitM in another core of this socket"},
    {"clx", "hitm_remote", "clx::MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", 0x4d3, 0,
     "retired loads, HitM in another socket"},
    {"clx", "c2c_fill_local", NULL, 0, 0, NO_C2C_INTEL},
    {"clx", "c2c_fill_remote", NULL, 0, 0, NO_C2C_INTEL},
    {"clx", "rfo_hitm", "clx::OFFCORE_RESPONSE_0:DMND_RFO:L3_HIT:SNP_HITM", 0x1b7, 0x10003c0002,
     "demand RFOs (stores), L3 hit, HitM in another core of this socket"},

    /* Ice Lake-SP. */
    {"icx", "cycles", "icx::CPU_CLK_UNHALTED:THREAD_P", 0x3c, 0, NULL},
    {"icx", "instructions", "icx::INST_RETIRED:ANY_P", 0xc0, 0, NULL},
    {"icx", "llc_miss", "icx::LONGEST_LAT_CACHE:MISS", 0x412e, 0, NULL},
    {"icx", "hitm_local", "icx::MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", 0x4d2, 0,
     "retired loads, HitM in another core of this socket"},
    {"icx", "hitm_remote", "icx::MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", 0x4d3, 0,
     "retired loads, HitM in another socket"},
    {"icx", "c2c_fill_local", NULL, 0, 0, NO_C2C_INTEL},
    {"icx", "c2c_fill_remote", NULL, 0, 0, NO_C2C_INTEL},
    {"icx", "rfo_hitm", "icx::OCR:DEMAND_RFO_L3_HIT_SNOOP_HITM", 0x1b7, 0x10003c0002,
     "demand RFOs (stores), L3 hit, HitM in another core of this socket"},

    /* Sapphire Rapids (Emerald Rapids uses the same table in later libpfm4). */
    {"spr", "cycles", "spr::CPU_CLK_UNHALTED:THREAD_P", 0x3c, 0, NULL},
    {"spr", "instructions", "spr::INST_RETIRED:ANY_P", 0xc0, 0, NULL},
    {"spr", "llc_miss", "spr::LONGEST_LAT_CACHE:MISS", 0x412e, 0, NULL},
    {"spr", "hitm_local", "spr::MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD", 0x4d2, 0,
     "retired loads, HitM in another core of this socket (spr names the HITM bit XSNP_FWD)"},
    {"spr", "hitm_remote", "spr::MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", 0x4d3, 0,
     "retired loads, HitM in another socket"},
    {"spr", "c2c_fill_local", NULL, 0, 0, NO_C2C_INTEL},
    {"spr", "c2c_fill_remote", NULL, 0, 0, NO_C2C_INTEL},
    {"spr", "rfo_hitm", "spr::OCR:DEMAND_RFO_L3_HIT_SNOOP_HITM", 0x12a, 0x10003c0002,
     "demand RFOs (stores), L3 hit, HitM in another core of this socket"},

    /* Zen 2: event 0x43 is demand fills only; LCL_CACHE also counts same-CCX L3 hits. */
    {"amd64_fam17h_zen2", "cycles", "amd64_fam17h_zen2::CYCLES_NOT_IN_HALT", 0x76, 0, NULL},
    {"amd64_fam17h_zen2", "instructions", "amd64_fam17h_zen2::RETIRED_INSTRUCTIONS", 0xc0, 0, NULL},
    {"amd64_fam17h_zen2", "llc_miss", NULL, 0, 0,
     "no per-thread L3-miss event: the fills-by-source event mixes same-CCX L3 hits in"},
    {"amd64_fam17h_zen2", "hitm_local", NULL, 0, 0, NO_HITM_AMD},
    {"amd64_fam17h_zen2", "hitm_remote", NULL, 0, 0, NO_HITM_AMD},
    {"amd64_fam17h_zen2", "c2c_fill_local",
     "amd64_fam17h_zen2::DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_CACHE", 0x243, 0,
     "demand fills from a cache, address on this die; includes same-CCX L3 hits; not HITM"},
    {"amd64_fam17h_zen2", "c2c_fill_remote",
     "amd64_fam17h_zen2::DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_RMT_CACHE", 0x1043, 0,
     "demand fills from a cache, address on another die; not HITM"},
    {"amd64_fam17h_zen2", "rfo_hitm", NULL, 0, 0, NO_HITM_AMD},

    /* Zen 3: LCL/RMT is the home node of the address, not the supplier's socket. */
    {"amd64_fam19h_zen3", "cycles", "amd64_fam19h_zen3::CYCLES_NOT_IN_HALT", 0x76, 0, NULL},
    {"amd64_fam19h_zen3", "instructions", "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS", 0xc0, 0, NULL},
    {"amd64_fam19h_zen3", "llc_miss",
     "amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_LCL:MEM_IO_LCL:EXT_CACHE_"
     "RMT:MEM_IO_RMT",
     0x5c44, 0, "proxy: L1D fills from outside the CCX (other CCX cache, DRAM, IO)"},
    {"amd64_fam19h_zen3", "hitm_local", NULL, 0, 0, NO_HITM_AMD},
    {"amd64_fam19h_zen3", "hitm_remote", NULL, 0, 0, NO_HITM_AMD},
    {"amd64_fam19h_zen3", "c2c_fill_local",
     "amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_LCL", 0x444, 0,
     "L1D fills from another CCX's cache, address homed on this node; not HITM"},
    {"amd64_fam19h_zen3", "c2c_fill_remote",
     "amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_RMT", 0x1044, 0,
     "L1D fills from another CCX's cache, address homed on another node; not HITM"},
    {"amd64_fam19h_zen3", "rfo_hitm", NULL, 0, 0, NO_HITM_AMD},

    /* Zen 4 (libpfm4 4.13 detects only model 0x11, Genoa). NEAR/FAR as for Zen 3. */
    {"amd64_fam19h_zen4", "cycles", "amd64_fam19h_zen4::CYCLES_NOT_IN_HALT", 0x76, 0, NULL},
    {"amd64_fam19h_zen4", "instructions", "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS", 0xc0, 0, NULL},
    {"amd64_fam19h_zen4", "llc_miss",
     "amd64_fam19h_zen4::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:FAR_"
     "CACHE_NEAR_FAR:DRAM_IO_FAR",
     0x5c44, 0, "proxy: L1D fills from outside the CCX (other CCX cache, DRAM, IO)"},
    {"amd64_fam19h_zen4", "hitm_local", NULL, 0, 0, NO_HITM_AMD},
    {"amd64_fam19h_zen4", "hitm_remote", NULL, 0, 0, NO_HITM_AMD},
    {"amd64_fam19h_zen4", "c2c_fill_local",
     "amd64_fam19h_zen4::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR", 0x444, 0,
     "L1D fills from another CCX's cache, address homed on this node; not HITM"},
    {"amd64_fam19h_zen4", "c2c_fill_remote",
     "amd64_fam19h_zen4::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:FAR_CACHE_NEAR_FAR", 0x1044, 0,
     "L1D fills from another CCX's cache, address homed on another node; not HITM"},
    {"amd64_fam19h_zen4", "rfo_hitm", NULL, 0, 0, NO_HITM_AMD},

    /* A CPU whose PMU libpfm4 does not detect (or that is not in this table). */
    {"generic:GenuineIntel", "llc_miss", "perf::CACHE-MISSES", 0, 0,
     "kernel generic event; LONGEST_LAT_CACHE.MISS on Intel"},
    {"generic", "cycles", "perf::CYCLES", 0, 0, "kernel generic event"},
    {"generic", "instructions", "perf::INSTRUCTIONS", 0, 0, "kernel generic event"},
    {"generic", "llc_miss", NULL, 0, 0,
     "perf::CACHE-MISSES counts L2 misses on AMD Zen; mapped on Intel only"},

    /* Software events, counted by the kernel wherever perf_event_open works. */
    {"software", "task_clock", "perf::TASK-CLOCK", 0, 0, "ns on CPU, software event"},
    {"software", "page_faults", "perf::PAGE-FAULTS", 0, 0, "software event"},
};

/* pmu_table_size - number of rows. */
int pmu_table_size(void)
{
	return (int)(sizeof(rows) / sizeof(rows[0]));
}

/* pmu_table_row - row @i's fields (any out pointer may be NULL); 0 past the end. */
int pmu_table_row(int i, const char **pmu, const char **event, const char **str,
		  uint64_t *raw_config, uint64_t *raw_config1, const char **note)
{
	const struct pmu_event_row *r;

	if (i < 0 || i >= pmu_table_size())
		return 0;
	r = &rows[i];
	if (pmu)
		*pmu = r->pmu;
	if (event)
		*event = r->event;
	if (str)
		*str = r->str;
	if (raw_config)
		*raw_config = r->raw_config;
	if (raw_config1)
		*raw_config1 = r->raw_config1;
	if (note)
		*note = r->note ? r->note : "";
	return 1;
}

/* pmu_table_abstract - the abstract event @i in column order; NULL past the end. */
const char *pmu_table_abstract(int i)
{
	if (i < 0 || i >= (int)(sizeof(abstract_events) / sizeof(abstract_events[0])))
		return NULL;
	return abstract_events[i];
}
