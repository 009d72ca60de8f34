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

struct km_era_list;
struct km_tour;

/*
 * km_tour_open - load the eras and scripts/tour.lua of the data folder,
 * the tour's file under the watchdog: what the headless tour and the
 * museum's window both start from.  Returns 0, both to be freed with
 * km_tour_close(); or -1 with one line in @err and nothing to free.
 */
int km_tour_open(struct km_era_list *eras, struct km_tour *tour, char *err, size_t errlen);
void km_tour_close(struct km_era_list *eras, struct km_tour *tour);

/* Returns 0 when every exhibit ran (violations are lessons, not
 * failures), 2 when one could not run, with a one-line message. */
int km_tour_command(const struct km_tour_opts *o);

#endif /* KM_CLI_TOUR_CMD_H */
