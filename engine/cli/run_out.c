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
 * FILE (at most a hidden ".lockmuseum-XXXXXX" temporary, which no reader
 * of reports takes for one).  The file itself is written as every output
 * file is (report/out_file.c: devices in place, links never followed).  The folder of FILE is made if it is missing, one level deep, so
 * that a job on a fresh node needs no mkdir.
 */
#include "run_out.h"

#include "../report/out_file.h"

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
	o->saved = -1;
	make_parent(path);
	if (km_out_open(&o->out, path, err, errlen) < 0)
		return -1;
	fflush(stdout);
	o->saved = dup(STDOUT_FILENO);
	if (o->saved < 0 || dup2(fileno(o->out.f), STDOUT_FILENO) < 0) {
		snprintf(err, errlen, "cannot redirect the report: %s", strerror(errno));
		if (o->saved >= 0)
			close(o->saved);
		o->saved = -1;
		km_out_abort(&o->out);
		return -1;
	}
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
	/* a run that printed nothing (its scenario missing: the message is on
	 * stderr) leaves no empty file that --skip-done would take for a run */
	struct stat st;
	if (keep && rc == 0 && !o->out.in_place && fstat(fileno(o->out.f), &st) == 0 &&
	    st.st_size == 0)
		keep = false;
	if (keep && rc == 0)
		return km_out_commit(&o->out, err, errlen);
	km_out_abort(&o->out);
	return rc;
}
