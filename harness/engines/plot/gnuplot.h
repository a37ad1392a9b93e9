/* SPDX-License-Identifier: MIT */
/* gnuplot.h - gnuplot for `pcbench plot` (commands/cmd_plot.c): where it and the scripts are, one
 * run. */
#ifndef PCBENCH_GNUPLOT_H
#define PCBENCH_GNUPLOT_H

/* gnuplot_find - gnuplot's path from $PATH (new string), or NULL. */
char *gnuplot_find(void);
/*
 * gnuplot_scripts - the directory holding scaling.gp (new string): $PCBENCH_SCRIPTS, then
 * PCBENCH_SCRIPTS_REL from the real binary's directory (CMakeLists.txt's scheme, the same in
 * the build tree, where CMake copies the scripts, and in the install:
 * LIBEXECDIR/pcbench/pcbench -> DATADIR/pcbench/scripts, ../../share/pcbench/scripts);
 * never the compiled-in source path. NULL when none has it.
 */
char *gnuplot_scripts(void);
/*
 * gnuplot_run - run @gnuplot on @scripts/@script with @args (NULL-terminated, @png among
 * them); 0 when @png was written. gnuplot draws into a temp file next to @png
 * ("PNG.XXXXXX", registered with lib/outfile, so that a second signal removes it) that is
 * renamed onto @png once gnuplot has succeeded: a PNG is whole or absent, and a signal
 * (STOP_FLAG) waits for gnuplot. -1 after a message (none when a signal killed gnuplot).
 */
int gnuplot_run(const char *gnuplot, const char *scripts, const char *script, const char *png,
		char *const *args);

#endif
