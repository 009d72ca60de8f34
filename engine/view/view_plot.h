/*
 * view_plot.h - compare --plot: throughput and wait against CPU count.
 */
#ifndef KM_VIEW_VIEW_PLOT_H
#define KM_VIEW_VIEW_PLOT_H

#include <jansson.h>
#include <stddef.h>

/**
 * km_view_plot_png - draw the table of `lockmuseum compare` (its JSON
 * form: {"scenario", "runs": [{mode, era, cpus, acquisitions_per_s,
 * wait_avg_ns, outcome, ...}]}) as two charts, throughput and average
 * wait against the CPU count, one line per mode (and era), into a PNG of
 * @w x @h at @path (temporary file, then rename).  No display needed.
 * Returns 0, or -1 with @err.
 */
int km_view_plot_png(const json_t *table, const char *path, int w, int h, char *err,
		     size_t errlen);

#endif /* KM_VIEW_VIEW_PLOT_H */
