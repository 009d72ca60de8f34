/*
 * sweep_jobs.c - a sweep as jobs for other machines: one shell command
 * per run for GNU parallel (`compare --print-jobs`), or a Slurm job-array
 * script whose task id picks the run (`compare --slurm-array`).
 *
 * Each job is `lockmuseum run FILE --era E --mode M --cpus C --set N=V
 * --seed S ... --report json --out DIR/NAME.json`: the same request the
 * local compare makes for that run (the budgets and --set options of the
 * sweep included), and one file per run, named after its combination,
 * which `run --out` writes whole or not at all.  So a sweep interrupted
 * half-way is resumed with --skip-done DIR, which leaves out the runs
 * whose file is there; Slurm task ids keep their meaning (the array
 * lists only the missing ids), so the script of the resumed sweep is the
 * same script with a shorter --array.
 *
 * Words are quoted for the shell only when they need it, so that the
 * lines read like ones typed by hand.
 */
#include "sweep.h"
#include "out.h"
#include "../report/records.h"
#include "../km.h"
#include "../lua/fields.h"
#include "../text_escape.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_WORDS (32 + 2 * 64 + 2 * KM_SWEEP_MAX_PARAMS)

struct job {
	char *word[MAX_WORDS];
	int n;
	char buf[8192];
	size_t used;
	bool overflow;
	char name_full[64 * 1024];	/* a report's name, before it is cut */
};

