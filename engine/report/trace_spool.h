/*
 * trace_spool.h - a run's trace records on disk, for an export after it.
 *
 * `--trace FILE` used to keep every record of the run in memory (32 bytes
 * each) until the exporters' two passes: a long run's memory grew with
 * its length.  A spool is a trace sink (trace.h) that appends each record
 * to a scratch file as it is emitted, through a small buffer, so the run's
 * memory stays flat however long it goes; the exporters then read the
 * file sequentially, twice, and keep the end times of their lock slices
 * in a second scratch file (trace_export.c).  The files are removed from
 * the folder the moment they are made: nothing is left behind by an
 * error, a Ctrl-C or a kill -9, and nobody else can open them.
 *
 * The spool is beside the destination (the disk the user chose to write
 * to, not a /tmp that may be memory), or in $TMPDIR (else /tmp) when the
 * destination is a device or a FIFO.
 *
 * Writing cannot fail the run: the first error (ENOSPC, EFBIG under a
 * file-size limit) is remembered, later records are only counted, and the
 * export says what went wrong.
 */
#ifndef KM_REPORT_TRACE_SPOOL_H
#define KM_REPORT_TRACE_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../trace.h"

struct km_trace_spool {
	struct km_trace_sink sink;	/* give &sink to the run (km_config) */
	int fd;				/* the records, -1 when not open */
	int scratch_fd;			/* the exporters' slice ends */
	struct km_trace_rec *buf;	/* records not written yet */
	size_t used;
	uint64_t n;			/* records spooled (buffered or written) */
	uint64_t limit;			/* spool only the first `limit`; 0: all */
	bool truncated;			/* records came past the limit */
	km_time last_time;		/* of the last record spooled */
	int err;			/* errno of the first failed write, or 0 */
};

/**
 * km_trace_spool_open - make the scratch files for a trace to be written
 * to @dest, keeping at most @limit records (0: all).
 *
 * Returns 0, or -1 with a one-line reason in @err; then @sp is closed.
 * Context: before the run; not from a signal handler.
 */
int km_trace_spool_open(struct km_trace_spool *sp, const char *dest, uint64_t limit,
			char *err, size_t errlen);

/**
 * km_trace_spool_flush - write out what is buffered.  Returns 0, or -1
 * with the first write error's errno in sp->err (a sticky error).
 */
int km_trace_spool_flush(struct km_trace_spool *sp);

/**
 * km_trace_spool_read - read up to @n records from record @first into
 * @dst.  Returns how many were read (0 at the end), or -1 with errno set.
 * Context: after km_trace_spool_flush().
 */
ssize_t km_trace_spool_read(const struct km_trace_spool *sp, uint64_t first,
			    struct km_trace_rec *dst, size_t n);

/** km_trace_spool_close - close the files (already unlinked) and free. */
void km_trace_spool_close(struct km_trace_spool *sp);

#endif /* KM_REPORT_TRACE_SPOOL_H */
