/*
 * fuzz_cli.c - bytes as a command line, through the real parser.
 *
 * The input is split on NUL and newline into words, and the words become
 * argv[1..] of km_cli_main(), the whole command line of lockmuseum as a
 * function (engine/cli/cli.h): getopt_long with its abbreviations and
 * "--opt=value" forms, every option's own checks, the commands run,
 * check, list, compare, help and --version, and then the session, the
 * report and the exit status behind them.
 *
 * What the harness keeps out, so that a fuzzing run neither writes over
 * the source tree nor takes minutes per input:
 *   - the museum (no arguments), `tour` and `explore`: they run many
 *     scenarios each (explore up to a million seeds);
 *   - writing anywhere but a scratch folder: the values of --trace,
 *     --png, --plot and --out are replaced by names in a private folder
 *     under $TMPDIR, and an input that spells one of those options (or
 *     --gui) any other way -- an abbreviation, "--png=x" -- is skipped;
 *   - long runs: small budgets of wall time, events and simulated time
 *     are appended after the input's own options (the parser still
 *     checks the input's values; the last value given wins), memory and
 *     instruction budgets only when the input sets none, and a compare
 *     of more than 8 list items is skipped.
 * The working directory is the source tree, so "scripts/bkl.lua" and
 * "tests/scenarios/..." name real scenarios; the corpus seeds
 * (seed_corpus.sh) start from those.
 *
 * A status outside the contract (0, 1, 2, 3; 130 cannot happen here)
 * aborts: that is a finding.
 */
#include "fuzz_common.h"
#include "../../engine/cli/cli.h"

#include <fcntl.h>
#include <sys/stat.h>

#define MAX_ARGS 64

static char scratch[256];
static char out_names[4][320];		/* trace, png, plot, out */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("LOCKMUSEUM_DATA", KM_FUZZ_ROOT, 0);
	unsetenv("DISPLAY");
	unsetenv("WAYLAND_DISPLAY");
	if (chdir(KM_FUZZ_ROOT) != 0) {
		perror("fuzz: chdir to the source tree");
		abort();
	}
	const char *dir = getenv("TMPDIR");
	snprintf(scratch, sizeof(scratch), "%s/fuzz-cli-XXXXXX", dir && *dir ? dir : "/tmp");
	if (!mkdtemp(scratch)) {
		perror("fuzz: mkdtemp");
		abort();
	}
	static const char *const names[] = { "trace.json", "shot.png", "plot.svg", "tour" };
	for (int i = 0; i < 4; i++)
		snprintf(out_names[i], sizeof(out_names[i]), "%s/%s", scratch, names[i]);
	/* Reports go nowhere; stderr stays for the sanitizers and libFuzzer. */
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		perror("fuzz: /dev/null");
		abort();
	}
	close(fd);
	return 0;
}

/* Is @name (an option's name, without "--") a prefix of @opt? */
static bool abbreviates(const char *name, size_t len, const char *opt)
{
	return len > 0 && len <= strlen(opt) && !strncmp(name, opt, len);
}

/*
 * Index into out_names of an output option spelled exactly ("--png"), -1
 * for any other word, or -2 for a spelling the harness cannot redirect
 * (an abbreviation, "--png=...", or --gui).
 */
static int output_option(const char *w)
{
	static const char *const outs[] = { "trace", "png", "plot", "out" };
	if (w[0] != '-' || w[1] != '-')
		return -1;
	const char *name = w + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	for (int i = 0; i < 4; i++)
		if (!eq && !strcmp(name, outs[i]))
			return i;
	for (int i = 0; i < 4; i++)
		if (abbreviates(name, len, outs[i]))
			return -2;
	if (abbreviates(name, len, "gui"))
		return -2;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;

	/* The first four words are appended only when the input gives no
	 * value of its own: small memory and instruction budgets are worth
	 * fuzzing, and the others bound the time anyway. */
	static const char *const budgets[] = {
		"--max-instructions", "2000000", "--max-memory", "16M", "--max-wall", "2",
		"--max-events", "200000", "--duration", "10ms", "--jobs", "1",
	};
	enum { NBUDGET = sizeof(budgets) / sizeof(budgets[0]) };
	char *argv[1 + MAX_ARGS + NBUDGET + 1];
	int argc = 0;
	static char progname[] = "lockmuseum";
	argv[argc++] = progname;
	for (size_t i = 0, start = 0; i <= size && argc < 1 + MAX_ARGS; i++) {
		if (i == size && start == size && size > 0)
			break;		/* a final newline ends the last word, no more */
		if (i == size || buf[i] == 0 || buf[i] == '\n') {
			buf[i] = 0;
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	const char *cmd = argc > 1 ? argv[1] : "";
	bool skip = argc < 2 || !strcmp(cmd, "tour") || !strcmp(cmd, "explore");
	int commas = 0;
	bool own_instr = false, own_memory = false;
	for (int i = 2; i < argc && !skip; i++) {
		if (argv[i][0] == '-' && argv[i][1] == '-') {
			const char *name = argv[i] + 2;
			size_t len = strcspn(name, "=");
			own_instr |= len >= 5 && abbreviates(name, len, "max-instructions");
			own_memory |= len >= 5 && abbreviates(name, len, "max-memory");
		}
		int o = output_option(argv[i]);
		if (o == -2) {
			skip = true;
		} else if (o >= 0) {
			if (i + 1 < argc)
				argv[++i] = out_names[o];
		}
		for (const char *p = argv[i]; *p; p++)
			commas += *p == ',';
	}
	if (!strcmp(cmd, "compare") && commas > 8)
		skip = true;
	if (skip) {
		free(buf);
		return 0;
	}
	bool takes_budgets = !strcmp(cmd, "run") || !strcmp(cmd, "check") ||
			     !strcmp(cmd, "compare");
	for (int i = 0; takes_budgets && i < NBUDGET; i += 2) {
		if ((i == 0 && own_instr) || (i == 2 && own_memory))
			continue;
		/* only compare takes --jobs: appended to run or check, it made
		 * every such input an option error (issue 28's campaign) */
		if (!strcmp(budgets[i], "--jobs") && strcmp(cmd, "compare"))
			continue;
		argv[argc++] = (char *)budgets[i];
		argv[argc++] = (char *)budgets[i + 1];
	}
	argv[argc] = NULL;

	/* km_cli_main arms the engine's watchdog (SIGALRM); put libFuzzer's
	 * timer back afterwards, as fuzz_session_run does. */
	struct sigaction old_sa;
	struct itimerval old_it;
	sigaction(SIGALRM, NULL, &old_sa);
	getitimer(ITIMER_REAL, &old_it);
	fuzz_call_begin();
	int status = km_cli_main(argc, argv);
	fuzz_call_end();
	sigaction(SIGALRM, &old_sa, NULL);
	setitimer(ITIMER_REAL, &old_it, NULL);
	if (status < 0 || status > 3) {
		fprintf(stderr, "fuzz: exit status %d outside the contract\n", status);
		abort();
	}
	free(buf);
	return 0;
}
