/*
 * view_cli.c - sessions in, pictures and a window out.  See view_cli.h.
 *
 * The window's host keeps a small pool of sessions: the run on screen,
 * the compare view's runs, and the one being made.  Each run the view
 * receives stays alive until the view releases it (km_view_host.release),
 * so nothing the view points at is freed under it; a released session is
 * freed at once, so a visitor flipping modes all afternoon holds at most
 * a handful of traces.
 *
 * Window runs always store their trace.  Unless the caller set a bound,
 * the trace is capped at KM_DEFAULT_WINDOW_TRACE_LIMIT records (32 bytes
 * each): a runaway scenario then shows its first part, marked "trace
 * truncated", instead of exhausting memory.
 */
#include "view_cli.h"
#include "view_lib.h"
#include "play.h"
#include "../defaults.h"
#include "../report/play_state.h"

#include "../lua/tour.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define POOL 16

/*
 * An era's placard names a file inside the data folder, and only there:
 * an era file is data a visitor may have been handed, so its placard must
 * not read /etc/shadow into a window, nor hang the PNG step on a FIFO.
 * The resolved path must lie under the resolved data folder and be a
 * regular file; anything else is no placard (NULL), as a missing one is.
 */
static FILE *open_placard(const char *relpath)
{
	char path[PATH_MAX + 512], real[PATH_MAX], data[PATH_MAX];
	if (relpath[0] == '/' || strstr(relpath, ".."))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", km_datadir(), relpath);
	if (!realpath(km_datadir(), data) || !realpath(path, real))
		return NULL;
	size_t n = strlen(data);
	if (strncmp(real, data, n) != 0 || real[n] != '/')
		return NULL;
	int fd = open(real, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return NULL;
	FILE *f = NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "rb")))
		close(fd);
	return f;
}

char *km_read_placard(const char *relpath)
{
	if (!relpath || !*relpath)
		return NULL;
	FILE *f = open_placard(relpath);
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (cap - len < 4096) {
			size_t ncap = cap ? cap * 2 : 8192;
			if (ncap > (size_t)1 << 24)
				break;		/* a placard, not a book */
			char *nb = realloc(buf, ncap);
			if (!nb)
				break;
			buf = nb;
			cap = ncap;
		}
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	if (!buf)
		return NULL;
	buf[len] = 0;
	return buf;
}

int km_cli_png_exhibit(const struct km_era_list *eras, const struct km_view_exhibit *ex,
		       struct km_session *s, const char *path, int w, int h,
		       char *err, size_t errlen)
{
	if (!s->ri.sim || !s->ri.sim->trace.store) {
		snprintf(err, errlen, "no picture: the run %s", s->ri.sim ? "did not store its trace"
									: "never started");
		return -1;
	}
	const struct km_view_api *view = km_view_lib(err, errlen);
	if (!view)
		return -1;
	char *placard = s->ri.era ? km_read_placard(s->ri.era->placard) : NULL;
	struct km_view_exhibit solo = { .file = s->ri.file, .title = s->ri.title };
	struct km_view_run run = { .ri = &s->ri, .era_placard = placard };
	int rc = view->png(eras, ex ? ex : &solo, &run, path, w, h, err, errlen);
	free(placard);
	return rc;
}

int km_cli_png_exhibit_modes(const struct km_era_list *eras, const struct km_view_exhibit *ex,
			     struct km_session *s, int n, int main, const char *path, int w,
			     int h, char *err, size_t errlen)
{
	if (n <= 1)
		return km_cli_png_exhibit(eras, ex, &s[0], path, w, h, err, errlen);
	if (n > KM_VIEW_MAX_COMPARE) {
		snprintf(err, errlen, "%d modes: at most %d side by side", n, KM_VIEW_MAX_COMPARE);
		return -1;
	}
	for (int k = 0; k < n; k++)
		if (!s[k].ri.sim || !s[k].ri.sim->trace.store) {
			snprintf(err, errlen, "no picture: a run %s", s[k].ri.sim ?
				 "did not store its trace" : "never started");
			return -1;
		}
	const struct km_view_api *view = km_view_lib(err, errlen);
	if (!view)
		return -1;
	struct km_view_run runs[KM_VIEW_MAX_COMPARE];
	char *placard = s[main].ri.era ? km_read_placard(s[main].ri.era->placard) : NULL;
	for (int k = 0; k < n; k++)
		runs[k] = (struct km_view_run){ .ri = &s[k].ri, .era_placard = placard };
	int rc = view->png_compare(eras, ex, runs, n, main, path, w, h, err, errlen);
	free(placard);
	return rc;
}

