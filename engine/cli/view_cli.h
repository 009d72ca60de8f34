/*
 * view_cli.h - what the command line needs to show runs: a PNG of a
 * finished session, the museum window, and placard text.
 *
 * This is the glue between sessions (session.h: how a run is made) and
 * the view (view/view.h: how a run is drawn), so that main.c only parses
 * options and calls one of these.
 */
#ifndef KM_CLI_VIEW_CLI_H
#define KM_CLI_VIEW_CLI_H

#include "../view/view.h"
#include "session.h"

/**
 * km_read_placard - the text of a placard file, @relpath relative to the
 * data folder (km_datadir()).  Only a regular file inside that folder is
 * read: an absolute path, a "..", a link leading out or a FIFO is no
 * placard.
 * Returns a malloc'd NUL-terminated string, or NULL if it cannot be read.
 */
char *km_read_placard(const char *relpath);

/**
 * km_cli_png - draw the finished session @s (run with store_trace) as a
 * PNG of @w x @h pixels at @path.  No display is needed.
 * Returns 0, or -1 with @err.
 */
int km_cli_png(const struct km_era_list *eras, struct km_session *s, const char *path,
	       int w, int h, char *err, size_t errlen);

/* The same with an exhibit's title and placard (@ex may be NULL): for
 * the tour. */
int km_cli_png_exhibit(const struct km_era_list *eras, const struct km_view_exhibit *ex,
		       struct km_session *s, const char *path, int w, int h,
		       char *err, size_t errlen);

/* An exhibit in @n modes, its sessions @s[], side by side (the compare
 * view): @s[@main] in the figures panel.  For the tour. */
int km_cli_png_exhibit_modes(const struct km_era_list *eras, const struct km_view_exhibit *ex,
			     struct km_session *s, int n, int main, const char *path, int w,
			     int h, char *err, size_t errlen);

/**
 * km_cli_window - open the museum on exhibit @first of @exhibits (@n of
 * them; with @n == 0 the one scenario of base->file).  Runs are made with
 * km_session_run from @base (file, era and mode replaced per run; the
 * trace is always stored).  Returns when the visitor quits: 0, or -1 with
 * @err (no display, no SDL, the first exhibit failed to run).
 */
int km_cli_window(const struct km_era_list *eras, const struct km_view_exhibit *exhibits,
		  int n, int first, const struct km_run_request *base, char *err, size_t errlen);

/**
 * km_cli_window_play - the window on the scenario of base->file, in play
 * mode from the start: the visitor is the scheduler (report/play_state.h).
 * W saves the schedule at @save_path (NULL: out/<scenario>.schedule).
 * Returns as km_cli_window.
 */
int km_cli_window_play(const struct km_era_list *eras, const struct km_run_request *base,
		       const char *save_path, char *err, size_t errlen);

struct km_play;
struct km_scenario;

/**
 * km_cli_play_goal - set @play's goal, in words, unless it has one: the
 * "Goal: ..." of scenario @sc's description, else the default rule's
 * words.  The play window's panel shows it (a test draws it the same).
 *
 * Context: any thread; @sc (may be NULL: nothing set) is only read.
 */
void km_cli_play_goal(struct km_play *play, const struct km_scenario *sc);

struct km_tour;
struct km_exhibit;

/* The view's exhibit for tour exhibit @e (pointing into @e, which must
 * outlive it). */
void km_cli_exhibit_of(struct km_view_exhibit *out, const struct km_exhibit *e);

/**
 * km_cli_window_tour - km_cli_window on the exhibits of @tour, each run
 * with its own CPU count and parameter settings; its anachronism flag
 * applies to its own era and modes only, so that a visitor switching to
 * an era without the primitive is told so.  Returns as km_cli_window.
 */
int km_cli_window_tour(const struct km_era_list *eras, const struct km_tour *tour, int first,
		       const struct km_run_request *base, char *err, size_t errlen);

#endif /* KM_CLI_VIEW_CLI_H */
