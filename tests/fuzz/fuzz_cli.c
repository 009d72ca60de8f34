/*
 * fuzz_cli.c - bytes as a command line, split on NUL and newline into
 * arguments, turned into a run request and run.
 *
 * The command line's parser lives in engine/cli/main.c as static
 * functions around main(), which also exits, prints usage and writes
 * files (tour --out, --png, --plot): it cannot be called from here.  So
 * this harness reads the same options itself, each value mapped into the
 * range main.c accepts (what main() would pass on), and fuzzes what lies
 * behind the parser: the session with every combination of era key,
 * mode, CPU count, seed, duration, budgets, --set NAME=VALUE pairs,
 * --anachronism and check-only, against the museum's own scenarios.
 *
 *   argv[0]   run | check
 *   FILE      a scenario: a path under scripts/ or tests/scenarios/ of the
 *             source tree, else one of them chosen by a hash of the word
 *   options   --era X, --mode M, --cpus N, --seed S, --duration NS,
 *             --set N=V, --anachronism, --max-instructions N,
 *             --max-memory BYTES, --max-wall S, --max-events N
 */
#include "fuzz_common.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>

#define MAX_ARGS 64
#define MAX_FILES 512

static FILE *devnull;
static char *files[MAX_FILES];
static int nfiles;

static void add_dir(const char *rel)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/%s", KM_FUZZ_ROOT, rel);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) && nfiles < MAX_FILES) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".lua"))
			continue;
		char path[PATH_MAX * 2];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		files[nfiles++] = strdup(path);
	}
	closedir(d);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_load_eras();
	add_dir("scripts");
	add_dir("tests/scenarios");
	if (!nfiles)
		abort();
	qsort(files, (size_t)nfiles, sizeof(*files), by_str);
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

static const char *pick_file(const char *word)
{
	size_t wl = strlen(word);
	for (int i = 0; i < nfiles; i++) {
		size_t fl = strlen(files[i]);
		if (wl && fl >= wl && !strcmp(files[i] + fl - wl, word) &&
		    (fl == wl || files[i][fl - wl - 1] == '/'))
			return files[i];
	}
	uint32_t h = 2166136261u;
	for (const char *p = word; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	return files[h % (uint32_t)nfiles];
}

/* A number as main() would have accepted it: parsed, then folded into
 * [lo, hi]. */
static uint64_t in_range(const char *s, uint64_t lo, uint64_t hi)
{
	uint64_t v = strtoull(s, NULL, 0);
	if (v < lo || v > hi)
		v = lo + v % (hi - lo + 1);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	/* Split into NUL-terminated words. */
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	char *argv[MAX_ARGS];
	int argc = 0;
	for (size_t i = 0, start = 0; i <= size && argc < MAX_ARGS; i++) {
		if (i == size || buf[i] == 0 || buf[i] == '\n') {
			buf[i] = 0;
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}

	struct km_run_request rq;
	fuzz_small_request(&rq, NULL);
	rq.duration = 0;
	rq.check_only = argc > 0 && !strcmp(argv[0], "check");
	struct km_param_set sets[64];
	char set_names[64][130];
	int nsets = 0;
	const char *file = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--anachronism")) {
			rq.anachronism = true;
			continue;
		}
		if (a[0] != '-' || a[1] != '-' || !v) {
			if (!file)
				file = pick_file(a);
			continue;
		}
		i++;
		if (!strcmp(a, "--era")) {
			rq.era = v;
		} else if (!strcmp(a, "--mode")) {
			int m = km_mode_parse(v);
			if (m != -2)
				rq.mode = m;
		} else if (!strcmp(a, "--cpus")) {
			rq.cpus = (int)in_range(v, 1, KM_MAX_CPUS);
		} else if (!strcmp(a, "--seed")) {
			rq.seed = in_range(v, 0, INT64_MAX);
			rq.has_seed = true;
		} else if (!strcmp(a, "--duration")) {
			rq.duration = (km_time)in_range(v, 1, (uint64_t)KM_TIME_MAX);
		} else if (!strcmp(a, "--set")) {
			const char *eq = strchr(v, '=');
			size_t nl = eq ? (size_t)(eq - v) : 0;
			if (eq && nl > 0 && nl < sizeof(set_names[0]) && nsets < 64) {
				memcpy(set_names[nsets], v, nl);
				set_names[nsets][nl] = 0;
				sets[nsets].name = set_names[nsets];
				sets[nsets].value = eq + 1;
				nsets++;
			}
		} else if (!strcmp(a, "--max-instructions")) {
			rq.max_instructions = in_range(v, 1000, 2000000);
		} else if (!strcmp(a, "--max-memory")) {
			rq.max_memory = (size_t)in_range(v, 64u << 10, 64u << 20);
		} else if (!strcmp(a, "--max-wall")) {
			double w = strtod(v, NULL);
			if (isfinite(w) && w > 0)
				rq.max_wall = w < 2.0 ? w : 2.0;
		} else if (!strcmp(a, "--max-events")) {
			rq.max_events = in_range(v, 1, 1000000);
		}
	}
	rq.file = file ? file : files[0];
	rq.sets = sets;
	rq.nsets = nsets;

	struct km_session s;
	int status = fuzz_session_run(&s, &fuzz_eras, &rq);
	if (status < 0 || status > 3) {
		fprintf(stderr, "fuzz: exit status %d outside the contract\n", status);
		abort();
	}
	fuzz_check_reason(&s, status);
	if (!rq.check_only || status != 0)
		fuzz_reports(&s, devnull);
	km_session_free(&s);
	free(buf);
	return 0;
}
