/* SPDX-License-Identifier: MIT */
/*
 * layout_cmd.h - what the files of `pcbench layout` share: layout_main.c (the command),
 * layout_cmd.c (the subcommands' option tables and help, err2, reading and writing),
 * layout_import.c (import: pahole text, --from-object, --btf) and layout_show.c (show, and
 * --scenario's traced accesses).
 */
#ifndef PCBENCH_LAYOUT_CMD_H
#define PCBENCH_LAYOUT_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "opt.h"

enum { O_FROM_OBJECT = OPT_LONG, O_BTF, O_NAME, O_DESC, O_FORMAT, O_OPS, O_WARMUP, O_LINE, O_ALL };

/* The subcommands' help and option tables (layout_cmd.c). */
extern const struct cmd_help layout_import_help, layout_show_help;

/* err2 - "pcbench: layout: ..." on stderr; returns 2, the exit status of bad input. */
int err2(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* layout_read_stream - all of @f (at most 16 MiB) into a new string, or NULL with @err. */
char *layout_read_stream(FILE *f, const char *name, char *err, size_t errlen);

/* layout_write_out - @text to @path (NULL or "-": stdout, checked at exit); 1 on error. */
int layout_write_out(const char *path, const char *text);

/* The subcommands: argv[0] is "import" / "show". */
int layout_import_cmd(int argc, char **argv);
int layout_show_cmd(int argc, char **argv);

#endif
