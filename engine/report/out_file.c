/*
 * out_file.c - writing an output file without ever clobbering the wrong one.
 *
 * A user names an output file (--trace, --png, the tour's out/ folder),
 * and the program may run as root: the name may be a device node such as
 * /dev/null, a FIFO another program reads, or a symbolic link somebody
 * planted in a shared directory.  The rules, in the manner of the careful
 * Unix tools:
 *
 *  - A regular file, or a name that does not exist yet, is written to a
 *    fresh temporary in the same directory, created exclusively (mkstemp:
 *    O_CREAT|O_EXCL, so a link planted at the temporary's name is never
 *    followed), flushed to disk, and renamed over the destination.  An
 *    error or an interruption leaves the previous file as it was; a crash
 *    never leaves half a file under the real name.  The result keeps the
 *    mode of the file it replaces, else 0666 less the umask, as fopen()
 *    would have made it.
 *  - A symbolic link at the destination is replaced by the rename, never
 *    followed: its target is not touched.
 *  - A character device (/dev/null, /dev/stdout, a terminal) or a FIFO is
 *    written in place, as a shell redirection would, and never replaced.
 *    A FIFO nobody reads is an error, not a hang (O_NONBLOCK on open).
 *  - A directory, a block device or a socket is refused: nothing a report
 *    or a picture should be written onto.
 */
#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The caller names the file: the message says only what went wrong. */
/*
 * The temporaries being written, for km_out_remove_pending(): a second
 * Ctrl-C exits at once from its signal handler, which may only unlink()
 * names it already has.  A few slots are enough: a run writes one file at
 * a time (the tour two: its text and a picture).
 */
#define PENDING 4
static char pending_path[PENDING][PATH_MAX + 16];
static volatile sig_atomic_t pending_used[PENDING];

static void pending_add(const char *tmp)
{
	for (int i = 0; i < PENDING; i++) {
		if (!pending_used[i]) {
			memcpy(pending_path[i], tmp, strlen(tmp) + 1);
			pending_used[i] = 1;
			return;
		}
	}
}

static void pending_drop(const char *tmp)
{
	for (int i = 0; i < PENDING; i++)
		if (pending_used[i] && !strcmp(pending_path[i], tmp))
			pending_used[i] = 0;
}

/**
 * km_out_remove_pending() - remove every temporary still being written.
 * Context: async-signal-safe (only unlink()); for a handler about to exit.
 */
void km_out_remove_pending(void)
{
	for (int i = 0; i < PENDING; i++)
		if (pending_used[i])
			unlink(pending_path[i]);
}

/*
 * The inputs of this command (the scenario, a schedule file, reports
 * read back), by device and inode: `run S --trace S`, `run S --out ./S`,
 * `explore S --out S`, `--png S` and play's `s S` replaced the scenario
 * with their output.  Names are no guide (./S, a hard link, a path
 * through a symbolic link to the folder), so every writer compares the
 * file it would replace with these and refuses, leaving the input as it
 * was.
 */
#define PROTECTED 64
static struct {
	dev_t dev;
	ino_t ino;
	const char *what;
} protected_in[PROTECTED];
static int nprotected;

void km_out_protect(const char *path, const char *what)
{
	struct stat st;
	if (!path || nprotected == PROTECTED || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	protected_in[nprotected].dev = st.st_dev;
	protected_in[nprotected].ino = st.st_ino;
	protected_in[nprotected].what = what;
	nprotected++;
}

void km_out_protect_clear(void)
{
	nprotected = 0;
}

static const char *protected_what(const struct stat *st)
{
	for (int i = 0; i < nprotected; i++)
		if (protected_in[i].dev == st->st_dev && protected_in[i].ino == st->st_ino)
			return protected_in[i].what;
	return NULL;
}

static int fail(char *err, size_t errlen, const char *path, const char *what)
{
	(void)path;
	snprintf(err, errlen, "%s", what);
	return -1;
}

/* A system call's failure: "cannot write: " and what errno says. */
static int fail_errno(char *err, size_t errlen, int e)
{
	snprintf(err, errlen, "cannot write: %s", strerror(e));
	return -1;
}

/* Open a device or FIFO for writing in place.  O_NOFOLLOW and the fstat
 * check close the window between lstat() and open() in which the name
 * could have been swapped for a link or a regular file. */
static int open_in_place(struct km_out_file *o, const struct stat *seen, char *err,
			 size_t errlen)
{
	int fd = open(o->path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENXIO && S_ISFIFO(seen->st_mode))
			return fail(err, errlen, o->path, "a FIFO with no reader");
		return fail_errno(err, errlen, errno);
	}
	struct stat now;
	if (fstat(fd, &now) < 0 || now.st_dev != seen->st_dev || now.st_ino != seen->st_ino) {
		close(fd);
		return fail(err, errlen, o->path, "changed while being opened");
	}
	/* writes block as usual once open: a slow reader is not an error */
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		return fail_errno(err, errlen, e);
	}
	o->in_place = true;
	return 0;
}