int km_cli_png(const struct km_era_list *eras, struct km_session *s, const char *path,
	       int w, int h, char *err, size_t errlen)
{
	return km_cli_png_exhibit(eras, NULL, s, path, w, h, err, errlen);
}

/* ---------------------------------------------------------------- runs -- */

struct slot {
	struct km_session s;
	char *placard;
	struct km_param_set sets[KM_TOUR_SETS];
	bool used;
};

struct host {
	const struct km_era_list *eras;
	const struct km_run_request *base;
	struct slot slot[POOL];
	/* the last run's exhibit and CPU count: a new era or mode of the
	 * same exhibit keeps the machine the visitor was looking at */
	const struct km_view_exhibit *last_ex;
	int last_cpus;
};

/* A session's refusal is written for the command line ("--mode mutex:
 * ... Use --anachronism to run it anyway"); a visitor has no options to
 * type, so say it without them. */
static void museum_words(const char *reason, char *out, size_t len)
{
	const char *s = reason;
	if (!strncmp(s, "--mode ", 7))
		s += 2;
	else if (!strncmp(s, "--cpus ", 7))
		s += 2;
	snprintf(out, len, "%s", s);
	char *use = strstr(out, "; use --anachronism");
	if (!use)
		use = strstr(out, ". Use --anachronism");
	if (use) {
		use[0] = '.';
		use[1] = 0;
	}
}

void km_cli_play_goal(struct km_play *play, const struct km_scenario *sc)
{
	if (play->goal[0] || !sc)
		return;
	const char *desc = km_scenario_meta(sc)->description;
	const char *g = strstr(desc, "Goal:");
	if (g)
		snprintf(play->goal, sizeof(play->goal), "%s", g);
	else
		snprintf(play->goal, sizeof(play->goal), "Goal: %s", "a failed check(); "
			 "in a scenario without checks, a deadlock or a violation.");
}

/*
 * Run @ex in @era with @mode into a free slot.  With @play, the run makes
 * the game's decisions (report/play_state.h) and may stop at its next
 * question: that run is shown too, its trace up to the question, its
 * outcome none ("paused") rather than the error the chooser ended it with.
 */
static int run_slot(struct host *h, const struct km_view_exhibit *ex, const char *era, int mode,
		    struct km_play *play, struct km_view_run *out, char *err, size_t errlen)
{
	struct slot *sl = NULL;
	for (int i = 0; i < POOL && !sl; i++)
		if (!h->slot[i].used)
			sl = &h->slot[i];
	if (!sl) {
		snprintf(err, errlen, "too many runs open at once");
		return -1;
	}
	struct km_run_request rq = *h->base;
	if (ex && ex->file)
		rq.file = ex->file;
	rq.era = era ? era : ex ? ex->era : h->base->era;
	rq.mode = mode;
	const struct km_exhibit *te = ex ? ex->host : NULL;
	if (te) {
		/* a tour exhibit: its own CPUs and settings, and its licence
		 * for anachronism only where it asked for it */
		rq.cpus = te->cpus;
		for (int k = 0; k < te->nsets && k < KM_TOUR_SETS; k++)
			sl->sets[k] = (struct km_param_set){ .name = te->set_name[k],
							     .value = te->set_value[k] };
		rq.sets = sl->sets;
		rq.nsets = te->nsets < KM_TOUR_SETS ? te->nsets : KM_TOUR_SETS;
		bool own_mode = false;
		for (int k = 0; k < te->nmodes; k++)
			own_mode |= te->modes[k] == mode;
		rq.anachronism = h->base->anachronism ||
				 (te->anachronism && own_mode && rq.era && !strcmp(rq.era, te->era));
	}
	if (!rq.cpus && ex == h->last_ex && h->last_cpus > 0) {
		/* the same exhibit in another era or mode: the same CPUs,
		 * unless that era ran on one CPU (the window says so) */
		const struct km_era *e = rq.era ? km_eras_find(h->eras, rq.era) : NULL;
		if (h->last_cpus == 1 || rq.anachronism || !e || e->smp)
			rq.cpus = h->last_cpus;
	}
	rq.store_trace = true;
	if (!rq.trace_limit)
		rq.trace_limit = KM_DEFAULT_WINDOW_TRACE_LIMIT;
	rq.check_only = false;
	if (!rq.file) {
		snprintf(err, errlen, "no scenario to run");
		return -1;
	}
	if (play) {
		rq.chooser = km_play_begin(play, &km_play_session_lines, &sl->s);
		rq.schedule_name = NULL;
	}
	int rc = km_session_run(&sl->s, h->eras, &rq);
	if (play && km_play_end(play, sl->s.ri.sim, rc) && sl->s.ri.sim) {
		struct km_session *s = &sl->s;
		s->ri.lines = km_scenario_lines(s->sc, &s->ri.nlines);
		s->ri.outcome = KM_OUT_NONE;
		s->ri.reason = "paused at a choice point: your move";
		rc = 0;
	}
	if (play)
		km_cli_play_goal(play, sl->s.sc);
	if (rc == 2 || !sl->s.ri.sim) {
		museum_words(sl->s.ri.reason ? sl->s.ri.reason : "the run failed", err, errlen);
		km_session_free(&sl->s);
		return -1;
	}
	sl->used = true;
	h->last_ex = ex;
	h->last_cpus = sl->s.ri.cpus;
	sl->placard = sl->s.ri.era ? km_read_placard(sl->s.ri.era->placard) : NULL;
	*out = (struct km_view_run){ .ri = &sl->s.ri, .era_placard = sl->placard, .handle = sl };
	return 0;
}

