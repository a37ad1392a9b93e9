// SPDX-License-Identifier: MIT
/* tables.c - the measure command's other tables: the --dry-run plan, the --matrix table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
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

/* same_family_but - @f and @g differ at most in parameter @i (a -D sweep of it). */
static int same_family_but(const struct measure_run *run, const struct family *f,
			   const struct family *g, int i)
{
	if (f->sc != g->sc || f->preset != g->preset || f->wl != g->wl ||
	    f->threads != g->threads || strcmp(f->placement, g->placement) ||
	    strcmp(f->home_spec, g->home_spec))
		return 0;
	for (int k = 0; k < run->nparam_cols; k++)
		if (k != i && strcmp(family_param(run, f, k), family_param(run, g, k)))
			return 0;
	return 1;
}

/*
 * plan_key - what a section of the plan says besides its thread count and home: the
 * placement when the run has several, and the values of the swept parameters (@swept).
 */
static void plan_key(const struct measure_run *run, const struct family *f, const char *swept,
		     int placements, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (placements)
		n += (size_t)snprintf(buf, len, " placement=%s", f->placement);
	for (int i = 0; i < run->nparam_cols && n < len; i++)
		if (swept[i])
			n += (size_t)snprintf(buf + n, len - n, " %s=%s", run->param_cols[i],
					      family_param(run, f, i));
}

/*
 * print_plan - the --dry-run plan: one section per thread count and home (and placement and
 * swept parameter values, when the run has several: every family of a sweep), and the plan
 * CSV, one row per (family, thread).
 */
void print_plan(struct measure_run *run, const struct options *o, const struct topo *topo)
{
	static const enum results_col fixed[] = {COL_SCENARIO, COL_PRESET, COL_WORKLOAD,
						 COL_PLACEMENT, COL_THREADS};
	static const char *const pucols[] = {"thread", "pu", "core", "l3", "package", "numa"};
	enum { NFIX = 5, NPU = 6 };
	int ncols = NFIX + run->nparam_cols + NPU, nseen = 0, placements = 0;
	const char **cols = xcalloc((size_t)ncols, sizeof(*cols));
	const char **row = xcalloc((size_t)ncols, sizeof(*row));
	char *swept = xcalloc((size_t)run->nparam_cols + 1, 1);
	char **seen = xcalloc((size_t)run->nfams + 1, sizeof(*seen));
	struct csv_writer *csv = NULL;
	char err[PATH_MAX + 128], excluded[2048], allowed[256], v[NPU][16];

	for (int i = 0; i < NFIX; i++)
		cols[i] = results_cols[fixed[i]];
	for (int i = 0; i < run->nparam_cols; i++)
		cols[NFIX + i] = xasprintf("param_%s", run->param_cols[i]);
	for (int i = 0; i < NPU; i++)
		cols[NFIX + run->nparam_cols + i] = pucols[i];
	for (int i = 0; i < run->nfams; i++)
		for (int j = i + 1; j < run->nfams; j++) {
			placements |= strcmp(run->fams[i].placement, run->fams[j].placement) != 0;
			for (int k = 0; k < run->nparam_cols; k++)
				swept[k] |= same_family_but(run, &run->fams[i], &run->fams[j], k) &&
					    strcmp(family_param(run, &run->fams[i], k),
						   family_param(run, &run->fams[j], k));
		}
	if (o->csv && !(csv = csv_create(o->csv, cols, ncols, 0, err, sizeof(err))))
		usage_error("--csv", o->csv, "%s", err);
	/* the --topology file and the placement, the user's text: escaped */
	print_esc(stdout, "topology %s (fingerprint %s)%s", topo_source(topo), run->topology_fp,
		  topo_is_host(topo) ? "" : ", not this machine: plan only");
	if (topo_excluded(topo, excluded, sizeof(excluded))) {
		topo_allowed_list(topo, allowed, sizeof(allowed));
		printf("allowed PUs %s (%d); excluded %s\n", allowed, topo_npus(topo), excluded);
	}
	print_esc(stdout, "placement %s, memory home %s", o->sel.placement, o->home);
	if (o->matrix)
		printf("matrix: %s\n", run->matrix_plan);
	for (int i = 0; i < run->nfams; i++) {
		const struct family *f = &run->fams[i];
		int dup = 0, pairs[PAIR_COUNT] = {0};
		char home[32], key[512], th[16], *section;

		/* a section per plan: the PUs depend on the thread count, home and placement */
		plan_key(run, f, swept, placements, key, sizeof(key));
		section = xasprintf("threads=%d%s%s%s", f->threads,
				    strcmp(f->home_spec, "first") ? " home=" : "",
				    strcmp(f->home_spec, "first") ? f->home_spec : "", key);
		esc_inplace(&section); /* a placement or -D value as given: printed escaped */
		for (int j = 0; j < nseen && !dup; j++)
			dup = !strcmp(seen[j], section);
		snprintf(th, sizeof(th), "%d", f->threads);
		for (int t = 0; csv && !f->skip[0] && t < f->threads; t++) {
			struct topo_pu pu;

			topo_pu_info(topo, f->pus[t], &pu);
			snprintf(v[0], 16, "%d", t);
			snprintf(v[1], 16, "%d", pu.os);
			snprintf(v[2], 16, "%d", pu.core);
			snprintf(v[3], 16, "%d", pu.l3);
			snprintf(v[4], 16, "%d", pu.package);
			snprintf(v[5], 16, "%d", pu.numa);
			row[0] = f->sc->name;
			row[1] = f->preset->name;
			row[2] = f->wl->name;
			row[3] = f->placement;
			row[4] = th;
			for (int k = 0; k < run->nparam_cols; k++)
				row[NFIX + k] = family_param(run, f, k);
			for (int c = 0; c < NPU; c++)
				row[NFIX + run->nparam_cols + c] = v[c];
			if (csv_write_row(csv, row))
				usage_error("--csv", o->csv, "%s", strerror(errno));
		}
		if (dup) {
			free(section);
			continue;
		}
		seen[nseen++] = section;
		printf("\n%s", section);
		if (f->skip[0]) {
			print_esc(stdout, ": skipped: %s", f->skip);
			continue;
		}
		printf("\n%6s %6s %6s %4s %8s %5s\n", "thread", "pu", "core", "l3", "package",
		       "numa");
		for (int t = 0; t < f->threads; t++) {
			struct topo_pu pu;

			topo_pu_info(topo, f->pus[t], &pu);
			printf("%6d %6d %6d %4d %8d %5d\n", t, pu.os, pu.core, pu.l3, pu.package,
			       pu.numa);
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
	for (int i = 0; i < nseen; i++)
		free(seen[i]);
	for (int i = 0; i < run->nparam_cols; i++)
		free((char *)cols[NFIX + i]);
	free(seen);
	free(swept);
	free(row);
	free(cols);
}
