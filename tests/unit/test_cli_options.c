/*
 * test_cli_options.c - the option table (engine/cli/options.c) is the one
 * list of the command line's options: what `--help` says, what the man
 * page's OPTIONS lists, and which commands refuse an option all agree
 * with it.
 *
 * - every row is an item of the man page's OPTIONS section
 *   (".TP" then ".B \-\-NAME" or ".BI \-\-NAME ..."), and every such item
 *   is a row: an option cannot be added, or dropped, on one side only;
 * - `lockmuseum --help` names every row, in its options list or on its
 *   command's line;
 * - a row's commands are exactly those that take it: for every command
 *   outside them, the command line refuses the option with "does not
 *   apply"; for every one inside, the option parses and is accepted.
 */
#include "test.h"

#include "cli/cli.h"
#include "cli/options.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;
	unsigned cmd;
} commands[] = {
	{ "run", KM_CMD_RUN },	       { "tour", KM_CMD_TOUR }, { "compare", KM_CMD_COMPARE },
	{ "explore", KM_CMD_EXPLORE }, { "play", KM_CMD_PLAY }, { "list", KM_CMD_LIST },
};

/* A value each option takes ("1" unless it says otherwise). */
static const char *sample(const char *name)
{
	static const char *const v[][2] = {
		{ "mode", "mutex" },	   { "set", "n=1" },	      { "report", "json" },
		{ "trace-format", "ftrace" }, { "size", "800x600" }, { "max-instructions", "5000" },
		{ "max-memory", "1M" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(v[i][0], name))
			return v[i][1];
	return "1";
}

/* km_cli_main on @words; stdout into @out, stderr into @err. */
static int cli(char **words, char *out, size_t outlen, char *err, size_t errlen)
{
	int argc = 0;
	while (words[argc])
		argc++;
	char po[] = "/tmp/km-test-cli-options-XXXXXX", pe[] = "/tmp/km-test-cli-options-XXXXXX";
	int fo = mkstemp(po), fe = mkstemp(pe);
	assert_true(fo >= 0 && fe >= 0);
	fflush(stdout);
	fflush(stderr);
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
	dup2(fo, STDOUT_FILENO);
	dup2(fe, STDERR_FILENO);
	int status = km_cli_main(argc, words);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	ssize_t n = pread(fo, out, outlen - 1, 0);
	out[n > 0 ? n : 0] = 0;
	n = pread(fe, err, errlen - 1, 0);
	err[n > 0 ? n : 0] = 0;
	close(fo);
	close(fe);
	unlink(po);
	unlink(pe);
	return status;
}

/* The man page's way of writing --NAME: "\-\-trace\-format". */
static void man_name(const char *name, char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "\\-\\-");
	for (const char *p = name; *p && k + 3 < len; p++) {
		if (*p == '-')
			buf[k++] = '\\';
		buf[k++] = *p;
	}
	buf[k] = 0;
}

/* The items of the man page's OPTIONS section: the line after each .TP. */
static int man_option_items(char items[][128], int max)
{
	FILE *f = fopen("docs/lockmuseum.1", "r");
	assert_non_null(f);
	char line[1024];
	bool in = false, tp = false;
	int n = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, ".SH ", 4)) {
			in = !strcmp(line, ".SH OPTIONS\n");
			continue;
		}
		if (!in)
			continue;
		if (tp && n < max) {
			line[strcspn(line, "\n")] = 0;
			snprintf(items[n++], 128, "%.127s", line);
		}
		tp = !strcmp(line, ".TP\n");
	}
	fclose(f);
	return n;
}

/* Is @item ".B \-\-NAME..." or ".BI \-\-NAME ..." for the row @name? */
static bool item_is(const char *item, const char *name)
{
	char m[128];
	man_name(name, m, sizeof(m));
	const char *p = !strncmp(item, ".B ", 3) ? item + 3 : !strncmp(item, ".BI ", 4) ? item + 4 : NULL;
	if (!p || strncmp(p, m, strlen(m)))
		return false;
	char next = p[strlen(m)];
	return next == 0 || next == ' ';
}

