// SPDX-License-Identifier: MIT
/* gnuplot.c - finding gnuplot and pcbench's gnuplot scripts, and running one script. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"
#include "outfile.h"
#include "outpath.h"
#include "run_command.h"
#include "stop.h"
#include "util.h"

static int is_file(const char *path, int exec)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && (!exec || !access(path, X_OK));
}

char *gnuplot_find(void)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *found = NULL;

	if (!path)
		return NULL;
	copy = xstrdup(path);
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/gnuplot", *d ? d : ".");

		if (is_file(p, 1))
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}

char *gnuplot_scripts(void)
{
	char exe[PATH_MAX], *cand[2] = {0}, *found = NULL;
	const char *env = getenv("PCBENCH_SCRIPTS");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int k = 0;

	if (env && *env)
		cand[k++] = xstrdup(env);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			cand[k++] = xasprintf("%s/%s", exe, PCBENCH_SCRIPTS_REL);
		}
	}
	for (int i = 0; i < k; i++) {
		char *p = xasprintf("%s/scaling.gp", cand[i]);

		if (!found && is_file(p, 0))
			found = xstrdup(cand[i]);
		free(p);
		free(cand[i]);
	}
	return found;
}

int gnuplot_run(const char *gnuplot, const char *scripts, const char *script, const char *png,
		char *const *args)
{
	char *argv[16], *tmp = xasprintf("%s.XXXXXX", png), why[PATH_MAX + 128];
	struct run_cmd c = {.argv = argv, .out = RUN_INHERIT, .err = RUN_INHERIT};
	int k = 0, fd, ok;
	struct stat st;

	fd = outfile_mkstemp(tmp);
	if (fd < 0) {
		warn_msg("plot: %s: %s", png, strerror(errno));
		free(tmp);
		return -1;
	}
	fchmod(fd, outfile_mode()); /* every output's mode, not mkstemp's 0600 */
	close(fd);
	argv[k++] = (char *)gnuplot;
	argv[k++] = "-c";
	argv[k++] = xasprintf("%s/%s", scripts, script);
	for (int i = 0; args[i] && k < 15; i++)
		argv[k++] = args[i] == png ? tmp : args[i];
	argv[k] = NULL;
	/* a signal that ends us ends gnuplot too (run_command.h) */
	if (run_command(&c, why, sizeof(why))) {
		warn_msg("plot: %s", why); /* "plot: GNUPLOT: why", then that it failed */
		ok = 0;
	} else {
		ok = WIFEXITED(c.status) && !WEXITSTATUS(c.status) && !stat(tmp, &st) &&
		     st.st_size > 0;
	}
	if (ok && outpath_check_inside(png, why, sizeof(why))) { /* never onto a link or FIFO */
		warn_msg("%s", why);
		ok = 0;
	} else if (ok && rename(tmp, png)) {
		warn_msg("%s: %s", png, strerror(errno));
		ok = 0;
	} else if (!ok && !stop_requested) { /* gnuplot killed by the same ^C: no failure */
		warn_msg("plot: gnuplot %s failed for %s", script, png);
	}
	free(argv[2]);
	if (!ok)
		unlink(tmp);
	outfile_track(tmp, 0);
	free(tmp);
	return ok ? 0 : -1;
}
