// SPDX-License-Identifier: MIT
/* sysfs.c - sysfs under an injectable root (see sysfs.h). */
#include "sysfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sysfs_root(void)
{
	const char *r = getenv("PCBENCH_SYSFS_ROOT");

	return r && r[0] ? r : "/sys";
}

int sysfs_overridden(void)
{
	const char *r = getenv("PCBENCH_SYSFS_ROOT");

	return r && r[0];
}

void sysfs_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", sysfs_root(), rel);
}

int sysfs_read(const char *rel, char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	int ok;

	sysfs_path(path, sizeof(path), rel);
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
