// SPDX-License-Identifier: MIT
/* context.c - run metadata (context.json): where, when, how and with what a run was made. */
#include "context.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <hwloc.h>
#include <jansson.h>
#include <perfmon/pfmlib.h>

#include "armcpu.h"
#include "outfile.h"
#include "util.h"

/* Build facts, passed by CMake as string literals. */
#ifndef PCBENCH_GIT_REV
#define PCBENCH_GIT_REV "unknown"
#endif
#ifndef PCBENCH_C_COMPILER
#define PCBENCH_C_COMPILER "unknown"
#endif
#ifndef PCBENCH_C_FLAGS
#define PCBENCH_C_FLAGS "unknown"
#endif
#ifndef PCBENCH_BUILD_TYPE
#define PCBENCH_BUILD_TYPE "unknown"
#endif
#ifndef PCBENCH_VERSION
#define PCBENCH_VERSION "unknown"
#endif
#ifndef PCBENCH_GB_VERSION
#define PCBENCH_GB_VERSION "unknown"
#endif
#ifndef PCBENCH_PFM_VERSION
#define PCBENCH_PFM_VERSION "unknown"
#endif

static void cpu_model(char *buf, size_t len)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(buf, len, "unknown");
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *v;
		size_t n;

		if (strncmp(line, "model name", 10) || !(v = strchr(line, ':')))
			continue;
		v += strspn(v + 1, " \t") + 1;
		n = strcspn(v, "\r\n");
		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			n--;
		if (n)
			snprintf(buf, len, "%.*s", (int)n, v);
		break;
	}
	free(line);
	fclose(f);
	if (!strcmp(buf, "unknown")) /* arm64 has no model name: its MIDR's names */
		arm_cpu_name(buf, len);
}

void context_init(struct run_context *c, int argc, char **argv)
{
	struct utsname u;
	struct tm tm;
	time_t t;

	memset(c, 0, sizeof(*c));
	/* "(none)": the kernel's name before anything set one (a bare guest, an initramfs) */
	if (gethostname(c->host, sizeof(c->host)) || !c->host[0] || !strcmp(c->host, "(none)"))
		snprintf(c->host, sizeof(c->host), "unknown");
	c->host[sizeof(c->host) - 1] = '\0';
	cpu_model(c->cpu_model, sizeof(c->cpu_model));
	if (uname(&u))
		snprintf(c->kernel, sizeof(c->kernel), "unknown");
	else
		snprintf(c->kernel, sizeof(c->kernel), "%s %s %s", u.sysname, u.release, u.version);
	t = time(NULL);
	if (!gmtime_r(&t, &tm) || !strftime(c->start, sizeof(c->start), "%Y-%m-%dT%H:%M:%SZ", &tm))
		c->start[0] = '\0';
	c->argc = argc;
	c->argv = argv;
}

/* A JSON string for @s; bytes that are not valid UTF-8 become '?' rather than failing. */
static json_t *jstr(const char *s)
{
	json_t *v;
	char *copy;

	if (!s)
		return json_null();
	v = json_string(s);
	if (v)
		return v;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (unsigned char *p = (unsigned char *)copy; *p; p++)
		if (*p >= 0x80)
			*p = '?';
	v = json_string(copy);
	free(copy);
	return v;
}

static json_t *libraries(void)
{
	unsigned rt = hwloc_get_api_version(), ct = HWLOC_API_VERSION;
	int pfm = pfm_get_version();
	char hrt[32], hct[32], papi[32];

	snprintf(hrt, sizeof(hrt), "%u.%u.%u", rt >> 16, (rt >> 8) & 0xff, rt & 0xff);
	snprintf(hct, sizeof(hct), "%u.%u.%u", ct >> 16, (ct >> 8) & 0xff, ct & 0xff);
	if (pfm < 0)
		snprintf(papi, sizeof(papi), "unknown");
	else
		snprintf(papi, sizeof(papi), "%d.%d", pfm >> 16, pfm & 0xffff);
	return json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:s}, s:s}", "google_benchmark",
			 PCBENCH_GB_VERSION, "hwloc", "api_version", hrt, "compiled_api_version",
			 hct, "libpfm4", "package_version", PCBENCH_PFM_VERSION, "api_version",
			 papi, "jansson", JANSSON_VERSION);
}

