/*
 * view_fixture.h - what the view's unit tests share: the environment (no
 * display, the source tree as the data folder), the eras, and a finished
 * run of one of the small scenarios in this folder, with its trace.
 *
 * Included by tests/unit/test_view_*.c; static inline functions only, so each
 * test binary gets its own copy and nothing here is linked twice.
 */
#ifndef KM_TESTS_VIEW_FIXTURE_H
#define KM_TESTS_VIEW_FIXTURE_H

#include "../unit/test.h"

#include "cli/session.h"
#include "view/view_render.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct vfx {
	struct km_era_list eras;
	struct km_session s;
	struct km_view_model m;
	struct km_view_run run;
	bool ran, built;
};

/* No display, and the source tree (where the tests run) as the data
 * folder, unless the caller said otherwise.  Must run before anything
 * asks km_datadir(), which remembers its first answer. */
static inline void vfx_env(void)
{
	setenv("SDL_VIDEODRIVER", "dummy", 0);
	if (!getenv("LOCKMUSEUM_DATA")) {
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof(cwd)))
			setenv("LOCKMUSEUM_DATA", cwd, 1);
	}
	km_view_set_datadir(getenv("LOCKMUSEUM_DATA"));
}

/* Run tests/view/@file in @era (NULL: its own) under @mode, trace kept. */
static inline int vfx_setup(struct vfx *f, const char *file, const char *era, int mode)
{
	char err[1024];
	memset(f, 0, sizeof(*f));
	vfx_env();
	if (km_load_eras(&f->eras, err, sizeof(err)) < 0) {
		fprintf(stderr, "eras: %s\n", err);
		return -1;
	}
	static char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/tests/view/%s", km_datadir(), file);
	struct km_run_request rq;
	km_run_request_init(&rq);
	rq.file = path;
	rq.era = era;
	rq.mode = mode;
	rq.store_trace = true;
	int rc = km_session_run(&f->s, &f->eras, &rq);
	f->ran = true;
	if (rc == 2) {
		fprintf(stderr, "%s: %s\n", file, f->s.ri.reason);
		return -1;
	}
	if (km_vm_build(&f->m, &f->s.ri, err, sizeof(err)) < 0) {
		fprintf(stderr, "model: %s\n", err);
		return -1;
	}
	f->built = true;
	f->run.ri = &f->s.ri;
	return 0;
}

static inline void vfx_teardown(struct vfx *f)
{
	if (f->built)
		km_vm_free(&f->m);
	if (f->ran)
		km_session_free(&f->s);
	km_eras_free(&f->eras);
}

/* The id of the context called @name, or KM_TR_NONE. */
static inline uint32_t vfx_ctx(const struct vfx *f, const char *name)
{
	const struct km_sim *sim = f->s.ri.sim;
	for (uint32_t i = 0; i < sim->ctxs.n; i++)
		if (km_ctx_name(sim->ctxs.v[i]) && !strcmp(km_ctx_name(sim->ctxs.v[i]), name))
			return i;
	return KM_TR_NONE;
}

/* A pixel of an ARGB8888 surface, as 0xRRGGBB. */
static inline uint32_t vfx_pixel(const SDL_Surface *s, int x, int y)
{
	const uint8_t *row = (const uint8_t *)s->pixels + (size_t)y * (size_t)s->pitch;
	return ((const uint32_t *)row)[x] & 0xFFFFFF;
}

/* How many pixels of @r are exactly @rgb. */
static inline int vfx_count(const SDL_Surface *s, const SDL_Rect *r, uint32_t rgb)
{
	int n = 0;
	for (int y = r->y; y < r->y + r->h; y++)
		for (int x = r->x; x < r->x + r->w; x++)
			n += vfx_pixel(s, x, y) == rgb;
	return n;
}

/* How many pixels of @r are dark (text, mostly). */
static inline int vfx_dark(const SDL_Surface *s, const SDL_Rect *r)
{
	int n = 0;
	for (int y = r->y; y < r->y + r->h; y++)
		for (int x = r->x; x < r->x + r->w; x++) {
			uint32_t p = vfx_pixel(s, x, y);
			unsigned luma = (((p >> 16) & 255) * 3 + ((p >> 8) & 255) * 6 + (p & 255)) / 10;
			n += luma < 90;
		}
	return n;
}

/* The visitor's input, as SDL delivers it to the window. */
static inline void vfx_key(struct km_view_state *st, SDL_Keycode k)
{
	SDL_Event e;
	memset(&e, 0, sizeof(e));
	e.type = SDL_KEYDOWN;
	e.key.keysym.sym = k;
	km_view_handle_event(st, &e);
}

static inline void vfx_mouse(struct km_view_state *st, Uint32 type, int x, int y)
{
	SDL_Event e;
	memset(&e, 0, sizeof(e));
	e.type = type;
	if (type == SDL_MOUSEMOTION) {
		e.motion.x = x;
		e.motion.y = y;
	} else {
		e.button.button = SDL_BUTTON_LEFT;
		e.button.x = x;
		e.button.y = y;
	}
	km_view_handle_event(st, &e);
}

static inline void vfx_click(struct km_view_state *st, int x, int y)
{
	vfx_mouse(st, SDL_MOUSEBUTTONDOWN, x, y);
	vfx_mouse(st, SDL_MOUSEBUTTONUP, x, y);
}

#endif /* KM_TESTS_VIEW_FIXTURE_H */
