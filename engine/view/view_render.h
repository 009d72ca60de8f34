/*
 * view_render.h - drawing a frame without a window: into a surface, into
 * a PNG.  Used by km_view_png, by the window's screenshot key, and by the
 * render tests, which inspect the surface's pixels.
 */
#ifndef KM_VIEW_VIEW_RENDER_H
#define KM_VIEW_VIEW_RENDER_H

#include "view_panels.h"

/* Index of @era in @eras (by id), or -1. */
int km_view_era_index(const struct km_era_list *eras, const struct km_era *era);

/**
 * km_view_state_still - set @st up for a still picture of @m: the whole
 * run in view and revealed, the focus on its most telling event (the
 * first violation, else the first contention, else nothing).
 */
void km_view_state_still(struct km_view_state *st, const struct km_view_model *m);

/**
 * km_view_render_surface - draw one frame of @f as @st says, with the
 * software renderer, into a new ARGB8888 surface of st->w x st->h.
 * Returns the surface (free with SDL_FreeSurface), or NULL with @err.
 */
SDL_Surface *km_view_render_surface(const struct km_view_frame *f,
				    const struct km_view_state *st, char *err, size_t errlen);

/* Write @s as a PNG: to a temporary file next to @path, then renamed
 * into place, so a reader never sees half a picture.  0 or -1 with @err. */
int km_view_save_png(SDL_Surface *s, const char *path, char *err, size_t errlen);

#endif /* KM_VIEW_VIEW_RENDER_H */
