// SPDX-License-Identifier: MIT
/* tables.c - the measure command's other tables: the --dry-run plan, the --matrix table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "stats.h"
#include "util.h"

/* print_matrix - the lower-triangular table of median ns per transfer (--matrix). */
void print_matrix(struct measure_run *run)
{
	int n = 0, *cpus = xcalloc((size_t)run->nfams + 1, sizeof(int));

	for (int i = 0; i < run->nfams; i++)
		if (run->fams[i].threads == 1)
			cpus[n++] = run->fams[i].pus[0];
	printf("\nc2c %s: median ns per one-way transfer (diagonal: one thread, no transfer)\n%6s",
	       run->nfams ? run->fams[0].wl->name : "", "");
	for (int j = 0; j < n; j++)
		printf(" %7d", cpus[j]);
	printf("\n");
	for (int i = 0; i < n; i++) {
		printf("%6d", cpus[i]);
		for (int j = 0; j <= i; j++) {
			const struct family *f = NULL;

			for (int k = 0; k < run->nfams && !f; k++)
				if (run->fams[k].pus[0] == cpus[i] &&
				    (run->fams[k].threads == 1 ? cpus[i] == cpus[j]
							       : run->fams[k].pus[1] == cpus[j]))
					f = &run->fams[k];
			if (f && f->matrix_n)
				printf(" %7.1f", stats_median(f->matrix_ns, (size_t)f->matrix_n));
			else
				printf(" %7s", "-");
		}
		printf("\n");
	}
	free(cpus);
}

/* print_plan - the --dry-run table for every thread count, and the plan CSV. */
void print_plan(struct measure_run *run, const struct options *o, const struct topo *topo)
{
	static const char *const cols[] = {"threads", "thread",	 "pu",	"core",
					   "l3",      "package", "numa"};
	struct csv_writer *csv = NULL;
	char err[PATH_MAX + 128], excluded[2048], allowed[256];
	const struct family *seen[MAX_THREAD_COUNTS * 4];
	int nseen = 0;

	if (o->csv && !(csv = csv_create(o->csv, cols, 7, 0, err, sizeof(err))))
		usage_error("--csv", o->csv, "%s", err);
	printf("topology %s (fingerprint %s)%s\n", topo_source(topo), run->topology_fp,
	       topo_is_host(topo) ? "" : ", not this machine: plan only");
	if (topo_excluded(topo, excluded, sizeof(excluded))) {
		topo_allowed_list(topo, allowed, sizeof(allowed));
		printf("allowed PUs %s (%d); excluded %s\n", allowed, topo_npus(topo), excluded);
	}
	printf("placement %s, memory home %s\n", o->sel.placement, o->home);
	for (int i = 0; i < run->nfams; i++) {
		const struct family *f = &run->fams[i];
		int dup = 0, pairs[PAIR_COUNT] = {0};
		char home[32];

		/* the plan depends only on the thread count and the home, not the scenario */
		for (int j = 0; j < nseen; j++)
			dup |= seen[j]->threads == f->threads && seen[j]->home_spec == f->home_spec;
		if (dup || nseen == (int)(sizeof(seen) / sizeof(seen[0])))
			continue;
		seen[nseen++] = f;
		printf("\nthreads=%d", f->threads);
		if (strcmp(f->home_spec, "first"))
			printf(" home=%s", f->home_spec);
		if (f->skip[0]) {
			printf(": skipped: %s\n", f->skip);
			continue;
		}
		printf("\n%6s %6s %6s %4s %8s %5s\n", "thread", "pu", "core", "l3", "package",
		       "numa");
		for (int t = 0; t < f->threads; t++) {
			struct topo_pu pu;
			char v[7][16];
			const char *row[7];

			topo_pu_info(topo, f->pus[t], &pu);
			printf("%6d %6d %6d %4d %8d %5d\n", t, pu.os, pu.core, pu.l3, pu.package,
			       pu.numa);
			snprintf(v[0], 16, "%d", f->threads);
			snprintf(v[1], 16, "%d", t);
			snprintf(v[2], 16, "%d", pu.os);
			snprintf(v[3], 16, "%d", pu.core);
			snprintf(v[4], 16, "%d", pu.l3);
			snprintf(v[5], 16, "%d", pu.package);
			snprintf(v[6], 16, "%d", pu.numa);
			for (int c = 0; c < 7; c++)
				row[c] = v[c];
			if (csv && csv_write_row(csv, row))
				usage_error("--csv", o->csv, "%s", strerror(errno));
		}
		topo_pair_classes(topo, f->pus, f->threads, pairs);
		printf("pair classes:");
		for (int c = PAIR_SMT; c < PAIR_COUNT; c++)
			if (pairs[c])
				printf(" %s", topo_pair_names[c]);
		snprintf(home, sizeof(home), "NUMA node %d", f->home.node);
		printf("%s\nmemory home: %s\n", f->threads < 2 ? " none (one thread)" : "",
		       f->home.interleave ? "interleaved over every NUMA node" : home);
	}
	if (csv && csv_close(csv))
		usage_error("--csv", o->csv, "%s", strerror(errno));
}
