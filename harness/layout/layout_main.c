// SPDX-License-Identifier: MIT
/* layout_main.c - `pcbench layout`: its help and the dispatch to import, show and suggest. */
#include <string.h>

#include "btf.h"
#include "commands.h"
#include "layout_cmd.h"

const struct cmd_help layout_help = {
    .name = "layout",
    .synopsis =
	"usage: pcbench layout import [--struct NAME[,NAME...]] [--name LAYOUT] [--desc TEXT]\n"
	"                             [-o FILE] FILE|-\n"
	"       pcbench layout import --from-object OBJ --struct NAME[,NAME...] [-E]\n"
	"                             [--name LAYOUT] [--desc TEXT] [-o FILE]\n"
	"       pcbench layout import --btf [FILE] --struct NAME[,NAME...] [...]\n"
	"       pcbench layout show NAME|FILE [--format view|layout] [--line-size N]\n"
	"                           [--scenario S --preset P [--workload W] [--threads N]\n"
	"                            [--ops N] [--warmup N] [-D NAME=VALUE]... [--all]]\n"
	"       pcbench layout suggest [LAYOUT] [--struct NAME] --scenario S --preset P\n"
	"                              [--workload W] [-D NAME=VALUE]... [options]\n"
	"       pcbench layout suggest LAYOUT [--struct NAME] --recipe FILE [options]\n"
	"       pcbench layout suggest [LAYOUT] [--struct NAME] --hitm RUN [--script FILE]\n"
	"                              [options]\n",
    .about = "import converts `pahole -C NAME` output (FILE, or - for stdin) into the layout-file\n"
	     "format; --from-object runs pahole itself (-E: expand nested structs) on a DWARF or\n"
	     "BTF object such as vmlinux or a .o built with -g. --btf reads BTF itself (libbpf):\n"
	     "by default the running kernel's, " BTF_VMLINUX ".\n"
	     "show prints a pahole-like view of a built-in layout or a layout file, with\n"
	     "cache-line boundaries; --format layout prints it in the layout-file format.\n"
	     "With --scenario, the scenario's tracing build runs N virtual threads (default 2)\n"
	     "in turn on one OS thread: every field is annotated with its accesses per\n"
	     "operation, and every cache line where a field written by one thread shares the\n"
	     "line with a field used by another is flagged. --all also lists untouched lines.\n"
	     "suggest rearranges a struct so that the lines its threads write hold no field\n"
	     "other threads use, from the accesses of a scenario, a probe recipe or a hitm run,\n"
	     "judged by the coherence model (today, the suggestion, every field on its own line);\n"
	     "--measure then measures it against today's layout in blocks.\n",
    .after =
	"Exit status: 0 done, 1 the output could not be written, 2 bad usage or input,\n"
	"3 interrupted; suggest --measure: the measurement's (pcbench help measure).\n"
	"\n"
	"Examples:\n"
	"  pahole -C page_counter vmlinux | pcbench layout import --name mine - > mine.layout\n"
	"  pcbench layout import --from-object vmlinux -E --struct mem_cgroup -o memcg.layout\n"
	"  pcbench layout import --btf --struct mem_cgroup,page_counter -o running.layout\n"
	"  pcbench layout show v6.1\n"
	"  pcbench layout show v6.0 --scenario page_counter --preset v6.0-rc1 --workload "
	"stocked\n"
	"  pcbench layout show mine.layout --scenario probe --preset v6.1 -D "
	"recipe=my.recipe\n"
	"  pcbench layout suggest v6.0 --scenario page_counter --preset v6.0-rc1 --workload "
	"direct -o mine.layout\n"
	"  pcbench layout suggest --scenario per_node --preset regressed --workload shared "
	"--line-size 128\n"
	"  pcbench layout suggest --hitm RUN --measure=suggest-run --budget 60\n",
    .subs = (const struct cmd_help *const[]){&layout_import_help, &layout_show_help,
					     &layout_suggest_help, NULL},
};

int layout_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		opt_usage(argc < 2 ? stderr : stdout, &layout_help);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "import"))
		return layout_import_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return layout_show_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "suggest"))
		return layout_suggest_cmd(argc - 1, argv + 1);
	return err2("%s: unknown subcommand (want import, show or suggest; see pcbench layout "
		    "--help)",
		    argv[1]);
}
