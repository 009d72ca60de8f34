/*
 * runner.c - parallel runs in child processes.  See runner.h.
 */
#include "runner.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

/*
 * A worker dies with its parent.  Ctrl-C at a terminal reaches every
 * process of the group, but `kill -INT` or `timeout` reaches the parent
 * alone, which then ends (exit 130) and left its workers searching for
 * minutes.  A worker holds nothing to clean up (it writes only a pipe),
 * so on Linux it asks to be killed outright when the parent goes
 * (PR_SET_PDEATHSIG); if the parent is already gone, it goes now.
 */
void km_run_child_dies_with_parent(pid_t parent)
{
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (getppid() != parent)
		_exit(130);
}

int km_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* One run in this process: its report, as a JSON tree. */
static void run_one(const struct km_era_list *eras, const struct km_run_request *rq,
		    struct km_run_result *out)
{
	struct km_session s;
	out->status = km_session_run(&s, eras, rq);
	out->report = km_report_json(&s.ri);
	if (out->report) {
		/* checks are part of a run's result */
		json_t *checks = json_array();
		for (int i = 0; i < s.ri.nchecks; i++)
			json_array_append_new(checks, json_pack("{s:b, s:s}", "ok",
				s.ri.checks[i].ok, "message", s.ri.checks[i].message));
		json_object_set_new(out->report, "checks", checks);
	}
	km_session_free(&s);
}

struct child {
	pid_t pid;
	int fd;
	int index;
	char *buf;
	size_t len, cap;
};

static int child_read(struct child *c)
{
	if (c->len + 65536 > c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 131072;
		char *n = realloc(c->buf, ncap);
		if (!n)
			return -1;
		c->buf = n;
		c->cap = ncap;
	}
	ssize_t r = read(c->fd, c->buf + c->len, c->cap - c->len - 1);
	if (r < 0 && errno == EINTR)
		return 1;
	if (r <= 0)
		return 0;
	c->len += (size_t)r;
	return 1;
}

static void child_finish(struct child *c, struct km_run_result *out)
{
	int wst = 0;
	close(c->fd);
	while (waitpid(c->pid, &wst, 0) < 0 && errno == EINTR)
		;
	struct km_run_result *r = &out[c->index];
	r->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 2;
	if (c->buf) {
		c->buf[c->len] = 0;
		json_error_t jerr;
		r->report = json_loads(c->buf, 0, &jerr);
	}
	free(c->buf);
	c->buf = NULL;
	c->pid = 0;
}

int km_run_parallel(const struct km_era_list *eras, const struct km_run_request *rqs, int n,
		    int jobs, struct km_run_result *out, km_progress_fn progress, void *ud)
{
	memset(out, 0, (size_t)n * sizeof(*out));
	if (jobs < 1)
		jobs = 1;
	if (jobs == 1) {
		for (int i = 0; i < n; i++) {
			run_one(eras, &rqs[i], &out[i]);
			if (progress)
				progress(i + 1, n, ud);
		}
		return 0;
	}
	struct child *kids = calloc((size_t)jobs, sizeof(*kids));
	struct pollfd *pfd = calloc((size_t)jobs, sizeof(*pfd));
	if (!kids || !pfd) {
		free(kids);
		free(pfd);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t self = getpid();
	int next = 0, done = 0, running = 0;
	while (done < n) {
		if (km_interrupted) {
			/* the parent is stopping: its workers stop now */
			for (int k = 0; k < jobs; k++)
				if (kids[k].pid)
					kill(kids[k].pid, SIGKILL);
			for (int k = 0; k < jobs; k++)
				if (kids[k].pid)
					child_finish(&kids[k], out);
			break;
		}
		while (running < jobs && next < n) {
			int fds[2];
			if (pipe(fds) < 0)
				break;
			pid_t pid = fork();
			if (pid < 0) {
				close(fds[0]);
				close(fds[1]);
				break;
			}
			if (pid == 0) {
				km_run_child_dies_with_parent(self);
				close(fds[0]);
				struct km_run_result r;
				run_one(eras, &rqs[next], &r);
				char *text = r.report ? json_dumps(r.report, JSON_COMPACT) : NULL;
				size_t len = text ? strlen(text) : 0, off = 0;
				while (off < len) {
					ssize_t w = write(fds[1], text + off, len - off);
					if (w < 0 && errno == EINTR)
						continue;
					if (w <= 0)
						break;
					off += (size_t)w;
				}
				_exit(r.status);
			}
			close(fds[1]);
			for (int k = 0; k < jobs; k++) {
				if (!kids[k].pid) {
					kids[k] = (struct child){ .pid = pid, .fd = fds[0], .index = next };
					break;
				}
			}
			next++;
			running++;
		}
		if (running == 0) {
			/* could not fork at all: finish here, one by one */
			for (; next < n; next++, done++) {
				run_one(eras, &rqs[next], &out[next]);
				if (progress)
					progress(done + 1, n, ud);
			}
			break;
		}
		int np = 0;
		int map[256];
		for (int k = 0; k < jobs && np < 256; k++) {
			if (kids[k].pid) {
				pfd[np] = (struct pollfd){ .fd = kids[k].fd, .events = POLLIN };
				map[np++] = k;
			}
		}
		if (poll(pfd, (nfds_t)np, -1) < 0 && errno != EINTR)
			break;
		for (int p = 0; p < np; p++) {
			if (!(pfd[p].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			struct child *c = &kids[map[p]];
			int r = child_read(c);
			if (r <= 0) {
				child_finish(c, out);
				running--;
				done++;
				if (progress)
					progress(done, n, ud);
			}
		}
	}
	free(kids);
	free(pfd);
	return 0;
}

void km_run_results_free(struct km_run_result *r, int n)
{
	for (int i = 0; i < n; i++)
		json_decref(r[i].report);
}
