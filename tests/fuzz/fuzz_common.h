/*
 * fuzz_common.h - what the libFuzzer harnesses share: a private temporary
 * file to hand bytes to the engine as a file, and the eras.
 *
 * The harnesses are built by `make fuzz` with -DKM_FUZZ_ROOT="<the source
 * tree>", so that the eras are found wherever the binaries are; the
 * LOCKMUSEUM_DATA environment variable, when set, wins.
 */
#ifndef KM_FUZZ_COMMON_H
#define KM_FUZZ_COMMON_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/cli/session.h"

#ifndef KM_FUZZ_ROOT
#define KM_FUZZ_ROOT "."
#endif

/* A file of our own under $TMPDIR (or /tmp), removed at exit.  @suffix
 * is part of the name, so messages show it ("....lua:3: ..."). */
static char fuzz_path[256];

static inline void fuzz_remove_file(void)
{
	if (fuzz_path[0])
		unlink(fuzz_path);
}

static inline void fuzz_make_file(const char *stem, const char *suffix)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(fuzz_path, sizeof(fuzz_path), "%s/%s-XXXXXX%s", dir, stem, suffix);
	int fd = mkstemps(fuzz_path, (int)strlen(suffix));
	if (fd < 0) {
		perror("fuzz: mkstemps");
		abort();
	}
	close(fd);
	atexit(fuzz_remove_file);
}

/* Replace the file's contents with @data. */
static inline void fuzz_write_file(const uint8_t *data, size_t size)
{
	FILE *f = fopen(fuzz_path, "wb");
	if (!f) {
		perror("fuzz: fopen");
		abort();
	}
	if (size && fwrite(data, 1, size, f) != size) {
		perror("fuzz: fwrite");
		abort();
	}
	if (fclose(f) != 0) {
		perror("fuzz: fclose");
		abort();
	}
}

/*
 * The stall detector.  An input that runs one library call past the wall
 * budget meets the engine's watchdog (session.c: the budget plus 3 s),
 * which writes its one line and ends the process with _exit(2).  Alone,
 * libFuzzer reports that as a crash with no input kept, and fork mode
 * (-fork=1 -ignore_crashes=1) prints only a child's lines that hold
 * "ERROR:" -- so the round-two campaigns saw four "child exits" with no
 * cause and no input (docs/hardening.md).  libFuzzer's own -timeout
 * cannot fire either: the engine's handler owns SIGALRM during the call.
 * So a thread of the harness watches each call, and one still running
 * FUZZ_STALL_SECONDS after it began -- the harnesses' 2 s wall budget
 * plus 2.5 s, before the watchdog's 2 + 3 -- is aborted, with a line
 * libFuzzer prints: a deadly signal, and the input kept as a crash.
 */
#ifndef FUZZ_STALL_SECONDS
#define FUZZ_STALL_SECONDS 4.5
#endif

static atomic_llong fuzz_call_began_ms;	/* 0: no call running */

static inline long long fuzz_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *fuzz_stall_watch(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec tick = { 0, 100 * 1000 * 1000 };
		nanosleep(&tick, NULL);
		long long began = atomic_load(&fuzz_call_began_ms);
		if (began && fuzz_now_ms() - began > (long long)(FUZZ_STALL_SECONDS * 1000)) {
			fprintf(stderr, "==%d== ERROR: fuzz: one call has run %.1f s, past the wall "
				"budget: the engine's watchdog would end it with _exit(2) and no "
				"input kept\n", (int)getpid(), FUZZ_STALL_SECONDS);
			/* the watchdog off first: its _exit must not cut short
			 * libFuzzer's report and the saving of the input */
			struct itimerval off = { { 0, 0 }, { 0, 0 } };
			setitimer(ITIMER_REAL, &off, NULL);
			signal(SIGALRM, SIG_IGN);
			abort();
		}
	}
	return NULL;
}

static void fuzz_stall_start(void)
{
	pthread_t th;
	if (pthread_create(&th, NULL, fuzz_stall_watch, NULL) != 0) {
		perror("fuzz: the stall detector");
		abort();
	}
	pthread_detach(th);
}

