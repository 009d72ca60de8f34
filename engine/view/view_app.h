/*
 * view_app.h - the window's application state, shared by its two halves:
 * view_app.c (the runs on screen, the compare runs, play mode, the
 * requests the state machine makes) and view_window.c (SDL: the display,
 * the window and its renderer, the event loop, the teardown).
 *
 * Internal to the view: nothing above it includes this.
 */
#ifndef KM_VIEW_VIEW_APP_H
#define KM_VIEW_VIEW_APP_H

#include "view_panels.h"
#include "view_inspect.h"

/* A run on screen and its index. */
struct shown {
	struct km_view_run run;
	struct km_view_model m;
	bool live;
};

struct app {
	const struct km_era_list *eras;
	const struct km_view_exhibit *ex;
	struct km_view_exhibit solo;	/* when there is no tour */
	int nex;
	const struct km_view_host *host;
	SDL_Window *win;
	SDL_Renderer *r;
	struct km_draw *d;
	struct km_view_state st;
	struct shown cur;
	struct shown cmp[KM_VIEW_MAX_COMPARE];
	char why[KM_VIEW_MAX_COMPARE][256];
	const char *whyp[KM_VIEW_MAX_COMPARE];
	int ncmp;
	char toast[1024];
	Uint64 toast_until;
	bool toast_bad;		/* a refusal or an error, not news */
	int shots;
	struct km_view_dump_memo dump;	/* LOCKMUSEUM_VIEW_DUMP, for tests */
	/* play mode: the game (NULL outside it), as the frame shows it */
	struct km_play *play;
	struct km_view_play_frame pf;
	char play_why[600];
	char play_path[512];
};

/* Draw a frame of what is on screen, @status (NULL: none) as a card over
 * it; redrawn (twice at most) while what wraps is still being measured. */
void km_view_app_draw(struct app *a, const char *status);

/* The window's size (or its display) changed: the state's, in output pixels. */
void km_view_app_sizes(struct app *a);

/* Fulfil what the state machine asked for: a new exhibit, mode or era
 * (a run from the host), the compare runs, a play decision, a screenshot. */
void km_view_app_requests(struct app *a);

/*
 * km_view_app_start - the first run: exhibit @first in its own era and
 * first mode, at its key moment; in play mode from the start if the host
 * asks.  Returns 0, or -1 with @err (the window should not open).
 */
int km_view_app_start(struct app *a, int first, char *err, size_t errlen);

/* Free the runs and the game; not the window (view_window.c's). */
void km_view_app_free(struct app *a);

#endif
