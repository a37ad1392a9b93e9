/* SPDX-License-Identifier: MIT */
/* commands.h - the subcommands: `pcbench compare`, `plot`, `layout`, `model`. */
#ifndef PCBENCH_COMMANDS_H
#define PCBENCH_COMMANDS_H

/* compare_main - `pcbench compare RUN [RUN2] [options]`; argv[0] is "compare". */
int compare_main(int argc, char **argv);
/* plot_main - `pcbench plot RUN [-o DIR]`; argv[0] is "plot". */
int plot_main(int argc, char **argv);
/* layout_main - `pcbench layout import|show ...`; argv[0] is "layout" (layout_cmd.c). */
int layout_main(int argc, char **argv);
/* model_main - `pcbench model [run options]`; argv[0] is "model" (model.c). */
int model_main(int argc, char **argv);

#endif