/* Around each call into the engine: the detector's start and stop. */
static inline void fuzz_call_begin(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, fuzz_stall_start);
	atomic_store(&fuzz_call_began_ms, fuzz_now_ms());
}

static inline void fuzz_call_end(void)
{
	atomic_store(&fuzz_call_began_ms, 0);
}

static struct km_era_list fuzz_eras;

/* km_load_eras arms the engine's watchdog too (SIGALRM, as a run does):
 * put libFuzzer's handler and timer back after it, or its next -timeout
 * alarm would land in the engine's handler and end the campaign. */
static inline void fuzz_load_eras(void)
{
	char err[1024];
	setenv("LOCKMUSEUM_DATA", KM_FUZZ_ROOT, 0);
	struct sigaction old_sa;
	struct itimerval old_it;
	sigaction(SIGALRM, NULL, &old_sa);
	getitimer(ITIMER_REAL, &old_it);
	int rc = km_load_eras(&fuzz_eras, err, sizeof(err));
	sigaction(SIGALRM, &old_sa, NULL);
	setitimer(ITIMER_REAL, &old_it, NULL);
	if (rc < 0) {
		fprintf(stderr, "fuzz: cannot load the eras: %s (set LOCKMUSEUM_DATA)\n", err);
		abort();
	}
}

/* Small budgets: a fuzzing input must end in well under a second. */
static inline void fuzz_small_request(struct km_run_request *rq, const char *file)
{
	km_run_request_init(rq);
	rq->file = file;
	rq->max_instructions = 200000;
	rq->max_memory = 8u << 20;
	rq->max_wall = 2.0;
	rq->max_events = 100000;
	rq->duration = 10 * 1000 * 1000;	/* 10 ms of simulated time */
}

/*
 * km_session_run arms the engine's own watchdog for the run (SIGALRM,
 * ITIMER_REAL, the wall-clock budget plus a grace period), which replaces
 * libFuzzer's SIGALRM handler and the timer that implements -timeout.
 * Put libFuzzer's back after every run.  An input that reaches the
 * watchdog ends the process with exit 2 and the watchdog's one-line
 * message; the input is left in the harness's temporary file, which the
 * message names (_exit skips the cleanup).
 */
static inline int fuzz_session_run(struct km_session *s, const struct km_era_list *eras,
				   const struct km_run_request *rq)
{
	struct sigaction old_sa;
	struct itimerval old_it;
	sigaction(SIGALRM, NULL, &old_sa);
	getitimer(ITIMER_REAL, &old_it);
	fuzz_call_begin();
	int status = km_session_run(s, eras, rq);
	fuzz_call_end();
	sigaction(SIGALRM, &old_sa, NULL);
	setitimer(ITIMER_REAL, &old_it, NULL);
	return status;
}

/* Exit 2 must come with a reason.  That it is one line is checked with
 * KM_FUZZ_ONE_LINE=1 in the environment (the host makes Lua's messages
 * one line, tests/hostile/message_multiline_syntax.lua; the check is
 * opt-in so that a long fuzzing run stops on crashes first). */
static inline void fuzz_check_reason(const struct km_session *s, int status)
{
	static int one_line = -1;
	if (one_line < 0) {
		const char *e = getenv("KM_FUZZ_ONE_LINE");
		one_line = e && *e == '1';
	}
	if (status != 2)
		return;
	if (!s->ri.reason || !*s->ri.reason) {
		fprintf(stderr, "fuzz: exit 2 without a reason\n");
		abort();
	}
	if (one_line && strchr(s->ri.reason, '\n')) {
		fprintf(stderr, "fuzz: exit 2 with a reason of more than one line\n");
		abort();
	}
}

/* Every report of a finished (or failed) session, to nowhere. */
static inline void fuzz_reports(struct km_session *s, FILE *devnull)
{
	json_t *j = km_report_json(&s->ri);
	if (j) {
		char *text = json_dumps(j, JSON_COMPACT);
		free(text);
		json_decref(j);
	}
	if (s->ri.sim && s->ri.outcome != KM_OUT_ERROR) {
		km_report_text(devnull, &s->ri);
		km_report_lockstat(devnull, &s->ri);
	}
	(void)km_report_exit_status(&s->ri);
}

#endif /* KM_FUZZ_COMMON_H */
