/* SPDX-License-Identifier: MIT */
/*
 * armcpu.h - an arm64 CPU's identity: the MIDR_EL1 fields (implementer, variant, part,
 * revision) and the names of the implementers and parts pcbench knows (Neoverse cores of
 * Graviton, Grace and Ampere Altra; AmpereOne), as one table (armcpu.c).
 */
#ifndef PCBENCH_ARMCPU_H
#define PCBENCH_ARMCPU_H

#include <stddef.h>
#include <stdint.h>

struct arm_midr {
	int implementer, variant, part, revision; /* -1: unknown */
};

/* arm_midr_decode - the fields of a MIDR_EL1 value. */
void arm_midr_decode(uint64_t midr, struct arm_midr *m);
/*
 * arm_midr_read - this machine's first CPU: sysfs devices/system/cpu/cpu0/regs/
 * identification/midr_el1 (PCBENCH_SYSFS_ROOT). Returns 1, or 0 (not an arm64 kernel).
 */
int arm_midr_read(struct arm_midr *m);
/* arm_implementer_name - "ARM", "Ampere", ...; NULL when the table lacks it. */
const char *arm_implementer_name(int implementer);
/* arm_part_name - "Neoverse N1", ...; NULL when the table lacks it. */
const char *arm_part_name(int implementer, int part);

/*
 * arm_cpu_text - "ARM Neoverse N1" for @implementer and @part, the codes where the table
 * lacks a name ("implementer 0x4e part 0x004").
 */
void arm_cpu_text(int implementer, int part, char *buf, size_t len);
/* arm_cpu_name - this machine's arm_cpu_text (arm_midr_read): 1, or 0 and @buf untouched. */
int arm_cpu_name(char *buf, size_t len);

#endif
