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
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
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

static bool stdout_failure_said;

void km_out_stdout_failed(const char *what, int err)
{
	if (stdout_failure_said)
		return;
	stdout_failure_said = true;
	if (stdout_was_closed)
		fprintf(stderr, "lockmuseum: cannot write %s: stdout is closed\n", what);
	else
		fprintf(stderr, "lockmuseum: cannot write %s to stdout: %s\n", what,
			err ? strerror(err) : "a write failed");
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
	if (stdout_failure_said)	/* one line about it is enough */
		return status == 130 ? 130 : 2;
	if (stdout_was_closed)
		fprintf(stderr, "lockmuseum: cannot write the output: stdout is closed\n");
	else
		fprintf(stderr, "lockmuseum: cannot write the output to stdout: %s\n",
			err ? strerror(err) : "a write failed");
	return status == 130 ? 130 : 2;
}

/* ------------------------------------------------------ the JSON contract -- */

bool km_out_json;
static bool json_sent;
static char last_error[1024];

void km_out_json_reset(bool json)
{
	stdout_failure_said = false;
	km_out_json = json;
	json_sent = false;
	last_error[0] = 0;
}

void km_out_json_sent(void)
{
	json_sent = true;
}

bool km_out_json_was_sent(void)
{
	return json_sent;
}

void km_out_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	fprintf(stderr, "lockmuseum: %s\n", last_error);
}

int km_out_json_fallback(int status)
{
	if (!km_out_json || json_sent || status == 0)
		return status;
	json_t *o = json_object();
	json_object_set_new(o, "outcome", json_string("error"));
	const char *why = status == 130 ? "interrupted" : last_error[0] ? last_error :
			  "see the message on stderr";
	/* a message that is not valid UTF-8 must still make valid JSON */
	json_t *r = json_string(why);
	json_object_set_new(o, "reason", r ? r : json_string("(the message is not valid UTF-8)"));
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (text)
		printf("%s\n", text);
	free(text);
	json_decref(o);
	json_sent = true;
	return status;
}
