/*
 * bench_spawn.c - the wall time of a whole process, as a program that
 * starts another pays it: posix_spawn, wait, median of N.
 *
 *   bench_spawn N CMD [ARGS...]     prints the median in ms
 *
 * make bench's start-up figures come from here rather than from the
 * shell's clock around a command: bash forks a copy of itself first,
 * which costs more than the process being measured (an empty process
 * took 3.7 ms that way, 1.9 ms spawned).
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
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

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_spawn N CMD [ARGS...]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	if (n < 1 || n > 10000) {
		fprintf(stderr, "bench_spawn: N must be 1 to 10000\n");
		return 2;
	}
	double *ms = calloc((size_t)n, sizeof(*ms));
	posix_spawn_file_actions_t fa;
	if (!ms || posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
	    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0)) {
		fprintf(stderr, "bench_spawn: out of memory\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		struct timespec t0, t1;
		pid_t pid;
		int st;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (posix_spawnp(&pid, argv[2], &fa, NULL, argv + 2, environ)) {
			perror("bench_spawn");
			return 2;
		}
		if (waitpid(pid, &st, 0) < 0) {
			perror("bench_spawn");
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms[i] = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	}
	qsort(ms, (size_t)n, sizeof(*ms), by_value);
	printf("%.3f\n", n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2);
	posix_spawn_file_actions_destroy(&fa);
	free(ms);
	return 0;
}
