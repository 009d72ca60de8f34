/*
 * view_inspect.h - what the window says about a place rather than an
 * event: the hint for the lane under the pointer, and the inspector a
 * click opens (a lock at an instant: its holder and every waiter; a
 * violation: its whole explanation, never cut).
 *
 * Both are text made from the view state and its model, with no drawing,
 * so that the tests read exactly what a visitor would.  The inspector is
 * drawn as a box over the lanes by km_draw_inspector (view_inspect.c).
 */
#ifndef KM_VIEW_VIEW_INSPECT_H
#define KM_VIEW_VIEW_INSPECT_H

#include "view_state.h"

/**
 * km_view_hint - what happens at the pointer, in one line, for a place
 * that is not one event: a task lane ("t=1.2 ms creat/3: asleep on
 * dir->i_sem for 0.4 ms so far"), a lock lane ("held by ..., 3 waiting"),
 * a counter.  Returns false (and leaves @buf alone) anywhere else.
 */
bool km_view_hint(const struct km_view_state *s, char *buf, size_t len);

/**
 * km_view_inspect_text - the open inspector's text: a heading line, then
 * one line per fact, '\n' between lines.  Returns the length, or 0 when
 * no inspector is open (@buf is then "").
 */
size_t km_view_inspect_text(const struct km_view_state *s, char *buf, size_t len);

/*
 * For tests that drive a real window (tests/run_gui.sh): with the
 * environment variable LOCKMUSEUM_VIEW_DUMP set, the window prints to
 * stdout, whenever they change, the window's size and where the lanes
 * and markers are (in window coordinates, for xdotool) and the text of each inspector it
 * opens.  After each new set of places, the window also prints every run
 * of text of its next frame ("text: RUN", then "text: end"; see
 * km_text_log).  @memo remembers what was printed last; start it zeroed.
 */
struct km_view_dump_memo {
	bool on, checked;
	uint64_t serial;
	km_time t0, t1, play;
	int w, h;
	bool projector, figures, help, compare;
	int cpu_fold;
	unsigned inspect_serial;
	bool text_next;		/* the places changed: log the next frame's text */
};
void km_view_test_dump(const struct km_view_state *s, struct km_view_dump_memo *memo);

#endif /* KM_VIEW_VIEW_INSPECT_H */
