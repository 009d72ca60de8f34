/*
 * view_state.h - what the visitor is looking at, and how input changes it.
 *
 * The view keeps two kinds of state apart, as SDL's own examples do:
 * the simulation (finished runs, indexed in a km_view_model, never
 * changed) and this: the visible time window, the playhead, the event in
 * focus, the overlays, the pending requests.  Input is applied by one
 * pure function, km_view_handle_event(state, event): no SDL calls, no
 * drawing, no clock, so a test feeds it synthetic events and checks the
 * result without a window.  Playback advances with km_view_tick(state,
 * seconds), also pure; the window loop calls it at a fixed step.
 *
 * A mode or era switch is a request (req and want_*) that the window loop
 * fulfils by asking its host for a new run, then rebinding the state to
 * that run's model with km_view_state_bind.
 *
 * The layout (where every panel and lane is) is a function of the output
 * size, the scale and the models shown; it lives here because input needs
 * it to know what was clicked, and the drawers read it from here.
 */
#ifndef KM_VIEW_VIEW_STATE_H
#define KM_VIEW_VIEW_STATE_H

#include <SDL.h>

#include "view_model.h"

struct km_era_list;

#define KM_VIEW_MAX_COMPARE 6
#define KM_VIEW_MAX_LOCK_LANES 6
#define KM_VIEW_MAX_COUNTER_LANES 5
#define KM_VIEW_MODES 6
/* task lanes shown before scrolling, unless the window has room for more */
#define KM_VIEW_TASK_LANES 8

/* violation rows of the stats panel that clicks can find */
#define KM_VIEW_VIOL_ROWS 64

/* The modes of keys 1-6, in order: native, cli, bkl, spinlock, semaphore, mutex. */
extern const int km_view_modes[KM_VIEW_MODES];

struct km_view_layout {
	float u;			/* scale: 1 for a 1280x800 window */
	SDL_Rect top;			/* title bar */
	SDL_Rect timeline;		/* axis, gutter and lanes */
	SDL_Rect axis;			/* time ticks, above the lanes */
	SDL_Rect gutter;		/* lane labels, left of the lanes */
	SDL_Rect lanes;			/* the bucketed drawing area */
	SDL_Rect legend;
	SDL_Rect event;			/* the event line */
	SDL_Rect side;			/* right column */
	SDL_Rect placard;
	SDL_Rect stats;
	SDL_Rect ribbon;

	/* CPU rows, inside lanes (y relative to the window) */
	int cpu_y, cpu_rows, row_h, row_gap, cpus_per_row;
	/* CPUs idle through the run (model->cpu_quiet) folded into the last
	 * row, as Perfetto folds empty tracks; 0: none folded (I unfolds).
	 * cpu_order lists the CPUs as the rows show them, the folded last;
	 * cpu_row is the row of each CPU */
	int cpu_fold;
	uint16_t cpu_order[KM_MAX_CPUS];
	int16_t cpu_row[KM_MAX_CPUS];
	/* lock lanes */
	int lock_y, lock_h, nlocks;
	/* counter sparklines */
	int ctr_y, ctr_h, nctrs;
	/* task lanes (view_task_lanes.c): a heading, then one lane a task */
	int task_y, task_head, task_h, ntasks;

	/* compare view: one panel per run, each with its CPU rows */
	int viol_item_h;		/* one violation: a line, two in projector mode */
	int ncmp;
	SDL_Rect cmp[KM_VIEW_MAX_COMPARE];
	int cmp_head;
	int cmp_rows[KM_VIEW_MAX_COMPARE], cmp_per_row[KM_VIEW_MAX_COMPARE];
	int cmp_row_h[KM_VIEW_MAX_COMPARE], cmp_gap[KM_VIEW_MAX_COMPARE];
	int cmp_lock_h[KM_VIEW_MAX_COMPARE];	/* its hottest lock's lane, or 0 */
	km_time cmp_end;		/* the shared time axis: 0 .. cmp_end */

	/* stats panel: the violations list, for clicks; row k spans
	 * viol_top[k] .. viol_top[k + 1] (window pixels) */
	int viol_y, viol_row_h, nviol_rows;
	int viol_top[KM_VIEW_VIOL_ROWS + 1];
	int outcome_y, outcome_h;	/* its outcome line: a click lists the checks */
	SDL_Rect side_tab;		/* projector mode: "V: the figures", or empty */
	/* play mode (view_play.c): the options of the question, one row
	 * each from play_y0, inside the placard's place; play_compact: the
	 * panel is too short for the title and the goal above two options
	 * (--scale 2 in 1280x800), so the question starts at its top */
	int play_y0, play_row_h, play_rows;
	bool play_compact;
	/* ribbon: x of 1 January 1991 and of 1 January 2024 */
	int rib_x0, rib_x1, rib_axis_y;
	int rib_rows;			/* rows of milestones: 3, or 0 when short
					 * (then no bars either: view_ribbon.c) */
};