static int rerun(void *ud, const struct km_view_exhibit *ex, const char *era, int mode,
		 struct km_view_run *out, char *err, size_t errlen)
{
	return run_slot(ud, ex, era, mode, NULL, out, err, errlen);
}

static int play_run(void *ud, const struct km_view_exhibit *ex, const char *era, int mode,
		    struct km_play *play, struct km_view_run *out, char *err, size_t errlen)
{
	return run_slot(ud, ex, era, mode, play, out, err, errlen);
}

static int play_save(void *ud, const struct km_play *play, const struct km_view_run *run,
		     const char *path, char *err, size_t errlen)
{
	(void)ud;
	return km_play_save(play, run->ri, run->ri->mode, path, err, errlen);
}

static void release(void *ud, struct km_view_run *run)
{
	(void)ud;
	struct slot *sl = run->handle;
	if (!sl || !sl->used)
		return;
	km_session_free(&sl->s);
	free(sl->placard);
	memset(sl, 0, sizeof(*sl));
	run->handle = NULL;
}

static bool interrupted(void *ud)
{
	(void)ud;
	return km_interrupted != 0;
}

static void host_free(struct host *h)
{
	for (int i = 0; i < POOL; i++) {
		if (h->slot[i].used) {
			struct km_view_run r = { .handle = &h->slot[i] };
			release(h, &r);
		}
	}
}

static int window(const struct km_era_list *eras, const struct km_view_exhibit *exhibits,
		  int n, int first, const struct km_run_request *base, bool play,
		  const char *save_path, char *err, size_t errlen)
{
	const struct km_view_api *view = km_view_lib(err, errlen);
	if (!view)
		return -1;
	struct host *h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	h->eras = eras;
	h->base = base;
	struct km_view_host vh = { .ud = h, .rerun = rerun, .release = release,
				   .interrupted = interrupted, .play_run = play_run,
				   .play_save = play_save, .play_first = play,
				   .play_save_path = save_path };
	int rc = view->window(eras, n > 0 ? exhibits : NULL, n, first, &vh, err, errlen);
	host_free(h);
	free(h);
	return rc;
}


int km_cli_window(const struct km_era_list *eras, const struct km_view_exhibit *exhibits,
		  int n, int first, const struct km_run_request *base, char *err, size_t errlen)
{
	return window(eras, exhibits, n, first, base, false, NULL, err, errlen);
}

int km_cli_window_play(const struct km_era_list *eras, const struct km_run_request *base,
		       const char *save_path, char *err, size_t errlen)
{
	int mode = base->mode;
	struct km_view_exhibit solo = { .file = base->file, .era = base->era, .modes = &mode,
					.nmodes = 1 };
	return window(eras, &solo, 1, 0, base, true, save_path, err, errlen);
}

/* ---------------------------------------------------------------- tour -- */

void km_cli_exhibit_of(struct km_view_exhibit *out, const struct km_exhibit *e)
{
	*out = (struct km_view_exhibit){
		.file = e->file, .era = e->era, .modes = e->modes, .nmodes = e->nmodes,
		.title = e->title, .placard = e->text, .look = e->look, .host = e,
	};
}

int km_cli_window_tour(const struct km_era_list *eras, const struct km_tour *tour, int first,
		       const struct km_run_request *base, char *err, size_t errlen)
{
	if (!tour || tour->n <= 0) {
		snprintf(err, errlen, "the tour has no exhibits");
		return -1;
	}
	struct km_view_exhibit *ex = calloc((size_t)tour->n, sizeof(*ex));
	if (!ex) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < tour->n; i++)
		km_cli_exhibit_of(&ex[i], &tour->v[i]);
	int rc = km_cli_window(eras, ex, tour->n, first, base, err, errlen);
	free(ex);
	return rc;
}
