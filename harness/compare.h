/* SPDX-License-Identifier: MIT */
/* compare.h - the `pcbench compare` and `pcbench plot` subcommands. */
#ifndef PCBENCH_COMPARE_H
#define PCBENCH_COMPARE_H

/* compare_main - `pcbench compare RUN [RUN2] [options]`; argv[0] is "compare". */
int compare_main(int argc, char **argv);
/* plot_main - `pcbench plot RUN [-o DIR]`; argv[0] is "plot". */
int plot_main(int argc, char **argv);

#endif
