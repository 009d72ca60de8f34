/*
 * sweep_plan.c - a sweep's combinations, parsed once and numbered.
 *
 * compare's options (--modes, --eras, --cpus, --sets NAME=a,b, --seeds
 * A..B) become lists; run r of the sweep is found by mixed-radix
 * decoding of r, seed innermost (see sweep.h), so that any process --
 * this one, a GNU parallel job, a Slurm array task -- finds the same
 * combination from the same number without a shared table.  Era keys are
 * resolved to era ids here (1996, "2.0" and "smp" are one era), so jobs
 * and file names say the same thing whatever the user typed.
 *
 * Cost: O(1) per run decoded; the plan itself is a few hundred bytes
 * plus a copy of the option strings.
 */
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mode_order[] = {
	"native", "cli", "bkl", "spinlock", "semaphore", "mutex",
};

int km_sweep_mode_rank(int mode)
{
	for (int i = 0; i < 6; i++)
		if (km_mode_parse(mode_order[i]) == mode)
			return i;
	return 6;
}

int km_sweep_parse_seeds(const char *s, uint64_t *lo, uint64_t *hi)
{
	unsigned long long a, b;
	char dots[3];
	int used = 0;
	if (sscanf(s, "%llu%2[.]%llu%n", &a, dots, &b, &used) != 3 || strcmp(dots, "..") ||
	    s[used] || *s == '-' || strchr(s, '-') || b < a || b - a >= (unsigned long long)
	    KM_SWEEP_MAX_RUNS || b > INT64_MAX)
		return -1;
	*lo = a;
	*hi = b;
	return 0;
}

static bool as_number(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return *s && !*end && !errno;
}

bool km_sweep_value_eq(const char *a, const char *b)
{
	double x, y;
	return !strcmp(a, b) || (as_number(a, &x) && as_number(b, &y) && x == y);
}

int km_sweep_value_cmp(const char *a, const char *b)
{
	double x, y;
	bool nx = as_number(a, &x), ny = as_number(b, &y);
	if (nx && ny && x != y)
		return x < y ? -1 : 1;
	if (nx != ny)
		return nx ? -1 : 1;
	return strcmp(a, b);
}

/* Split @list (modified) at commas into at most @max pieces.  Returns the
 * count, or -1 when there are more than @max or none. */
static int split(char *list, char **out, int max)
{
	int n = 0;
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (n == max)
			return -1;
		out[n++] = tok;
	}
	return n ? n : -1;
}

static char *copy_into(char **pos, const char *s)
{
	char *d = *pos;
	size_t len = strlen(s) + 1;
	memcpy(d, s, len);
	*pos += len;
	return d;
}

static int fail(char *err, size_t errlen, const char *opt, const char *val, const char *why)
{
	snprintf(err, errlen, "%s %s: %s", opt, val, why);
	return -1;
}

