// SPDX-License-Identifier: MIT
/*
 * layout_cmd.c - `pcbench layout import|show`: layouts from outside.
 *
 *   pcbench layout import [--struct NAME[,NAME]] [--name LAYOUT] [--desc TEXT] [-o FILE] FILE|-
 *   pcbench layout import --from-object OBJ --struct NAME[,NAME] [-E] [...]
 *   pcbench layout show NAME|FILE [--format view|layout] [--line-size N]
 *                        [--scenario S --preset P [--workload W] [--threads N] [--ops N]
 *                         [--warmup N] [-D NAME=VALUE]... [--all]]
 *
 * This file: the subcommands' option tables and help and what they share (layout_usage_error,
 * reading a stream, writing the result); the command itself (layout_main, layout_help) is
 * commands/cmd_layout.c, import in layout_import.c, show in layout_show.c.
 *
 * import converts pahole text (pahole.c) and prints the layout file. show prints a
 * pahole-like view of every struct, nested structs flattened ("memory.usage"), with cache-line
 * boundaries; or, with --format layout, the layout in the layout-file format
 * (layout_to_text), so that show -> file -> load round-trips. With --scenario, the
 * scenario's tracing build runs on this one OS thread: N virtual threads (default 2) each
 * get thread_setup(), then run(shared, tstate_i, 1) in turn, for --warmup rounds and then
 * --ops measured rounds during which pc_trace_hook counts every shared access per object,
 * field, access kind and virtual thread. Addresses map to fields through the scenario's
 * objects() and the layout. Every field is annotated with its accesses per operation, and
 * every cache line where a field written by one thread shares the line with a field used
 * by another thread is flagged (the static false-sharing report).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "layout_cmd.h"
#include "num.h"
#include "outfile.h"
#include "util.h"

#define INPUT_MAX (16UL << 20)

/* layout_usage_error - "pcbench: layout: ..." on stderr; returns 2, the exit status of bad input.
 */
int layout_usage_error(const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn_msg("layout: %s", msg); /* a file or field name in it printed escaped */
	return 2;
}

#define IO struct import_opts
static const struct opt import_opts[] = {
    OPT_STR("struct", 'C', "NAME[,NAME...]", IO, structs,
	    "the structs to import (default: every one)"),
    OPT_STR("from-object", 0, "OBJ", IO, object,
	    "run pahole on a DWARF or BTF object (vmlinux, a .o)"),
    OPT_FLAG("expand", 'E', IO, expand, "with --from-object: expand nested structs (pahole -E)"),
    OPT_FLAG("btf", 0, IO, btf,
	     "read BTF with libbpf: FILE is a BTF blob or an object with a .BTF\n"
	     "section (default " BTF_VMLINUX ", the running kernel)"),
    OPT_STR("name", 0, "LAYOUT", IO, name, "the layout's name"),
    OPT_STR("desc", 0, "TEXT", IO, desc, "the layout's description"),
    OPT_STR("out", 'o', "FILE", IO, out, "write the layout file here (default: stdout)"),
    OPT_HELP,
    OPT_END,
};
#undef IO

/*
 * show_count - a count option of show in [row->min, row->max] (row->expect: "" or "a power
 * of two in "); a bad one is exit 2 with layout's message.
 */
static void show_count(void *at, const char *v, const struct opt *row)
{
	long *n = at;

	if (num_long(v, 10, (long)row->min, (long)row->max, n) ||
	    (row->expect[0] && (*n & (*n - 1))))
		exit(layout_usage_error("show: --%s: %s: expected %s%ld..%ld", row->name, v,
					row->expect, (long)row->min, (long)row->max));
}

static void show_param(void *at, const char *v, const struct opt *row)
{
	struct show_opts *so = at;

	(void)row;
	if (opt_param_twice(so->rq.params, so->rq.nparams, v))
		exit(layout_usage_error("show: -D: %s: parameter %.*s given twice", v,
					opt_param_twice(so->rq.params, so->rq.nparams, v), v));
	if (so->rq.nparams == TRACE_MAX_PARAMS)
		exit(layout_usage_error("show: too many -D"));
	so->rq.params[so->rq.nparams++] = (char *)v;
}

