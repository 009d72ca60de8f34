/*
 * view_lib.h - the view, opened when the command line first draws.
 */
#ifndef KM_CLI_VIEW_LIB_H
#define KM_CLI_VIEW_LIB_H

#include "../view/view.h"

/* The file the view is built as; see view.h, struct km_view_api. */
#define KM_VIEW_LIB_NAME "lockmuseum-view.so"

/**
 * km_view_lib - the view's entry points, its data folder set to
 * km_datadir().  The first call opens lockmuseum-view.so: beside the
 * program (the build tree), else in the installed library folder;
 * or uses the view linked into this program, if it is.
 * Returns NULL with a one-line @err when it cannot be opened.
 * Context: the command line only; not thread-safe (the first call
 * caches).  Costs the loading of SDL once, nothing after.
 */
const struct km_view_api *km_view_lib(char *err, size_t errlen);

/* The program that draws when this one is linked statically. */
#define KM_DRAW_PROG_NAME "lockmuseum-draw"

/**
 * km_view_lib_exec - a command that will draw, handed to the program that
 * can: in a program linked statically, exec() lockmuseum-draw (beside the
 * program, else in the installed library folder) with @argv, the data
 * folder passed on in LOCKMUSEUM_DATA; elsewhere nothing.
 * Returns 0 when this program draws itself (the view linked in, or a
 * program linked dynamically), -1 with a one-line @err when the other
 * program cannot be started; does not return when it is.
 * Context: the command line, before the command has done anything (no
 * output, no file written): the other program does it all again.
 */
int km_view_lib_exec(char **argv, char *err, size_t errlen);

/* The scale of type in the windows and pictures to come (--scale); see
 * km_view_set_scale().  1 until set. */
void km_view_lib_set_scale(float scale);

#endif /* KM_CLI_VIEW_LIB_H */
