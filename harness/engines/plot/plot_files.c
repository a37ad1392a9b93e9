// SPDX-License-Identifier: MIT
/*
 * plot_files.c - the files of one plot of `pcbench plot` (plot.h): its data file (built in
 * memory, its strings and numbers, written whole through lib/outfile into the temp
 * directory, or kept beside the PNG with --keep-data), its PNG through gnuplot
 * (gnuplot.c), the script that draws it again (--keep-data) and the host and date of its
 * title.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gnuplot.h"
#include "outfile.h"
#include "plot.h"
#include "stop.h"
#include "strbuf.h"
#include "util.h"

void plot_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputc(*s == '"' ? '\'' : *s, f);
	fputc('"', f);
}

void plot_num(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " ?");
	else
		fprintf(f, " %.10g", v);
}

/* base_name - the part of @path after its last '/'. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * write_redraw - --keep-data: STEM.gp beside STEM.png, a `call` of @script with @args as
 * gnuplot ran it, the data file and the PNG by their names in that directory.
 */
static void write_redraw(struct plot *p, const char *script, const char *png, char *const *args)
{
	char *path = xasprintf("%.*s.gp", (int)(strlen(png) - 4), png);
	char *dir = realpath(p->scripts, NULL);
	struct sb b = {0};

	sb_printf(&b,
		  "# %s - pcbench plot --keep-data: `gnuplot %s` in this directory draws %s "
		  "again\ncall '%s/%s'",
		  base_name(path), base_name(path), base_name(png), dir ? dir : p->scripts, script);
	for (int i = 0; args[i]; i++) {
		const char *a = i == 0 || args[i] == png ? base_name(args[i]) : args[i];

		sb_add(&b, " '", 2);
		for (; *a; a++) /* '' is a quote inside '...' */
			sb_add(&b, *a == '\'' ? "''" : a, *a == '\'' ? 2 : 1);
		sb_add(&b, "'", 1);
	}
	sb_addc(&b, '\n');
	p->failed |= outfile_write_all(path, b.p, b.n) != 0;
	free(b.p);
	free(dir);
	free(path);
}

int plot_gnuplot(struct plot *p, const char *script, const char *png, char *const *args)
{
	if (gnuplot_run(p->gnuplot, p->scripts, script, png, args)) {
		p->failed += !stop_requested;
		return -1;
	}
	print_esc(stdout, "wrote %s", png);
	p->written++;
	if (p->keep)
		write_redraw(p, script, png, args);
	return 0;
}

char *plot_title_suffix(const struct plot *p)
{
	struct sb b = {0};

	if (p->nhosts > 1)
		for (int i = 0; i < p->nhosts; i++)
			sb_printf(&b, "%s%s", i ? ", " : "(hosts ", p->hosts[i]);
	else
		sb_printf(&b, "(host %s", p->host && p->host[0] ? p->host : "unknown");
	sb_printf(&b, ", %s)", p->date ? p->date : p->nhosts > 1 ? "merged" : "date unknown");
	return b.p;
}

char *plot_data_path(const struct plot *p, const char *stem)
{
	return xasprintf("%s/%s.dat", p->keep ? p->outdir : p->tmpdir, stem);
}

FILE *plot_data_begin(struct plot *p)
{
	FILE *f = open_memstream(&p->data, &p->data_len);

	if (!f)
		die("memory", "plot data", "out of memory");
	return f;
}

int plot_data_end(struct plot *p, FILE *f, const char *path)
{
	int bad = fclose(f) != 0;

	if (bad)
		warn_msg("plot: %s: out of memory", path);
	bad = bad || outfile_write_all(path, p->data, p->data_len);
	if (!bad && !p->keep)
		outfile_track((char *)path, 1); /* removed by data_drop, or by a second signal */
	free(p->data);
	p->data = NULL;
	p->failed |= bad;
	return bad ? -1 : 0;
}

void plot_data_drop(const struct plot *p, const char *path, int drawn)
{
	if (p->keep && drawn)
		return;
	outfile_track((char *)path, 0);
	unlink(path);
}
