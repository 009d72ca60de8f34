/*
 * fuzz_schedule.c - arbitrary bytes as a schedule file, through
 * km_schedule_read (engine/cli/schedule.c), the reader of `run --schedule`.
 *
 * A refused file must come with one line, "path:line: what" (or the
 * path and the system's reason).  A file that is read must keep the
 * reader's own promises -- as many decisions as announced, in order,
 * each within range -- and must survive being written back
 * (km_schedule_write, as explore saves one) and read again unchanged:
 * what the reader accepts, the writer can say, and nothing is lost.
 */
#include "fuzz_common.h"
#include "../../engine/cli/schedule.h"

static char again_path[300];

static void remove_again(void)
{
	unlink(again_path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_make_file("km-fuzz-schedule", ".schedule");
	snprintf(again_path, sizeof(again_path), "%s.again", fuzz_path);
	atexit(remove_again);
	return 0;
}

static void one_line(const char *what, const char *err)
{
	if (!err[0] || strchr(err, '\n')) {
		fprintf(stderr, "fuzz: %s without a one-line message: '%s'\n", what, err);
		abort();
	}
}

static bool same(const struct km_schedule *a, const struct km_schedule *b)
{
	if (strcmp(a->scenario, b->scenario) || a->scenario_hash != b->scenario_hash ||
	    strcmp(a->era, b->era) || strcmp(a->mode, b->mode) || a->cpus != b->cpus ||
	    a->seed != b->seed || a->hold_max != b->hold_max || a->n != b->n ||
	    a->nsets != b->nsets)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->d[i].index != b->d[i].index || a->d[i].ctx != b->d[i].ctx ||
		    a->d[i].other != b->d[i].other)
			return false;
	for (int i = 0; i < a->nsets; i++)
		if (strcmp(a->sets[i].name, b->sets[i].name) ||
		    strcmp(a->sets[i].value, b->sets[i].value))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	fuzz_write_file(data, size);
	struct km_schedule s;
	char err[1024];
	err[0] = 0;
	if (km_schedule_read(fuzz_path, &s, err, sizeof(err)) < 0) {
		one_line("a refused schedule", err);
		return 0;
	}
	/* The reader's own promises. */
	if (s.n < 0 || s.n > KM_SCHEDULE_MAX || s.cpus < 1 || s.cpus > KM_MAX_CPUS ||
	    s.hold_max < 0 || s.hold_max > KM_SCHEDULE_HOLD_LIMIT ||
	    s.nsets > KM_SCHEDULE_MAX_SETS) {
		fprintf(stderr, "fuzz: a schedule read out of range (n %d, cpus %d)\n", s.n,
			s.cpus);
		abort();
	}
	for (int i = 1; i < s.n; i++)
		if (s.d[i].index <= s.d[i - 1].index) {
			fprintf(stderr, "fuzz: decisions read out of order\n");
			abort();
		}
	/* Written back and read again: the same schedule. */
	if (km_schedule_write(again_path, &s, NULL, 0, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz: a schedule read could not be written: %s\n", err);
		abort();
	}
	struct km_schedule t;
	if (km_schedule_read(again_path, &t, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz: a schedule written could not be read again: %s\n", err);
		abort();
	}
	if (!same(&s, &t)) {
		fprintf(stderr, "fuzz: a schedule written and read again changed\n");
		abort();
	}
	km_schedule_free(&t);
	km_schedule_free(&s);
	return 0;
}
