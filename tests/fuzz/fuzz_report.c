/*
 * fuzz_report.c - arbitrary bytes as the reports `compare --from` reads.
 *
 * The input is one report, or two split at the first NUL byte (two
 * reports are what a merge sums and averages: two seeds of one run).
 * Each is written as a .json file into a private folder, and then:
 *
 *   - km_report_read() reads the first as jansson does: the same value
 *     (json_equal) or, both, no value -- the report reader agrees with a
 *     real parser on every input;
 *   - the folder is merged as `compare --from FOLDER` merges it
 *     (km_sweep_merge: the reports read, checked, summarised, grouped),
 *     and the table printed as --report json, csv and text do
 *     (km_compare_print): the status is one of 0, 1, 2, 3, and the JSON
 *     printed is one JSON object, or nothing with status 2 (the command
 *     line then prints its error object), whatever the reports held.
 *
 * The eras are loaded once; the command line around the merge (its
 * options, its error object) is left to tests/run_hostile_inputs.sh, so
 * that an input costs a merge and not the loading of nineteen era files.
 * stdout is a private file, read back after each call.
 */
#include "fuzz_common.h"
#include "../../engine/cli/compare.h"
#include "../../engine/cli/sweep.h"
#include "../../engine/report/report_read.h"

#include <fcntl.h>
#include <sys/stat.h>

static char dir[256], file_a[300], file_b[300], out_path[300];
static int out_fd = -1;

static void remove_all(void)
{
	unlink(file_a);
	unlink(file_b);
	unlink(out_path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_load_eras();
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/fuzz-report-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz: mkdtemp");
		abort();
	}
	snprintf(file_a, sizeof(file_a), "%s/a.json", dir);
	snprintf(file_b, sizeof(file_b), "%s/b.json", dir);
	snprintf(out_path, sizeof(out_path), "%s.out", dir);
	atexit(remove_all);
	out_fd = open(out_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out_fd < 0 || dup2(out_fd, STDOUT_FILENO) < 0) {
		perror("fuzz: stdout");
		abort();
	}
	return 0;
}

static void put(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
		perror("fuzz: writing a report");
		abort();
	}
}

/* Print @table as @format; what it printed in a new buffer. */
static char *print(json_t *table, enum km_table_format format, int nruns, int *status)
{
	fflush(stdout);
	if (ftruncate(STDOUT_FILENO, 0) < 0 || lseek(STDOUT_FILENO, 0, SEEK_SET) < 0)
		abort();
	fuzz_call_begin();
	*status = km_compare_print(table, format, nruns, NULL, NULL, true);
	fuzz_call_end();
	fflush(stdout);
	if (*status < 0 || *status > 3) {
		fprintf(stderr, "fuzz: km_compare_print: status %d outside the contract\n", *status);
		abort();
	}
	off_t len = lseek(STDOUT_FILENO, 0, SEEK_END);
	if (len < 0)
		abort();
	char *buf = malloc((size_t)len + 1);
	if (!buf || pread(STDOUT_FILENO, buf, (size_t)len, 0) != len)
		abort();
	buf[len] = 0;
	return buf;
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	const uint8_t *nul = memchr(data, 0, size);
	size_t len_a = nul ? (size_t)(nul - data) : size;

	/* The reader and jansson: the same value, or both none. */
	static const struct km_pick every[] = { { "*", NULL }, { NULL, NULL } };
	json_error_t e1, e2;
	json_t *mine = km_report_read((const char *)data, len_a, every, &e1);
	json_t *theirs = json_loadb((const char *)data, len_a, JSON_REJECT_DUPLICATES, &e2);
	if (theirs && !json_is_object(theirs)) {
		json_decref(theirs);
		theirs = NULL;
	}
	if (!mine != !theirs || (mine && !json_equal(mine, theirs))) {
		fprintf(stderr, "fuzz: the report reader and jansson disagree (%s, %s)\n",
			mine ? "read" : "refused", theirs ? "read" : "refused");
		abort();
	}
	json_decref(mine);
	json_decref(theirs);

	put(file_a, data, len_a);
	unlink(file_b);
	if (nul)
		put(file_b, nul + 1, size - len_a - 1);

	struct km_run_request base;
	km_run_request_init(&base);
	struct km_sweep_spec spec = { .base = &base };
	char *paths[] = { dir };
	struct km_sweep_merge_opts mo = { .paths = paths, .npaths = 1, .select = &spec };
	char err[1024];
	int nruns = 0, status;
	err[0] = 0;
	fuzz_call_begin();
	json_t *table = km_sweep_merge(&mo, &fuzz_eras, &nruns, err, sizeof(err));
	fuzz_call_end();
	if (!table) {
		if (!err[0] || strchr(err, '\n')) {
			fprintf(stderr, "fuzz: a refused merge without a one-line message\n");
			abort();
		}
		return 0;
	}
	char *out = print(table, KM_TABLE_JSON, nruns, &status);
	json_error_t je;
	json_t *j = out[0] ? json_loads(out, 0, &je) : NULL;
	if (out[0] ? !json_is_object(j) : status != 2) {
		fprintf(stderr, "fuzz: the table as JSON (status %d) is not one JSON object: %s "
			"(%d bytes)\n", status, out[0] ? je.text : "empty", (int)strlen(out));
		abort();
	}
	json_decref(j);
	free(out);
	free(print(table, KM_TABLE_CSV, nruns, &status));
	free(print(table, KM_TABLE_TEXT, nruns, &status));
	json_decref(table);
	return 0;
}