void context_print_version(FILE *out)
{
	json_t *libs = libraries();
	const char *k, *k2;
	json_t *v, *v2;

	fprintf(out, "pcbench %s\ngit revision %s\nbuilt %s, %s, %s\nlibraries:\n", PCBENCH_VERSION,
		PCBENCH_GIT_REV, PCBENCH_BUILD_TYPE, PCBENCH_C_COMPILER, PCBENCH_C_FLAGS);
	json_object_foreach(libs, k, v)
	{
		if (json_is_string(v)) {
			fprintf(out, "  %s %s\n", k, json_string_value(v));
			continue;
		}
		fprintf(out, "  %s", k);
		json_object_foreach(v, k2, v2) fprintf(out, " %s %s", k2, json_string_value(v2));
		fputc('\n', out);
	}
	json_decref(libs);
}

static json_t *build(const struct run_context *c, const char *path, char *err, size_t errlen)
{
	json_t *o, *cmd, *opts;
	int bad = 0;

	o = json_object();
	cmd = json_array();
	if (!o || !cmd)
		goto oom;
	for (int i = 0; c->argv && i < c->argc; i++)
		bad |= json_array_append_new(cmd, jstr(c->argv[i]));
	bad |= json_object_set_new(o, "run_id", jstr(c->run_id));
	bad |= json_object_set_new(o, "host", jstr(c->host));
	bad |= json_object_set_new(o, "label", c->label[0] ? jstr(c->label) : json_null());
	bad |= json_object_set_new(o, "cpu_model", jstr(c->cpu_model));
	bad |= json_object_set_new(o, "kernel", jstr(c->kernel));
	bad |= json_object_set_new(o, "start_time", jstr(c->start));
	bad |= json_object_set_new(o, "end_time", c->end[0] ? jstr(c->end) : json_null());
	bad |= json_object_set_new(o, "interrupted", json_boolean(c->interrupted));
	bad |= json_object_set_new(o, "command_line", cmd);
	cmd = NULL;
	bad |= json_object_set_new(o, "git_revision", jstr(PCBENCH_GIT_REV));
	bad |= json_object_set_new(o, "compiler", jstr(PCBENCH_C_COMPILER));
	bad |= json_object_set_new(o, "compiler_flags", jstr(PCBENCH_C_FLAGS));
	bad |= json_object_set_new(o, "build_type", jstr(PCBENCH_BUILD_TYPE));
	bad |= json_object_set_new(o, "libraries", libraries());
	if (bad)
		goto oom;
	if (c->options_json) {
		json_error_t je;

		opts = json_loads(c->options_json, 0, &je);
		if (!opts) {
			set_err(err, errlen, "%s: options are not valid JSON: %s (column %d)", path,
				je.text, je.column);
			json_decref(o);
			return NULL;
		}
		if (json_object_set_new(o, "options", opts))
			goto oom;
	}
	if (c->machine && json_object_set(o, "machine", c->machine))
		goto oom;
	if (c->real_kernel && json_object_set(o, "real_kernel", c->real_kernel))
		goto oom;
	return o;
oom:
	set_err(err, errlen, "%s: %s", path, strerror(ENOMEM));
	json_decref(cmd);
	json_decref(o);
	return NULL;
}

int context_write(const struct run_context *c, const char *path, char *err, size_t errlen)
{
	char *text, *line;
	json_t *o;
	int ret;

	o = build(c, path, err, errlen);
	if (!o)
		return -1;
	text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!text) {
		set_err(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -1;
	}
	/* The one checked output path: the whole file or the previous one, never a cut one. */
	line = xasprintf("%s\n", text);
	free(text);
	ret = outfile_write_all_err(path, line, strlen(line), err, errlen);
	free(line);
	return ret;
}