/*
 * What only the drawer can measure, having the fonts, fed back into the
 * layout after a frame (km_view_measured): how tall the wrapped title
 * makes the top bar, how wide the gutter must be for the lanes' names
 * whole on a line, how tall a lane must be for its wrapped name, and where the stats panel's wrapped lines put its outcome
 * line and its violations.  Zero until the first frame; the layout
 * without them is the unwrapped one.  Positions are relative to the
 * stats panel's top, so that a move of the panel does not stale them.
 */
struct km_view_measure {
	int top_h;			/* the top bar, for the title's lines */
	int gutter_w;			/* the widest lock or counter lane label
					 * (name, kind, peak), on one line */
	int lock_h, ctr_h, task_h;	/* a lane, for its wrapped gutter label */
	int task_head;			/* the task lanes' heading, wrapped */
	int cmp_head;			/* a compare panel's wrapped headline */
	int help_pages;			/* the help, when it does not fit one */
	int stats_h;			/* the figures, wrapped, whole */
	int outcome_y, outcome_h;
	int nviol_rows;
	int viol_top[KM_VIEW_VIOL_ROWS + 1];
};

enum {
	KM_VREQ_RERUN = 1,		/* run again with want_mode, want_era */
	KM_VREQ_EXHIBIT = 2,		/* show exhibit want_exhibit */
	KM_VREQ_SCREENSHOT = 4,
	KM_VREQ_COMPARE = 8,		/* the compare view wants its runs */
	KM_VREQ_PLAY = 16,		/* play mode: play_cmd, play_arg */
};

/* What a play-mode request asks (view_play.c). */
enum km_view_play_cmd {
	KM_VPLAY_ENTER,			/* enter play mode: the first question */
	KM_VPLAY_LEAVE,			/* back to the exhibit's own run */
	KM_VPLAY_ANSWER,		/* play_arg 0: let the task go; k: other k first */
	KM_VPLAY_TO_END,		/* let every task go, to the end */
	KM_VPLAY_UNDO,
	KM_VPLAY_SAVE,			/* save the schedule */
};

struct km_view_state {
	int w, h;			/* output pixels */
	float dpi;			/* output pixels per window coordinate */
	struct km_view_layout lay;

	const struct km_view_model *model;	/* the run shown (not owned) */
	const struct km_view_model *cmp[KM_VIEW_MAX_COMPARE];
	int ncmp;
	const struct km_era_list *eras;
	int era;			/* index in eras */
	int mode;			/* KM_MODE_NATIVE or enum km_prim */
	int exhibit, nexhibits;

	km_time t0, t1;			/* visible window */
	km_time play;			/* the playhead: revealed up to here */
	size_t focus;			/* record the event line describes */
	bool has_focus;
	bool playing;
	int speed;			/* playback speed is speed_base * 2^speed */
	double speed_base;		/* simulated ns per wall second at speed 0 */

	bool help, compare, quit;
	int help_page;			/* projector mode: the help's page shown */
	float scale;			/* the visitor's type size: 1 as designed */
	bool projector;			/* high contrast, larger type, text wraps */
	bool figures;			/* projector mode: the side column shows the
					 * figures, not the placard (the V key) */
	struct km_view_measure meas;	/* the last frame's (see above) */
	int sel_lock;			/* model lock index, -1: the hottest */
	int mouse_x, mouse_y;		/* output pixels */
	bool has_hover;
	size_t hover;			/* record under the mouse */
	bool drag, dragged;
	int drag_x;
	km_time drag_t0, drag_t1;
	int placard_scroll;		/* pixels */
	int stats_scroll;		/* pixels: projector mode's figures */
	int task_scroll;		/* first task shown, in model->tasks.order */
	bool whole;			/* Z: the whole run, not the key moment */
	bool unfold_idle;		/* I: a lane for each idle CPU too */

	/* the inspector: what a click on a lock lane or a violation opened */
	enum { KM_INSPECT_NONE, KM_INSPECT_LOCK, KM_INSPECT_VIOLATION, KM_INSPECT_CHECKS,
	       KM_INSPECT_EVENT } inspect;	/* EVENT: the focus, with its source line */
	int inspect_lock;		/* model lock index */
	km_time inspect_t;		/* the instant clicked */
	size_t inspect_viol;		/* index into model->viols */
	unsigned inspect_serial;	/* bumped each time one opens */

	/* play mode: the visitor is the scheduler */
	bool play_mode;
	bool can_play;			/* the host makes play runs */
	int play_options;		/* rows of the question (1 + the tasks + the
					 * interrupts); 0: ended */
	int play_typed;			/* the digits typed toward a number that a
					 * longer one begins with (0: none) */
	int play_scroll;		/* the first option row shown */
	int play_cmd, play_arg;		/* what KM_VREQ_PLAY asks */

