/*
 * tour_cmd.h - `lockmuseum tour`: walk the exhibits of scripts/tour.lua.
 */
#ifndef KM_CLI_TOUR_CMD_H
#define KM_CLI_TOUR_CMD_H

#include "session.h"

struct km_tour_opts {
	const char *out_dir;		/* NULL: report on stdout only */
	int png_w, png_h;
	const struct km_run_request *base;	/* budgets, seed */
};

/* Returns 0 when every exhibit ran (violations are lessons, not
 * failures), 2 when one could not run, with a one-line message. */
int km_tour_command(const struct km_tour_opts *o);

#endif /* KM_CLI_TOUR_CMD_H */
