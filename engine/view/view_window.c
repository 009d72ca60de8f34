/*
 * view_window.c - the window itself: SDL set up, the loop, SDL let go.
 *
 * km_view_window() is the program's window in five steps, each a function
 * here: reach a display (open_display), open a window and its renderer
 * sized for it (open_window), put the first exhibit on screen
 * (km_view_app_start, view_app.c), run the loop until the visitor quits,
 * and free everything in the reverse order (close_window).
 *
 * The loop follows SDL's examples and is as short as they are: hand every
 * pending event to the pure state machine (pump_events), fulfil what it
 * requested (km_view_app_requests), advance playback at a fixed step of
 * 1/120 s with a cap on the catch-up, so that a stalled frame does not
 * make playback leap (advance), and draw when something changed
 * (present).  When nothing moves, it sleeps in SDL_WaitEventTimeout
 * instead of drawing the same frame sixty times a second.
 *
 * What the window shows and runs is view_app.c's; the keys' meaning is
 * view_keys.c's; nothing here knows a run.
 */
#include "view_app.h"
#include "view_render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEP (1.0 / 120.0)

/*
 * Reach the display the environment names.  Only those display servers
 * are tried, so that a failing one is one clear error, not a probe of
 * every driver (the Wayland client library prints its own complaints).
 * Returns 0 with SDL's video up, or -1 with @err and SDL shut.
 */
static int open_display(char *err, size_t errlen)
{
	const char *asked = getenv("SDL_VIDEODRIVER");
	if (!asked || !*asked) {
		const char *w = getenv("WAYLAND_DISPLAY"), *x = getenv("DISPLAY");
		SDL_SetHint(SDL_HINT_VIDEODRIVER, w && *w ? (x && *x ? "wayland,x11" : "wayland")
							  : "x11");
	}
	if (SDL_Init(SDL_INIT_VIDEO) < 0) {
		const char *x = getenv("DISPLAY");
		snprintf(err, errlen, "cannot reach the display%s%s: %s", x && *x ? " " : "",
			 x && *x ? x : "", SDL_GetError());
		return -1;
	}
	/* With no display server to talk to, SDL quietly falls back to its
	 * offscreen driver: a window nobody can see.  Unless asked for by
	 * name (SDL_VIDEODRIVER), that is no window at all. */
	const char *driver = SDL_GetCurrentVideoDriver();
	if (driver && (!strcmp(driver, "offscreen") || !strcmp(driver, "dummy")) &&
	    !(asked && !strcmp(asked, driver))) {
		const char *x = getenv("DISPLAY");
		snprintf(err, errlen, "cannot reach the display%s%s (SDL found no display server)",
			 x && *x ? " " : "", x && *x ? x : "");
		SDL_Quit();
		return -1;
	}
	return 0;
}

/* 1280x800, 1600x1000 where the screen has room for it, nine tenths of
 * a screen smaller than 1280x800. */
static void window_size(int *w, int *h)
{
	*w = 1280;
	*h = 800;
	SDL_Rect usable;
	if (SDL_GetDisplayUsableBounds(0, &usable) == 0) {
		if (usable.w >= 1600 && usable.h >= 1000) {
			*w = 1600;
			*h = 1000;
		} else if (usable.w < *w || usable.h < *h) {
			*w = usable.w * 9 / 10;
			*h = usable.h * 9 / 10;
		}
	}
}

/* The window, its renderer (accelerated, else software), the state at
 * its size and the drawing context.  0, or -1 with @err. */
