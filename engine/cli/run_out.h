/*
 * run_out.h - `run --out FILE`: the report written whole or not at all.
 */
#ifndef KM_CLI_RUN_OUT_H
#define KM_CLI_RUN_OUT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "../report/out_file.h"

struct km_run_out {
	struct km_out_file out;		/* the file being written */
	int saved;			/* the real stdout, while redirected */
};

/**
 * km_run_out_begin - point stdout at a temporary file beside @path.
 * Returns 0, or -1 with the reason in @err (stdout untouched).
 */
int km_run_out_begin(struct km_run_out *o, const char *path, char *err, size_t errlen);

/**
 * km_run_out_end - give stdout back; with @keep, rename the temporary
 * file to @path, else remove it.  Returns 0, or -1 with the reason in
 * @err when a write or the rename failed (and no file is left).
 */
int km_run_out_end(struct km_run_out *o, bool keep, char *err, size_t errlen);

#endif /* KM_CLI_RUN_OUT_H */
