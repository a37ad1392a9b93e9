// SPDX-License-Identifier: MIT
/*
 * layout_load.c - layout_load (a built-in name, a layout file, or btf:) and the names of the
 * built-in layouts. Apart from the lookups (layout.c), which the BTF and pahole converters
 * use in turn.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "infile.h"
#include "layout.h"
#include "util.h"

#define LAYOUT_FILE_MAX (1LL << 20)

/* Append @s to the string in @buf, truncating; @sep goes first unless @buf is empty. */
static void append(char *buf, size_t len, const char *sep, const char *s)
{
	size_t n = strlen(buf);

	if (n + 1 < len)
		snprintf(buf + n, len - n, "%s%s", n ? sep : "", s);
}

struct layout *layout_load(const char *name_or_path, char *err, size_t errlen)
{
	char names[256] = "", bad[512] = "", perr[256], source[256];
	struct layout *l;
	char *text;

	if (err && errlen)
		err[0] = '\0';
	if (!name_or_path || !*name_or_path) {
		set_err(err, errlen, "no layout name or file given");
		return NULL;
	}
	/* "btf:[PATH]": the structs of the built-in layouts, from BTF (the running kernel's). */
	if (!strncmp(name_or_path, "btf:", 4))
		return btf_layout_load(name_or_path + 4, err, errlen);
	for (int i = 0; layout_builtin[i].file; i++) {
		snprintf(source, sizeof(source), "builtin:%s", layout_builtin[i].file);
		l = layout_parse(layout_builtin[i].text, source, perr, sizeof(perr));
		if (!l) {
			/* A build problem: say so rather than hide it behind "no such layout". */
			append(bad, sizeof(bad), "; ", perr);
			continue;
		}
		if (!strcmp(l->name, name_or_path))
			return l;
		append(names, sizeof(names), ", ", l->name);
		layout_free(l);
	}

	text = infile_read(name_or_path, LAYOUT_FILE_MAX, "a layout file", NULL, err, errlen);
	if (!text) {
		if (errno == ENOENT || errno == ENOTDIR)
			set_err(err, errlen,
				"%s: no built-in layout of that name and no such file (built-ins: "
				"%s)%s%s",
				name_or_path, names[0] ? names : "none",
				bad[0] ? "; invalid: " : "", bad);
		return NULL;
	}
	l = layout_parse(text, name_or_path, err, errlen);
	free(text);
	return l;
}

static struct layout **builtin_cache;
static int builtin_count = -1;

static void builtin_cache_init(void)
{
	char source[256];
	int n = 0;

	if (builtin_count >= 0)
		return;
	while (layout_builtin[n].file)
		n++;
	builtin_cache = calloc((size_t)n + 1, sizeof(*builtin_cache));
	if (!builtin_cache) {
		builtin_count = 0;
		return;
	}
	for (int i = 0; i < n; i++) {
		snprintf(source, sizeof(source), "builtin:%s", layout_builtin[i].file);
		builtin_cache[i] = layout_parse(layout_builtin[i].text, source, NULL, 0);
	}
	builtin_count = n;
}

int layout_builtin_names(const char *sname, const char **names, int max)
{
	int n = 0;

	builtin_cache_init();
	for (int i = 0; i < builtin_count && n < max && names; i++) {
		const struct layout *l = builtin_cache[i];

		if (l && (!sname || layout_find_struct(l, sname)))
			names[n++] = l->name;
	}
	return n;
}
