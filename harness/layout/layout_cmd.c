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
 * This file: the subcommands' option tables and help and what they share (err2, reading a
 * stream, writing the result); the command itself (layout_main, layout_help) is in
 * layout_main.c, import in layout_import.c, show in layout_show.c.
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
#include "outfile.h"
#include "util.h"

#define INPUT_MAX (16UL << 20)

/* err2 - "pcbench: layout: ..." on stderr; returns 2, the exit status of bad input. */
int err2(const char *fmt, ...)
{
	va_list ap;

	fputs("pcbench: layout: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

static const struct opt import_opts[] = {
    {"struct", 'C', "NAME[,NAME...]", "the structs to import (default: every one)"},
    {"from-object", O_FROM_OBJECT, "OBJ", "run pahole on a DWARF or BTF object (vmlinux, a .o)"},
    {"expand", 'E', NULL, "with --from-object: expand nested structs (pahole -E)"},
    {"btf", O_BTF, NULL,
     "read BTF with libbpf: FILE is a BTF blob or an object with a .BTF\n"
     "section (default " BTF_VMLINUX ", the running kernel)"},
    {"name", O_NAME, "LAYOUT", "the layout's name"},
    {"desc", O_DESC, "TEXT", "the layout's description"},
    {"out", 'o', "FILE", "write the layout file here (default: stdout)"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};

static const struct opt show_opts[] = {
    {"format", O_FORMAT, "view|layout", "a pahole-like view (default) or the layout file"},
    {"line-size", O_LINE, "N", "cache-line size in bytes (default 64)"},
    {"scenario", 's', "S", "annotate with this scenario's accesses"},
    {"preset", 'p', "P", "the scenario's preset"},
    {"workload", 'w', "W", "the scenario's workload (default: its first)"},
    {"threads", 't', "N", "virtual threads (default 2)"},
    {"ops", O_OPS, "N", "measured operations per virtual thread (default 4096)"},
    {"warmup", O_WARMUP, "N", "operations per virtual thread before those (default 256)"},
    {"param", 'D', "NAME=VALUE", "set one scenario parameter (repeatable; VALUE may hold spaces)"},
    {"all", O_ALL, NULL, "also list untouched lines"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};

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
