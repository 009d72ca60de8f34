/*
 * play.h - `lockmuseum play FILE`: the player chooses the interleaving at
 * each choice point, at a terminal (play.c says how).
 */
#ifndef KM_CLI_PLAY_H
#define KM_CLI_PLAY_H

#include "session.h"

struct km_play_opts {
	const char *file;			/* the scenario */
	const struct km_run_request *rq;	/* era, mode, CPUs, seed, --set */
};

/* Returns the exit status of the last run that ended (0, 1, 3), 0 when
 * the player quit before, or 2. */
int km_play_command(const struct km_play_opts *o);

#endif /* KM_CLI_PLAY_H */