	unsigned req;			/* KM_VREQ_*, cleared by the window loop */
	int want_mode, want_era, want_exhibit;
};

/* A state for an output of @w x @h pixels (@dpi output pixels per window
 * coordinate), showing nothing yet. */
void km_view_state_init(struct km_view_state *s, const struct km_era_list *eras,
		        int w, int h, float dpi);

/**
 * km_view_state_bind - show @m, a run in era @era (index) and @mode.
 * The playhead keeps its time if it fits in the new run and goes to the
 * end if it was at the end, so flipping modes compares the same instant.
 * The window is zoomed so that typical CPU activity is a few pixels wide
 * but the whole run plays in at most a minute and a half, and follows
 * the playhead; playback crosses it in about ten seconds.
 */
void km_view_state_bind(struct km_view_state *s, const struct km_view_model *m,
			int era, int mode);

/* The compare view's runs (not owned); @n <= KM_VIEW_MAX_COMPARE. */
void km_view_state_set_compare(struct km_view_state *s, const struct km_view_model *const *m,
			       int n);

/* New output size; recomputes the layout. */
void km_view_state_resize(struct km_view_state *s, int w, int h, float dpi);

/* Apply one input event.  Pure: changes only @s. */
void km_view_handle_event(struct km_view_state *s, const SDL_Event *e);

/* Advance playback by @seconds of wall time.  Pure. */
void km_view_tick(struct km_view_state *s, double seconds);

/* Playback speed in simulated ns per wall second. */
double km_view_speed_ns(const struct km_view_state *s);

/* Time <-> x in the lanes (output pixels). */
int km_view_x_of(const struct km_view_state *s, km_time t);
km_time km_view_time_of(const struct km_view_state *s, int x);

/* Middle row (y, output pixels) of CPU @cpu's lane, or -1 when not shown. */
int km_view_cpu_y(const struct km_view_state *s, int cpu);
/* The CPU row CPU @cpu is drawn in (the folded row for an idle CPU). */
int km_view_cpu_row(const struct km_view_state *s, int cpu);
/* The CPUs of CPU row @row: lay.cpu_order[*lo .. *hi). */
void km_view_row_cpus(const struct km_view_state *s, int row, int *lo, int *hi);
/* Middle of the holder band of lock lane @lane (0 = the top lock lane). */
int km_view_lock_y(const struct km_view_state *s, int lane);
/* Middle of task lane @lane (0 = the top one shown), or -1. */
int km_view_task_y(const struct km_view_state *s, int lane);
/* x of the middle of @year on the era ribbon. */
int km_view_year_x(const struct km_view_state *s, double year);

/**
 * km_view_show_key_moment - zoom onto the run's key moment (the first
 * violation, else the first contention; view_marks.h), reveal it and put
 * the focus on it, paused.  With none, the start of the run.  Pure.
 */
void km_view_show_key_moment(struct km_view_state *s);

/* Top y of option row @i (0: let the task go) of play mode's question,
 * or -1 when it is not shown (not offered, or scrolled out of sight). */
int km_view_play_row_y(const struct km_view_state *s, int i);

/* A new question of @options rows (0: the run ended): nothing typed
 * toward it yet, its first rows in sight. */
void km_view_play_question(struct km_view_state *s, int options);

/* The exhibit index after @cur when stepping by @d among @n, wrapping. */
int km_view_wrap(int cur, int d, int n);

/* The moves the keys make (view_keys.c's table calls them): the end of
 * the run (or of the compared runs), one event forward or back, @t into
 * sight, Z's whole run or key moment, a request to play mode, a digit
 * typed at play's question.  Context: pure, as km_view_handle_event. */
km_time km_view_run_end(const struct km_view_state *s);
void km_view_step(struct km_view_state *s, int d);
void km_view_show_time(struct km_view_state *s, km_time t);
void km_view_toggle_whole(struct km_view_state *s);
void km_view_play_request(struct km_view_state *s, int cmd, int arg);
void km_view_play_digit(struct km_view_state *s, int digit);
/* Play mode: scroll the question's options by @d rows, within what there is. */
void km_view_play_scroll_by(struct km_view_state *s, int d);

/**
 * km_view_measured - take what a frame measured (@m); when it differs
 * from what the layout was made with, recompute the layout and return
 * true: the frame must be drawn again.  It settles on the second frame
 * (the measures depend on widths, which they do not change).
 */
bool km_view_measured(struct km_view_state *s, const struct km_view_measure *m);

/* Recompute the layout from the state (sizes, models, compare). */
void km_view_layout(struct km_view_state *s);

#endif /* KM_VIEW_VIEW_STATE_H */
