/*
 * view_source.h - the scenario line a task was running, for a selected
 * event.
 *
 * The host notes, beside the trace, the line of the scenario each
 * context called an operation from (struct km_srcline, when it changes).
 * The line a context was at when a record was made is its last note at or
 * before the record.  This indexes the notes by context, once per run,
 * and keeps the scenario file's text, so that the window can show
 * "scripts/inode.lua:42  down(d.i_sem)" for the event a visitor chose.
 *
 * Plain data, no SDL; part of km_view_model.  A file that cannot be read
 * (moved since the run) leaves the line numbers without their text.
 */
#ifndef KM_VIEW_VIEW_SOURCE_H
#define KM_VIEW_VIEW_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "../trace.h"

struct km_vm_source {
	const struct km_srcline *notes;	/* the run's, not owned */
	uint32_t *by_ctx;		/* indices into notes, context by context */
	size_t *first;			/* nctx + 1 offsets into by_ctx */
	uint32_t nctx;
	char *text;			/* the file, '\0' for each end of line */
	const char **line;		/* line n (1-based) is line[n - 1] */
	int nlines;
};

/* Index @n notes of @nctx contexts and read @file.  Returns 0, or -1 out
 * of memory (then @s is empty; km_vm_source_free is still safe). */
int km_vm_source_build(struct km_vm_source *s, const struct km_srcline *notes, size_t n,
		       uint32_t nctx, const char *file);
void km_vm_source_free(struct km_vm_source *s);

/* The line @ctx was at, at @t: its number, and its text in @text (NULL
 * when the file could not be read), or 0 when nothing was noted. */
int km_vm_source_at(const struct km_vm_source *s, uint32_t ctx, km_time t, const char **text);

#endif /* KM_VIEW_VIEW_SOURCE_H */
