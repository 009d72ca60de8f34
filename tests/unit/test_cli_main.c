/*
 * test_cli_main.c - the command line called as a function, many times in
 * one process (engine/cli/cli.h), as fuzz_cli and any embedding do.
 *
 * Each call must start from nothing that an earlier one left.  getopt
 * keeps where it is inside a word of short options ("-xy": at "y") across
 * calls unless it is started afresh; an option error stopped it there,
 * and the next call went on with that letter, in an argv that could be
 * gone -- a stale letter, then an error message read past the end of a
 * word (found by fuzz_cli as three "child exits" that did not reproduce
 * alone).  And a short option's error names the letter, never a word.
 */
#include "test.h"

#include "cli/cli.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Run km_cli_main on @words (NULL-terminated), stdout to /dev/null and
 * stderr into @err; returns the status. */
static int cli(char **words, char *err, size_t errlen)
{
	int argc = 0;
	while (words[argc])
		argc++;
	char path[] = "/tmp/km-test-cli-main-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
	int null = open("/dev/null", O_WRONLY);
	assert_true(saved_out >= 0 && saved_err >= 0 && null >= 0);
	dup2(null, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	int status = km_cli_main(argc, words);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	close(null);
	ssize_t n = pread(fd, err, errlen - 1, 0);
	err[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(path);
	return status;
}

/* A word of short options stopped by an error, then a clean command: the
 * second call must not see the first's "y". */
static void test_cli_main_no_option_state_across_calls(void **state)
{
	char err[2048];
	char w0[] = "lockmuseum", w1[] = "list", w2[] = "-xy";
	char *first[] = { w0, w1, w2, NULL };
	assert_int_equal(cli(first, err, sizeof(err)), 2);

	char v0[] = "lockmuseum", v1[] = "check", v2[] = "tests/bench/one_event.lua";
	char *second[] = { v0, v1, v2, NULL };
	assert_int_equal(cli(second, err, sizeof(err)), 0);
	assert_null(strstr(err, "unknown option"));

	/* ... and again with the first argv overwritten, as a caller
	 * reusing its buffer would: nothing of it is read */
	assert_int_equal(cli(first, err, sizeof(err)), 2);
	memset(w2, 'y', sizeof(w2) - 1);
	char u0[] = "lockmuseum", u1[] = "check", u2[] = "";
	char *third[] = { u0, u1, u2, NULL };
	assert_int_equal(cli(third, err, sizeof(err)), 2);
	assert_null(strstr(err, "option"));
}

/* The error of a short option names its letter, whole-word or inside a
 * word; a long option its word. */
static void test_cli_main_option_errors_name_the_option(void **state)
{
	char err[2048];
	char a0[] = "lockmuseum", a1[] = "list", a2[] = "-xy";
	char *cluster[] = { a0, a1, a2, NULL };
	assert_int_equal(cli(cluster, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "unknown option '-x'"));
	assert_null(strstr(err, "--st"));

	char b0[] = "lockmuseum", b1[] = "run", b2[] = "--bogus";
	char *unknown[] = { b0, b1, b2, NULL };
	assert_int_equal(cli(unknown, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "unknown option '--bogus'"));

	char c0[] = "lockmuseum", c1[] = "run", c2[] = "--era";
	char *novalue[] = { c0, c1, c2, NULL };
	assert_int_equal(cli(novalue, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "option --era needs a value"));
}

int main(void)
{
	if (!getenv("LOCKMUSEUM_DATA")) {
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof(cwd)))
			setenv("LOCKMUSEUM_DATA", cwd, 1);
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_main_no_option_state_across_calls),
		cmocka_unit_test(test_cli_main_option_errors_name_the_option),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