int km_sweep_plan_init(struct km_sweep_plan *p, const struct km_sweep_spec *s,
		       const struct km_era_list *eras, char *err, size_t errlen)
{
	static const char *const all_modes = "native,cli,bkl,spinlock,semaphore,mutex";
	memset(p, 0, sizeof(*p));
	p->file = s->file;
	p->base = s->base;
	const char *modes = s->modes ? s->modes : all_modes;
	size_t total = strlen(modes) + 3;
	total += s->eras ? strlen(s->eras) + 1 : 0;
	total += s->cpus ? strlen(s->cpus) + 1 : 0;
	for (int i = 0; i < s->nsets; i++)
		total += strlen(s->sets[i]) + 1;
	p->strings = malloc(total);
	if (!p->strings) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	char *pos = p->strings;
	char *tok[64];

	int n = split(copy_into(&pos, modes), tok, 16);
	if (n < 0)
		goto bad_modes;
	for (int i = 0; i < n; i++) {
		p->modes[i] = km_mode_parse(tok[i]);
		if (p->modes[i] == -2) {
			snprintf(err, errlen, "--modes: unknown mode '%s' (modes: native, cli, "
				 "bkl, spinlock, semaphore, mutex)", tok[i]);
			goto out;
		}
	}
	p->nm = n;
	p->modes_given = s->modes != NULL;
	if (s->eras) {
		n = split(copy_into(&pos, s->eras), tok, 64);
		if (n < 0) {
			fail(err, errlen, "--eras", s->eras, "must be a list of 1 to 64 eras");
			goto out;
		}
		for (int i = 0; i < n; i++) {
			const struct km_era *e = km_eras_find(eras, tok[i]);
			if (!e) {
				snprintf(err, errlen, "--eras: unknown era '%s'", tok[i]);
				goto out;
			}
			p->eras[i] = e->id;
		}
		p->ne = n;
	}
	if (s->cpus) {
		n = split(copy_into(&pos, s->cpus), tok, 64);
		if (n < 0) {
			fail(err, errlen, "--cpus", s->cpus, "must be a list of 1 to 64 CPU counts");
			goto out;
		}
		for (int i = 0; i < n; i++) {
			char *end;
			errno = 0;
			long v = strtol(tok[i], &end, 10);
			if (*end || errno || v < 1 || v > KM_MAX_CPUS) {
				snprintf(err, errlen, "--cpus: '%s' is not a CPU count from 1 to %d",
					 tok[i], KM_MAX_CPUS);
				goto out;
			}
			p->cpus[i] = (int)v;
		}
		p->nc = n;
	}
	for (int i = 0; i < s->nsets; i++) {
		char *def = copy_into(&pos, s->sets[i]);
		char *eq = strchr(def, '=');
		if (!eq || eq == def) {
			fail(err, errlen, "--sets", s->sets[i], "must be NAME=VALUE,VALUE,...");
			goto out;
		}
		*eq = 0;
		for (int j = 0; j < p->np; j++)
			if (!strcmp(p->params[j].name, def)) {
				fail(err, errlen, "--sets", s->sets[i], "that parameter is swept twice");
				goto out;
			}
		struct km_sweep_param *sp = &p->params[p->np];
		sp->name = def;
		n = split(eq + 1, (char **)sp->values, KM_SWEEP_MAX_VALUES);
		if (n < 0) {
			fail(err, errlen, "--sets", s->sets[i], "must be NAME=VALUE,VALUE,... (at "
			     "most 64 values)");
			goto out;
		}
		sp->nv = n;
		p->np++;
	}
	p->nseeds = 1;
	if (s->seeds) {
		if (km_sweep_parse_seeds(s->seeds, &p->seed_lo, &p->seed_hi) < 0) {
			fail(err, errlen, "--seeds", s->seeds, "must be a range A..B of at most "
			     "1,000,000 seeds, each a whole number from 0 to 9223372036854775807");
			goto out;
		}
		p->seeds_given = true;
		p->nseeds = (long)(p->seed_hi - p->seed_lo) + 1;
	}
	long cells = (long)p->nm * (p->ne ? p->ne : 1) * (p->nc ? p->nc : 1);
	for (int i = 0; i < p->np && cells <= KM_SWEEP_MAX_RUNS; i++)
		cells *= p->params[i].nv;
	if (cells > KM_SWEEP_MAX_RUNS || cells * p->nseeds > KM_SWEEP_MAX_RUNS) {
		snprintf(err, errlen, "the sweep has more than 1,000,000 runs");
		goto out;
	}
	p->ncells = cells;
	p->nruns = cells * p->nseeds;
	return 0;
bad_modes:
	fail(err, errlen, "--modes", modes, "must be a list of 1 to 16 modes");
out:
	free(p->strings);
	p->strings = NULL;
	return -1;
}

void km_sweep_plan_free(struct km_sweep_plan *p)
{
	free(p->strings);
	p->strings = NULL;
}

void km_sweep_cell_of(const struct km_sweep_plan *p, long run, struct km_sweep_cell *c)
{
	memset(c, 0, sizeof(*c));
	long r = run;
	if (p->seeds_given) {
		c->seed = p->seed_lo + (uint64_t)(r % p->nseeds);
		c->has_seed = true;
	} else if (p->base && p->base->has_seed) {
		c->seed = p->base->seed;
		c->has_seed = true;
	}
	r /= p->nseeds;
	c->mode = p->modes[r % p->nm];
	r /= p->nm;
	for (int i = p->np - 1; i >= 0; i--) {
		c->values[i] = p->params[i].values[r % p->params[i].nv];
		r /= p->params[i].nv;
	}
	if (p->nc) {
		c->cpus = p->cpus[r % p->nc];
		r /= p->nc;
	}
	if (p->ne)
		c->era = p->eras[r % p->ne];
}

void km_sweep_request(const struct km_sweep_plan *p, long run, struct km_run_request *rq,
		      struct km_param_set *sets)
{
	struct km_sweep_cell c;
	km_sweep_cell_of(p, run, &c);
	*rq = *p->base;
	rq->file = p->file;
	rq->era = c.era;
	rq->cpus = c.cpus;
	rq->mode = c.mode;
	rq->seed = c.seed;
	rq->has_seed = c.has_seed;
	int n = 0;
	for (int i = 0; i < p->base->nsets; i++) {
		bool swept = false;
		for (int j = 0; j < p->np; j++)
			swept |= !strcmp(p->params[j].name, p->base->sets[i].name);
		if (!swept)
			sets[n++] = p->base->sets[i];
	}
	for (int j = 0; j < p->np; j++)
		sets[n++] = (struct km_param_set){ .name = p->params[j].name,
						   .value = c.values[j] };
	rq->sets = sets;
	rq->nsets = n;
}
