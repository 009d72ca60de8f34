/*
 * view_draw.h - what the drawers share: the renderer, the fonts, the
 * scratch memory, the primitives (view_draw.c), and one frame's worth of
 * const inputs.  The panels themselves are declared in view_panels.h.
 *
 * The same drawing code serves the window and the headless PNG: both
 * hand a renderer to km_draw_new (a window's, or a software renderer over
 * a surface).  A drawer reads a km_view_frame (the runs, the era list,
 * the exhibit) and the view state, and changes neither.  Scratch buffers
 * (the lanes' pixels, per-column accumulators, the placard's line
 * breaks) belong to the km_draw and are sized on resize, so a frame
 * allocates nothing once its strings are cached.
 */
#ifndef KM_VIEW_VIEW_DRAW_H
#define KM_VIEW_VIEW_DRAW_H

#include <SDL.h>

#include "view.h"
#include "view_model.h"
#include "view_palette.h"
#include "view_state.h"
#include "view_summary.h"
#include "view_text.h"

/* Summaries kept: the timeline's run and every compare run. */
#define KM_DRAW_SUMMARIES (KM_VIEW_MAX_COMPARE + 1)

struct km_play;

/* Play mode, as a frame shows it (view_play.c). */
struct km_view_play_frame {
	const struct km_play *play;	/* the decisions and the question */
	bool reached;			/* the run ended and reached the goal */
	const char *why;		/* ... in words */
	const char *save_path;		/* where W saves */
	bool saved;			/* it was saved there */
};

/* The inputs of one frame, all const. */
struct km_view_frame {
	const struct km_era_list *eras;
	const struct km_view_exhibit *ex;	/* may be NULL */
	int exhibit, nexhibits;
	const struct km_view_run *run;		/* the run shown */
	const struct km_view_run *cmp_runs;	/* the compare view's, or NULL */
	const char *const *cmp_why;		/* per compare run: why it is missing */
	int ncmp;
	const char *toast;			/* a passing message, or NULL */
	bool toast_bad;				/* ... telling of a refusal */
	const char *status;			/* e.g. "running 2009 / mutex..." */
	bool still;				/* a picture, not a window: no controls */
	const struct km_view_play_frame *play;	/* play mode, or NULL */
};

/* A laid-out placard: lines of text with their font and position. */
enum km_placard_line_kind {
	KM_LINE_TEXT,
	KM_LINE_CODE,
	KM_LINE_RULE,
	KM_LINE_LOOK,			/* in the "look" box */
};

struct km_placard_line {
	const char *s;			/* into km_placard_doc.text */
	uint32_t len;
	uint8_t font;			/* enum km_font */
	uint8_t kind;			/* enum km_placard_line_kind */
	int y, x;
};

struct km_placard_doc {
	char *text;			/* our copy, edited for display */
	size_t text_cap;
	struct km_placard_line *line;
	int nlines, cap;
	int height;
	/* what it was laid out from */
	const char *src_era, *src_ex, *src_look, *src_title;
	int width;
	float u;
	bool wrap_code;			/* projector mode: code lines wrap too */
};

struct km_draw {
	SDL_Renderer *r;
	struct km_text *tx;
	float u;

	/* the lanes' pixels, uploaded as one streaming texture */
	uint32_t *px;
	int px_w, px_h;
	SDL_Texture *tex;
	int tex_w, tex_h;
	float *acc;			/* per column: time in each state + irq-off */
	uint32_t *bctx;			/* per column: the longest-running context */
	km_time *blen;
	size_t *kidx;			/* per column edge: first bucket (summary) */
	double *edge;			/* per column edge: its time */
	int32_t *cnt;			/* per column: spans covering it whole,
					 * as differences (see accumulate_cpu) */
	uint32_t *fctx;			/* per column: first whole busy span's task */
	int acc_w;
	/* the CPU lanes' summaries (view_summary.h), built on first use for
	 * each run shown and grouping of CPUs; `next` is the one to replace */
	struct km_vm_summary sum[KM_DRAW_SUMMARIES];
	int sum_next;
	/* what the lanes' pixels were computed for */
	struct {
		const struct km_view_model *m, *cmp[KM_VIEW_MAX_COMPARE];
		uint64_t serial;	/* m's (see km_view_model.serial) */
		km_time t0, t1;
		SDL_Rect lanes;
		int ncmp;
		int task_scroll;	/* the first task lane's task */
		int cpu_fold;		/* idle CPUs folded into one row */
		bool valid;
	} key;

	struct km_placard_doc doc;
	/* what this frame measured, for the layout (km_view_measured) */
	struct km_view_measure meas;
	/* the task lanes' measures, kept while what they were made from
	 * holds: measuring hundreds of names every frame would cost
	 * milliseconds (view_task_lanes.c) */
	struct {
		const struct km_view_model *m;
		uint64_t serial;
		int gutter_w, lanes_w;
		float u;
		int task_h, task_head;
	} task_meas;
	bool arrows_hidden;		/* too many wake-ups in view to draw */
	bool stats_below;		/* projector figures: a block left for the wheel */
	char line[1024];		/* scratch for one formatted line */
};

struct km_draw *km_draw_new(SDL_Renderer *r, float u, char *err, size_t errlen);
void km_draw_free(struct km_draw *d);
/* Free the lanes' scratch buffers (px, acc, ...; they are sized again on
 * the next frame) and leave their pointers NULL. */
void km_draw_free_buffers(struct km_draw *d);
/* The state's scale changed (a resize): reopen fonts. */
int km_draw_rescale(struct km_draw *d, float u);

/* The assets folder, for the fonts. */
const char *km_view_assets_dir(void);

/* The primitives every panel draws with (view_draw.c). */
void km_draw_colour(struct km_draw *d, uint32_t rgb, uint8_t a);
void km_draw_fill(struct km_draw *d, int x, int y, int w, int h, uint32_t rgb);
void km_draw_frame_rect(struct km_draw *d, int x, int y, int w, int h, uint32_t rgb);
void km_draw_hline(struct km_draw *d, int x0, int x1, int y, uint32_t rgb);
void km_draw_vline(struct km_draw *d, int x, int y0, int y1, uint32_t rgb);
/* Draw @s left-aligned at (x, y), cut to fit @w pixels with an ellipsis. */
int km_draw_text_fit(struct km_draw *d, enum km_font f, const char *s, int x, int y, int w,
		     uint32_t rgb);
/*
 * Draw @s word-wrapped to @w pixels from (x, y), in at most @max_lines
 * lines of the font's height (the last one cut with an ellipsis if text
 * is still left); a word wider than @w is broken where it must be.
 * Returns the number of lines drawn.  For projector mode, where text
 * wraps rather than being cut.
 */
int km_draw_text_wrap(struct km_draw *d, enum km_font f, const char *s, int x, int y, int w,
		      int max_lines, uint32_t rgb);
/* The same, each line right-aligned on x + w (gutter labels). */
int km_draw_text_wrap_right(struct km_draw *d, enum km_font f, const char *s, int x, int y,
			    int w, int max_lines, uint32_t rgb);
/* How many lines km_draw_text_wrap makes of @s at @w pixels, unbounded. */
int km_draw_text_lines(struct km_draw *d, enum km_font f, const char *s, int w);
int km_draw_px(const struct km_draw *d, float v);

#endif /* KM_VIEW_VIEW_DRAW_H */
