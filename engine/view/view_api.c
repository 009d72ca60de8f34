/*
 * view_api.c - the view's one exported entry, for lockmuseum-view.so.
 *
 * The command line finds this table with dlsym(KM_VIEW_API_SYMBOL) when
 * it first needs to draw, or directly when the view is linked into the
 * same program (the unit tests, the command-line fuzzer).  See view.h.
 */
#include "view.h"
#include "view_plot.h"

static int plot_png(const void *table, const char *path, int w, int h, char *err,
		    size_t errlen)
{
	return km_view_plot_png(table, path, w, h, err, errlen);
}

const struct km_view_api km_view_api = {
	.set_datadir = km_view_set_datadir,
	.have_display = km_view_have_display,
	.set_scale = km_view_set_scale,
	.png = km_view_png,
	.png_compare = km_view_png_compare,
	.window = km_view_window,
	.plot_png = plot_png,
};