#define SO struct show_opts
#define SHOW_COUNT(l, s, f, lo, hi, ex, h)                                                         \
	{                                                                                          \
		l, s, "N", h, OPT_K_CALL, OPT_AT(SO, f, long), 0, lo, hi, ex, show_count           \
	}
static const struct opt show_opts[] = {
    OPT_STR("format", 0, "view|layout", SO, format,
	    "a pahole-like view (default) or the layout file"),
    SHOW_COUNT("line-size", 0, line, 8, 4096, "a power of two in ",
	       "cache-line size in bytes (default 64)"),
    OPT_STR("scenario", 's', "S", SO, rq.scenario, "annotate with this scenario's accesses"),
    OPT_STR("preset", 'p', "P", SO, rq.preset, "the scenario's preset"),
    OPT_STR("workload", 'w', "W", SO, rq.workload, "the scenario's workload (default: its first)"),
    SHOW_COUNT("threads", 't', rq.threads, 1, TRACE_MAX_VTHREADS, "",
	       "virtual threads (default 2)"),
    SHOW_COUNT("ops", 0, rq.ops, 1, 10000000, "",
	       "measured operations per virtual thread (default 4096)"),
    SHOW_COUNT("warmup", 0, rq.warmup, 0, 10000000, "",
	       "operations per virtual thread before those (default 256)"),
    OPT_CALL_AT("param", 'D', "NAME=VALUE", show_param, OPT_REPEAT,
		"set one scenario parameter (repeatable; VALUE may hold spaces)"),
    OPT_FLAG("all", 0, SO, all, "also list untouched lines"),
    OPT_HELP,
    OPT_END,
};
#undef SHOW_COUNT
#undef SO

const struct cmd_help layout_import_help = {
    .name = "layout import",
    .synopsis =
	"usage: pcbench layout import [--struct NAME[,NAME...]] [--name LAYOUT] [--desc TEXT]\n"
	"                             [-o FILE] FILE|-\n"
	"       pcbench layout import --from-object OBJ --struct NAME[,NAME...] [-E]\n"
	"                             [--name LAYOUT] [--desc TEXT] [-o FILE]\n"
	"       pcbench layout import --btf [FILE] --struct NAME[,NAME...] [--name LAYOUT]\n"
	"                             [--desc TEXT] [-o FILE]\n",
    .opts = import_opts,
};

const struct cmd_help layout_show_help = {
    .name = "layout show",
    .synopsis = "usage: pcbench layout show NAME|FILE [--format view|layout] [--line-size N]\n"
		"                           [--scenario S --preset P [--workload W] [--threads N]\n"
		"                            [--ops N] [--warmup N] [-D NAME=VALUE]... [--all]]\n",
    .opts = show_opts,
};

/* layout_read_stream - all of @f into a new '\0'-terminated buffer, or NULL with @err. */
char *layout_read_stream(FILE *f, const char *name, char *err, size_t errlen)
{
	size_t n = 0, cap = 65536;
	char *buf = malloc(cap);

	if (!buf) {
		set_err(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (ferror(f)) {
			set_err(err, errlen, "%s: %s", name, strerror(errno));
			free(buf);
			return NULL;
		}
		if (feof(f))
			break;
		if (n + 1 == cap) {
			char *nb;

			if (cap >= INPUT_MAX) {
				set_err(err, errlen, "%s: more than %lu bytes", name, INPUT_MAX);
				free(buf);
				return NULL;
			}
			nb = realloc(buf, 2 * cap);
			if (!nb) {
				set_err(err, errlen, "%s: out of memory", name);
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		set_err(err, errlen, "%s: contains a NUL byte, not text", name);
		free(buf);
		return NULL;
	}
	return buf;
}

int layout_write_out(const char *path, const char *text)
{
	return outfile_write_named(path ? path : "-", text, strlen(text)) ? 1 : 0;
}