static void test_cli_options_man_page_lists_the_table(void **state)
{
	static char items[256][128];
	int n = man_option_items(items, 256);
	assert_true(n > 20);
	for (int i = 0; i < km_cli_noptions; i++) {
		bool found = false;
		for (int k = 0; k < n && !found; k++)
			found = item_is(items[k], km_cli_options[i].name);
		if (!found)
			fail_msg("--%s is in the option table but not an item of the man page's "
				 "OPTIONS", km_cli_options[i].name);
	}
	for (int k = 0; k < n; k++) {
		if (strncmp(items[k], ".B", 2) || !strstr(items[k], "\\-\\-"))
			continue;	/* an item that is not an option */
		bool found = false;
		for (int i = 0; i < km_cli_noptions && !found; i++)
			found = item_is(items[k], km_cli_options[i].name);
		if (!found)
			fail_msg("the man page's OPTIONS has '%s', which is no option of the "
				 "table", items[k]);
	}
}

static void test_cli_options_help_names_every_option(void **state)
{
	static char out[32768], err[4096];
	char w0[] = "lockmuseum", w1[] = "--help";
	char *words[] = { w0, w1, NULL };
	assert_int_equal(cli(words, out, sizeof(out), err, sizeof(err)), 0);
	for (int i = 0; i < km_cli_noptions; i++) {
		char want[64];
		snprintf(want, sizeof(want), "--%s", km_cli_options[i].name);
		const char *p = out;
		bool found = false;
		/* the whole name: "--to" is not "--tour"'s start */
		while (!found && (p = strstr(p, want))) {
			char next = p[strlen(want)];
			found = !(next >= 'a' && next <= 'z') && next != '-';
			p++;
		}
		if (!found)
			fail_msg("lockmuseum --help does not name --%s", km_cli_options[i].name);
	}
	/* and the options list is the table's: "run --help" prints the same */
	static char out2[32768];
	char v1[] = "run", v2[] = "--help";
	char *words2[] = { w0, v1, v2, NULL };
	assert_int_equal(cli(words2, out2, sizeof(out2), err, sizeof(err)), 0);
	assert_string_equal(out, out2);
}

static void test_cli_options_commands_refuse_what_they_do_not_take(void **state)
{
	static char out[65536], err[4096];
	for (int i = 0; i < km_cli_noptions; i++) {
		const struct km_cli_option *opt = &km_cli_options[i];
		for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
			char word[128];
			if (opt->arg)
				snprintf(word, sizeof(word), "--%s=%s", opt->name, sample(opt->name));
			else
				snprintf(word, sizeof(word), "--%s", opt->name);
			char w0[] = "lockmuseum", w2[] = "no-such-scenario.lua";
			char *words[] = { w0, (char *)commands[c].name, word, w2, NULL };
			bool takes = opt->cmds & commands[c].cmd;
			if (takes) {
				/* parsed and accepted: what the command would run with */
				static struct options o;
				bool lists = commands[c].cmd & (KM_CMD_COMPARE | KM_CMD_EXPLORE);
				int rc = km_cli_options_parse(3, words + 1, &o, lists);
				if (rc == 0)
					rc = km_cli_options_only(&o, commands[c].name, commands[c].cmd);
				if (rc || !km_cli_option_given(&o, opt->name))
					fail_msg("%s %s: not accepted (%d)", commands[c].name, word, rc);
				continue;
			}
			int st = cli(words, out, sizeof(out), err, sizeof(err));
			char want[160];
			snprintf(want, sizeof(want), "--%s does not apply to %s", opt->name,
				 commands[c].name);
			if (st != 2 || !strstr(err, want))
				fail_msg("%s %s: exit %d, '%s' (wanted: %s)", commands[c].name, word, st,
					 err, want);
		}
	}
}

int main(void)
{
	if (!getenv("LOCKMUSEUM_DATA")) {
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof(cwd)))
			setenv("LOCKMUSEUM_DATA", cwd, 1);
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_options_man_page_lists_the_table),
		cmocka_unit_test(test_cli_options_help_names_every_option),
		cmocka_unit_test(test_cli_options_commands_refuse_what_they_do_not_take),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
