// SPDX-License-Identifier: MIT
/*
 * btf_cmds FILE... - the fuzz target fuzz_btf's two commands (btf_commands: `layout import
 * --btf FILE --struct page_counter` and `layout show btf:FILE`) on each FILE, all in one
 * process. Built in every build, without libFuzzer: tests/layout_btf.sh runs its BTF
 * mutations through it where fuzz_btf is not built (the Release build), instead of two
 * pcbench processes per file, with the checks those had: each command exits 0 or 2, a
 * refusal (2) names FILE on stderr, and no command takes over 60 s (alarm: a line naming
 * the file, exit 1). A crash, or a command that calls exit(), ends the process early: stderr
 * then ends with the "run FILE" line of the file, and without "ran N files".
 * The commands' stdout is this program's; stderr has a "run FILE" line per file, a FAIL
 * line per failed command and "ran N files" at the end. Exit 0 when every command passed.
 */
#include "fuzz/fuzz_btf.c"

#include <signal.h>
#include <sys/stat.h>

static int errfd = -1; /* the real stderr: each command's goes to capfd */
static int capfd = -1;
static int failed;
static const char *current; /* the file, for on_alarm */

static void put(const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(errfd, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* A command over 60 s: say which file (async-signal-safe calls only) and fail. */
static void on_alarm(int sig)
{
	(void)sig;
	put("FAIL: ");
	put(current);
	put(": a command took over 60 s\n");
	_exit(1);
}

/* What the command printed on stderr, as a string (freed by the caller). */
static char *captured(void)
{
	struct stat st;
	char *s;
	ssize_t n;

	if (fstat(capfd, &st) || !(s = malloc((size_t)st.st_size + 1)))
		abort();
	n = pread(capfd, s, (size_t)st.st_size, 0);
	s[n > 0 ? n : 0] = '\0';
	return s;
}

/* One command on @path with its stderr captured: exit 0, or 2 with a message naming @path. */
static void checked(int (*cmd)(int, char **), char **argv, const char *path)
{
	char line[8192] = "pcbench layout", *err, *tail;
	int argc = 0, rc;

	/* the command line before the command runs: option parsing reorders argv */
	for (; argv[argc]; argc++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " %s", argv[argc]);
	if (ftruncate(capfd, 0) || lseek(capfd, 0, SEEK_SET) || dup2(capfd, 2) < 0)
		abort();
	alarm(60);
	rc = cmd(argc, argv);
	alarm(0);
	fflush(stdout);
	fflush(stderr);
	if (dup2(errfd, 2) < 0)
		abort();
	err = captured();
	if (rc != 0 && (rc != 2 || !strstr(err, path))) {
		/* the last two lines, as layout_btf.sh prints for a pcbench process */
		tail = err + strlen(err);
		while (tail > err && tail[-1] == '\n')
			*--tail = '\0';
		for (int nl = 0; tail > err && nl < 2; tail--)
			if (tail[-1] == '\n' && ++nl == 2)
				break;
		fprintf(stderr, "FAIL: %s: exit %d%s: %s\n", line, rc,
			rc == 2 ? ", the refusal does not name the file" : "", tail);
		failed++;
	}
	free(err);
}

int main(int argc, char **argv)
{
	errfd = dup(2);
	capfd = memfd_create("btf_cmds_stderr", 0);
	if (errfd < 0 || capfd < 0) {
		perror("btf_cmds");
		return 1;
	}
	signal(SIGALRM, on_alarm);
	for (int i = 1; i < argc; i++) {
		current = argv[i];
		fprintf(stderr, "run %s\n", argv[i]);
		btf_commands(argv[i], checked);
	}
	fprintf(stderr, "ran %d files\n", argc - 1);
	return failed ? 1 : 0;
}
