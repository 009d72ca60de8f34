/*
 * bench_util.h - what the benchmark drivers share: a wall clock, the
 * process's memory, and one "key=value" line per figure, which
 * tests/bench.sh collects and takes medians of.
 *
 * The drivers print figures and nothing else on stdout; a driver that
 * could not measure says why on stderr and exits 2.  There is no pass
 * or fail: the targets are read by people, from docs/performance.md.
 */
#ifndef KM_TESTS_BENCH_UTIL_H
#define KM_TESTS_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static inline double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time (user + system) this process has used so far, in seconds. */
static inline double bench_cpu(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* Peak resident set of this process so far, in KiB. */
static inline long bench_peak_kib(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -1;
	return ru.ru_maxrss;
}

/* Resident set now, in KiB (from /proc/self/statm), or -1. */
static inline long bench_rss_kib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size, res;
	if (!f)
		return -1;
	int n = fscanf(f, "%ld %ld", &size, &res);
	fclose(f);
	if (n != 2)
		return -1;
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

#define BENCH_KV(key, fmt, ...) printf("%s=" fmt "\n", (key), __VA_ARGS__)

#endif /* KM_TESTS_BENCH_UTIL_H */
