/*
 * view_text.h - fonts, and a cache of rendered strings.
 *
 * SDL_ttf renders a string into a new surface each time; doing that for
 * every label of every frame would allocate hundreds of times a frame.
 * The cache keeps each (string, font, colour) as a texture, so a frame
 * that shows what the last one showed allocates nothing; text that
 * changes every frame is drawn from cached glyphs instead.  See
 * view_text.c.
 */
#ifndef KM_VIEW_VIEW_TEXT_H
#define KM_VIEW_VIEW_TEXT_H

#include <SDL.h>
#include <stddef.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

enum km_font {
	KM_FONT_SMALL,		/* axis ticks, ribbon, legend */
	KM_FONT_BODY,		/* panels */
	KM_FONT_BOLD,		/* emphasis in panels */
	KM_FONT_HEAD,		/* panel headings */
	KM_FONT_TITLE,		/* the top bar */
	KM_FONT_MONO,		/* code on placards */
	KM_FONT_COUNT
};

enum km_align { KM_LEFT, KM_CENTRE, KM_RIGHT };

struct km_text;

/**
 * km_text_new - open the fonts under @assets_dir at scale @u (1 = the
 * sizes for a 1280x800 window) for drawing on @r.
 * Returns NULL with @err when a font cannot be opened.
 */
struct km_text *km_text_new(SDL_Renderer *r, const char *assets_dir, float u,
			    char *err, size_t errlen);
void km_text_free(struct km_text *t);

/* Reopen the fonts at a new scale (a resize); drops the cache. */
int km_text_rescale(struct km_text *t, float u);

/**
 * km_text_draw - draw @s (UTF-8) with its top at @y, aligned on @x.
 * Returns the width drawn, in pixels.  Allocates only when this string
 * in this font and colour is not cached yet.
 */
int km_text_draw(struct km_text *t, enum km_font f, const char *s, int x, int y,
		 uint32_t rgb, enum km_align a);

/**
 * km_text_draw_fast - draw @s left-aligned at (x, y) glyph by glyph from a
 * per-font glyph cache, cut with an ellipsis at @maxw pixels.  For text
 * that changes every frame (the playhead's time, the event line): it
 * never allocates once the glyphs are cached.  ASCII and the few symbols
 * the view uses; other characters are drawn as '?'.  Returns the width.
 */
int km_text_draw_fast(struct km_text *t, enum km_font f, const char *s, int x, int y,
		      uint32_t rgb, int maxw);

/* Width of @s in pixels (no drawing, no allocation). */
int km_text_width(struct km_text *t, enum km_font f, const char *s);
/* Height of a line of @f. */
int km_text_height(struct km_text *t, enum km_font f);

/* The longest prefix of @s (in bytes, at a UTF-8 boundary) that fits in
 * @w pixels, or 0. */
size_t km_text_fit(struct km_text *t, enum km_font f, const char *s, size_t len, int w);

/*
 * km_text_log - print every run of text drawn from now on to @f, one
 * "text: RUN" line each, as it is drawn (a run cut with an ellipsis ends
 * with it); NULL stops.  For the window's tests (LOCKMUSEUM_VIEW_DUMP):
 * what a visitor can read, word for word.
 */
void km_text_log(struct km_text *t, FILE *f);

/*
 * The record of placed text: for the tests that read back what a frame
 * shows (tests/unit/test_view_text_fit.c).  While on, every run of text
 * drawn is kept with the rectangle it was drawn in, the clip rectangle
 * in force (the whole output when none), its font and role, and whether
 * it was cut with an ellipsis; every filled rectangle drawn is kept too,
 * in order, so that text painted over can be found.  The record is the
 * process's (a picture makes and frees its own renderer), holds the last
 * frame only (km_text_record_frame empties it), and costs nothing off.
 */
enum km_text_role {
	KM_ROLE_TEXT,			/* anything; HEAD and TITLE type is a heading */
	KM_ROLE_HEADING,		/* a heading in another font */
	KM_ROLE_VERDICT,		/* how a run ended: outcome, checks,
					 * violations, the CPU split */
	KM_ROLE_FIGURE,			/* a figure of the stats panel: a lock's
					 * counts, waits, holds, bounces */
	KM_ROLE_FREE,			/* may be cut: pointing tells it whole */
	KM_ROLE_NAME,			/* a lane's name in the gutter: whole */
	KM_ROLE_SLICE,			/* a name on a slice of a lane: inside
					 * the lanes, never past their edge */
	KM_ROLE_KEYS,			/* the keys a panel names (play's "U:
					 * undo ..."): whole */
};

struct km_text_box {
	char *s;			/* NULL: a filled rectangle */
	SDL_Rect r;			/* where */
	SDL_Rect clip;			/* the clip in force */
	uint8_t font, role;
	bool cut;			/* ends in an ellipsis the drawer added */
	bool picture;			/* (no text) the lanes' picture, not a fill */
};

void km_text_record(bool on);
/* A new frame: forget the last one's boxes. */
void km_text_record_frame(void);
/* The boxes of the frame drawn last, in drawing order. */
const struct km_text_box *km_text_boxes(size_t *n);
/* A filled rectangle @r drawn on @rd (view_draw.c), or a @picture. */
void km_text_record_fill(SDL_Renderer *rd, const SDL_Rect *r, bool picture);
/* The role of the text drawn from now on; returns the previous one. */
enum km_text_role km_text_role(struct km_text *t, enum km_text_role role);
/* The next text drawn is a cut one (km_draw_text_fit's ellipsis). */
void km_text_mark_cut(struct km_text *t);

#endif /* KM_VIEW_VIEW_TEXT_H */
