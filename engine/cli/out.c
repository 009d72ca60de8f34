/*
 * out.c - stdout that cannot lose output silently.
 *
 * `lockmuseum run x.lua > /dev/full` once printed nothing, said nothing
 * and exited 0: stdio keeps a failed write as a sticky error flag and
 * nobody looked at it.  As coreutils' close_stdout does, the program's
 * last act is to flush and close stdout and check both and the flag: a
 * write that failed at any time -- a full disk, a closed pipe reader
 * that did not kill us, an I/O error -- becomes a message on stderr and
 * exit status 2 (the run could not be delivered as asked).
 *
 * A stdout closed from the start (`lockmuseum run x.lua >&-`) is worse:
 * the first file the program opens -- a --trace temporary -- would get
 * descriptor 1 and the report written into it.  So before anything else,
 * a closed descriptor 0, 1 or 2 is given a stand-in: /dev/null to read,
 * /dev/full to write, where every write fails, so that a closed stdout
 * is reported like a full one (with its own message) -- when something
 * was to be written to it.
 *
 * Not here: the writers of files (--trace, --png), which check their own
 * writes and are not stdout.
 */
#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool stdout_was_closed;

void km_out_guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int nfd = open(fd ? "/dev/full" : "/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (nfd < 0)
			continue;
		if (nfd != fd) {
			/* a lower descriptor was free too: it is being filled in turn */
			dup2(nfd, fd);
			close(nfd);
		}
		if (fd == 1)
			stdout_was_closed = true;
	}
}

int km_out_finish(int status)
{
	int err = 0;
	if (fflush(stdout) != 0)
		err = errno;
	bool failed = ferror(stdout) || err;
	if (fclose(stdout) != 0 && !failed) {
		err = errno;
		failed = true;
	}
	if (!failed)
		return status;
	if (stdout_was_closed)
		fprintf(stderr, "lockmuseum: cannot write the output: stdout is closed\n");
	else
		fprintf(stderr, "lockmuseum: cannot write the output to stdout: %s\n",
			err ? strerror(err) : "a write failed");
	return status == 130 ? 130 : 2;
}
