/*
 * view_png.c - the museum without a display: one frame to a PNG.
 *
 * SDL's software renderer draws into a plain surface
 * (SDL_CreateSoftwareRenderer), so the very code that draws the window
 * draws the PNG, with no video driver at all: this works on a server, in
 * a container, in CI.  The still shows the whole run, revealed, with the
 * event line on its most telling event, which is what a reader of a
 * report wants to see.
 *
 * The file is written next to its destination under a temporary name and
 * renamed into place, so a tour writing dozens of pictures never leaves a
 * truncated one behind after an interruption.
 */
#include "view_render.h"
#include "view_marks.h"

#include "../era.h"
#include "../report/out_file.h"

#include <SDL_image.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

int km_view_era_index(const struct km_era_list *eras, const struct km_era *era)
{
	if (!eras || !era)
		return -1;
	for (int i = 0; i < eras->n; i++)
		if (!strcmp(eras->v[i].id, era->id))
			return i;
	return -1;
}

void km_view_state_still(struct km_view_state *st, const struct km_view_model *m)
{
	st->t0 = 0;
	st->t1 = m && m->end > 0 ? m->end : 1;
	st->play = st->t1;
	st->playing = false;
	st->has_focus = false;
	if (!m || !m->nrecs)
		return;
	/* the window's key moment: a lost update, else the first violation,
	 * else the first contention (view_marks.c) */
	size_t rec;
	if (km_vm_key_moment(m, &rec) != KM_VM_KEY_NONE) {
		st->focus = rec;
		st->has_focus = true;
	}
}

SDL_Surface *km_view_render_surface(const struct km_view_frame *f,
				    const struct km_view_state *st, char *err, size_t errlen)
{
	SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, st->w, st->h, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!s) {
		snprintf(err, errlen, "cannot make a %dx%d surface: %s", st->w, st->h, SDL_GetError());
		return NULL;
	}
	SDL_Renderer *r = SDL_CreateSoftwareRenderer(s);
	if (!r) {
		snprintf(err, errlen, "no software renderer: %s", SDL_GetError());
		SDL_FreeSurface(s);
		return NULL;
	}
	struct km_draw *d = km_draw_new(r, st->lay.u, err, errlen);
	if (!d) {
		SDL_DestroyRenderer(r);
		SDL_FreeSurface(s);
		return NULL;
	}
	/* what wraps is measured while drawing (km_view_measured): the
	 * picture is the frame drawn once the layout has taken it */
	struct km_view_state settled = *st;
	km_draw_frame(d, f, &settled);
	for (int i = 0; i < 2 && km_view_measured(&settled, &d->meas); i++) {
		d->key.valid = false;		/* the lanes moved: their pixels too */
		km_draw_frame(d, f, &settled);
	}
	SDL_RenderPresent(r);
	km_draw_free(d);
	SDL_DestroyRenderer(r);
	return s;
}

/* The PNG writer does not report every short write (a full disk, a
 * file-size limit): a complete PNG ends with its IEND chunk.  Read back
 * through the temporary's own descriptor, never by name. */
static bool png_complete(FILE *f)
{
	unsigned char tail[12];
	return fflush(f) == 0 && fseek(f, -12, SEEK_END) == 0 &&
	       fread(tail, 1, 12, f) == 12 && !memcmp(tail + 4, "IEND", 4);
}

/* Why a write stopped short, when stdio has forgotten (its errno is long
 * gone): one more byte at the end of the temporary (removed anyway) says
 * ENOSPC or EFBIG.  0: it went in, the cause is not known. */
static int short_write_errno(FILE *f)
{
	struct stat st;
	char b = 0;
	if (fstat(fileno(f), &st) < 0)
		return 0;
	return pwrite(fileno(f), &b, 1, st.st_size) < 0 ? errno : 0;
}

