/* SPDX-License-Identifier: MIT */
/*
 * context.h - run metadata written next to results.csv as context.json: host, CPU model,
 * kernel, compiler and flags, library versions, git revision, command line, times.
 */
#ifndef PCBENCH_CONTEXT_H
#define PCBENCH_CONTEXT_H

#include <stddef.h>
#include <stdio.h>

struct run_context {
	char run_id[128];
	char host[128];
	char label[128]; /* --label: the lab's name for this host, or empty */
	char cpu_model[128];
	char kernel[256];
	char start[32]; /* UTC, ISO 8601 */
	char end[32];	/* empty while running */
	int interrupted;
	int argc;
	char **argv;
	const char *options_json;   /* optional extra object: resolved options, or NULL */
	struct json_t *machine;	    /* the "machine" object (machine.h), or NULL */
	struct json_t *real_kernel; /* a real-kernel run's "real_kernel" (kcontext.h), or NULL */
};

/* context_init - fill host, CPU model, kernel and start time; keep argc/argv. */
void context_init(struct run_context *c, int argc, char **argv);

/*
 * context_write - write @c as JSON to @path through lib/outfile (temp file, checked, synced,
 * renamed). Returns 0, or -1 with "path: why" in @err.
 */
int context_write(const struct run_context *c, const char *path, char *err, size_t errlen);

/* context_print_version - pcbench's version, git revision, build and library versions. */
void context_print_version(FILE *out);

#endif
