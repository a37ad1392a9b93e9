// SPDX-License-Identifier: MIT
/*
 * fuzz_btf - libFuzzer target: the BTF reader on raw BTF, by two routes:
 *  - in memory: libbpf's parse, btf_check, then every named struct and union rendered as
 *    `pahole -E` text and that text converted to a layout;
 *  - as a file, by the commands themselves: the input written to a memfd and read back as
 *    /proc/self/fd/N by `layout import --btf FILE --struct page_counter` and `layout show
 *    btf:FILE` (layout_import_cmd, layout_show_cmd: the file checks, libbpf's file parse,
 *    raw BTF or else an ELF object, the built-in structs looked up, the layout parsed and its
 *    view printed). Each returns 0 or 2 (a refusal); anything else aborts. Not for an
 *    input whose structs the first route found to expand past its 64 KiB of text: the
 *    commands would render the same structs to their 16 MiB bound (10 s under ASan for the
 *    deep-doubling regression input; tests/layout_btf.sh runs that one through pcbench).
 * A crash, a hang or unbounded memory is the bug; a refusal (NULL with a reason) is the
 * expected answer to a malformed blob. The commands print on stdout and stderr: run it with
 * -close_fd_mask=3 (sanitizer and libFuzzer reports are still printed), as
 * tests/layout_btf.sh and scripts/fuzz-smoke do. tests/btf_cmds.c includes this file for
 * btf_commands (the two commands, run on files without libFuzzer in every build).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "btf.h"
#include "layout.h"
#include "layout_cmd.h"
#include "pahole.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a file: one memfd for the process, rewritten for each input. */
static const char *as_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("fuzz_btf", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

/*
 * What runs one command in this process: @cmd with the NULL-terminated @argv, on the file
 * @path. The fuzz target's aborts unless it returns 0 or 2; tests/btf_cmds.c's also checks
 * that a refusal names @path.
 */
typedef void btf_runner(int (*cmd)(int, char **), char **argv, const char *path);

/*
 * btf_commands - the two commands on the file @path, each through @run: `layout import
 * --btf PATH --struct page_counter` and `layout show btf:PATH`. One list for the fuzz target
 * and tests/btf_cmds.c (the Release build's route for layout_btf.sh's mutations).
 */
static void btf_commands(const char *path, btf_runner *run)
{
	char btfarg[4096 + 8];

	snprintf(btfarg, sizeof(btfarg), "btf:%s", path);
	run(layout_import_cmd,
	    (char *[]){"import", "--btf", (char *)path, "--struct", "page_counter", NULL}, path);
	run(layout_show_cmd, (char *[]){"show", btfarg, NULL}, path);
}

/* One command on the file: exit 0 or 2, nothing else. */
static void command(int (*cmd)(int, char **), char **argv, const char *path)
{
	int argc = 0, rc;

	(void)path;
	while (argv[argc])
		argc++;
	rc = cmd(argc, argv);
	fflush(stdout);
	if (rc != 0 && rc != 2)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	/* 64 KiB of text: the bound is what is tested, and the fuzzer stays fast. */
	char *text = btf_text_from_buf(data, size, NULL, 64 << 10, err, sizeof(err));

	if (text) {
		struct pahole_opts po = {.name = "fuzz", .desc = "fuzz"};
		char *layout =
		    text[0] ? pahole_to_layout(text, "fuzz", &po, err, sizeof(err)) : NULL;

		free(layout);
		free(text);
	} else if (!err[0]) {
		abort(); /* a refusal always says why */
	} else if (strstr(err, "KiB of text")) {
		return 0;
	}

	btf_commands(as_file(data, size), command);
	return 0;
}
