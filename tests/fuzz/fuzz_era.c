/*
 * fuzz_era.c - arbitrary bytes as an era file, through km_era_load_file
 * (the same sandbox as scenarios, 10 million instructions, 16 MiB).
 *
 * An era that loads is then put to work: a fixed scenario that uses every
 * primitive runs against it (with --anachronism, so that whatever the era
 * lacks is still built), with small budgets -- a hostile era's costs, HZ
 * and CPU count reach the scheduler and the reports that way.
 */
#include "fuzz_common.h"

static FILE *devnull;
static char scenario_path[256];

static void remove_scenario(void)
{
	unlink(scenario_path);
}

static const char scenario[] =
	"scenario{ name = 'era-probe', cpus = 2 }\n"
	"local s = lock{ name = 's', kind = 'spinlock' }\n"
	"local m = lock{ name = 'm', kind = 'mutex' }\n"
	"local sem = lock{ name = 'sem', kind = 'semaphore', count = 2 }\n"
	"local b = lock{ name = 'b', kind = 'bkl' }\n"
	"local c = lock{ name = 'c', kind = 'cli' }\n"
	"local v = var{ name = 'v' }\n"
	"local wq = waitqueue{ name = 'wq' }\n"
	"local done = completion{ name = 'done' }\n"
	"local function work()\n"
	"  for i = 1, 3 do\n"
	"    down(s); add(v); up(s)\n"
	"    down(m); sleep(us(1)); up(m)\n"
	"    down(sem); compute(us(2)); up(sem)\n"
	"    down(b); compute(us(1)); up(b)\n"
	"    down(c); add(v); up(c)\n"
	"  end\n"
	"end\n"
	"task{ name = 'a', run = work }\n"
	"task{ name = 'b', run = function() work(); complete_all(done); wake_up_all(wq) end }\n"
	"task{ name = 'w', run = function() wait_for_completion(done)\n"
	"  wait_event_timeout(wq, function() return read(v) > 0 end, us(50)) end }\n"
	"irq{ name = 'timer', every = us(20), handler = function() down(s); up(s) end }\n";

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_make_file("km-fuzz-era", ".lua");
	devnull = fopen("/dev/null", "w");
	const char *dir = getenv("TMPDIR");
	snprintf(scenario_path, sizeof(scenario_path), "%s/km-fuzz-era-probe-%ld.lua",
		 dir && *dir ? dir : "/tmp", (long)getpid());
	FILE *f = fopen(scenario_path, "w");
	if (!devnull || !f || fputs(scenario, f) < 0 || fclose(f) != 0)
		abort();
	atexit(remove_scenario);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	fuzz_write_file(data, size);
	struct km_era era;
	char err[1024];
	memset(&era, 0, sizeof(era));
	if (km_era_load_file(fuzz_path, &era, err, sizeof(err)) < 0) {
		if (!err[0] || strchr(err, '\n')) {
			fprintf(stderr, "fuzz: a refused era without a one-line message\n");
			abort();
		}
		return 0;
	}
	/* The loader's own promises. */
	if (era.cpus < 1 || era.cpus > KM_MAX_CPUS || era.hz < 1 || !era.id[0] ||
	    !era.version[0]) {
		fprintf(stderr, "fuzz: era '%s' loaded out of range (cpus %d, hz %d)\n", era.id,
			era.cpus, era.hz);
		abort();
	}
	struct km_era_list one = { &era, 1 };
	struct km_run_request rq;
	fuzz_small_request(&rq, scenario_path);
	rq.anachronism = true;
	struct km_session s;
	int status = fuzz_session_run(&s, &one, &rq);
	if (status < 0 || status > 3)
		abort();
	fuzz_reports(&s, devnull);
	km_session_free(&s);
	return 0;
}
