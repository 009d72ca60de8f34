/*
 * view.h - the museum floor: what a visitor sees, drawn with SDL2.
 *
 * The view reads finished runs -- a simulator whose trace was stored
 * (km_config.store_trace) and its report info -- through const pointers,
 * and never changes them.  Switching the mode or the era is a new run
 * with the same seed, asked of the caller through km_view_host.rerun.
 *
 * Only this folder includes SDL.
 */
#ifndef KM_VIEW_VIEW_H
#define KM_VIEW_VIEW_H

#include "../era.h"
#include "../report/report.h"

/* The most runs the compare view shows side by side (view_state.h
 * defines it the same). */
#define KM_VIEW_MAX_COMPARE 6

/* One exhibit of the tour: a scenario in an era, in one or more modes. */
struct km_view_exhibit {
	const char *file;		/* scenario path */
	const char *era;		/* era id */
	const int *modes;		/* modes to contrast (first is shown) */
	int nmodes;
	const char *title;
	const char *placard;		/* the exhibit's text (markdown-ish) */
	const char *look;		/* one sentence: what to look at */
	const void *host;		/* the host's own record of it; the view ignores it */
};

/* One finished run, as the view needs it. */
struct km_view_run {
	const struct km_run_info *ri;	/* ri->sim has its trace stored */
	const char *era_placard;	/* text of the era's placard, or NULL */
	void *handle;			/* the host's, for release; the view ignores it */
};

struct km_play;

/* What the window asks of its caller. */
struct km_view_host {
	void *ud;
	/* Run exhibit @ex (or the current one) in @era with @mode; fill @out.
	 * Returns 0, or -1 with a message in @err.  The previous run stays
	 * valid until the next call. */
	int (*rerun)(void *ud, const struct km_view_exhibit *ex, const char *era, int mode,
		     struct km_view_run *out, char *err, size_t errlen);
	/* Optional.  When given, a run stays valid until the view releases it,
	 * rather than until the next rerun: the compare view shows several
	 * runs at once and needs that.  Without it there is no compare view. */
	void (*release)(void *ud, struct km_view_run *run);
	/* Optional: has the user asked the program to stop (SIGINT, SIGTERM)?
	 * The window checks it at least every 100 ms and closes. */
	bool (*interrupted)(void *ud);
	/* Optional: play mode, where the visitor is the scheduler (key G).
	 * Run exhibit @ex in @era with @mode as rerun does, with the chooser
	 * of @play (../report/play_state.h: km_play_begin, then km_play_end):
	 * the run either stops at the next question (play->paused; the run
	 * has its trace up to there) or ends.  Returns 0 with @out, which the
	 * view releases as any other, or -1 with @err.  Without it the window
	 * has no play mode. */
	int (*play_run)(void *ud, const struct km_view_exhibit *ex, const char *era, int mode,
			struct km_play *play, struct km_view_run *out, char *err, size_t errlen);
	/* Save the decisions of @play, made on @run, as the schedule file
	 * @path.  Returns 0, or -1 with @err.  Required with play_run. */
	int (*play_save)(void *ud, const struct km_play *play, const struct km_view_run *run,
			 const char *path, char *err, size_t errlen);
	bool play_first;		/* open in play mode */
	const char *play_save_path;	/* where play mode saves; NULL:
					 * out/<scenario>.schedule */
};

/* Where assets/ (fonts) is: the data folder.  Call before drawing; when
 * never called, $LOCKMUSEUM_DATA, else the current folder, is used. */
void km_view_set_datadir(const char *dir);

/**
 * km_view_png - draw @run into a PNG
 * of @w x @h pixels at @path, with the software renderer (no display).
 * Writes to a temporary file in the same folder and renames it into
 * place.  Returns 0 or -1 with @err.
 */
int km_view_png(const struct km_era_list *eras, const struct km_view_exhibit *ex,
		const struct km_view_run *run, const char *path, int w, int h,
		char *err, size_t errlen);

/**
 * km_view_png_compare - draw @n runs of one exhibit side by side into a
 * PNG, as the compare view shows them (Tab): @runs[@main] in the figures
 * panel and the title, every run a panel of its own, in @runs' order.
 * For an exhibit whose lesson is in more than one mode.  @n from 1 to
 * KM_VIEW_MAX_COMPARE.  Returns 0 or -1 with @err.
 */
int km_view_png_compare(const struct km_era_list *eras, const struct km_view_exhibit *ex,
			const struct km_view_run *runs, int n, int main, const char *path,
			int w, int h, char *err, size_t errlen);

/**
 * km_view_window - the interactive museum, starting at exhibit @first of
 * @exhibits.  Returns when the visitor quits: 0, or -1 with @err (no
 * display, SDL failure).
 */
int km_view_window(const struct km_era_list *eras, const struct km_view_exhibit *exhibits,
		   int nexhibits, int first, const struct km_view_host *host,
		   char *err, size_t errlen);

/* Is there a display to open a window on? ($DISPLAY or $WAYLAND_DISPLAY) */
bool km_view_have_display(void);

/*
 * km_view_set_scale - the size of type (and of everything with it) in
 * the windows and pictures made from now on: 1 as designed, 2 twice as
 * large.  Above 1 they open in projector mode: high contrast, and text
 * that wraps rather than being cut (the L key toggles it in a window).
 * @scale outside 0.5 .. 4 is clamped.
 */
void km_view_set_scale(float scale);

/*
 * The view as a library.  Only drawing needs SDL, and SDL with its fonts
 * and image codecs costs a process some 20 ms to load: the view is built
 * as lockmuseum-view.so, which the command line opens (dlopen) only when
 * a window or a picture is asked for, so that a headless run loads no
 * SDL library at all.  km_view_api is the library's one entry: these are
 * the view's functions above, plus km_view_plot_png (view_plot.h).  The
 * library uses the program's own core and reports (the program exports
 * its symbols to it); it owns nothing else.
 */
struct km_view_api {
	void (*set_datadir)(const char *dir);
	bool (*have_display)(void);
	void (*set_scale)(float scale);
	int (*png)(const struct km_era_list *eras, const struct km_view_exhibit *ex,
		   const struct km_view_run *run, const char *path, int w, int h,
		   char *err, size_t errlen);
	int (*png_compare)(const struct km_era_list *eras, const struct km_view_exhibit *ex,
			   const struct km_view_run *runs, int n, int main, const char *path,
			   int w, int h, char *err, size_t errlen);
	int (*window)(const struct km_era_list *eras, const struct km_view_exhibit *exhibits,
		      int nexhibits, int first, const struct km_view_host *host,
		      char *err, size_t errlen);
	/* a json_t *, as void * to keep jansson out of this header */
	int (*plot_png)(const void *table, const char *path, int w, int h,
			char *err, size_t errlen);
};

#define KM_VIEW_API_SYMBOL "km_view_api"
extern const struct km_view_api km_view_api;

#endif /* KM_VIEW_VIEW_H */
