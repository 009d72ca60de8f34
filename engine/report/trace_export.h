/*
 * trace_export.h - a run's stored trace as files that trace viewers open.
 *
 * Two formats, both written record by record as the trace is walked, so
 * a run of millions of records never becomes one tree in memory:
 *
 *  - Chrome trace-event JSON (object form), which Perfetto and
 *    chrome://tracing open: a process "CPUs" with one thread per CPU
 *    showing what runs there, one thread per CPU for interrupts-off
 *    stretches, and a process named after the scenario with one thread
 *    per task (and per interrupt source) carrying its lock waits and
 *    holds, counters, instants and wake-up arrows;
 *  - ftrace text, as /sys/kernel/tracing/trace prints it (sched_switch,
 *    sched_waking, irq_handler_entry/exit and tracing_mark_write B/E/C
 *    marks), which Perfetto imports as real per-CPU scheduling tracks.
 *
 * The records come from a spool (trace_spool.h: the run handed them to
 * it as they were emitted, and memory stays flat however long the run),
 * or, without one, from the run's stored trace (store_trace).  Both give
 * the same bytes.  A truncated trace (a limit reached) is written up to
 * its last record and says so; what is still open then is closed at that
 * record's time.
 * The layout and the reasons for it are described in trace_export.c.
 */
#ifndef KM_REPORT_TRACE_EXPORT_H
#define KM_REPORT_TRACE_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

struct km_trace_spool;

/**
 * km_trace_write_chrome - write @ri's trace, from @spool if not NULL,
 * else from the run's stored trace, to @out as Chrome trace-event JSON:
 * {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}.
 * Returns 0, or -1 with a one-line reason in @err (no trace stored, out
 * of memory, a write error, the spool's own write error).  @out is
 * written but not closed or flushed beyond what stdio does; on -1 its
 * content is partial.
 */
int km_trace_write_chrome(const struct km_run_info *ri, struct km_trace_spool *spool, FILE *out,
			  char *err, size_t errlen);

/**
 * km_trace_write_ftrace - write @ri's trace to @out as ftrace text (the
 * format of /sys/kernel/tracing/trace, with a TGID column).  Tasks have
 * pid 1000 + their context id, the idle task pid 0.  Returns as
 * km_trace_write_chrome.
 */
int km_trace_write_ftrace(const struct km_run_info *ri, struct km_trace_spool *spool, FILE *out,
			  char *err, size_t errlen);

/**
 * km_trace_export_cancel - the exports stop, with the error "interrupted",
 * once *@flag is non-zero (it is read every 4096 records).
 * Context: set once, before any export; @flag may be set from a signal
 * handler.
 */
void km_trace_export_cancel(const volatile int *flag);

#endif /* KM_REPORT_TRACE_EXPORT_H */
