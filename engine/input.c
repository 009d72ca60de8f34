/*
 * input.c - opening a file the user named, to read it (see input.h):
 * O_NONBLOCK so that a FIFO cannot hold the open, fstat(2) to see what
 * was opened, then the descriptor made blocking again for the reads.
 *
 * Why a FIFO read with no writer ends at once: open(2) with O_NONBLOCK
 * of a FIFO for reading succeeds without a writer, and read(2) from a
 * pipe that has no writer returns 0, end of file.
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
	return S_ISDIR(m) ? "a folder" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" :
	       S_ISFIFO(m) ? "a FIFO" : "a special file";
}

int km_input_open(const char *path, bool pipe_ok, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) && !(pipe_ok && S_ISFIFO(st.st_mode))) {
		snprintf(err, errlen, "%s: %s, not a regular file", path, kind_of(st.st_mode));
		close(fd);
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int km_input_read(const char *path, bool pipe_ok, size_t max, char **text, size_t *len,
		  char *err, size_t errlen)
{
	*text = NULL;
	*len = 0;
	int fd = km_input_open(path, pipe_ok, err, errlen);
	if (fd < 0)
		return -1;
	struct stat st;
	size_t cap = 65536;
	/* the size as a first guess only: one read more sees the end */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (unsigned long long)st.st_size < max)
		cap = (size_t)st.st_size + 1;
	char *buf = malloc(cap + 1);
	size_t got = 0;
	int rerr = 0;
	while (buf) {
		if (got == cap) {
			if (cap > max) {
				snprintf(err, errlen, "%s: larger than %zu MiB", path, max >> 20);
				goto fail;
			}
			size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *more = realloc(buf, ncap + 1);
			if (!more)
				break;
			buf = more;
			cap = ncap;
		}
		ssize_t r = read(fd, buf + got, cap - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rerr = errno;
			break;
		}
		if (r == 0) {
			if (got > max) {
				snprintf(err, errlen, "%s: larger than %zu MiB", path, max >> 20);
				goto fail;
			}
			close(fd);
			buf[got] = 0;
			*text = buf;
			*len = got;
			return 0;
		}
		got += (size_t)r;
	}
	snprintf(err, errlen, "%s: cannot read: %s", path, buf ? strerror(rerr) : "out of memory");
fail:
	free(buf);
	close(fd);
	return -1;
}
