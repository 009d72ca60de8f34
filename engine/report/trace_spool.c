/*
 * trace_spool.c - a run's trace records on disk.  See trace_spool.h.
 *
 * Records go out in blocks of SPOOL_BUF (64 KiB) with write(2); the file
 * holds them as they are in memory (32 bytes, no padding), read back by
 * the same process.  A spool costs the disk 32 bytes a record, and the
 * exporters' scratch file 8 bytes a lock slice, while the export runs:
 * both are unlinked from the start, so their space is given back when
 * they are closed, however the process ends.
 */
#include "trace_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SPOOL_BUF 2048			/* records buffered: 64 KiB */

static void spool_put(struct km_trace_sink *sink, const struct km_trace_rec *r)
{
	struct km_trace_spool *sp = (struct km_trace_spool *)sink;
	if (sp->limit && sp->n >= sp->limit) {
		sp->truncated = true;
		return;
	}
	sp->n++;
	sp->last_time = r->time;
	if (sp->err)
		return;		/* said when the export reads the spool */
	sp->buf[sp->used++] = *r;
	if (sp->used == SPOOL_BUF)
		km_trace_spool_flush(sp);
}

static int write_all(int fd, const void *p, size_t len)
{
	const char *c = p;
	while (len) {
		ssize_t w = write(fd, c, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

int km_trace_spool_flush(struct km_trace_spool *sp)
{
	if (sp->err)
		return -1;
	if (sp->used && write_all(sp->fd, sp->buf, sp->used * sizeof(*sp->buf)) < 0) {
		sp->err = errno ? errno : EIO;
		sp->used = 0;
		return -1;
	}
	sp->used = 0;
	return 0;
}

ssize_t km_trace_spool_read(const struct km_trace_spool *sp, uint64_t first,
			    struct km_trace_rec *dst, size_t n)
{
	if (first >= sp->n)
		return 0;
	if (n > sp->n - first)
		n = (size_t)(sp->n - first);
	size_t got = 0, want = n * sizeof(*dst);
	char *p = (char *)dst;
	off_t at = (off_t)(first * sizeof(*dst));
	while (got < want) {
		ssize_t r = pread(sp->fd, p + got, want - got, at + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = EIO;	/* shorter than what was written */
			return -1;
		}
		got += (size_t)r;
	}
	return (ssize_t)n;
}

/* A scratch file in @dir that nobody else can open: made exclusively,
 * then unlinked at once.  Returns the descriptor or -1 with errno. */
static int scratch_file(const char *dir, int dirlen, const char *base)
{
	char tmpl[PATH_MAX + 64];
	if (dirlen + strlen(base) + 1 >= sizeof(tmpl)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(tmpl, sizeof(tmpl), "%.*s%s", dirlen, dir, base);
	int fd = mkstemp(tmpl);
	if (fd < 0)
		return -1;
	if (unlink(tmpl) < 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int km_trace_spool_open(struct km_trace_spool *sp, const char *dest, uint64_t limit,
			char *err, size_t errlen)
{
	memset(sp, 0, sizeof(*sp));
	sp->sink.put = spool_put;
	sp->fd = sp->scratch_fd = -1;
	sp->limit = limit;

	/* beside a regular file (or a name to be made), else in $TMPDIR:
	 * stat(), not lstat(), so that /dev/stdout, a link to a device,
	 * is a device here */
	const char *dir = dest, *base = ".lockmuseum.spool-XXXXXX";
	const char *slash = strrchr(dest, '/');
	int dirlen = slash ? (int)(slash - dest) + 1 : 0;
	struct stat st;
	if (stat(dest, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		const char *tmp = getenv("TMPDIR");
		dir = tmp && tmp[0] == '/' ? tmp : "/tmp";
		dirlen = (int)strlen(dir);
		base = "/lockmuseum.spool-XXXXXX";
	}
	sp->buf = malloc(SPOOL_BUF * sizeof(*sp->buf));
	if (!sp->buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	sp->fd = scratch_file(dir, dirlen, base);
	if (sp->fd >= 0)
		sp->scratch_fd = scratch_file(dir, dirlen, base);
	if (sp->fd < 0 || sp->scratch_fd < 0) {
		snprintf(err, errlen, "cannot make the trace's scratch file: %s", strerror(errno));
		km_trace_spool_close(sp);
		return -1;
	}
	return 0;
}

void km_trace_spool_close(struct km_trace_spool *sp)
{
	if (sp->fd >= 0)
		close(sp->fd);
	if (sp->scratch_fd >= 0)
		close(sp->scratch_fd);
	free(sp->buf);
	sp->buf = NULL;
	sp->fd = sp->scratch_fd = -1;
	sp->used = 0;
}