int km_view_save_png(SDL_Surface *s, const char *path, char *err, size_t errlen)
{
	struct km_out_file out;
	if (km_out_open(&out, path, err, errlen) < 0)
		return -1;
	SDL_RWops *rw = SDL_RWFromFP(out.f, SDL_FALSE);
	if (!rw || IMG_SavePNG_RW(s, rw, 1) < 0) {
		snprintf(err, errlen, "cannot write: %s", IMG_GetError());
		km_out_abort(&out);
		return -1;
	}
	if (!out.in_place && !png_complete(out.f)) {
		int e = short_write_errno(out.f);
		if (e)
			snprintf(err, errlen, "cannot write: %s", strerror(e));
		else
			snprintf(err, errlen, "cannot write completely (disk full, or a file-size "
				 "limit?)");
		km_out_abort(&out);
		return -1;
	}
	return km_out_commit(&out, err, errlen);
}

int km_view_png(const struct km_era_list *eras, const struct km_view_exhibit *ex,
		const struct km_view_run *run, const char *path, int w, int h,
		char *err, size_t errlen)
{
	if (w < 320 || h < 240 || w > 16384 || h > 16384) {
		snprintf(err, errlen, "--size %dx%d: from 320x240 to 16384x16384", w, h);
		return -1;
	}
	if (!run->ri || !run->ri->sim) {
		snprintf(err, errlen, "no run to draw");
		return -1;
	}
	struct km_view_model model;
	if (km_vm_build(&model, run->ri, err, errlen) < 0)
		return -1;
	struct km_view_state st;
	km_view_state_init(&st, eras, w, h, 1.0f);
	km_view_state_bind(&st, &model, km_view_era_index(eras, model.ri->era), model.ri->mode);
	km_view_state_still(&st, &model);
	struct km_view_frame f = { .eras = eras, .ex = ex, .run = run, .still = true };
	int rc = -1;
	SDL_Surface *s = km_view_render_surface(&f, &st, err, errlen);
	if (s) {
		rc = km_view_save_png(s, path, err, errlen);
		SDL_FreeSurface(s);
	}
	km_vm_free(&model);
	return rc;
}

int km_view_png_compare(const struct km_era_list *eras, const struct km_view_exhibit *ex,
			const struct km_view_run *runs, int n, int main, const char *path,
			int w, int h, char *err, size_t errlen)
{
	if (n < 1 || n > KM_VIEW_MAX_COMPARE || main < 0 || main >= n) {
		snprintf(err, errlen, "%d runs to compare: from 1 to %d", n, KM_VIEW_MAX_COMPARE);
		return -1;
	}
	if (n == 1)
		return km_view_png(eras, ex, &runs[0], path, w, h, err, errlen);
	if (w < 320 || h < 240 || w > 16384 || h > 16384) {
		snprintf(err, errlen, "--size %dx%d: from 320x240 to 16384x16384", w, h);
		return -1;
	}
	struct km_view_model model[KM_VIEW_MAX_COMPARE];
	const struct km_view_model *mp[KM_VIEW_MAX_COMPARE];
	int built = 0, rc = -1;
	for (; built < n; built++) {
		if (!runs[built].ri || !runs[built].ri->sim) {
			snprintf(err, errlen, "no run to draw");
			goto out;
		}
		if (km_vm_build(&model[built], runs[built].ri, err, errlen) < 0)
			goto out;
		mp[built] = &model[built];
	}
	struct km_view_state st;
	km_view_state_init(&st, eras, w, h, 1.0f);
	km_view_state_bind(&st, &model[main], km_view_era_index(eras, model[main].ri->era),
			   model[main].ri->mode);
	km_view_state_still(&st, &model[main]);
	st.compare = true;
	km_view_state_set_compare(&st, mp, n);
	struct km_view_frame f = { .eras = eras, .ex = ex, .run = &runs[main], .cmp_runs = runs,
				   .ncmp = n, .still = true };
	SDL_Surface *s = km_view_render_surface(&f, &st, err, errlen);
	if (s) {
		rc = km_view_save_png(s, path, err, errlen);
		SDL_FreeSurface(s);
	}
out:
	for (int k = 0; k < built; k++)
		km_vm_free(&model[k]);
	return rc;
}
