/*
 * play.h - `lockmuseum play FILE`: the player chooses the interleaving at
 * each choice point, at a terminal (play.c says how) or in the window
 * (--gui; view_cli.c runs the window's play mode).
 */
#ifndef KM_CLI_PLAY_H
#define KM_CLI_PLAY_H

#include "session.h"

struct km_play;
struct km_play_lines;

struct km_play_opts {
	const char *file;			/* the scenario */
	const struct km_run_request *rq;	/* era, mode, CPUs, seed, --set */
	const char *save;			/* --save: where "s" saves, or NULL */
};

/* Returns the exit status of the last run that ended (0, 1, 3), 0 when
 * the player quit before, or 2. */
int km_play_command(const struct km_play_opts *o);

/* The lines a task or a handler would run next in the scenario of
 * session @ud (a struct km_session *): km_play_begin's lines. */
extern const struct km_play_lines km_play_session_lines;

/**
 * km_play_save - the decisions of @p, made on the run @ri in @mode, as
 * the schedule file @path (schedule.h: atomically, through out_file.c).
 * Returns 0, or -1 with @err.
 */
int km_play_save(const struct km_play *p, const struct km_run_info *ri, int mode,
		 const char *path, char *err, size_t errlen);

#endif /* KM_CLI_PLAY_H */
