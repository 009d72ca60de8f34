/*
 * bench_spawn.c - the time of a whole process, as a program that starts
 * another pays it: posix_spawn, wait, median of N.
 *
 *   bench_spawn N CMD [ARGS...]
 *       prints the median wall time in ms
 *   bench_spawn --pair N CMD_A [ARGS...] -- CMD_B [ARGS...]
 *       runs A and B in turn N times each (A first in even rounds, B
 *       first in odd ones) and prints, on one line: the median CPU time
 *       of A and of B in ms, the median of the N ratios B/A of a round,
 *       and the 25th and 75th percentiles of those ratios
 *
 * make bench's start-up figures come from here rather than from the
 * shell's clock around a command: bash forks a copy of itself first,
 * which costs more than the process being measured (an empty process
 * took 3.7 ms that way, 1.9 ms spawned).
 *
 * The pairs are what a shared machine can still say something about.
 * Wall time counts whatever else runs; CPU time (user + system, from
 * wait4(): what the kernel charged the child, exec and page faults
 * included) counts mostly the process, and is still slowed by a busy
 * machine (caches, frequency).  Runs of A and B side by side see the
 * same machine, so their ratio drifts less than either time: a ratio
 * is taken per round and the median of the rounds reported, with its
 * quartiles as the spread.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

extern char **environ;

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The q-quantile of n sorted values (q in [0, 1]), interpolated. */
static double quantile(const double *v, int n, double q)
{
	double pos = q * (double)(n - 1);
	int i = (int)pos;
	if (i >= n - 1)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

static posix_spawn_file_actions_t fa;

/*
 * Start argv, wait for it; its wall time and CPU time in ms.  A command
 * that cannot be started or does not exit 0 ends the measurement: a
 * figure of a failing run would be a figure of something else.
 */
static int spawn_once(char **argv, double *wall_ms, double *cpu_ms)
{
	struct timespec t0, t1;
	struct rusage ru;
	pid_t pid;
	int st;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		perror("bench_spawn");
		return -1;
	}
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("bench_spawn");
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench_spawn: %s did not exit 0\n", argv[0]);
		return -1;
	}
	*wall_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	*cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		  (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	return 0;
}

static int pairs(int n, char **a, char **b)
{
	double *ta = calloc((size_t)n, sizeof(*ta));
	double *tb = calloc((size_t)n, sizeof(*tb));
	double *r = calloc((size_t)n, sizeof(*r));
	double wall;

	if (!ta || !tb || !r) {
		fprintf(stderr, "bench_spawn: out of memory\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		char **first = i % 2 ? b : a, **second = i % 2 ? a : b;
		double *t1 = i % 2 ? &tb[i] : &ta[i], *t2 = i % 2 ? &ta[i] : &tb[i];
		if (spawn_once(first, &wall, t1) || spawn_once(second, &wall, t2))
			return 2;
		/* A clock too coarse to see A at all makes no ratio. */
		if (ta[i] <= 0) {
			fprintf(stderr, "bench_spawn: %s took no measurable CPU time\n", a[0]);
			return 2;
		}
		r[i] = tb[i] / ta[i];
	}
	qsort(ta, (size_t)n, sizeof(*ta), by_value);
	qsort(tb, (size_t)n, sizeof(*tb), by_value);
	qsort(r, (size_t)n, sizeof(*r), by_value);
	printf("%.3f %.3f %.3f %.3f %.3f\n", quantile(ta, n, 0.5), quantile(tb, n, 0.5),
	       quantile(r, n, 0.5), quantile(r, n, 0.25), quantile(r, n, 0.75));
	free(ta);
	free(tb);
	free(r);
	return 0;
}

int main(int argc, char **argv)
{
	int pair = argc > 1 && strcmp(argv[1], "--pair") == 0;
	char **a = argv + 2 + pair, **b = NULL;

	if (argc < 3 + pair) {
		fprintf(stderr, "usage: bench_spawn N CMD [ARGS...]\n"
				"       bench_spawn --pair N CMD_A [ARGS...] -- CMD_B [ARGS...]\n");
		return 2;
	}
	int n = atoi(argv[1 + pair]);
	if (n < 1 || n > 10000) {
		fprintf(stderr, "bench_spawn: N must be 1 to 10000\n");
		return 2;
	}
	if (pair) {
		for (int i = 2 + pair; i < argc; i++)
			if (strcmp(argv[i], "--") == 0) {
				argv[i] = NULL;
				b = argv + i + 1;
				break;
			}
		if (!b || !b[0] || !a[0]) {
			fprintf(stderr, "bench_spawn: --pair needs two commands, split by --\n");
			return 2;
		}
	}
	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
	    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0)) {
		fprintf(stderr, "bench_spawn: out of memory\n");
		return 2;
	}
	if (pair)
		return pairs(n, a, b);

	double *ms = calloc((size_t)n, sizeof(*ms));
	double cpu;
	if (!ms) {
		fprintf(stderr, "bench_spawn: out of memory\n");
		return 2;
	}
	for (int i = 0; i < n; i++)
		if (spawn_once(argv + 2, &ms[i], &cpu))
			return 2;
	qsort(ms, (size_t)n, sizeof(*ms), by_value);
	printf("%.3f\n", quantile(ms, n, 0.5));
	posix_spawn_file_actions_destroy(&fa);
	free(ms);
	return 0;
}
