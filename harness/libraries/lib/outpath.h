/* SPDX-License-Identifier: MIT */
/*
 * outpath.h - the rules for every path pcbench writes (docs/measuring.md, "Output paths"):
 *
 *  - A path the user names (--csv FILE, --run-dir-file FILE, layout import -o FILE, -o DIR)
 *    is checked before anything is measured or created: "" is refused, an existing one must
 *    be a regular file (a directory for -o DIR); a symlink to one is followed, as a shell's
 *    `>` would; a FIFO, a device, a socket (or a link to one) is refused.
 *  - A file pcbench creates inside a directory (results.csv, context.json, a PNG, ...) is
 *    never followed: it is opened with O_NOFOLLOW, or written to a new temp file and
 *    renamed onto its name (which replaces a name, never writes through it), and an existing
 *    symlink, FIFO or device of that name is refused.
 *  - A name taken from data (a run_id, a label, a scenario) that becomes part of a path is
 *    one plain component: outpath_name_check.
 */
#ifndef PCBENCH_OUTPATH_H
#define PCBENCH_OUTPATH_H

#include <stddef.h>

/* The longest output directory: room below PATH_MAX for the longest name created in it. */
#define OUTPATH_DIR_MAX (PATH_MAX - 256)

/*
 * outpath_check_file - @path, an output file the user names, can be written: not "", not a
 * directory, an existing regular file (a symlink to one is followed) or a missing name in an
 * existing, writable directory. Nothing is created. 0, or -1 with the reason in @err.
 */
int outpath_check_file(const char *path, char *err, size_t errlen);

/*
 * outpath_check_dir - @dir, an output directory the user names: not "", at most
 * OUTPATH_DIR_MAX bytes, an existing directory (a symlink to one is followed) or missing
 * (its missing parents are created later), and no component on its way a non-directory.
 * Each of @names (NULL-terminated; NULL: none), the files pcbench will create in it, must
 * be missing or a regular file (a symlink is refused, it is not followed). Nothing is
 * created. 0, or -1 with the reason ("PATH: why") in @err.
 */
int outpath_check_dir(const char *dir, const char *const *names, char *err, size_t errlen);

/*
 * outpath_check_inside - @path, a file pcbench creates inside a directory, is missing or a
 * regular file (lstat: a symlink is refused). 0, or -1 with "PATH: why" in @err.
 */
int outpath_check_inside(const char *path, char *err, size_t errlen);

/*
 * outpath_open_inside - open @path (a file inside a directory) for writing, O_CREAT plus
 * @flags (O_TRUNC, O_APPEND, O_EXCL): a final symlink is not followed (ELOOP), a FIFO or a
 * device is not opened for writing (refused, errno EINVAL... "not a regular file" in
 * @err). The descriptor, or -1 with "PATH: why" in @err.
 */
int outpath_open_inside(const char *path, int flags, char *err, size_t errlen);

/*
 * outpath_open_named - open @path (an output file the user named) for writing, O_CREAT
 * plus @flags: a symlink is followed, anything but a regular file is refused. As above.
 */
int outpath_open_named(const char *path, int flags, char *err, size_t errlen);

/*
 * outpath_target - where temp+rename writes for @path: @follow 0 (a file inside a
 * directory): @path itself, when it is missing or a regular file; @follow 1 (a path the user
 * named): the file a symlink points to, when that is a regular file. A new string, or
 * NULL with "PATH: why" in @err.
 */
char *outpath_target(const char *path, int follow, char *err, size_t errlen);

/*
 * outpath_resolve - @path as an absolute name without links: its realpath when it exists
 * (a final link followed, as a write to a named path follows it), else its directory's
 * realpath and its last component. A new string, or NULL when the directory does not
 * resolve.
 */
char *outpath_resolve(const char *path);

/*
 * outpath_name_check - @name, taken from data, can be one component of a path: 1 to 200
 * bytes of letters, digits and "._+-:,=@", not starting with '.' (a leading '-' is fine:
 * such a name is only ever used after a directory, never as an argument). 0, or -1 with
 * the reason in @err.
 */
int outpath_name_check(const char *name, char *err, size_t errlen);

/*
 * mkdir_p - create @path and its missing parents; on failure exit 2 naming option @what
 * and the path.
 */
void mkdir_p(const char *path, const char *what);

/* outpath_trim - drop the trailing slashes of @path in place ("r/" is "r"; "/" stays). */
char *outpath_trim(char *path);

#endif
