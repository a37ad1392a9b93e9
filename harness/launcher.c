// SPDX-License-Identifier: MIT
/*
 * launcher.c - the pcbench that users run (BINDIR/pcbench), a program of its own: it blocks
 * SIGINT, SIGTERM and SIGHUP first, then execs the real pcbench with the same argv (argv[0]
 * unchanged, so messages still say "pcbench") and environment.
 *
 * Why: before the real binary's first instruction (its preinit_array installs the handlers
 * that make these signals exit 3, stop.c), the dynamic loader maps and relocates its shared
 * libraries, 10 ms idle and 50 ms under load, during which a signal would get the default
 * action (exit 130, 143, 129). This program is linked -static, so it runs from its first
 * instruction: a signal that comes during that load stays pending (the mask and pending
 * signals outlive execve), and the real binary's stop_install unblocks it once its handler
 * is there: exit 3. What is left is the kernel's exec of this program and glibc's static
 * start before main, a few microseconds.
 *
 * The real binary is at PCBENCH_REAL (CMakeLists.txt: LIBEXECDIR/pcbench/pcbench relative to
 * BINDIR, in the build tree as in the install) from the directory of /proc/self/exe: never
 * from PATH or the environment, so that nothing can redirect it. When it cannot be run:
 * "pcbench: cannot run PATH: REASON", exit 1. It includes and calls nothing of the harness
 * (tests/layering.sh: layer 4, beside main.c, with no include of ours).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef PCBENCH_REAL
#error "PCBENCH_REAL: the real pcbench's path relative to the launcher's directory"
#endif

extern char **environ;

int main(int argc, char **argv)
{
	char dir[PATH_MAX], path[PATH_MAX + sizeof(PCBENCH_REAL) + 1];
	sigset_t set;
	ssize_t n;
	char *slash;

	(void)argc;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0) {
		fprintf(stderr, "pcbench: cannot run %s: /proc/self/exe: %s\n", PCBENCH_REAL,
			n ? strerror(errno) : "empty");
		return 1;
	}
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, PCBENCH_REAL);
	execve(path, argv, environ);
	fprintf(stderr, "pcbench: cannot run %s: %s\n", path, strerror(errno));
	return 1;
}
