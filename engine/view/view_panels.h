/*
 * view_panels.h - the panels of a frame, one file each, and the frame
 * that composes them (view_frame.c).
 *
 * A panel draws with the primitives of view_draw.h and reads the frame's
 * inputs and the view state; it never calls the frame back.  The lanes'
 * pixel work is shared by the timeline and the compare view.
 */
#ifndef KM_VIEW_VIEW_PANELS_H
#define KM_VIEW_VIEW_PANELS_H

#include "view_draw.h"

/* One whole frame, then the overlays. */
void km_draw_frame(struct km_draw *d, const struct km_view_frame *f,
		   const struct km_view_state *st);

/* The parts, one file each. */
void km_draw_timeline(struct km_draw *d, const struct km_view_frame *f,
		      const struct km_view_state *st);
void km_draw_compare(struct km_draw *d, const struct km_view_frame *f,
		     const struct km_view_state *st);
void km_draw_legend(struct km_draw *d, const struct km_view_state *st);
void km_draw_ribbon(struct km_draw *d, const struct km_view_frame *f,
		    const struct km_view_state *st);
void km_draw_placard(struct km_draw *d, const struct km_view_frame *f,
		     const struct km_view_state *st);
/* Play mode's panel, in the placard's place (view_play.c). */
void km_draw_play(struct km_draw *d, const struct km_view_frame *f,
		  const struct km_view_state *st);
void km_draw_stats(struct km_draw *d, const struct km_view_frame *f,
		   const struct km_view_state *st);
void km_draw_help(struct km_draw *d, const struct km_view_state *st);

/* The era ribbon's milestone @i (0..), or NULL past the last: what the
 * ribbon labels, for a test that counts them. */
const char *km_view_milestone(int i);

/* A run's figures in one line: "ends at 12.3 ms, 31% spinning, ..." */
const char *km_view_headline(const struct km_view_model *m, char *buf, size_t len);
/* The lock panel's counts line: acquisitions, how many waited first (a
 * share of the acquisitions, never over 100%), and the waits that ended in
 * no acquisition (still waiting at the end, or given up).  Returns @buf. */
const char *km_view_lock_counts(const struct km_lockstat *s, char *buf, size_t len);

/* The lanes' pixel work, shared by the timeline and the compare view:
 * bucket every CPU of @m into @rows rows of d->px from row @y (relative to
 * the lanes' top), @per_row CPUs to a row, for the window [t0, t1).
 * Zoomed out, the columns are read from the run's summary (built on the
 * first call for this run and grouping: O(spans) once); zoomed in, from
 * the spans.  Either way a frame costs O(rows x columns), plus the spans
 * in view when they are fewer than a few a column. */
void km_draw_cpu_rows(struct km_draw *d, const struct km_view_model *m, int y, int rows,
		      int row_h, int gap, int per_row, km_time t0, km_time t1);
/* The same, the CPUs in rows in @order, its last @fold in one last row
 * (the idle CPUs folded: view_layout.c). */
void km_draw_cpu_rows_fold(struct km_draw *d, const struct km_view_model *m, int y, int rows,
			   int row_h, int gap, int per_row, const uint16_t *order, int fold,
			   km_time t0, km_time t1);

/* The task lanes (view_task_lanes.c): their pixels into d->px, with the
 * other lanes'; then, over them, the names and the locks waited on. */
void km_draw_task_pixels(struct km_draw *d, const struct km_view_state *st);
void km_draw_task_labels(struct km_draw *d, const struct km_view_state *st, int xplay);

/* The "DEADLOCK" stamp over the lanes' top right corner, drawn by the
 * frame when the run deadlocked (not in the compare view): true and its
 * rectangle in @r, else false (view_frame.c). */
bool km_draw_dead_stamp(struct km_draw *d, const struct km_view_state *st, SDL_Rect *r);
/* Where a name on a slice of a lane, the band [@y, @y + @h), must end at
 * the latest: @x1, no further than the lanes' right edge nor into the
 * DEADLOCK stamp -- a name is drawn whole in what is seen of its slice,
 * or not at all (view_frame.c). */
int km_draw_slice_end(struct km_draw *d, const struct km_view_state *st, int y, int h, int x1);

/* The measure() series of @m as CDFs, in @r (view_latency.c); nothing
 * when the run measured nothing or @r is too small. */
void km_draw_latency(struct km_draw *d, const struct km_view_model *m, const SDL_Rect *r);

/* The inspector box over the lanes, when one is open (view_inspect.c). */
void km_draw_inspector(struct km_draw *d, const struct km_view_state *st);

/* Violation markers on the axis and the lanes; a lost update's read, the
 * other write and the overwrite joined by arrows (view_violations.c). */
void km_draw_violations(struct km_draw *d, const struct km_view_state *st, int xplay);

/* The summary of @m grouped @per_row CPUs a row (the last @fold of @order
 * in a row of their own), from the cache or built now; NULL when it
 * cannot be built (then the spans are walked). */
const struct km_vm_summary *km_draw_summary(struct km_draw *d, const struct km_view_model *m,
					    int per_row, const uint16_t *order, int fold);

#endif /* KM_VIEW_VIEW_PANELS_H */
