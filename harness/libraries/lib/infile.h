/* SPDX-License-Identifier: MIT */
/*
 * infile.h - the one way pcbench opens a file a user named, for reading: a CSV, a layout,
 * a recipe, a topology XML, pahole output, perf script output, a run's JSON files. Only a regular
 * file of a bounded size is read: a FIFO or a device (/dev/urandom) would never end, so it is
 * refused with "PATH: not a regular file" before a byte is read (the open is O_NONBLOCK, so that a
 * FIFO without a writer does not block it). "-" is not special here: callers that take
 * stdin test for it first.
 */
#ifndef PCBENCH_INFILE_H
#define PCBENCH_INFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * infile_open - @path for reading, if it is a regular file of at most @max bytes (0: any
 * size). NULL with "PATH: why" in @err, errno kept (ENOENT: no such file). @what names the
 * kind of file in the size message ("a CSV").
 */
FILE *infile_open(const char *path, long long max, const char *what, char *err, size_t errlen);

/*
 * infile_read - all of @path (as infile_open) in a new '\0'-terminated buffer, its length
 * in *@len. With @len NULL the file must be text: a NUL byte in it is refused ("PATH:
 * contains a NUL byte, not WHAT"). NULL with "PATH: why" in @err, errno kept.
 */
char *infile_read(const char *path, long long max, const char *what, size_t *len, char *err,
		  size_t errlen);

/* The largest JSON file infile_json reads (context.json, objects.json). */
#define INFILE_JSON_MAX (1LL << 30)

struct json_t;
/*
 * infile_json - infile_read and parse the JSON document in @path. NULL with "PATH: why"
 * (for a parse error "PATH:LINE: what") in @err, errno kept (EINVAL: not valid JSON).
 */
struct json_t *infile_json(const char *path, char *err, size_t errlen);

#endif
