/*
 * schedule.c - reading, writing and replaying schedule files.
 *
 * The reader is written for hostile input, as the era and scenario
 * loaders are: a line longer than the buffer, a number out of range, a
 * key twice or missing, decisions out of order or more than announced --
 * each is one line "path:line: what" and exit status 2, never a crash.
 * Writing goes through out_file.c like every output of the program.
 */
#include "schedule.h"

#include "../input.h"
#include "../report/out_file.h"
#include "../sim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int km_schedule_push(struct km_schedule *s, const struct km_decision *d)
{
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 16;
		struct km_decision *v = realloc(s->d, (size_t)cap * sizeof(*v));
		if (!v)
			return -1;
		s->d = v;
		s->cap = cap;
	}
	s->d[s->n++] = *d;
	return 0;
}

void km_schedule_free(struct km_schedule *s)
{
	free(s->d);
	s->d = NULL;
	s->n = s->cap = 0;
	for (int i = 0; i < s->nsets; i++) {
		free((char *)s->sets[i].name);
		free((char *)s->sets[i].value);
	}
	free(s->sets);
	s->sets = NULL;
	s->nsets = 0;
}

/* A parameter's name as a schedule keeps it: a scenario identifier. */
static bool param_name_ok(const char *t, size_t max)
{
	size_t n = strlen(t);
	if (!n || n > max || (*t >= '0' && *t <= '9'))
		return false;
	for (const char *p = t; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

/* A value: printable, no blanks (the line is split on them). */
static bool param_value_ok(const char *t, size_t max)
{
	if (strlen(t) > max)
		return false;
	for (const char *p = t; *p; p++)
		if ((unsigned char)*p < 33 || (unsigned char)*p == 127)
			return false;
	return true;
}

/* Append NAME=VALUE to @s (copies).  0, or -1: out of memory. */
static int add_set(struct km_schedule *s, const char *name, const char *value)
{
	struct km_param_set *v = realloc(s->sets, (size_t)(s->nsets + 1) * sizeof(*v));
	if (!v)
		return -1;
	s->sets = v;
	char *n = strdup(name), *val = strdup(value);
	if (!n || !val) {
		free(n);
		free(val);
		return -1;
	}
	s->sets[s->nsets++] = (struct km_param_set){ .name = n, .value = val };
	return 0;
}

int km_schedule_keep_params(struct km_schedule *s, const struct km_param_info *p, int n,
			    char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		if (!strcmp(p[i].value, p[i].def))
			continue;
		if (!param_name_ok(p[i].name, 128) || !param_value_ok(p[i].value, 255)) {
			snprintf(err, errlen, "parameter %.64s=%.64s: a schedule file keeps only "
				 "values without blanks or control bytes", p[i].name, p[i].value);
			return -1;
		}
		if (s->nsets == KM_SCHEDULE_MAX_SETS) {
			snprintf(err, errlen, "more than %d parameters set", KM_SCHEDULE_MAX_SETS);
			return -1;
		}
		if (add_set(s, p[i].name, p[i].value) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------- reading -- */

static bool parse_u64(const char *t, uint64_t *out, uint64_t max)
{
	char *end;
	if (!t || *t < '0' || *t > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(t, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

static bool word(char *dst, size_t len, const char *t)
{
	if (!t || !*t || strlen(t) >= len)
		return false;
	for (const char *p = t; *p; p++)
		if ((unsigned char)*p < 33 || (unsigned char)*p > 126)
			return false;
	memcpy(dst, t, strlen(t) + 1);
	return true;
}

/*
 * One line of @f into @line (its newline dropped), byte by byte, so that
 * a NUL anywhere in it is seen (fgets stops nothing at a NUL, but strlen
 * then does: the old check compared strlen with itself and never fired).
 * The rest of a line longer than @cap - 1 is read and dropped.  Returns
 * false at the end of the file.
 */
static bool read_line(FILE *f, char *line, size_t cap, bool *nul, bool *too_long)
{
	size_t n = 0;
	int c = EOF;
	*nul = *too_long = false;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == 0)
			*nul = true;
		if (n + 1 < cap)
			line[n++] = (char)c;
		else
			*too_long = true;
	}
	line[n] = 0;
	return c != EOF || n > 0 || *nul || *too_long;
}

#define BAD(...) do { snprintf(err, errlen, "%s:%d: " , path, lineno); \
		      size_t o_ = strlen(err); \
		      snprintf(err + o_, errlen > o_ ? errlen - o_ : 0, __VA_ARGS__); \
		      goto fail; } while (0)

int km_schedule_read(const char *path, struct km_schedule *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	int lineno = 0;
	/* km_input_open: a FIFO with no writer is an empty file, not a hang */
	int fd = km_input_open(path, true, err, errlen);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
		}
		return -1;
	}
	char line[512];
	enum { K_SCEN = 1, K_HASH = 2, K_ERA = 4, K_MODE = 8, K_CPUS = 16, K_SEED = 32,
	       K_STRAT = 64, K_ALL = 127, K_HOLD = 128 };
	unsigned have = 0;
	uint64_t announced = 0, u;
	bool in_decisions = false, header = false;
	bool nul, too_long;
	while (read_line(f, line, sizeof(line), &nul, &too_long)) {
		lineno++;
		if (nul)
			BAD("a NUL byte");
		if (too_long)
			BAD("line too long");
		/* the comment of a decision line, and whole comment lines */
		char *c = strstr(line, " --");
		if (c)
			*c = 0;
		if (line[0] == '#' || !strncmp(line, "--", 2))
			continue;
		char *save = NULL, *k = strtok_r(line, " \t\r", &save);
		if (!k)
			continue;
		char *v = strtok_r(NULL, " \t\r", &save);
		char *rest = strtok_r(NULL, "", &save);
		if (!header) {
			if (strcmp(k, "lockmuseum-schedule"))
				BAD("not a schedule file (it starts with 'lockmuseum-schedule %d')",
				    KM_SCHEDULE_VERSION);
			if (!parse_u64(v, &u, 1000) || rest)
				BAD("bad version line");
			if (u != KM_SCHEDULE_VERSION)
				BAD("schedule version %" PRIu64 " (this program reads version %d)", u,
				    KM_SCHEDULE_VERSION);
			header = true;
			continue;
		}
		if (in_decisions) {
			uint64_t idx, ctx, other;
			char *third = rest ? strtok_r(rest, " \t\r", &save) : NULL;
			char *more = third ? strtok_r(NULL, " \t\r", &save) : NULL;
			bool irq = third && !strncmp(third, "irq:", 4);
			if (!parse_u64(k, &idx, UINT32_MAX - 1) ||
			    !parse_u64(v, &ctx, KM_CHOICE_IRQ - 1) ||
			    !parse_u64(irq ? third + 4 : third, &other, KM_CHOICE_IRQ - 1) || more)
				BAD("a decision is 'POINT TASK OTHER' (three whole numbers; OTHER "
				    "irq:N for an interrupt source)");
			if ((uint64_t)s->n >= announced)
				BAD("more decisions than the %" PRIu64 " announced", announced);
			if (s->n && idx <= s->d[s->n - 1].index)
				BAD("choice point %" PRIu64 " is not after %u", idx, s->d[s->n - 1].index);
			if (ctx == other && !irq)
				BAD("task %" PRIu64 " cannot let itself go first", ctx);
			struct km_decision d = { (uint32_t)idx, (uint32_t)ctx,
						 (uint32_t)other | (irq ? KM_CHOICE_IRQ : 0) };
			if (km_schedule_push(s, &d) < 0)
				BAD("out of memory");
			continue;
		}
		if (!strcmp(k, "set")) {	/* set NAME=VALUE, any number */
			char *eq = v ? strchr(v, '=') : NULL;
			if (!eq || rest)
				BAD("set: one NAME=VALUE");
			*eq = 0;
			if (!param_name_ok(v, 128) || !param_value_ok(eq + 1, 255))
				BAD("set: a parameter name (letters, digits, _) and a value "
				    "without blanks");
			for (int i = 0; i < s->nsets; i++)
				if (!strcmp(s->sets[i].name, v))
					BAD("set %.64s given twice", v);
			if (s->nsets == KM_SCHEDULE_MAX_SETS)
				BAD("more than %d 'set' lines", KM_SCHEDULE_MAX_SETS);
			if (add_set(s, v, eq + 1) < 0)
				BAD("out of memory");
			continue;
		}
		if (!strcmp(k, "decisions")) {
			if ((have & K_ALL) != K_ALL)
				BAD("'decisions' before the whole header (scenario, scenario-hash, era, "
				    "mode, cpus, seed, strategy)");
			if (!parse_u64(v, &announced, KM_SCHEDULE_MAX) || rest)
				BAD("decisions: a whole number up to %d", KM_SCHEDULE_MAX);
			in_decisions = true;
			continue;
		}
		unsigned bit = !strcmp(k, "scenario") ? K_SCEN : !strcmp(k, "scenario-hash") ? K_HASH :
			       !strcmp(k, "era") ? K_ERA : !strcmp(k, "mode") ? K_MODE :
			       !strcmp(k, "cpus") ? K_CPUS : !strcmp(k, "seed") ? K_SEED :
			       !strcmp(k, "strategy") ? K_STRAT :
			       !strcmp(k, "hold-max") ? K_HOLD : 0;
		if (!bit)
			BAD("unknown key '%.40s'", k);
		if (have & bit)
			BAD("'%s' given twice", k);
		have |= bit;
		if (bit != K_STRAT && rest)
			BAD("%s: one value", k);
		bool ok = true;
		switch (bit) {
		case K_SCEN: ok = word(s->scenario, sizeof(s->scenario), v); break;
		case K_HASH: {
			char *end;
			ok = v && strlen(v) == 16 && strspn(v, "0123456789abcdef") == 16;
			if (ok)
				s->scenario_hash = strtoull(v, &end, 16);
			break;
		}
		case K_ERA: ok = word(s->era, sizeof(s->era), v); s->era_line = lineno; break;
		case K_MODE: ok = word(s->mode, sizeof(s->mode), v) && km_mode_parse(v) != -2; break;
		case K_CPUS:
			ok = parse_u64(v, &u, KM_MAX_CPUS) && u >= 1;
			s->cpus = (int)u;
			s->cpus_line = lineno;
			break;
		case K_SEED: ok = parse_u64(v, &s->seed, INT64_MAX); break;
		case K_HOLD:
			if (v && !strcmp(v, "none")) {
				s->hold_max = 0;
				break;
			}
			ok = parse_u64(v, &u, KM_SCHEDULE_HOLD_LIMIT) && u >= 1;
			s->hold_max = (km_time)u;
			break;
		case K_STRAT:
			snprintf(s->strategy, sizeof(s->strategy), "%s%s%s", v ? v : "",
				 rest ? " " : "", rest ? rest : "");
			ok = v != NULL;
			break;
		}
		if (!ok)
			BAD("bad value for '%s'", k);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail_quiet;
	}
	lineno++;
	if (!header)
		BAD("empty: not a schedule file");
	if (!in_decisions)
		BAD("no 'decisions' line");
	if ((uint64_t)s->n != announced)
		BAD("%d decisions, %" PRIu64 " announced", s->n, announced);
	/* a file with no hold-max line was made when holds ended at 1 ms */
	if (!(have & K_HOLD))
		s->hold_max = KM_HOLD_MAX;
	fclose(f);
	return 0;
fail:
fail_quiet:
	fclose(f);
	km_schedule_free(s);
	return -1;
}

/* ------------------------------------------------------------- writing -- */

int km_schedule_write(const char *path, const struct km_schedule *s,
		      const char *const *names, int nnames, const int *lines,
		      char *err, size_t errlen)
{
	struct km_out_file out;
	if (km_out_open(&out, path, err, errlen) < 0)
		return -1;
	FILE *f = out.f;
	fprintf(f, "lockmuseum-schedule %d\n", KM_SCHEDULE_VERSION);
	fprintf(f, "# the decisions of one run: at choice point POINT, task TASK let\n"
		   "# task OTHER (or interrupt source irq:N) go first (ids in declaration\n"
		   "# order); replay with lockmuseum run SCENARIO --schedule THIS-FILE\n");
	fprintf(f, "scenario %s\nscenario-hash %016" PRIx64 "\nera %s\nmode %s\ncpus %d\n"
		   "seed %" PRIu64 "\nstrategy %s\n", s->scenario,
		s->scenario_hash, s->era, s->mode, s->cpus, s->seed, s->strategy);
	if (s->hold_max > 0)
		fprintf(f, "hold-max %" PRId64 "\n", (int64_t)s->hold_max);
	else
		fprintf(f, "hold-max none\n");
	for (int i = 0; i < s->nsets; i++)
		fprintf(f, "set %s=%s\n", s->sets[i].name, s->sets[i].value);
	fprintf(f, "decisions %d\n", s->n);
	for (int i = 0; i < s->n; i++) {
		const struct km_decision *d = &s->d[i];
		bool irq = d->other & KM_CHOICE_IRQ;
		uint32_t other = d->other & ~KM_CHOICE_IRQ;
		fprintf(f, "%u %u %s%u", d->index, d->ctx, irq ? "irq:" : "", other);
		const char *oname = !irq ? (names && (int)other < nnames ? names[other] : NULL) :
				    (s->irq_names && (int)other < s->nirq_names ?
				     s->irq_names[other] : NULL);
		if (names && (int)d->ctx < nnames && oname) {
			fprintf(f, " -- %s lets %s%s go first", names[d->ctx], irq ? "irq " : "",
				oname);
			if (lines && lines[i] > 0)
				fprintf(f, " (line %d)", lines[i]);
		}
		fputc('\n', f);
	}
	if (fflush(f) != 0 || ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		km_out_abort(&out);
		return -1;
	}
	return km_out_commit(&out, err, errlen);
}

/* ------------------------------------------------------------- replay -- */

static const char *ctx_name(const struct km_sim *sim, uint32_t id)
{
	return id < sim->ctxs.n ? km_ctx_name(sim->ctxs.v[id]) : "(no such task)";
}

static int replay_choose(void *ud, const struct km_sim *sim, const struct km_choice_point *cp,
			 char *err, size_t errlen)
{
	struct km_replay *r = ud;
	if (cp->index == 0)
		r->next = 0;	/* a new run */
	r->points = cp->index + 1;
	if (r->next >= r->s->n || r->s->d[r->next].index != cp->index)
		return KM_CHOOSE_GO;
	const struct km_decision *d = &r->s->d[r->next++];
	if (d->ctx != km_ctx_id(cp->ctx)) {
		snprintf(err, errlen, "%s: at choice point %u task %s (id %u) steps, not task %s "
			 "(id %u): the schedule does not fit this run", r->path, cp->index,
			 km_ctx_name(cp->ctx), km_ctx_id(cp->ctx), ctx_name(sim, d->ctx), d->ctx);
		return KM_CHOOSE_FAIL;
	}
	int pick = km_choice_answer_for(cp, d->other);
	if (pick >= 0)
		return pick;
	if (d->other & KM_CHOICE_IRQ) {
		uint32_t src = d->other & ~KM_CHOICE_IRQ;
		snprintf(err, errlen, "%s: at choice point %u interrupt source %u (%s) cannot come "
			 "before %s steps: the schedule does not fit this run", r->path, cp->index,
			 src, src < sim->irqsrcs.n ? sim->irqsrcs.v[src]->name : "no such source",
			 km_ctx_name(cp->ctx));
		return KM_CHOOSE_FAIL;
	}
	snprintf(err, errlen, "%s: at choice point %u task %s cannot step before %s: the "
		 "schedule does not fit this run", r->path, cp->index, ctx_name(sim, d->other),
		 km_ctx_name(cp->ctx));
	return KM_CHOOSE_FAIL;
}

void km_replay_init(struct km_replay *r, const struct km_schedule *s, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->path = path;
	r->chooser.choose = replay_choose;
	r->chooser.ud = r;
}

int km_replay_finished(const struct km_replay *r, char *err, size_t errlen)
{
	if (r->next >= r->s->n)
		return 0;
	snprintf(err, errlen, "%s: the run ended after %u choice points, before the decision at "
		 "point %u: the schedule does not fit this run", r->path, r->points,
		 r->s->d[r->next].index);
	return -1;
}
