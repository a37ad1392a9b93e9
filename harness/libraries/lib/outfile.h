/* SPDX-License-Identifier: MIT */
/*
 * outfile.h - the one checked output path of the harness (docs/measuring.md, "Failed
 * writes"). A whole file is written into a temp file next to its target ("PATH.XXXXXX"),
 * then flushed, checked (ferror), fsync'ed, closed (checked) and renamed onto PATH: the
 * target is either the old file or the complete new one, never a cut one. Every failure
 * prints "pcbench: PATH: strerror" to stderr, removes the temp file and returns -1, so
 * that the command exits 1. "-" means stdout (checked the same way, at exit).
 *
 * stdout itself is checked once, at exit: outfile_check_stdout() (registered by main)
 * flushes and closes it and turns a failed or short write into exit 1, naming the file
 * stdout was redirected to. EPIPE (a reader that went away, `pcbench ... | head`) ends
 * quietly, as in coreutils.
 */
#ifndef PCBENCH_OUTFILE_H
#define PCBENCH_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

struct outfile {
	FILE *f;	   /* write here */
	char *path;	   /* the target, as given */
	char *tmp;	   /* the temp file renamed onto @path; NULL for stdout */
	struct sink *sink; /* its descriptor and first write error */
	int follow;	   /* outfile_open_named: @path is where a named symlink led */
	char *err;	   /* outfile_open_err: the reason goes here, not to stderr */
	size_t errlen;
};

/*
 * outfile_open - start writing @path ("-": stdout), a file pcbench creates inside a
 * directory: an existing symlink, FIFO or device there is refused (outpath.h), never
 * followed or replaced. 0, or -1 after the message.
 */
int outfile_open(struct outfile *o, const char *path);
/* outfile_open_err - outfile_open, with "PATH: why" in @err instead of on stderr. */
int outfile_open_err(struct outfile *o, const char *path, char *err, size_t errlen);
/*
 * outfile_open_named - outfile_open_err for a path the user named (--run-dir-file, layout
 * import -o): a symlink to a regular file is followed, as a shell's `>` would.
 */
int outfile_open_named(struct outfile *o, const char *path, char *err, size_t errlen);
/* outfile_close - check, sync, close and rename into place. 0, or -1 after the message. */
int outfile_close(struct outfile *o);
/* outfile_abort - drop the temp file (the target is left as it was); no message. */
void outfile_abort(struct outfile *o);

/*
 * outfile_track - (@add 1) remove @path in outfile_cleanup, or (0) no longer. @path is
 * kept, not copied. For files that must not outlive an interrupted command: the temp
 * files here, a CSV that has only its header, plot's temp directory (removed after the
 * files, when empty).
 */
void outfile_track(char *path, int add);
/*
 * outfile_tempdir - make a new directory "$TMPDIR/@prefix.XXXXXX" (TMPDIR unset or empty:
 * /tmp) and track it, SIGINT, SIGTERM and SIGHUP held meanwhile (one just after mkdtemp
 * would leave it behind): a refusal (usage_error), die or signal removes it, after the
 * files in it that are tracked. *@dir gets the path (malloc'd; the caller frees it), on
 * failure the template, to name in the message. 0, or -1 with errno set.
 */
int outfile_tempdir(const char *prefix, char **dir);
/*
 * outfile_mkstemp - mkstemp(@tmp) and track it, with INT, TERM and HUP blocked in between: a
 * signal that ends the command never finds the new file unregistered (it would be left).
 * Returns the descriptor, or -1 with errno (nothing tracked).
 */
int outfile_mkstemp(char *tmp);
/* outfile_tempdir_remove - no longer track @dir and remove it (empty by now). */
void outfile_tempdir_remove(char *dir);
/*
 * outfile_cleanup - remove every temp file still open; async-signal-safe, for a signal
 * handler that ends the process.
 */
void outfile_cleanup(void);

/*
 * outfile_fclose_sync - for a file written in place (results.csv, results.jsonl): flush
 * @f, fsync it (EINVAL or EROFS, a file system that cannot, is no error) and fclose it.
 * 0, or the errno of the first failure.
 */
int outfile_fclose_sync(FILE *f);

/*
 * outfile_mode - the mode of every file pcbench writes: 0666 less the umask (a temp file of
 * mkstemp, 0600, gets it before it is renamed into place).
 */
mode_t outfile_mode(void);

/* outfile_write_all - write @len bytes of @buf to @path through the steps above. */
int outfile_write_all(const char *path, const void *buf, size_t len);
/* outfile_write_named - outfile_write_all through outfile_open_named. */
int outfile_write_named(const char *path, const void *buf, size_t len);

/*
 * outfile_stdout_init - make stdout a checked stream (first thing in main): it keeps the
 * errno of a failed write for the message at exit.
 */
void outfile_stdout_init(void);
/* outfile_stdout_error - the errno of the first failed write to stdout, or 0. */
int outfile_stdout_error(void);
/* outfile_write_all_err - outfile_write_all, with "PATH: why" in @err. */
int outfile_write_all_err(const char *path, const void *buf, size_t len, char *err, size_t errlen);

/* outfile_check_stdout - flush and close stdout; on failure message and _exit(1). */
void outfile_check_stdout(void);
/* outfile_name_fd - the file @fd refers to (/proc/self/fd), or @fallback. */
const char *outfile_name_fd(int fd, const char *fallback, char *buf, size_t len);

#endif
