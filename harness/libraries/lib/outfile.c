// SPDX-License-Identifier: MIT
#include "outfile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outpath.h"
#include "stop.h"
#include "util.h"

/*
 * A sink is a file descriptor behind a stdio stream (fopencookie) that remembers the
 * errno of the first failed write(2): stdio alone keeps only an error flag, and by the
 * time the stream is checked errno has long been overwritten.
 */
struct sink {
	int fd;
	int err;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	struct sink *s = cookie;
	size_t done = 0;

	while (done < n && !s->err) {
		ssize_t w = write(s->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			s->err = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
	return (ssize_t)done; /* short: stdio sets the stream's error flag */
}

static int sink_close(void *cookie)
{
	struct sink *s = cookie;
	int ret = s->fd > STDERR_FILENO ? close(s->fd) : 0;

	if (ret && !s->err)
		s->err = errno;
	return ret;
}

static FILE *sink_open(struct sink *s, int fd)
{
	static const cookie_io_functions_t io = {.write = sink_write, .close = sink_close};

	*s = (struct sink){.fd = fd};
	return fopencookie(s, "w", io);
}

/* The temp files being written, for outfile_cleanup() from a signal handler. */
#define MAX_OPEN 16
static char *volatile open_tmp[MAX_OPEN];

void outfile_track(char *tmp, int add)
{
	die_refused_cleanup(outfile_cleanup);
	for (int i = 0; i < MAX_OPEN; i++) {
		if (add ? !open_tmp[i] : open_tmp[i] == tmp) {
			open_tmp[i] = add ? tmp : NULL;
			return;
		}
	}
}

void outfile_cleanup(void)
{
	/* Files first, then the (now empty) temp directories among them. */
	for (int i = 0; i < MAX_OPEN; i++)
		if (open_tmp[i])
			unlink(open_tmp[i]);
	for (int i = MAX_OPEN - 1; i >= 0; i--) /* the newest first: a run dir, then results/ */
		if (open_tmp[i])
			rmdir(open_tmp[i]);
}

int outfile_mkstemp(char *tmp)
{
	sigset_t sigs, old;
	int fd, e;

	stop_sigset(&sigs);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	fd = mkstemp(tmp);
	e = errno;
	if (fd >= 0)
		outfile_track(tmp, 1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

int outfile_tempdir(const char *prefix, char **dir)
{
	const char *t = getenv("TMPDIR");
	sigset_t sigs, old;
	int ret = 0, e;

	*dir = xasprintf("%s/%s.XXXXXX", t && *t ? t : "/tmp", prefix);
	stop_sigset(&sigs);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	if (mkdtemp(*dir))
		outfile_track(*dir, 1);
	else
		ret = -1;
	e = errno;
	if (ret) /* mkdtemp may have filled in the X's: the message names the template */
		memcpy(*dir + strlen(*dir) - 6, "XXXXXX", 6);
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return ret;
}

void outfile_tempdir_remove(char *dir)
{
	outfile_track(dir, 0);
	rmdir(dir);
}

mode_t outfile_mode(void)
{
	mode_t m = umask(022);

	umask(m);
	return 0666 & ~m;
}

/* fail - "PATH: why" into @err, or (@err NULL) "pcbench: PATH: why" on stderr. */
static int fail(const char *path, int e, char *err, size_t errlen)
{
	if (err)
		set_err(err, errlen, "%s: %s", path, strerror(e ? e : EIO));
	else
		warn_msg("%s: %s", path, strerror(e ? e : EIO)); /* escaped there */
	return -1;
}

int outfile_open(struct outfile *o, const char *path)
{
	return outfile_open_err(o, path, NULL, 0);
}

/*
 * open_common - the temp file for @path. @follow 0: @path is a file inside a directory
 * (a symlink or special file there is refused); 1: a path the user named (a symlink to a
 * regular file is followed: the temp file is made next to its target, renamed onto it).
 */
static int open_common(struct outfile *o, const char *path, int follow, char *err, size_t errlen)
{
	char why[PATH_MAX + 128];
	char *target;
	int fd, e;

	*o = (struct outfile){.err = err, .errlen = errlen};
	if (!strcmp(path, "-")) {
		o->path = xstrdup(path);
		o->f = stdout;
		return 0;
	}
	target = outpath_target(path, follow, why, sizeof(why));
	if (!target) {
		if (err)
			set_err(err, errlen, "%s", why);
		else
			warn_msg("%s", why);
		return -1;
	}
	o->tmp = xasprintf("%s.XXXXXX", target);
	o->sink = xcalloc(1, sizeof(*o->sink));
	fd = outfile_mkstemp(o->tmp);
	if (fd >= 0 && (o->f = sink_open(o->sink, fd))) {
		fchmod(fd, outfile_mode());
		o->path = target;
		o->follow = follow;
		return 0;
	}
	e = errno;
	if (fd >= 0) {
		close(fd);
		unlink(o->tmp);
		outfile_track(o->tmp, 0);
	}
	free(o->tmp);
	free(o->sink);
	free(target);
	*o = (struct outfile){.err = err, .errlen = errlen};
	/* mkstemp's error is about the directory: name the target the user gave. */
	return fail(path, e, o->err, o->errlen);
}

int outfile_open_err(struct outfile *o, const char *path, char *err, size_t errlen)
{
	return open_common(o, path, 0, err, errlen);
}

int outfile_open_named(struct outfile *o, const char *path, char *err, size_t errlen)
{
	return open_common(o, path, 1, err, errlen);
}

static void release(struct outfile *o)
{
	if (o->tmp)
		outfile_track(o->tmp, 0);
	free(o->tmp);
	free(o->path);
	free(o->sink);
	*o = (struct outfile){0};
}

void outfile_abort(struct outfile *o)
{
	if (!o->f)
		return;
	if (o->tmp) {
		fclose(o->f);
		unlink(o->tmp);
	}
	release(o);
}

int outfile_close(struct outfile *o)
{
	int e = 0, fd;

	if (!o->f)
		return -1;
	if (!o->tmp) { /* stdout: checked (and named) at exit by outfile_check_stdout */
		release(o);
		return 0;
	}
	fd = o->sink->fd;
	if (fflush(o->f) || ferror(o->f) || o->sink->err)
		e = o->sink->err ? o->sink->err : EIO;
	if (!e && fsync(fd))
		e = errno;
	if (fclose(o->f) && !e)
		e = o->sink->err ? o->sink->err : EIO;
	if (!e && !o->follow) { /* what was planted meanwhile is refused, not replaced */
		char why[PATH_MAX + 128];
		char *t = outpath_target(o->path, 0, why, sizeof(why));

		if (!t) {
			unlink(o->tmp);
			if (o->err)
				set_err(o->err, o->errlen, "%s", why);
			else
				warn_msg("%s", why);
			release(o);
			return -1;
		}
		free(t);
	}
	if (!e && rename(o->tmp, o->path))
		e = errno;
	if (e) {
		unlink(o->tmp);
		fail(o->path, e, o->err, o->errlen);
	}
	release(o);
	return e ? -1 : 0;
}

int outfile_write_all(const char *path, const void *buf, size_t len)
{
	return outfile_write_all_err(path, buf, len, NULL, 0);
}

int outfile_write_all_err(const char *path, const void *buf, size_t len, char *err, size_t errlen)
{
	struct outfile o;

	if (outfile_open_err(&o, path, err, errlen))
		return -1;
	fwrite(buf, 1, len, o.f);
	return outfile_close(&o);
}

int outfile_write_named(const char *path, const void *buf, size_t len)
{
	struct outfile o;

	if (outfile_open_named(&o, path, NULL, 0))
		return -1;
	fwrite(buf, 1, len, o.f);
	return outfile_close(&o);
}

const char *outfile_name_fd(int fd, const char *fallback, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	if (n <= 0 || buf[0] != '/')
		return fallback; /* a pipe or socket: "pipe:[123]" names nothing useful */
	buf[n] = '\0';
	return buf;
}

static struct sink stdout_sink;
static FILE *stdio_stdout; /* C++ streams and early writers still hold this one */

void outfile_stdout_init(void)
{
	FILE *f;

	if (stdio_stdout)
		return;
	f = sink_open(&stdout_sink, STDOUT_FILENO);
	if (!f)
		return; /* out of memory at start: keep plain stdio */
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	stdio_stdout = stdout;
	stdout = f;
}

int outfile_stdout_error(void)
{
	return stdout_sink.err ? stdout_sink.err : ferror(stdout) ? EIO : 0;
}

void outfile_check_stdout(void)
{
	char buf[PATH_MAX];
	const char *name = outfile_name_fd(STDOUT_FILENO, "stdout", buf, sizeof(buf));
	int e = 0;

	errno = 0;
	if (stdio_stdout && (fflush(stdio_stdout) || ferror(stdio_stdout)))
		e = errno ? errno : EIO;
	if (fflush(stdout) || ferror(stdout) || stdout_sink.err)
		e = stdout_sink.err ? stdout_sink.err : errno ? errno : EIO;
	if (!e && fclose(stdout) && errno != EBADF)
		e = stdout_sink.err ? stdout_sink.err : errno ? errno : EIO;
	if (!e)
		return;
	if (e == EPIPE) { /* the reader went away: end as `ls | head` does, no message */
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		_exit(1);
	}
	warn_msg("%s: %s", name, strerror(e));
	_exit(1);
}

int outfile_fclose_sync(FILE *f)
{
	int e = 0;

	errno = 0;
	if (fflush(f) || (fsync(fileno(f)) && errno != EINVAL && errno != EROFS))
		e = errno ? errno : EIO;
	if (fclose(f) && !e)
		e = errno ? errno : EIO;
	return e;
}
