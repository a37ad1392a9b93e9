/* SPDX-License-Identifier: MIT */
/*
 * sysfs.h - reading the kernel's sysfs and procfs under injectable roots:
 * PCBENCH_SYSFS_ROOT, when set, replaces "/sys" and PCBENCH_PROCFS_ROOT replaces "/proc"
 * (tests present a fake machine: a CPU, its PMU, its settings, its load).
 */
#ifndef PCBENCH_SYSFS_H
#define PCBENCH_SYSFS_H

#include <stddef.h>
#include <stdio.h>

/* sysfs_root - PCBENCH_SYSFS_ROOT, or "/sys". */
const char *sysfs_root(void);

/* sysfs_overridden - PCBENCH_SYSFS_ROOT is set (the machine described is not this one). */
int sysfs_overridden(void);

/* sysfs_path - "<root>/<rel>" into @buf; @rel has no leading slash. */
void sysfs_path(char *buf, size_t len, const char *rel);

/*
 * sysfs_read - the first line of "<root>/<rel>", without its newline, into @buf.
 * Returns 0, or -1 (errno set) when the file cannot be read.
 */
int sysfs_read(const char *rel, char *buf, size_t len);

/*
 * sysfs_virt_board - the device tree names QEMU's virtual board ("linux,dummy-virt" first in
 * firmware/devicetree/base/compatible, as on arm64's `-machine virt`): a virtual machine,
 * where neither CPUID nor /sys/hypervisor says so (TCG, or KVM without them). 1 or 0.
 */
int sysfs_virt_board(void);

/* procfs_root - PCBENCH_PROCFS_ROOT, or "/proc". */
const char *procfs_root(void);

/* procfs_overridden - PCBENCH_PROCFS_ROOT is set (the machine described is not this one). */
int procfs_overridden(void);

/* procfs_read - the first line of "<root>/<rel>" without its newline, as sysfs_read. */
int procfs_read(const char *rel, char *buf, size_t len);

/* procfs_open - fopen("<root>/<rel>", "r") for files read line by line (cpuinfo, stat). */
FILE *procfs_open(const char *rel);

#endif
