/*
 * view_lib.c - opening the view (lockmuseum-view.so) when it is needed.
 *
 * Most invocations never draw: run, check, list, compare and explore
 * without --png, --gui or --plot, the test suite, every process of a
 * sweep.  Linking SDL2, SDL2_ttf and SDL2_image into the program made
 * each of them load some 70 libraries before doing anything, 20 ms or
 * more, which is most of a small run.  So the program is linked without
 * SDL, and the view is a shared object opened here the first time a
 * window or a picture is asked for.  The program exports its symbols
 * (-rdynamic) and the view uses its core and reports from there.
 *
 * Where it looks, in order: the view linked into this program (unit tests
 * and the command-line fuzzer link everything statically); the folder of
 * the running program (/proc/self/exe: the build tree); KM_LIBDIR, the
 * installed library folder.  If the file beside the program exists but
 * does not load -- SDL missing, say -- that is the error reported.
 *
 * A program linked statically (the build's lockmuseum, where the static
 * archives are installed: the Makefile says why) has no dynamic loader to
 * give the view its symbols, so it does not open the view: a command that
 * will draw is handed, before it does anything, to lockmuseum-draw, the
 * same program linked dynamically, by exec() with the same arguments
 * (km_view_lib_exec).  That program is looked for as the view is: beside
 * the running program, then in KM_LIBDIR.  The output, errors and exit
 * status are then lockmuseum-draw's, which are the same program's.
 */
#include "view_lib.h"
#include "session.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#ifndef KM_LIBDIR
#define KM_LIBDIR "/usr/local/lib/lockmuseum"
#endif

/* Defined only when the view is linked into this program. */
extern const struct km_view_api km_view_api __attribute__((weak));

static const struct km_view_api *opened;

/* dlopen @path; on failure keep dlerror()'s words in @why. */
static void *open_lib(const char *path, char *why, size_t whylen)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(why, whylen, "%s", e ? e : "cannot load");
	}
	return h;
}

/*
 * Where the file @name of the program's library folder is, in @path:
 * beside the running program (/proc/self/exe: the build tree) if it is
 * there, else in KM_LIBDIR.  A file beside the program that then fails
 * to load or start is the one reported: no fallback hides it.
 */
static void lib_path(const char *name, char *path, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash)
			*slash = 0;
		snprintf(path, len, "%s/%s", self, name);
		if (access(path, F_OK) == 0)
			return;
	}
	snprintf(path, len, "%s/%s", KM_LIBDIR, name);
}

static const struct km_view_api *open_view(char *err, size_t errlen)
{
	if (&km_view_api)
		return &km_view_api;
	char path[PATH_MAX + 64], why[512] = "";
	lib_path(KM_VIEW_LIB_NAME, path, sizeof(path));
	void *h = open_lib(path, why, sizeof(why));
	if (!h) {
		snprintf(err, errlen, "the view (%s) cannot be loaded: %s", KM_VIEW_LIB_NAME, why);
		return NULL;
	}
	const struct km_view_api *api = dlsym(h, KM_VIEW_API_SYMBOL);
	if (!api) {
		snprintf(err, errlen, "%s has no %s", path, KM_VIEW_API_SYMBOL);
		dlclose(h);
		return NULL;
	}
	return api;	/* never closed: SDL stays loaded until exit */
}

int km_view_lib_exec(char **argv, char *err, size_t errlen)
{
	/* The view linked in, or a dynamic loader (AT_BASE is where the
	 * loader was mapped; 0 in a static program): draw here. */
	if (&km_view_api || getauxval(AT_BASE))
		return 0;
	char path[PATH_MAX + 64];
	lib_path(KM_DRAW_PROG_NAME, path, sizeof(path));
	/* its data folder is this program's, wherever it is installed */
	if (setenv("LOCKMUSEUM_DATA", km_datadir(), 0) < 0) {
		snprintf(err, errlen, "cannot start %s: %s", KM_DRAW_PROG_NAME, strerror(errno));
		return -1;
	}
	fflush(NULL);
	execv(path, argv);
	snprintf(err, errlen, "the program that draws (%s) cannot be started: %s", path,
		 strerror(errno));
	return -1;
}

static float lib_scale = 1.0f;

void km_view_lib_set_scale(float scale)
{
	lib_scale = scale;
}

const struct km_view_api *km_view_lib(char *err, size_t errlen)
{
	if (!opened) {
		opened = open_view(err, errlen);
		if (!opened)
			return NULL;
	}
	opened->set_datadir(km_datadir());
	opened->set_scale(lib_scale);
	return opened;
}
