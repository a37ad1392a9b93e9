// SPDX-License-Identifier: MIT
/* sysfs.c - sysfs and procfs under injectable roots (see sysfs.h). */
#include "sysfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* env_root - the directory @var names, or NULL when it is unset or empty. */
static const char *env_root(const char *var)
{
	const char *r = getenv(var);

	return r && r[0] ? r : NULL;
}

const char *sysfs_root(void)
{
	return env_root("PCBENCH_SYSFS_ROOT") ? env_root("PCBENCH_SYSFS_ROOT") : "/sys";
}

int sysfs_overridden(void)
{
	return env_root("PCBENCH_SYSFS_ROOT") != NULL;
}

void sysfs_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", sysfs_root(), rel);
}

/* read_line - the first line of "<root>/<rel>" without its newline, into @buf. */
static int read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok) {
		errno = EIO;
		return -1;
	}
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int sysfs_read(const char *rel, char *buf, size_t len)
{
	return read_line(sysfs_root(), rel, buf, len);
}

int sysfs_virt_board(void)
{
	char v[64];

	return !sysfs_read("firmware/devicetree/base/compatible", v, sizeof(v)) &&
	       !strcmp(v, "linux,dummy-virt");
}

const char *procfs_root(void)
{
	return env_root("PCBENCH_PROCFS_ROOT") ? env_root("PCBENCH_PROCFS_ROOT") : "/proc";
}

int procfs_overridden(void)
{
	return env_root("PCBENCH_PROCFS_ROOT") != NULL;
}

int procfs_read(const char *rel, char *buf, size_t len)
{
	return read_line(procfs_root(), rel, buf, len);
}

FILE *procfs_open(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", procfs_root(), rel);
	return fopen(path, "r");
}
