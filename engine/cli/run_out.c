/*
 * run_out.c - `lockmuseum run ... --out FILE`: the report into a file,
 * whole or not at all.
 *
 * A sweep's jobs each write one report, and a resumed sweep trusts that
 * a file which is there is a finished run.  So the report goes to a
 * temporary file beside FILE (stdout is pointed at it, and the report
 * code stays as it is) and is renamed into place only when the run ended
 * by itself, whatever it found (exit 0 to 3); an interrupted run (130),
 * a failed write or a run killed by its wall-clock watchdog leaves no
 * FILE (at most a FILE.tmp.PID, which no reader of reports takes for
 * one).  The folder of FILE is made if it is missing, one level deep, so
 * that a job on a fresh node needs no mkdir.
 */
#include "run_out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void make_parent(const char *path)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return;
	*slash = 0;
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return;		/* the open below says why */
}

int km_run_out_begin(struct km_run_out *o, const char *path, char *err, size_t errlen)
{
	o->path = path;
	o->saved = -1;
	if (snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%ld", path, (long)getpid()) >=
	    (int)sizeof(o->tmp)) {
		snprintf(err, errlen, "the path is too long");
		return -1;
	}
	make_parent(path);
	int fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	o->saved = dup(STDOUT_FILENO);
	if (o->saved < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		snprintf(err, errlen, "cannot redirect the report: %s", strerror(errno));
		close(fd);
		if (o->saved >= 0)
			close(o->saved);
		o->saved = -1;
		unlink(o->tmp);
		return -1;
	}
	close(fd);
	return 0;
}

int km_run_out_end(struct km_run_out *o, bool keep, char *err, size_t errlen)
{
	int rc = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		snprintf(err, errlen, "cannot write: %s", strerror(errno));
		rc = -1;
	}
	clearerr(stdout);
	if (dup2(o->saved, STDOUT_FILENO) < 0 && rc == 0) {
		snprintf(err, errlen, "cannot restore stdout: %s", strerror(errno));
		rc = -1;
	}
	close(o->saved);
	o->saved = -1;
	if (keep && rc == 0 && rename(o->tmp, o->path) < 0) {
		snprintf(err, errlen, "cannot rename into place: %s", strerror(errno));
		rc = -1;
	}
	if (!keep || rc < 0)
		unlink(o->tmp);
	return rc;
}
