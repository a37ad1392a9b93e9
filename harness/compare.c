// SPDX-License-Identifier: MIT
/* compare.c - placeholder until `pcbench compare` lands. */
#include <stdio.h>

#include "compare.h"

int compare_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pcbench: compare: not implemented yet\n");
	return 2;
}

int plot_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pcbench: plot: not implemented yet\n");
	return 2;
}
