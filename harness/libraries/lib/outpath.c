// SPDX-License-Identifier: MIT
#include "outpath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* kind - what a non-regular file is, for the message. */
static const char *kind(mode_t m)
{
	return S_ISDIR(m)    ? "not a regular file (a directory)"
	       : S_ISLNK(m)  ? "not a regular file (a symbolic link: pcbench does not follow one "
			       "inside an output directory)"
	       : S_ISFIFO(m) ? "not a regular file (a FIFO)"
	       : S_ISCHR(m)  ? "not a regular file (a character device)"
	       : S_ISBLK(m)  ? "not a regular file (a block device)"
	       : S_ISSOCK(m) ? "not a regular file (a socket)"
			     : "not a regular file";
}

/* dir_writable - the directory part of @path exists and can take a new file. */
static int dir_writable(const char *path, char *err, size_t errlen)
{
	char *d = xstrdup(path), *slash = strrchr(d, '/');
	const char *dir = !slash ? "." : slash == d ? "/" : d;
	struct stat st;
	int ret = 0;

	if (slash && slash != d)
		*slash = '\0';
	if (stat(dir, &st)) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		ret = -1;
	} else if (!S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "%s: %s", path, strerror(ENOTDIR));
		ret = -1;
	} else if (access(dir, W_OK | X_OK)) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		ret = -1;
	}
	free(d);
	return ret;
}

int outpath_check_file(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (!path[0]) {
		set_err(err, errlen, "%s", strerror(ENOENT)); /* "--csv: : No such file" */
		return -1;
	}
	if (!stat(path, &st)) {
		if (S_ISREG(st.st_mode))
			return access(path, W_OK)
			       ? set_err(err, errlen, "%s: %s", path, strerror(errno)),
			       -1 : 0;
		set_err(err, errlen, "%s: %s", path, kind(st.st_mode));
		return -1;
	}
	if (errno != ENOENT) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!lstat(path, &st)) { /* a symlink to nothing: where it points is not checked */
		set_err(err, errlen, "%s: a symbolic link to a missing file", path);
		return -1;
	}
	return dir_writable(path, err, errlen);
}

int outpath_check_inside(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT || errno == ENOTDIR) /* made later, with its directory */
			return 0;
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return 0;
	set_err(err, errlen, "%s: %s", path, kind(st.st_mode));
	return -1;
}

