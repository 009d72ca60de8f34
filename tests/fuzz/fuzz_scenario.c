/*
 * fuzz_scenario.c - arbitrary bytes as a scenario file: loaded in the
 * sandbox, run, reported (JSON, text, lock_stat) and freed, with small
 * budgets (200,000 instructions, 8 MiB of Lua memory, 2 s of wall clock,
 * 100,000 events, 10 ms of simulated time).
 *
 * A run that ends in an error is fine (that is what bad input gets); a
 * crash, a sanitizer report, a leak or a timeout is a finding.
 */
#include "fuzz_common.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_load_eras();
	fuzz_make_file("km-fuzz-scenario", ".lua");
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	fuzz_write_file(data, size);
	struct km_run_request rq;
	fuzz_small_request(&rq, fuzz_path);
	struct km_session s;
	int status = fuzz_session_run(&s, &fuzz_eras, &rq);
	if (status < 0 || status > 3) {
		fprintf(stderr, "fuzz: exit status %d outside the contract\n", status);
		abort();
	}
	fuzz_check_reason(&s, status);
	fuzz_reports(&s, devnull);
	km_session_free(&s);
	return 0;
}
