// SPDX-License-Identifier: MIT
/* infile.c - user-named input files: regular and bounded, or refused (infile.h). */
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "strbuf.h"
#include "util.h"

/* "PATH: N bytes, more than the 1 MiB a layout file may have". */
static void too_large(const char *path, long long size, long long max, const char *what, char *err,
		      size_t errlen)
{
	if (max % (1LL << 20) == 0)
		set_err(err, errlen, "%s: %lld bytes, more than the %lld MiB %s may have", path,
			size, max >> 20, what);
	else
		set_err(err, errlen, "%s: %lld bytes, more than the %lld bytes %s may have", path,
			size, max, what);
}

FILE *infile_open(const char *path, long long max, const char *what, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	int fd, e;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		set_err(err, errlen, "%s: not a regular file", path);
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	if (max > 0 && st.st_size > max) {
		too_large(path, (long long)st.st_size, max, what, err, errlen);
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	/* Regular files never block: back to ordinary reads for stdio. */
	if (fcntl(fd, F_SETFL, 0) || !(f = fdopen(fd, "rb")))
		goto fail;
	return f;
fail:
	e = errno;
	set_err(err, errlen, "%s: %s", path, strerror(e));
	if (fd >= 0)
		close(fd);
	errno = e;
	return NULL;
}

char *infile_read(const char *path, long long max, const char *what, size_t *len, char *err,
		  size_t errlen)
{
	FILE *f = infile_open(path, max, what, err, errlen);
	struct sb b = {0};
	int e;

	if (!f)
		return NULL;
	for (;;) {
		size_t n;

		sb_grow(&b, 65536);
		n = fread(b.p + b.n, 1, b.cap - b.n - 1, f);
		b.n += n;
		if (max > 0 && b.n > (size_t)max) { /* it grew after the fstat */
			too_large(path, (long long)b.n, max, what, err, errlen);
			e = EFBIG;
			goto fail;
		}
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		e = errno ? errno : EIO;
		set_err(err, errlen, "%s: %s", path, strerror(e));
		goto fail;
	}
	fclose(f);
	b.p[b.n] = '\0';
	if (!len && memchr(b.p, '\0', b.n)) {
		set_err(err, errlen, "%s: contains a NUL byte, not %s", path, what);
		free(b.p);
		errno = EINVAL;
		return NULL;
	}
	if (len)
		*len = b.n;
	return b.p;
fail:
	fclose(f);
	free(b.p);
	errno = e;
	return NULL;
}

json_t *infile_json(const char *path, char *err, size_t errlen)
{
	json_error_t je;
	size_t n;
	char *text = infile_read(path, INFILE_JSON_MAX, "a JSON file", &n, err, errlen);
	json_t *j;

	if (!text)
		return NULL;
	j = json_loadb(text, n, 0, &je);
	free(text);
	if (!j) {
		set_err(err, errlen, "%s:%d: %s", path, je.line, je.text);
		errno = EINVAL;
	}
	return j;
}