static void word(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void word(struct job *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = sizeof(j->buf) - j->used;
	int len = vsnprintf(j->buf + j->used, room, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= room || j->n == MAX_WORDS) {
		j->overflow = true;
		return;
	}
	j->word[j->n++] = j->buf + j->used;
	j->used += (size_t)len + 1;
}

/* An option and its value, two words. */
static void option(struct job *j, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void option(struct job *j, const char *name, const char *fmt, ...)
{
	char value[4096];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(value)) {
		j->overflow = true;
		return;
	}
	word(j, "%s", name);
	word(j, "%s", value);
}

/*
 * A file name's part: letters, digits and ._=+ kept, '-' kept only in
 * the scenario's name (@dash), every other byte as %XX.  So two values
 * never share a name ("a/b", "a_b" and "a?b" were all "a_b"), and the
 * '-' between parts cannot be forged by a value ("x-p2=y" in one
 * parameter and "z" in the next against "x" and "y-p2=z").
 */
static void name_esc(char *out, size_t len, size_t *off, const char *s, bool dash)
{
	for (; *s && *off + 4 < len; s++) {
		unsigned char c = (unsigned char)*s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || (c && strchr("._=+", c)) || (dash && c == '-');
		if (ok)
			out[(*off)++] = (char)c;
		else
			*off += (size_t)snprintf(out + *off, len - *off, "%%%02x", c);
	}
	out[*off] = 0;
}

static void name_part(char *out, size_t len, size_t *off, const char *s)
{
	if (*off + 1 < len)
		out[(*off)++] = '-';
	name_esc(out, len, off, s, false);
}

/* FNV-1a, 64 bits: the name of a combination too long to spell out. */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/*
 * "inode-2009-mutex-8cpus-loops=12-s3.json": the combination, readable.
 * A name that would pass NAME_MAX (255 bytes) keeps its first 200 bytes
 * and ends in '@' and the hash of the whole name: '@' is escaped in every
 * other name, so a cut name never equals a whole one.  @out has room for
 * NAME_ROOM + 6 bytes; @full is scratch of @fulllen bytes.
 */
#define NAME_ROOM (255 - 5)		/* NAME_MAX less ".json" */
static void job_name(const struct km_sweep_plan *p, const struct km_sweep_cell *c, char *out,
		     char *full, size_t fulllen)
{
	const char *base = strrchr(p->file, '/');
	base = base ? base + 1 : p->file;
	size_t stem = strlen(base);
	if (stem > 4 && !strcmp(base + stem - 4, ".lua"))
		stem -= 4;
	char part[512];
	snprintf(part, sizeof(part), "%.*s", (int)(stem < 200 ? stem : 200), base);
	size_t off = 0;
	full[0] = 0;
	name_esc(full, fulllen, &off, part, true);
	if (c->era)
		name_part(full, fulllen, &off, c->era);
	name_part(full, fulllen, &off, km_mode_name(c->mode));
	if (c->cpus) {
		snprintf(part, sizeof(part), "%dcpus", c->cpus);
		name_part(full, fulllen, &off, part);
	}
	for (int i = 0; i < p->np; i++) {
		name_part(full, fulllen, &off, p->params[i].name);
		name_esc(full, fulllen, &off, "=", false);
		name_esc(full, fulllen, &off, c->values[i], false);
	}
	if (c->has_seed) {
		snprintf(part, sizeof(part), "s%" PRIu64, c->seed);
		name_part(full, fulllen, &off, part);
	}
	if (off <= NAME_ROOM) {
		memcpy(out, full, off);
		memcpy(out + off, ".json", 6);
		return;
	}
	size_t cut = 200;
	while (cut > 0 && (full[cut - 1] == '%' || (cut > 1 && full[cut - 2] == '%')))
		cut--;		/* never half an escape */
	snprintf(out, NAME_ROOM + 6, "%.*s@%016" PRIx64 ".json", (int)cut, full, name_hash(full));
}

/* The words of run @run after "lockmuseum"; *@path is its report's file. */
static void job_words(const struct km_sweep_plan *p, const char *out_dir, long run,
		      struct job *j, const char **path)
{
	struct km_sweep_cell c;
	struct km_run_request def;
	const struct km_run_request *b = p->base;
	char name[NAME_ROOM + 6];
	km_sweep_cell_of(p, run, &c);
	km_run_request_init(&def);
	j->n = 0;
	j->used = 0;
	j->overflow = false;
	word(j, "run");
	word(j, "%s", p->file);
	if (c.era)
		option(j, "--era", "%s", c.era);
	option(j, "--mode", "%s", km_mode_name(c.mode));
	if (c.cpus)
		option(j, "--cpus", "%d", c.cpus);
	for (int i = 0; i < b->nsets; i++) {
		bool swept = false;
		for (int k = 0; k < p->np; k++)
			swept |= !strcmp(p->params[k].name, b->sets[i].name);
		if (!swept)
			option(j, "--set", "%s=%s", b->sets[i].name, b->sets[i].value);
	}
	for (int k = 0; k < p->np; k++)
		option(j, "--set", "%s=%s", p->params[k].name, c.values[k]);
	if (c.has_seed)
		option(j, "--seed", "%" PRIu64, c.seed);
	if (b->duration)
		option(j, "--duration", "%lld", (long long)b->duration);
	if (b->anachronism)
		word(j, "--anachronism");
	if (b->max_instructions != def.max_instructions)
		option(j, "--max-instructions", "%" PRIu64, b->max_instructions);
	if (b->max_memory != def.max_memory)
		option(j, "--max-memory", "%zu", b->max_memory);
	if (b->max_wall != def.max_wall)
		option(j, "--max-wall", "%.17g", b->max_wall);
	if (b->max_events != def.max_events)
		option(j, "--max-events", "%" PRIu64, b->max_events);
	option(j, "--report", "json");
	job_name(p, &c, name, j->name_full, sizeof(j->name_full));
	option(j, "--out", "%s/%s", out_dir, name);
	*path = j->n ? j->word[j->n - 1] : "";
}

/* @s as one shell word. */
static void put_word(const char *s, FILE *f)
{
	bool plain = *s != 0;
	for (const char *q = s; *q && plain; q++)
		plain = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
			(*q >= '0' && *q <= '9') || strchr("_./=,:@%+-", *q);
	if (plain) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void put_words(const struct job *j, FILE *f)
{
	for (int i = 0; i < j->n; i++) {
		if (i)
			fputc(' ', f);
		put_word(j->word[i], f);
	}
}

/*
 * The first word of @j holding a control byte, or NULL.  A newline would
 * end the job's line: GNU parallel runs every line as a command, and in
 * the Slurm script it ends a comment or a case branch, so the rest of
 * the value would run as the user's own command.  Such a value is
 * refused, not quoted: no quoting of sh makes a newline one line.
 */
static const char *control_word(const struct job *j)
{
	for (int i = 0; i < j->n; i++)
		if (km_has_control(j->word[i], strlen(j->word[i])))
			return j->word[i];
	return NULL;
}

static bool done(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

int km_sweep_print_jobs(const struct km_sweep_plan *p, const struct km_sweep_jobs_opts *o)
{
	const char *dir = o->out_dir ? o->out_dir : o->skip_done ? o->skip_done : "sweep";
	struct job *j = malloc(sizeof(*j));
	bool *todo = calloc((size_t)p->nruns, sizeof(*todo));
	if (!j || !todo) {
		free(j);
		free(todo);
		fprintf(stderr, "lockmuseum: out of memory\n");
		return 2;
	}
	/* a report keeps a parameter's value to 255 bytes: a longer one
	 * could never be found again by --from, and the sweep never end */
	size_t keep = sizeof(((struct km_param_info *)0)->value) - 1;
	for (int i = 0; i < p->np + p->base->nsets; i++) {
		bool swept = i < p->np;
		const struct km_param_set *fs = swept ? NULL : &p->base->sets[i - p->np];
		for (int v = 0; v < (swept ? p->params[i].nv : 1); v++) {
			const char *val = swept ? p->params[i].values[v] : fs->value;
			if (strlen(val) <= keep)
				continue;
			fprintf(stderr, "lockmuseum: --%s %.64s: a value of %zu bytes; a report "
				"keeps %zu, so compare --from could not find its run\n",
				swept ? "sets" : "set", swept ? p->params[i].name : fs->name,
				strlen(val), keep);
			free(j);
			free(todo);
			return 2;
		}
	}
	long left = 0;
	char skip[4096];
	for (long r = 0; r < p->nruns; r++) {
		const char *path;
		job_words(p, dir, r, j, &path);
		if (j->overflow) {
			fprintf(stderr, "lockmuseum: run %ld of the sweep: the command line is too "
				"long\n", r);
			free(j);
			free(todo);
			return 2;
		}
		const char *bad = control_word(j);
		if (bad) {
			fprintf(stderr, "lockmuseum: %s: '", o->slurm ? "--slurm-array" :
				"--print-jobs");
			km_put_escaped(bad, stderr);
			fprintf(stderr, "' holds a control character (a newline would end the "
				"job's line and run the rest); refusing\n");
			free(j);
			free(todo);
			return 2;
		}
		todo[r] = true;
		if (o->skip_done) {
			const char *name = strrchr(path, '/') + 1;
			snprintf(skip, sizeof(skip), "%s/%s", o->skip_done, name);
			todo[r] = !done(skip);
		}
		left += todo[r];
	}
	if (o->slurm && !left) {
		fprintf(stderr, "lockmuseum: --skip-done %s: every run of the sweep has its "
			"report there\n", o->skip_done);
	} else if (o->slurm) {
		const char *base = strrchr(p->file, '/');
		base = base ? base + 1 : p->file;
		size_t stem = strlen(base);
		if (stem > 4 && !strcmp(base + stem - 4, ".lua"))
			stem -= 4;
		char job[256];
		snprintf(job, sizeof(job), "lockmuseum-%.*s", (int)(stem < 200 ? stem : 200), base);
		/* every value quoted, in the comments too (none holds a
		 * control byte: checked above) */
		printf("#!/bin/sh\n# lockmuseum: a sweep of ");
		put_word(p->file, stdout);
		printf(" as a Slurm job array, %ld run%s of %ld.\n"
		       "# Task N runs line N+1 of `lockmuseum compare ... --print-jobs` and\n"
		       "# writes its report into the folder ", left, left == 1 ? "" : "s",
		       p->nruns);
		put_word(dir, stdout);
		printf("; merge them with\n# `lockmuseum compare --from ");
		put_word(dir, stdout);
		printf("`.  Submit from the folder these\n"
		       "# paths are relative to: sbatch THIS-SCRIPT\n");
		/* sbatch reads #SBATCH lines itself: a name of plain bytes */
		for (char *q = job; *q; q++)
			if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
			      (*q >= '0' && *q <= '9') || strchr("._-", *q)))
				*q = '_';
		printf("#SBATCH --job-name=%s", job);
		printf("\n#SBATCH --array=");
		/* the ids left to run, as ranges */
		bool first = true;
		for (long r = 0; r < p->nruns; r++) {
			if (!todo[r])
				continue;
			long e = r;
			while (e + 1 < p->nruns && todo[e + 1])
				e++;
			printf(e > r ? "%s%ld-%ld" : "%s%ld", first ? "" : ",", r, e);
			first = false;
			r = e;
		}
		printf("\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
		       "#SBATCH --output=lockmuseum-%%A.log\n#SBATCH --open-mode=append\n"
		       "case \"${SLURM_ARRAY_TASK_ID:?not set: submit this script with sbatch}\" "
		       "in\n");
		for (long r = 0; r < p->nruns; r++) {
			const char *path;
			job_words(p, dir, r, j, &path);
			printf("%ld) set -- ", r);
			put_words(j, stdout);
			printf(" ;;\n");
		}
		printf("*) echo \"lockmuseum: no run $SLURM_ARRAY_TASK_ID in this sweep\" >&2; "
		       "exit 2 ;;\nesac\nexec lockmuseum \"$@\"\n");
	} else {
		for (long r = 0; r < p->nruns; r++) {
			if (!todo[r])
				continue;
			const char *path;
			job_words(p, dir, r, j, &path);
			fputs("lockmuseum ", stdout);
			put_words(j, stdout);
			putchar('\n');
		}
	}
	free(j);
	free(todo);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		km_out_stdout_failed("the jobs", errno);
		return 2;
	}
	return 0;
}
