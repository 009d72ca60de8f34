/*
 * out_file.h - writing an output file without ever clobbering the wrong one.
 *
 * Every file the program writes (a trace, a PNG, the tour's text) goes
 * through here.  See out_file.c for the rules: a regular file is replaced
 * atomically and durably, a character device or FIFO is written in place,
 * anything else is refused, and no name is ever followed that somebody
 * else could have planted.
 */
#ifndef KM_REPORT_OUT_FILE_H
#define KM_REPORT_OUT_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct km_out_file {
	FILE *f;			/* write here between open and commit */
	bool in_place;			/* a device or FIFO: no temporary */
	char path[PATH_MAX];		/* the destination, as given */
	char tmp[PATH_MAX + 16];	/* the temporary beside it, or "" */
};

int km_out_open(struct km_out_file *o, const char *path, char *err, size_t errlen);
int km_out_commit(struct km_out_file *o, char *err, size_t errlen);
void km_out_abort(struct km_out_file *o);
void km_out_remove_pending(void);

/*
 * km_out_protect - an input of this command (@what: "the scenario"):
 * km_out_open() refuses a destination that is the same file (device and
 * inode), whatever its name.  Up to 64; km_out_protect_clear() forgets
 * them (each command line starts afresh).
 */
void km_out_protect(const char *path, const char *what);
void km_out_protect_clear(void);

#endif
