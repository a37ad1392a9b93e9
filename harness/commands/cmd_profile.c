// SPDX-License-Identifier: MIT
/*
 * cmd_profile.c - `pcbench profile RUN`: the top functions of each family, from the
 * profile.csv a `--profile` run wrote (the samples of every window, summed over the
 * repetitions), the way `perf report --sort sym` lists them, with the memcg charge path's
 * share.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "csv.h"
#include "results.h"
#include "num.h"
#include "opt.h"
#include "table.h"
#include "util.h"

static const struct opt profile_opts[] = {
    {"top", 'n', "N", "the N functions with most samples per family (default 15)", OPT_K_INT, 0, 0,
     1, 100000, "expected an integer in [1, 100000]", NULL},
    OPT_HELP,
    OPT_END,
};

const struct cmd_help profile_help = {
    .name = "profile",
    .synopsis = "usage: pcbench profile RUN [--top N]\n",
    .about = "Where the measuring threads spent their time, per family (scenario, preset,\n"
	     "layout, workload, placement, threads, home): the functions with most samples\n"
	     "over the repetitions, their share of the samples (the rest on one line, so the\n"
	     "shares add up to 100%), and the share of the memcg charge path (the list in\n"
	     "docs/kernel.md; a spinlock slow path counts when folio_lruvec_lock* called it).\n"
	     "RUN is a run directory measured with --profile (its profile.csv).\n",
    .opts = profile_opts,
    .after = "\nExit status: 0 printed, 1 the report could not be written, 2 bad usage, or RUN\n"
	     "has no profile data, 3 interrupted.\n"
	     "\n"
	     "Example:\n"
	     "  pcbench -s kernel -w page_fault2 -t 2 --profile -o /tmp/pf2\n"
	     "  pcbench profile /tmp/pf2 --top 15\n",
};

/* One function of one family. */
struct fn {
	char *name;
	unsigned long long samples, memcg;
};

/* One family: its key cells and its functions. */
struct pfam {
	char *key, *title, *event;
	struct fn *fns;
	int nfns, cap;
	unsigned long long samples, memcg;
	int reps; /* distinct repetitions seen */
	char *rep_seen;
};

static int by_samples(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return strcmp(x->name, y->name);
}

static struct pfam *family(struct pfam **fams, int *n, const char *key, const char *title)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp((*fams)[i].key, key))
			return &(*fams)[i];
	*fams = xrealloc(*fams, (size_t)(*n + 1) * sizeof(**fams));
	memset(&(*fams)[*n], 0, sizeof(**fams));
	(*fams)[*n].key = xstrdup(key);
	(*fams)[*n].title = xstrdup(title);
	(*fams)[*n].rep_seen = xstrdup(" ");
	return &(*fams)[(*n)++];
}

static void add(struct pfam *f, const char *sym, unsigned long long n, int memcg, const char *rep)
{
	char *mark = xasprintf(" %s ", rep);
	int i;

	if (!strstr(f->rep_seen, mark)) {
		char *s = xasprintf("%s%s ", f->rep_seen, rep);

		free(f->rep_seen);
		f->rep_seen = s;
		f->reps++;
	}
	free(mark);
	for (i = 0; i < f->nfns && strcmp(f->fns[i].name, sym); i++)
		;
	if (i == f->nfns) {
		if (f->nfns == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 64;
			f->fns = xrealloc(f->fns, (size_t)f->cap * sizeof(*f->fns));
		}
		f->fns[f->nfns++] = (struct fn){xstrdup(sym), 0, 0};
	}
	f->fns[i].samples += n;
	f->fns[i].memcg += memcg ? n : 0;
	f->samples += n;
	f->memcg += memcg ? n : 0;
}