static int open_window(struct app *a, int first, char *err, size_t errlen)
{
	int w, h;
	window_size(&w, &h);
	SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "1");
	a->win = SDL_CreateWindow("lockmuseum", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
				  SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
	if (!a->win) {
		snprintf(err, errlen, "cannot open a window: %s", SDL_GetError());
		return -1;
	}
	SDL_SetWindowMinimumSize(a->win, 800, 560);
	a->r = SDL_CreateRenderer(a->win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
	if (!a->r)
		a->r = SDL_CreateRenderer(a->win, -1, SDL_RENDERER_SOFTWARE);
	if (!a->r) {
		snprintf(err, errlen, "cannot make a renderer: %s", SDL_GetError());
		return -1;
	}
	km_view_state_init(&a->st, a->eras, w, h, 1.0f);
	a->st.nexhibits = a->nex;
	a->st.exhibit = first;
	km_view_app_sizes(a);
	a->d = km_draw_new(a->r, a->st.lay.u, err, errlen);
	return a->d ? 0 : -1;
}

/*
 * Every pending event into the state machine -- when @idle, after
 * sleeping until one comes (or 100 ms, for toasts) -- each play decision
 * fulfilled as it comes, so that keys typed faster than a frame are each
 * heard.  Returns whether there was any.
 */
static bool pump_events(struct app *a, bool idle)
{
	SDL_Event e;
	bool have = idle ? SDL_WaitEventTimeout(&e, 100) : SDL_PollEvent(&e);
	bool any = have;
	while (have) {
		if (e.type == SDL_WINDOWEVENT &&
		    (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
		     e.window.event == SDL_WINDOWEVENT_DISPLAY_CHANGED))
			km_view_app_sizes(a);
		km_view_handle_event(&a->st, &e);
		if (a->st.req & KM_VREQ_PLAY)
			km_view_app_requests(a);	/* each answer in turn, however fast */
		have = SDL_PollEvent(&e);
	}
	return any;
}

/* Playback: fixed steps for the time since @last, at most a quarter of a
 * second of them (no spiral of death); @acc keeps the remainder. */
static void advance(struct app *a, Uint64 *last, double *acc)
{
	Uint64 now = SDL_GetPerformanceCounter();
	double dt = (double)(now - *last) / (double)SDL_GetPerformanceFrequency();
	*last = now;
	if (!a->st.playing) {
		*acc = 0;
		return;
	}
	*acc += dt > 0.25 ? 0.25 : dt;
	for (int i = 0; *acc >= STEP && i < 30; i++) {
		km_view_tick(&a->st, STEP);
		*acc -= STEP;
	}
}

/* Draw and show a frame; for the tests (LOCKMUSEUM_VIEW_DUMP), the
 * settled frame's text told, then the state.  Returns whether one more
 * frame is wanted (to log its text). */
static bool present(struct app *a)
{
	bool log = a->dump.text_next;
	km_view_app_draw(a, NULL);
	if (log) {
		/* the settled frame again, its text told */
		km_text_log(a->d->tx, stdout);
		km_view_app_draw(a, NULL);
	}
	SDL_RenderPresent(a->r);
	if (log) {
		km_text_log(a->d->tx, NULL);
		a->dump.text_next = false;
		printf("text: end\n");
		fflush(stdout);
	}
	km_view_test_dump(&a->st, &a->dump);
	return a->dump.text_next;
}

static void run_loop(struct app *a)
{
	const struct km_view_host *host = a->host;
	Uint64 last = SDL_GetPerformanceCounter();
	double acc = 0;
	bool dirty = true;
	while (!a->st.quit) {
		if (host->interrupted && host->interrupted(host->ud))
			break;
		bool idle = !a->st.playing && !dirty && !a->st.drag;
		bool any = pump_events(a, idle);
		if (a->st.req)
			km_view_app_requests(a);
		advance(a, &last, &acc);
		bool toasting = SDL_GetTicks64() < a->toast_until + 100;
		if (any || a->st.playing || dirty || toasting)
			dirty = present(a);
	}
}

/* Everything open_window and the app made, in the reverse order; SDL too. */
static void close_window(struct app *a)
{
	if (a) {
		km_view_app_free(a);
		km_draw_free(a->d);
		if (a->r)
			SDL_DestroyRenderer(a->r);
		if (a->win)
			SDL_DestroyWindow(a->win);
		free(a);
	}
	SDL_Quit();
}

int km_view_window(const struct km_era_list *eras, const struct km_view_exhibit *exhibits,
		   int nexhibits, int first, const struct km_view_host *host,
		   char *err, size_t errlen)
{
	if (!km_view_have_display()) {
		snprintf(err, errlen, "no display ($DISPLAY and $WAYLAND_DISPLAY are not set)");
		return -1;
	}
	if (!host || !host->rerun || !eras || !eras->n) {
		snprintf(err, errlen, "the museum window needs eras and a host that runs exhibits");
		return -1;
	}
	if (open_display(err, errlen) < 0)
		return -1;
	struct app *a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(err, errlen, "out of memory");
		SDL_Quit();
		return -1;
	}
	a->eras = eras;
	a->ex = exhibits;
	a->nex = exhibits ? nexhibits : 0;
	a->host = host;
	a->solo.title = "lockmuseum";
	if (first < 0 || first >= a->nex)
		first = 0;
	int rc = -1;
	if (open_window(a, first, err, errlen) == 0 &&
	    km_view_app_start(a, first, err, errlen) == 0) {
		run_loop(a);
		rc = 0;
	}
	close_window(a);
	return rc;
}