/* Create the temporary beside the destination, so that rename() is
 * atomic (same file system) and needs no copy. */
static int open_temporary(struct km_out_file *o, mode_t mode, char *err, size_t errlen)
{
	const char *slash = strrchr(o->path, '/');
	int dirlen = slash ? (int)(slash - o->path) + 1 : 0;
	snprintf(o->tmp, sizeof(o->tmp), "%.*s.lockmuseum-XXXXXX", dirlen, o->path);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		o->tmp[0] = '\0';
		return fail_errno(err, errlen, e);
	}
	pending_add(o->tmp);
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 || fchmod(fd, mode) < 0 || !(o->f = fdopen(fd, "w+"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		pending_drop(o->tmp);
		o->tmp[0] = '\0';
		return fail_errno(err, errlen, e);
	}
	return 0;
}

/**
 * km_out_open() - start writing the output file @path.
 * @o: filled in; write to o->f, then km_out_commit() or km_out_abort().
 *
 * Returns 0, or -1 with a one-line message in @err (the caller names
 * @path); on error
 * nothing was created and nothing existing was changed.
 */
int km_out_open(struct km_out_file *o, const char *path, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	if (!*path)
		return fail(err, errlen, "''", "an empty file name");
	if (strlen(path) >= sizeof(o->path) - 32)
		return fail(err, errlen, "output file", "name too long");
	strcpy(o->path, path);

	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno != ENOENT)
			return fail_errno(err, errlen, errno);
		mode_t mask = umask(0);
		umask(mask);
		return open_temporary(o, 0666 & ~mask, err, errlen);
	}
	const char *input = S_ISREG(st.st_mode) ? protected_what(&st) : NULL;
	if (input) {
		snprintf(err, errlen, "is %s, an input of this command; refusing to replace it",
			 input);
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return open_temporary(o, st.st_mode & 07777, err, errlen);
	if (S_ISLNK(st.st_mode)) {
		mode_t mask = umask(0);
		umask(mask);
		return open_temporary(o, 0666 & ~mask, err, errlen);
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return open_in_place(o, &st, err, errlen);
	if (S_ISDIR(st.st_mode))
		return fail(err, errlen, path, "is a directory");
	if (S_ISBLK(st.st_mode))
		return fail(err, errlen, path, "is a block device; refusing to write onto it");
	return fail(err, errlen, path, "is not a regular file, a character device or a FIFO");
}

/* Make the rename itself durable: sync the directory that holds it. */
static void sync_directory(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);	/* best effort: the data itself is already synced */
		close(fd);
	}
}

/**
 * km_out_commit() - finish the file: flush, sync and rename into place.
 *
 * Every step is checked.  Returns 0, or -1 with a message in @err; on
 * error the temporary is removed and the destination is as it was.
 * @o is closed either way.
 */
int km_out_commit(struct km_out_file *o, char *err, size_t errlen)
{
	int rc = 0, e = 0;
	errno = 0;
	if (ferror(o->f) || fflush(o->f) != 0) {
		e = errno ? errno : EIO;
		rc = -1;
	}
	/* a device need not support fsync (EINVAL, EROFS): that is no error */
	if (rc == 0 && fsync(fileno(o->f)) < 0 && !(o->in_place && (errno == EINVAL ||
			errno == EROFS || errno == ENOTSUP))) {
		e = errno;
		rc = -1;
	}
	if (fclose(o->f) != 0 && rc == 0) {
		e = errno;
		rc = -1;
	}
	o->f = NULL;
	if (rc == 0 && !o->in_place && rename(o->tmp, o->path) < 0) {
		e = errno;
		rc = -1;
	}
	if (!o->in_place)
		pending_drop(o->tmp);
	if (rc < 0) {
		if (!o->in_place)
			unlink(o->tmp);
		return fail_errno(err, errlen, e);
	}
	if (!o->in_place)
		sync_directory(o->path);
	return 0;
}

/**
 * km_out_abort() - give up: close, and remove the temporary.  The
 * destination is as it was (a device or FIFO has had what was written).
 */
void km_out_abort(struct km_out_file *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (!o->in_place && o->tmp[0]) {
		unlink(o->tmp);
		pending_drop(o->tmp);
	}
}
