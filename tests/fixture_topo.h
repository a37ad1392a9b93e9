/* SPDX-License-Identifier: MIT */
/*
 * fixture_topo.h - a synthetic topology fixture of tests/topologies/ by name ("icx-2s36c"):
 * its first non-comment line, loaded as "synthetic:LINE". Include check.h first.
 */
#ifndef PCBENCH_FIXTURE_TOPO_H
#define PCBENCH_FIXTURE_TOPO_H

#include <stdio.h>
#include <string.h>

#include "topology.h"

/* fixture_topo - the fixture @name under @srcdir, or NULL after a CHECK failure. */
static inline struct topo *fixture_topo(const char *srcdir, const char *name)
{
	char path[512], spec[600], line[400] = "", err[512];
	struct topo *t;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tests/topologies/%s.synthetic", srcdir, name);
	fp = fopen(path, "r");
	while (fp && fgets(line, sizeof(line), fp) && line[0] == '#')
		;
	if (fp)
		fclose(fp);
	line[strcspn(line, "\n")] = '\0';
	snprintf(spec, sizeof(spec), "synthetic:%s", line);
	t = topo_load(spec, err, sizeof(err));
	CHECK(t, "topology %s: %s", path, err);
	return t;
}

#endif
