// SPDX-License-Identifier: MIT
/* layout_cmd.c - placeholder until `pcbench layout import|show` lands. */
#include <stdio.h>

#include "compare.h"

int layout_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pcbench: layout: not implemented yet\n");
	return 2;
}
