/*
 * input.h - opening a file the user named, to read it: never blocking
 * on a FIFO, never trusting its size.
 *
 * open(2) of a FIFO waits for a writer, and one that never comes hangs
 * the program: a FIFO named *.json in a `compare --from` folder did, and
 * so did a scenario, an era or a schedule that was one.  And the size
 * fstat(2) gives is no promise: a pipe has none (`--from <(cat r.json)`
 * read nothing), and a file can grow or shrink while it is read.  So
 * every input is opened here, with O_NONBLOCK (an open that cannot
 * wait), then looked at with fstat(2):
 *
 *   - a regular file is read until its end, whatever its size said;
 *   - a pipe or FIFO, when @pipe_ok (an input read once, named on the
 *     command line: a report, a schedule), is read until its writers
 *     close it; with no writer at all, that is at once (empty);
 *   - anything else -- a folder, a device, a socket, or a pipe where it
 *     is not welcome (a scenario is read more than once; a file found by
 *     listing a folder was not named by anyone) -- is refused with one
 *     line, before a byte is read.
 *
 * Errors are "PATH: what" in @err, one line.
 */
#ifndef KM_ENGINE_INPUT_H
#define KM_ENGINE_INPUT_H

#include <stdbool.h>
#include <stddef.h>

/**
 * km_input_open - open @path to read it, as above.
 * Returns a descriptor (blocking, close-on-exec) or -1 with @err.
 * Context: any thread; never waits for a FIFO's writer.
 */
int km_input_open(const char *path, bool pipe_ok, char *err, size_t errlen);

/**
 * km_input_read - the whole of @path in a new NUL-terminated buffer
 * (*@text, its length in *@len), read through km_input_open().
 * More than @max bytes is an error ("larger than N MiB"), and so is a
 * failed read.  Returns 0, or -1 with @err (*@text NULL).
 * Context: any thread; blocks only while a pipe's writer is writing.
 */
int km_input_read(const char *path, bool pipe_ok, size_t max, char **text, size_t *len,
		  char *err, size_t errlen);

#endif /* KM_ENGINE_INPUT_H */
