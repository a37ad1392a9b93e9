// SPDX-License-Identifier: MIT
/*
 * layout_import.c - `pcbench layout import`: pahole text (a file, stdin, or pahole run on
 * an object with --from-object) or BTF (--btf, libbpf) to a layout file (pahole.c, btf.c).
 */
#include <errno.h>
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
#include "run_command.h"

#include "layout_cmd.h"
#include "util.h"

#define INPUT_MAX (16UL << 20)

/*
 * run_pahole - `pahole [-E] -C STRUCTS OBJ` without a shell (run_command.h; $PAHOLE overrides
 * the program). Returns its standard output, or NULL with a message in @err.
 */
static char *run_pahole(const char *obj, const char *structs, int expand, char *err, size_t errlen)
{
	const char *prog = getenv("PAHOLE") && *getenv("PAHOLE") ? getenv("PAHOLE") : "pahole";
	char *args[7], *errs, *out = NULL;
	struct run_cmd c = {.argv = args, .out = RUN_CAPTURE, .err = RUN_CAPTURE, .max = INPUT_MAX};
	int k = 0;

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
	/* a signal that ends us ends pahole too */
	if (run_start(&c, err, errlen)) {
		if (c.spawn_errno == ENOENT)
			set_err(err, errlen,
				"%s: not found (pahole is in the Debian package dwarves: apt-get "
				"install dwarves)",
				prog);
		else if (c.spawn_errno)
			set_err(err, errlen, "%s: cannot run it: %s", prog,
				strerror(c.spawn_errno));
		return NULL;
	}
	if (run_finish(&c, err, errlen))
		goto out;
	if (c.too_much) {
		set_err(err, errlen, "%s: cannot read its output (more than %lu bytes?)", prog,
			INPUT_MAX);
		goto out;
	}
	errs = c.err_text.p;
	if (errs) {
		char *nl = strchr(errs, '\n');

		if (nl)
			*nl = '\0';
	}
	if (!WIFEXITED(c.status) || WEXITSTATUS(c.status)) {
		set_err(err, errlen, "%s -C %s %s failed (%s %d)%s%s", prog, structs, obj,
			WIFEXITED(c.status) ? "exit status" : "signal",
			WIFEXITED(c.status) ? WEXITSTATUS(c.status) : WTERMSIG(c.status),
			errs && *errs ? ": " : "", errs ? errs : "");
		goto out;
	}
	if (!c.out_text.p || !strstr(c.out_text.p, "struct ")) {
		set_err(err, errlen, "%s -C %s %s printed no struct%s%s", prog, structs, obj,
			errs && *errs ? ": " : "", errs ? errs : "");
		goto out;
	}
	out = c.out_text.p;
	c.out_text.p = NULL;
out:
	run_cmd_free(&c);
	return out;
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
			return layout_usage_error("import: one input only: %s and %s", input,
						  argv[i]);
		input = argv[i];
	}
	/* -o FILE is checked before anything is read (outpath.h): exit 2, nothing created. */
	if (out && strcmp(out, "-") && outpath_check_file(out, err, sizeof(err)))
		return layout_usage_error("import: -o: %s", err);
	if (io.btf) {
		if (object || io.expand)
			return layout_usage_error(
			    "import: --btf reads BTF itself: no --from-object or -E");
		if (!structs || !*structs)
			return layout_usage_error("import: --btf %s needs --struct NAME[,NAME...]",
						  input ? input : BTF_VMLINUX);
		po.structs = structs;
		layout = btf_to_layout(input, &po, err, sizeof(err));
		if (!layout)
			return layout_usage_error("import: %s", err);
		rc = layout_write_out(out, layout);
		free(layout);
		return rc;
	}
	if (object && input)
		return layout_usage_error("import: --from-object %s and an input file %s: give one",
					  object, input);
	if (!object && !input)
		return layout_usage_error(
		    "import: no input (a file of `pahole -C NAME` output, - for stdin, or "
		    "--from-object OBJ --struct NAME)");
	if (io.expand && !object)
		return layout_usage_error(
		    "import: -E goes with --from-object (give `pahole -E` output otherwise)");
	if (object) {
		if (!structs || !*structs)
			return layout_usage_error("import: --from-object %s needs --struct NAME",
						  object);
		text = run_pahole(object, structs, io.expand, err, sizeof(err));
		if (!text)
			return layout_usage_error("import: %s", err);
		snprintf(source, sizeof(source), "pahole%s -C %s %s", io.expand ? " -E" : "",
			 structs, object);
	} else if (!strcmp(input, "-")) {
		text = layout_read_stream(stdin, "(stdin)", err, sizeof(err));
		if (!text)
			return layout_usage_error("import: %s", err);
		snprintf(source, sizeof(source), "(stdin)");
	} else {
		FILE *f = infile_open(input, 0, "pahole output", err, sizeof(err));

		if (!f)
			return layout_usage_error("import: %s", err);
		text = layout_read_stream(f, input, err, sizeof(err));
		fclose(f);
		if (!text)
			return layout_usage_error("import: %s", err);
		snprintf(source, sizeof(source), "%s", input);
	}
	po.structs = structs;
	layout = pahole_to_layout(text, source, &po, err, sizeof(err));
	free(text);
	if (!layout)
		return layout_usage_error("import: %s", err);
	rc = layout_write_out(out, layout);
	free(layout);
	return rc;
}
