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

#endif /* KM_VIEW_VIEW_TEXT_H */
