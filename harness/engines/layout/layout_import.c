// SPDX-License-Identifier: MIT
/*
 * layout_import.c - `pcbench layout import`: pahole text (a file, stdin, or pahole run on
 * an object with --from-object) or BTF (--btf, libbpf) to a layout file (pahole.c, btf.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "btf.h"
#include "infile.h"
#include "outfile.h"
#include "outpath.h"
#include "pahole.h"
#include "stop.h"

#include "layout_cmd.h"
#include "util.h"

extern char **environ;

#define INPUT_MAX (16UL << 20)

/* Drain @fd into *@buf (growing it); returns 0 at EOF, 1 when more may come, -1 on error. */
static int drain(int fd, char **buf, size_t *n, size_t *cap)
{
	char tmp[65536];
	ssize_t got = read(fd, tmp, sizeof(tmp));

	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -1;
	if (!got)
		return 0;
	if (*n + (size_t)got + 1 > *cap) {
		size_t c = *cap ? *cap : 65536;
		char *nb;

		while (c < *n + (size_t)got + 1)
			c *= 2;
		if (c > INPUT_MAX)
			return -1;
		nb = realloc(*buf, c);
		if (!nb)
			return -1;
		*buf = nb;
		*cap = c;
	}
	memcpy(*buf + *n, tmp, (size_t)got);
	*n += (size_t)got;
	(*buf)[*n] = '\0';
	return 1;
}

/*
 * run_pahole - `pahole [-E] -C STRUCTS OBJ` without a shell (posix_spawnp; $PAHOLE overrides
 * the program). Returns its standard output, or NULL with a message in @err.
 */
static char *run_pahole(const char *obj, const char *structs, int expand, char *err, size_t errlen)
{
	const char *prog = getenv("PAHOLE") && *getenv("PAHOLE") ? getenv("PAHOLE") : "pahole";
	char *args[7], *out = NULL, *errs = NULL;
	size_t nout = 0, cout = 0, nerr = 0, cerr = 0;
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, k = 0, rc, status, open_o = 1, open_e = 1;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	if (!access(obj, F_OK)) { /* a FIFO or a device would make pahole wait forever */
		FILE *f = infile_open(obj, 0, "an object", err, errlen);

		if (!f)
			return NULL;
		fclose(f);
	}
	args[k++] = (char *)prog;
	if (expand)
		args[k++] = "-E";
	args[k++] = "-C";
	args[k++] = (char *)structs;
	args[k++] = (char *)obj;
	args[k] = NULL;
	if (pipe(po) || pipe(pe)) {
		set_err(err, errlen, "pipe: %s", strerror(errno));
		goto fail;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	posix_spawn_file_actions_addclose(&fa, po[0]);
	posix_spawn_file_actions_addclose(&fa, pe[0]);
	rc = posix_spawnp(&pid, prog, &fa, NULL, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	if (rc) {
		if (rc == ENOENT)
			set_err(err, errlen,
				"%s: not found (pahole is in the Debian package dwarves: apt-get "
				"install dwarves)",
				prog);
		else
			set_err(err, errlen, "%s: cannot run it: %s", prog, strerror(rc));
		goto fail;
	}
	stop_child(pid, 1); /* a signal that ends us ends pahole too */
	while (open_o || open_e) {
		struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};

		if (!open_o)
			fds[0].fd = -1;
		if (!open_e)
			fds[1].fd = -1;
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (open_o && fds[0].revents) {
			rc = drain(po[0], &out, &nout, &cout);
			open_o = rc > 0;
			if (rc < 0)
				break;
		}
		if (open_e && fds[1].revents) {
			rc = drain(pe[0], &errs, &nerr, &cerr);
			open_e = rc > 0;
			if (rc < 0)
				break;
		}
	}
	close(po[0]);
	close(pe[0]);
	po[0] = pe[0] = -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	stop_child(pid, 0);
	if (open_o || open_e) {
		set_err(err, errlen, "%s: cannot read its output (more than %lu bytes?)", prog,
			INPUT_MAX);
		goto fail;
	}
	if (errs) {
		char *nl = strchr(errs, '\n');

		if (nl)
			*nl = '\0';
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		set_err(err, errlen, "%s -C %s %s failed (%s %d)%s%s", prog, structs, obj,
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			errs && *errs ? ": " : "", errs ? errs : "");
		goto fail;
	}
	if (!out || !strstr(out, "struct ")) {
		set_err(err, errlen, "%s -C %s %s printed no struct%s%s", prog, structs, obj,
			errs && *errs ? ": " : "", errs ? errs : "");
		goto fail;
	}
	free(errs);
	return out;
fail:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	free(out);
	free(errs);
	return NULL;
}

int layout_import_cmd(int argc, char **argv)
{
	struct import_opts io = {0};
	const char *structs, *object, *out, *input = NULL;
	struct pahole_opts po = {0};
	char err[1024], source[512];
	int first, rc;
	char *text, *layout;

	first = opt_parse(&layout_import_help, argc, argv, &io);
	structs = io.structs;
	object = io.object;
	out = io.out;
	po.name = io.name;
	po.desc = io.desc;
	for (int i = first; i < argc; i++) {
		if (input)
			return err2("import: one input only: %s and %s", input, argv[i]);
		input = argv[i];
	}
	/* -o FILE is checked before anything is read (outpath.h): exit 2, nothing created. */
	if (out && strcmp(out, "-") && outpath_check_file(out, err, sizeof(err)))
		return err2("import: -o: %s", err);
	if (io.btf) {
		if (object || io.expand)
			return err2("import: --btf reads BTF itself: no --from-object or -E");
		if (!structs || !*structs)
			return err2("import: --btf %s needs --struct NAME[,NAME...]",
				    input ? input : BTF_VMLINUX);
		po.structs = structs;
		layout = btf_to_layout(input, &po, err, sizeof(err));
		if (!layout)
			return err2("import: %s", err);
		rc = layout_write_out(out, layout);
		free(layout);
		return rc;
	}
	if (object && input)
		return err2("import: --from-object %s and an input file %s: give one", object,
			    input);
	if (!object && !input)
		return err2("import: no input (a file of `pahole -C NAME` output, - for stdin, or "
			    "--from-object OBJ --struct NAME)");
	if (io.expand && !object)
		return err2(
		    "import: -E goes with --from-object (give `pahole -E` output otherwise)");
	if (object) {
		if (!structs || !*structs)
			return err2("import: --from-object %s needs --struct NAME", object);
		text = run_pahole(object, structs, io.expand, err, sizeof(err));
		if (!text)
			return err2("import: %s", err);
		snprintf(source, sizeof(source), "pahole%s -C %s %s", io.expand ? " -E" : "",
			 structs, object);
	} else if (!strcmp(input, "-")) {
		text = layout_read_stream(stdin, "(stdin)", err, sizeof(err));
		if (!text)
			return err2("import: %s", err);
		snprintf(source, sizeof(source), "(stdin)");
	} else {
		FILE *f = infile_open(input, 0, "pahole output", err, sizeof(err));

		if (!f)
			return err2("import: %s", err);
		text = layout_read_stream(f, input, err, sizeof(err));
		fclose(f);
		if (!text)
			return err2("import: %s", err);
		snprintf(source, sizeof(source), "%s", input);
	}
	po.structs = structs;
	layout = pahole_to_layout(text, source, &po, err, sizeof(err));
	free(text);
	if (!layout)
		return err2("import: %s", err);
	rc = layout_write_out(out, layout);
	free(layout);
	return rc;
}
