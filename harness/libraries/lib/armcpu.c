// SPDX-License-Identifier: MIT
/*
 * armcpu.c - arm64 CPU identity. The codes are those of the Arm Architecture Reference
 * Manual's MIDR_EL1 (implementer [31:24], variant [23:20], part [15:4], revision [3:0]) and
 * of Linux arch/arm64/include/asm/cputype.h (ARM_CPU_PART_*, AMPERE_CPU_PART_*). A part
 * not in the table is named by its codes by the callers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "armcpu.h"
#include "sysfs.h"

static const struct {
	int implementer, part; /* part -1: the implementer's row */
	const char *name;
} names[] = {
    {0x41, -1, "ARM"},
    {0x42, -1, "Broadcom"},
    {0x43, -1, "Cavium"},
    {0x46, -1, "Fujitsu"},
    {0x48, -1, "HiSilicon"},
    {0x4e, -1, "NVIDIA"},
    {0x50, -1, "APM"},
    {0x51, -1, "Qualcomm"},
    {0x61, -1, "Apple"},
    {0xc0, -1, "Ampere"},
    {0x41, 0xd03, "Cortex-A53"},
    {0x41, 0xd07, "Cortex-A57"},
    {0x41, 0xd08, "Cortex-A72"},
    {0x41, 0xd0c, "Neoverse N1"},
    {0x41, 0xd40, "Neoverse V1"},
    {0x41, 0xd49, "Neoverse N2"},
    {0x41, 0xd4f, "Neoverse V2"},
    {0x41, 0xd84, "Neoverse V3"},
    {0x41, 0xd8e, "Neoverse N3"},
    {0xc0, 0xac3, "AmpereOne"},
    {0xc0, 0xac4, "AmpereOne AC04"},
};

void arm_midr_decode(uint64_t midr, struct arm_midr *m)
{
	m->implementer = (int)((midr >> 24) & 0xff);
	m->variant = (int)((midr >> 20) & 0xf);
	m->part = (int)((midr >> 4) & 0xfff);
	m->revision = (int)(midr & 0xf);
}

int arm_midr_read(struct arm_midr *m)
{
	char buf[64], *end;
	unsigned long long v;

	m->implementer = m->variant = m->part = m->revision = -1;
	if (sysfs_read("devices/system/cpu/cpu0/regs/identification/midr_el1", buf, sizeof(buf)))
		return 0;
	v = strtoull(buf, &end, 16);
	if (end == buf)
		return 0;
	arm_midr_decode(v, m);
	return 1;
}

static const char *lookup(int implementer, int part)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].implementer == implementer && names[i].part == part)
			return names[i].name;
	return NULL;
}

const char *arm_implementer_name(int implementer)
{
	return lookup(implementer, -1);
}

const char *arm_part_name(int implementer, int part)
{
	return part < 0 ? NULL : lookup(implementer, part);
}

void arm_cpu_text(int implementer, int part, char *buf, size_t len)
{
	const char *vendor = arm_implementer_name(implementer),
		   *name = arm_part_name(implementer, part);
	char v[32], p[32];

	snprintf(v, sizeof(v), "implementer 0x%02x", implementer);
	snprintf(p, sizeof(p), "part 0x%03x", part);
	snprintf(buf, len, "%s %s", vendor ? vendor : v, name ? name : p);
}

int arm_cpu_name(char *buf, size_t len)
{
	struct arm_midr m;

	if (!arm_midr_read(&m))
		return 0;
	arm_cpu_text(m.implementer, m.part, buf, len);
	return 1;
}