int outpath_check_dir(const char *dir, const char *const *names, char *err, size_t errlen)
{
	struct stat st;
	size_t n = strlen(dir);
	int missing = 0;
	char *buf;

	if (!n) {
		set_err(err, errlen, "%s", strerror(ENOENT)); /* "--csv: : No such file" */
		return -1;
	}
	if (n > OUTPATH_DIR_MAX) {
		set_err(err, errlen, "%.64s...: %s (%zu bytes, at most %d)", dir,
			strerror(ENAMETOOLONG), n, OUTPATH_DIR_MAX);
		return -1;
	}
	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			set_err(err, errlen, "%s: %s", dir, strerror(ENOTDIR));
			return -1;
		}
		for (int i = 0; names && names[i]; i++) {
			char *p = xasprintf("%s/%s", dir, names[i]);
			int bad = outpath_check_inside(p, err, errlen);

			free(p);
			if (bad)
				return -1;
		}
		return 0;
	}
	if (errno != ENOENT) {
		set_err(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	/*
	 * Missing: walk it as mkdir_p will create it. What exists on the way must be a
	 * directory; the first missing one needs a writable parent; after it, a "." or ".."
	 * would name a directory that does not exist yet (newp/../file/x).
	 */
	buf = xstrdup(dir);
	for (char *p = buf + 1, *prev = buf;; p++) {
		char c = *p;
		const char *comp = prev[0] == '/' ? prev + 1 : prev;

		if (c && c != '/')
			continue;
		*p = '\0';
		if (missing && (!strcmp(comp, ".") || !strcmp(comp, ".."))) {
			set_err(err, errlen, "%s: \"%s\" after a directory that does not exist yet",
				dir, comp);
			free(buf);
			return -1;
		}
		if (!missing && stat(buf, &st)) {
			char *slash = strrchr(buf, '/');
			const char *parent = !slash ? "." : slash == buf ? "/" : NULL;
			int e;

			if (errno != ENOENT) {
				set_err(err, errlen, "%s: cannot create %s: %s", dir, buf,
					strerror(errno));
				free(buf);
				return -1;
			}
			if (slash && !parent)
				*slash = '\0';
			e = access(parent ? parent : buf, W_OK | X_OK) ? errno : 0;
			if (slash && !parent)
				*slash = '/';
			if (e) {
				set_err(err, errlen, "%s: cannot create %s: %s", dir, buf,
					strerror(e));
				free(buf);
				return -1;
			}
			missing = 1;
		} else if (!missing && !S_ISDIR(st.st_mode)) {
			set_err(err, errlen, "%s: %s: %s", dir, buf, strerror(ENOTDIR));
			free(buf);
			return -1;
		}
		*p = c;
		prev = p;
		if (!c)
			break;
	}
	free(buf);
	return 0;
}

/* open_out - open for writing without blocking on a FIFO, then check what was opened. */
static int open_out(const char *path, int flags, char *err, size_t errlen)
{
	struct stat st;
	int fd =
	    open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (flags & ~O_TRUNC),
		 0666);

	if (fd < 0) {
		int e = errno;

		/* ELOOP from O_NOFOLLOW (a symlink), ENXIO (a FIFO without a reader). */
		if ((e == ELOOP || e == ENXIO || e == EMLINK) && !lstat(path, &st))
			set_err(err, errlen, "%s: %s", path, kind(st.st_mode));
		else
			set_err(err, errlen, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		set_err(err, errlen, "%s: %s", path, kind(st.st_mode));
		close(fd);
		errno = EINVAL;
		return -1;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if ((flags & O_TRUNC) && ftruncate(fd, 0)) { /* after the check: a device never */
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int outpath_open_inside(const char *path, int flags, char *err, size_t errlen)
{
	return open_out(path, flags | O_NOFOLLOW, err, errlen);
}

int outpath_open_named(const char *path, int flags, char *err, size_t errlen)
{
	return open_out(path, flags, err, errlen);
}

char *outpath_target(const char *path, int follow, char *err, size_t errlen)
{
	struct stat st;
	char *real;

	if (!path[0]) {
		set_err(err, errlen, "%s", strerror(ENOENT)); /* "--csv: : No such file" */
		return NULL;
	}
	if (lstat(path, &st))
		return xstrdup(path); /* missing: created by the rename */
	if (S_ISREG(st.st_mode))
		return xstrdup(path);
	if (!S_ISLNK(st.st_mode) || !follow) {
		set_err(err, errlen, "%s: %s", path, kind(st.st_mode));
		return NULL;
	}
	if (stat(path, &st)) {
		set_err(err, errlen, "%s: a symbolic link to a missing file", path);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		set_err(err, errlen, "%s: %s", path, kind(st.st_mode));
		return NULL;
	}
	real = realpath(path, NULL);
	if (!real) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	return real;
}

char *outpath_resolve(const char *path)
{
	char *real = realpath(path, NULL), *dir, *slash, *dreal;
	const char *base;

	if (real)
		return real;
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	base = slash ? path + (slash - dir) + 1 : path;
	if (slash)
		*slash = '\0';
	dreal = realpath(!slash ? "." : dir[0] ? dir : "/", NULL);
	free(dir);
	if (!dreal)
		return NULL;
	real = xasprintf("%s/%s", strcmp(dreal, "/") ? dreal : "", base);
	free(dreal);
	return real;
}

int outpath_name_check(const char *name, char *err, size_t errlen)
{
	static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				 "0123456789._+-:,=@";
	size_t n = strlen(name);

	if (!n)
		set_err(err, errlen, "empty, not a file name");
	else if (n > 200)
		set_err(err, errlen, "%zu bytes, a file name takes at most 200", n);
	else if (strspn(name, ok) != n)
		set_err(err, errlen, "byte %zu is not one of letters, digits and \"%s\"",
			strspn(name, ok) + 1, "._+-:,=@");
	else if (name[0] == '.')
		set_err(err, errlen, "starts with '.', not a plain file name");
	else
		return 0;
	return -1;
}

char *outpath_trim(char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
	return path;
}

void mkdir_p(const char *path, const char *what)
{
	char *buf = xstrdup(path);

	if (strlen(path) > OUTPATH_DIR_MAX)
		usage_error(what, path, "%s", strerror(ENAMETOOLONG));
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			usage_error(what, path, "cannot create %s: %s", buf, strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		usage_error(what, path, "%s", strerror(errno));
	free(buf);
}