static void print_family(const struct pfam *f, int top)
{
	static const struct table_col cols[] = {{"share", 1}, {"samples", 1}, {"symbol", 0}};
	struct table *t = table_new(3, cols);
	unsigned long long rest = 0;
	int others = 0;
	char share[32], n[32];

	printf("\n%s\n  %llu samples (%s) in %d window%s; memcg charge path: %.2f%% of them\n",
	       f->title, f->samples, f->event, f->reps, f->reps == 1 ? "" : "s",
	       f->samples ? 100.0 * (double)f->memcg / (double)f->samples : 0.0);
	table_indent(t, 2);
	for (int i = 0; i < f->nfns; i++) {
		char *sym;
		const char *cells[3] = {share, n, NULL};

		if (i >= top) {
			rest += f->fns[i].samples;
			others++;
			continue;
		}
		snprintf(share, sizeof(share), "%.2f%%",
			 100.0 * (double)f->fns[i].samples / (double)f->samples);
		snprintf(n, sizeof(n), "%llu", f->fns[i].samples);
		sym = f->fns[i].memcg ? xasprintf("%s  [memcg%s]", f->fns[i].name,
						  f->fns[i].memcg < f->fns[i].samples
						      ? ": under folio_lruvec_lock"
						      : "")
				      : xstrdup(f->fns[i].name);
		cells[2] = sym;
		table_add(t, cells);
		free(sym);
	}
	if (others) {
		char *what = xasprintf("(%d other symbol%s)", others, others == 1 ? "" : "s");
		const char *cells[3] = {share, n, what};

		snprintf(share, sizeof(share), "%.2f%%", 100.0 * (double)rest / (double)f->samples);
		snprintf(n, sizeof(n), "%llu", rest);
		table_add(t, cells);
		free(what);
	}
	table_print(t, stdout, TABLE_TEXT);
	table_free(t);
}

int profile_main(int argc, char **argv)
{
	const char *const *need = results_profile_cols;
	struct csv_table *t;
	struct pfam *fams = NULL;
	struct stat st;
	char err[512], *path;
	int top = 15, nf = 0, col[RESULTS_PROFILE_NCOLS];

	int first = opt_parse(&profile_help, argc, argv, &top);
	if (first >= argc)
		usage_error("RUN", "",
			    "missing: give a run directory (see pcbench profile --help)");
	if (first + 1 < argc)
		usage_error("argument", argv[first + 1], "unexpected: profile takes one RUN");
	if (stat(argv[first], &st))
		usage_error("RUN", argv[first], "no such run directory");
	path =
	    S_ISDIR(st.st_mode) ? xasprintf("%s/profile.csv", argv[first]) : xstrdup(argv[first]);
	if (stat(path, &st))
		usage_error("RUN", argv[first],
			    "no profile data (no profile.csv): measure with --profile; where "
			    "sampling was refused, results.csv's profile_note says why");
	t = csv_read_file(path, err, sizeof(err));
	if (!t)
		usage_error("RUN", path, "%s", err);
	for (int i = 0; i < RESULTS_PROFILE_NCOLS; i++)
		if ((col[i] = csv_col(t, need[i])) < 0)
			usage_error("RUN", path, "no %s column: not a profile.csv", need[i]);
	if (!t->nrows)
		usage_error("RUN", path, "no samples");
	for (int r = 0; r < t->nrows; r++) {
		char **c = t->rows[r];
		char *key = xasprintf("%s,%s,%s,%s,%s,%s,%s", c[col[0]], c[col[1]], c[col[2]],
				      c[col[3]], c[col[4]], c[col[5]], c[col[6]]);
		char *title = xasprintf("%s %s%s%s %s  placement=%s  threads=%s  home=%s",
					c[col[0]], c[col[1]], c[col[2]][0] ? " layout=" : "",
					c[col[2]], c[col[3]], c[col[4]], c[col[5]], c[col[6]]);
		struct pfam *f = family(&fams, &nf, key, title);
		uint64_t n;

		if (num_u64(c[col[10]], &n))
			usage_error("RUN", path, "line %d: samples \"%s\" is not a count", r + 2,
				    c[col[10]]);
		if (!f->event)
			f->event = xstrdup(c[col[8]]);
		add(f, c[col[9]], (unsigned long long)n, !strcmp(c[col[11]], "1"), c[col[7]]);
		free(key);
		free(title);
	}
	for (int i = 0; i < nf; i++) {
		qsort(fams[i].fns, (size_t)fams[i].nfns, sizeof(*fams[i].fns), by_samples);
		print_family(&fams[i], top);
	}
	for (int i = 0; i < nf; i++) {
		for (int k = 0; k < fams[i].nfns; k++)
			free(fams[i].fns[k].name);
		free(fams[i].fns);
		free(fams[i].key);
		free(fams[i].title);
		free(fams[i].event);
		free(fams[i].rep_seen);
	}
	free(fams);
	csv_table_free(t);
	free(path);
	return 0;
}
