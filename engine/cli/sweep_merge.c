/*
 * sweep_merge.c - `compare --from`: the table of runs made anywhere.
 *
 * The reports a sweep's jobs wrote (files, or folders of *.json files)
 * are read one at a time, checked, summarised and let go, so ten thousand
 * of them cost ten thousand small summaries, not ten thousand reports.
 * Then they are put in the order of a local compare and the seeds of each
 * combination grouped, through the same code as a local compare
 * (sweep_table.c): the same runs give the same table, byte for byte.
 *
 * The order: with --modes, --eras, --cpus, --sets or --seeds, the
 * reports are selected by them and ordered as the lists are, exactly as
 * `compare FILE` with the same options orders its runs; a value given
 * that no report has is an error, and so is a seed of --seeds missing
 * from a combination (the sweep is not finished: --print-jobs
 * --skip-done lists what is left).  Without them, every report is kept,
 * in the natural order: eras by date, CPU counts and parameter values by
 * size, modes as `lockmuseum list` gives them.
 *
 * Refused, naming the file(s): a file that cannot be read or is not
 * JSON (file:line), JSON that is not a lockmuseum report, reports of two
 * scenarios or of one scenario's different file contents (its
 * "scenario_hash"), and two reports of the same run with different
 * trace hashes (different builds or era files).  Two copies of one run
 * count once.
 *
 * Cost: reading and parsing dominate (a few hundred microseconds a
 * report); then O(n log n) to sort.
 */
#include "sweep.h"
#include "../lua/sandbox.h"
#include "../input.h"
#include "../report/report_read.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A report larger than this is refused (kmod.lua on 1024 CPUs writes
 * 0.8 MB; a device or a runaway pipe must not fill the memory). */
#define KM_REPORT_MAX_BYTES ((size_t)256 << 20)

struct entry {
	json_t *row;			/* the run's summary */
	const char *era;		/* in row */
	int cpus, mode;
	uint64_t seed;
	const json_t *params;		/* in row: all the report's parameters */
	char trace_hash[24];
	int file;			/* index in the file list */
	int era_rank, cpus_rank, mode_rank;
	int param_rank[KM_SWEEP_MAX_PARAMS];
	int params_rank;		/* the order of all the parameters' values */
	char *sig;			/* the parameters as one string, for that order */
};

struct merge {
	const struct km_sweep_plan *plan;
	const struct km_sweep_merge_opts *opts;
	const struct km_era_list *eras;
	char **files;
	bool *named;			/* files[i] was named on the command line */
	int nfiles, capfiles;
	struct entry *v;
	int n, cap;
	char scenario[160], scenario_hash[24], file[1024];
	const char *lua;		/* the scenario file given, or NULL */
	int first;			/* the file that gave scenario, or -1 */
	int hash_from;			/* the file that gave scenario_hash, or -1 (lua) */
	json_t *no_params;		/* the parameters of a report without any */
	char *err;
	size_t errlen;
};

/* ------------------------------------------------------------- files -- */

static int add_file(struct merge *m, const char *path, bool named)
{
	if (m->nfiles == m->capfiles) {
		int cap = m->capfiles ? m->capfiles * 2 : 256;
		char **more = realloc(m->files, (size_t)cap * sizeof(*more));
		if (!more)
			return -1;
		m->files = more;
		bool *nmore = realloc(m->named, (size_t)cap * sizeof(*nmore));
		if (!nmore)
			return -1;
		m->named = nmore;
		m->capfiles = cap;
	}
	if (!(m->files[m->nfiles] = strdup(path)))
		return -1;
	m->named[m->nfiles++] = named;
	return 0;
}

static int scenario_file(struct merge *m, const char *path);

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @path, or the *.json files of the folder @path, sorted by name. */
static int collect(struct merge *m, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		snprintf(m->err, m->errlen, "--from %s: %s", path, strerror(errno));
		return -1;
	}
	size_t n = strlen(path);
	if (!S_ISDIR(st.st_mode) && n > 4 && !strcmp(path + n - 4, ".lua"))
		return scenario_file(m, path);
	if (!S_ISDIR(st.st_mode))
		return add_file(m, path, true) < 0 ? (snprintf(m->err, m->errlen, "out of memory"), -1) : 0;
	DIR *d = opendir(path);
	if (!d) {
		snprintf(m->err, m->errlen, "--from %s: %s", path, strerror(errno));
		return -1;
	}
	int from = m->nfiles, rc = 0;
	size_t plen = strlen(path);
	struct dirent *de;
	while (rc == 0 && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		char *full = malloc(plen + len + 2);
		if (!full) {
			rc = -1;
			break;
		}
		snprintf(full, plen + len + 2, "%s%s%s", path,
			 plen && path[plen - 1] == '/' ? "" : "/", de->d_name);
		rc = add_file(m, full, false);
		free(full);
	}
	closedir(d);
	if (rc < 0) {
		snprintf(m->err, m->errlen, "out of memory");
		return -1;
	}
	if (m->nfiles == from) {
		snprintf(m->err, m->errlen, "--from %s: no .json reports in that folder", path);
		return -1;
	}
	qsort(m->files + from, (size_t)(m->nfiles - from), sizeof(*m->files), by_name);
	return 0;
}

/*
 * The whole of @path in a buffer (NUL-terminated), or NULL with the
 * reason in m->err.  Through km_input_read(): a FIFO found by listing a
 * folder is refused without blocking; a pipe named on the command line
 * (@named: `--from <(...)`) is read to its end.
 */
static char *slurp(struct merge *m, const char *path, bool named, size_t *lenp)
{
	char *text;
	if (km_input_read(path, named, KM_REPORT_MAX_BYTES, &text, lenp, m->err, m->errlen) < 0)
		return NULL;
	return text;
}

/*
 * The sweep's scenario file, named among the operands (the sweep's own
 * command line, reused): every report must be of its contents as they
 * are now, and the table names it as a local compare does.
 */
static int scenario_file(struct merge *m, const char *path)
{
	size_t len;
	if (m->lua) {
		snprintf(m->err, m->errlen, "--from: one scenario at a time (got '%s' and '%s')",
			 m->lua, path);
		return -1;
	}
	char *text = slurp(m, path, true, &len);
	if (!text)
		return -1;
	m->lua = path;
	snprintf(m->scenario_hash, sizeof(m->scenario_hash), "%016" PRIx64,
		 km_sandbox_source_hash(text, len));
	snprintf(m->file, sizeof(m->file), "%s", path);
	free(text);
	return 0;
}

/* What km_sweep_summarise() and the checks here read of a report. */
static const struct km_pick wait_pick[] = { { "total", NULL }, { "max", NULL }, { NULL, NULL } };
static const struct km_pick lock_pick[] = {
	{ "acquisitions", NULL }, { "contentions", NULL }, { "waits", NULL },
	{ "wait_ns", wait_pick }, { NULL, NULL },
};
static const struct km_pick cpu_pick[] = {
	{ "busy_ns", NULL }, { "spin_ns", NULL }, { "irq_ns", NULL }, { "idle_ns", NULL },
	{ "switch_ns", NULL }, { NULL, NULL },
};
static const struct km_pick value_pick[] = { { "value", NULL }, { NULL, NULL } };
static const struct km_pick counter_pick[] = { { "*", value_pick }, { NULL, NULL } };
static const struct km_pick p99_pick[] = { { "p99_ns", NULL }, { NULL, NULL } };
static const struct km_pick op_pick[] = { { "*", p99_pick }, { NULL, NULL } };
static const struct km_pick ok_pick[] = { { "ok", NULL }, { NULL, NULL } };
static const struct km_pick report_pick[] = {
	{ "scenario", NULL }, { "era", NULL }, { "mode", NULL }, { "cpus", NULL },
	{ "seed", NULL }, { "outcome", NULL }, { "reason", NULL }, { "sim_time_ns", NULL },
	{ "trace_hash", NULL }, { "locks", lock_pick }, { "cpus_util", cpu_pick },
	{ "counters", counter_pick }, { "ops", op_pick }, { "checks", ok_pick },
	{ "file", NULL }, { "params", NULL }, { "violation_counts", NULL },
	{ "scenario_hash", NULL }, { NULL, NULL },
};

/* The whole of @path, parsed.  NULL with the reason in m->err. */
static json_t *load(struct merge *m, int fi)
{
	const char *path = m->files[fi];
	size_t len;
	char *text = slurp(m, path, m->named[fi], &len);
	if (!text)
		return NULL;
	json_error_t je;
	json_t *j = km_report_read(text, len, report_pick, &je);
	free(text);
	if (!j)
		snprintf(m->err, m->errlen, "%s:%d: not a lockmuseum report: not JSON (%s)", path,
			 je.line, je.text);
	return j;
}

/* ------------------------------------------------------------ ranking -- */

static int index_of_str(const char *const *list, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return i;
	return -1;
}

/* Rank @e by the selection; false when the selection leaves it out. */
static bool select_entry(struct merge *m, struct entry *e)
{
	const struct km_sweep_plan *p = m->plan;
	if (p->ne) {
		if ((e->era_rank = index_of_str(p->eras, p->ne, e->era)) < 0)
			return false;
	} else {
		const struct km_era *era = km_eras_find(m->eras, e->era);
		e->era_rank = era && !strcmp(era->id, e->era) ? (int)(era - m->eras->v) : m->eras->n;
	}
	e->cpus_rank = e->cpus;
	if (p->nc) {
		e->cpus_rank = -1;
		for (int i = 0; i < p->nc && e->cpus_rank < 0; i++)
			if (p->cpus[i] == e->cpus)
				e->cpus_rank = i;
		if (e->cpus_rank < 0)
			return false;
	}
	e->mode_rank = km_sweep_mode_rank(e->mode);
	if (p->modes_given) {
		e->mode_rank = -1;
		for (int i = 0; i < p->nm && e->mode_rank < 0; i++)
			if (p->modes[i] == e->mode)
				e->mode_rank = i;
		if (e->mode_rank < 0)
			return false;
	}
	for (int k = 0; k < p->np; k++) {
		const char *v = json_string_value(json_object_get(e->params, p->params[k].name));
		e->param_rank[k] = -1;
		for (int i = 0; v && i < p->params[k].nv && e->param_rank[k] < 0; i++)
			if (km_sweep_value_eq(v, p->params[k].values[i]))
				e->param_rank[k] = i;
		if (e->param_rank[k] < 0)
			return false;
	}
	const struct km_run_request *b = p->base;
	for (int i = 0; b && i < b->nsets; i++) {
		const char *v = json_string_value(json_object_get(e->params, b->sets[i].name));
		if (!v || !km_sweep_value_eq(v, b->sets[i].value))
			return false;
	}
	if (p->seeds_given && (e->seed < p->seed_lo || e->seed > p->seed_hi))
		return false;
	if (m->opts->select_seed && e->seed != m->opts->seed)
		return false;
	return true;
}

/* All the parameters, in the report's order: values by size, then names. */
static int params_cmp(const json_t *a, const json_t *b)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)a, k, v) {
		json_t *w = json_object_get(b, k);
		if (!w)
			return -1;
		int c = km_sweep_value_cmp(json_string_value(v) ? json_string_value(v) : "",
					   json_string_value(w) ? json_string_value(w) : "");
		if (c)
			return c;
	}
	return json_object_size(a) < json_object_size(b) ? -1 : 0;
}

static int g_np;	/* for qsort: the swept parameters of the plan */

#define CMP(a, b) do { if ((a) != (b)) return (a) < (b) ? -1 : 1; } while (0)

/* The combination: everything but the seed. */
static int cell_cmp(const struct entry *a, const struct entry *b)
{
	CMP(a->era_rank, b->era_rank);
	int c = strcmp(a->era, b->era);
	if (c)
		return c;
	CMP(a->cpus_rank, b->cpus_rank);
	for (int k = 0; k < g_np; k++)
		CMP(a->param_rank[k], b->param_rank[k]);
	CMP(a->params_rank, b->params_rank);
	CMP(a->mode_rank, b->mode_rank);
	return 0;
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = cell_cmp(a, b);
	if (c)
		return c;
	CMP(a->seed, b->seed);
	CMP(a->file, b->file);
	return 0;
}

/* ------------------------------------------------------------ reading -- */

static const char *str_member(const json_t *rep, const char *key)
{
	return json_string_value(json_object_get(rep, key));
}

/* "name=value\x1f..." of the parameters, or NULL when memory ran out. */
static char *signature(const json_t *params)
{
	size_t len = 1;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)params, k, v)
		len += strlen(k) + 2 + strlen(json_string_value(v) ? json_string_value(v) : "");
	char *sig = malloc(len), *p = sig;
	if (!sig)
		return NULL;
	json_object_foreach((json_t *)params, k, v)
		p += sprintf(p, "%s=%s\x1f", k, json_string_value(v) ? json_string_value(v) : "");
	*p = 0;
	return sig;
}

/* Read file @fi into an entry (or leave it out).  Returns 0 or -1. */
static int read_report(struct merge *m, int fi)
{
	const char *path = m->files[fi];
	json_t *rep = load(m, fi);
	if (!rep)
		return -1;
	static const char *const strings[] = {
		"scenario", "era", "mode", "outcome", "trace_hash", "file", NULL,
	};
	const char *missing = NULL;
	if (!json_is_object(rep))
		missing = "scenario";
	for (const char *const *k = strings; !missing && *k; k++)
		if (!json_is_string(json_object_get(rep, *k)))
			missing = *k;
	if (!missing && !json_is_integer(json_object_get(rep, "cpus")))
		missing = "cpus";
	if (!missing && !json_is_integer(json_object_get(rep, "seed")))
		missing = "seed";
	int mode = missing ? -2 : km_mode_parse(str_member(rep, "mode"));
	if (missing || mode == -2) {
		snprintf(m->err, m->errlen, "%s: not a lockmuseum report (%s \"%s\" member)", path,
			 missing ? "no" : "an unknown", missing ? missing : "mode");
		json_decref(rep);
		return -1;
	}
	/* a CPU count as the engine has them: (int)4294967298 would be 2 */
	json_int_t ncpus = json_integer_value(json_object_get(rep, "cpus"));
	if (ncpus < 1 || ncpus > KM_MAX_CPUS) {
		snprintf(m->err, m->errlen, "%s: not a lockmuseum report (\"cpus\": %" PRId64
			 ", not 1 to %d)", path, (int64_t)ncpus, KM_MAX_CPUS);
		json_decref(rep);
		return -1;
	}
	const char *scen = str_member(rep, "scenario");
	const char *hash = str_member(rep, "scenario_hash");
	if (m->first < 0) {
		m->first = fi;
		snprintf(m->scenario, sizeof(m->scenario), "%s", scen);
		if (!m->lua)
			snprintf(m->file, sizeof(m->file), "%s", str_member(rep, "file"));
	} else if (strcmp(scen, m->scenario)) {
		snprintf(m->err, m->errlen, "%s and %s are reports of different scenarios ('%s' "
			 "and '%s')", m->files[m->first], path, m->scenario, scen);
		json_decref(rep);
		return -1;
	}
	if (hash && !m->scenario_hash[0]) {
		snprintf(m->scenario_hash, sizeof(m->scenario_hash), "%s", hash);
		m->hash_from = fi;
	} else if (hash && strcmp(hash, m->scenario_hash)) {
		snprintf(m->err, m->errlen, "%s and %s: scenario '%s' from different file "
			 "contents (scenario_hash %s and %s)", m->hash_from >= 0 ?
			 m->files[m->hash_from] : m->lua, path, scen, m->scenario_hash, hash);
		json_decref(rep);
		return -1;
	}
	struct entry e = { .mode = mode, .file = fi };
	e.cpus = (int)ncpus;
	e.seed = (uint64_t)json_integer_value(json_object_get(rep, "seed"));
	snprintf(e.trace_hash, sizeof(e.trace_hash), "%s", str_member(rep, "trace_hash"));
	e.row = km_sweep_summarise(rep, km_sweep_report_status(rep), km_mode_name(mode),
				   str_member(rep, "era"), e.cpus);
	json_decref(rep);
	if (!e.row) {
		snprintf(m->err, m->errlen, "out of memory");
		return -1;
	}
	e.era = json_string_value(json_object_get(e.row, "era"));
	e.params = json_object_get(e.row, "params");
	if (!e.params)
		e.params = m->no_params;
	if (!(e.sig = signature(e.params))) {
		json_decref(e.row);
		snprintf(m->err, m->errlen, "out of memory");
		return -1;
	}
	if (!select_entry(m, &e)) {
		json_decref(e.row);
		free(e.sig);
		return 0;
	}
	if (m->n == m->cap) {
		int cap = m->cap ? m->cap * 2 : 1024;
		struct entry *more = realloc(m->v, (size_t)cap * sizeof(*more));
		if (!more) {
			json_decref(e.row);
			free(e.sig);
			snprintf(m->err, m->errlen, "out of memory");
			return -1;
		}
		m->v = more;
		m->cap = cap;
	}
	m->v[m->n++] = e;
	return 0;
}

/* "mode mutex, era 2009, 8 CPUs, loops=12" */
static void describe(const struct entry *e, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "mode %s, era %s, %d CPU%s", km_mode_name(e->mode),
				      e->era, e->cpus, e->cpus == 1 ? "" : "s");
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)e->params, k, v)
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, ", %s=%s", k,
						json_string_value(v));
}

/*
 * The number of distinct values of one dimension among the entries:
 * O(n x d), d the number of distinct values (a handful per dimension).
 */
static long distinct(const struct merge *m, int (*cmp)(const struct entry *,
							const struct entry *))
{
	const struct entry **seen = malloc((size_t)(m->n ? m->n : 1) * sizeof(*seen));
	long n = 0;
	if (!seen)
		return m->n;	/* out of memory: the check lets the table be */
	for (int i = 0; i < m->n; i++) {
		bool known = false;
		for (long j = n - 1; j >= 0 && !known; j--)
			known = !cmp(seen[j], &m->v[i]);
		if (!known)
			seen[n++] = &m->v[i];
	}
	free(seen);
	return n;
}

static int era_cmp(const struct entry *a, const struct entry *b)
{
	return strcmp(a->era, b->era);
}

static int cpus_cmp(const struct entry *a, const struct entry *b)
{
	return a->cpus != b->cpus;
}

static int mode_cmp(const struct entry *a, const struct entry *b)
{
	return a->mode != b->mode;
}

static int params_eq_cmp(const struct entry *a, const struct entry *b)
{
	return a->params_rank != b->params_rank;
}

/*
 * With a selection (--modes, --eras, --cpus, --sets, --seeds), the sweep
 * it names must be all there: each list's values times the values the
 * reports have of the dimensions not given, times the seeds.  A sweep
 * that is not finished is refused with the count of what is missing.
 */
static int check_complete(struct merge *m, long cells)
{
	const struct km_sweep_plan *p = m->plan;
	if (!p->modes_given && !p->ne && !p->nc && !p->np && !p->seeds_given)
		return 0;
	long want = p->ne ? p->ne : distinct(m, era_cmp);
	want *= p->nc ? p->nc : distinct(m, cpus_cmp);
	want *= p->modes_given ? p->nm : distinct(m, mode_cmp);
	if (p->np) {
		for (int k = 0; k < p->np; k++)
			want *= p->params[k].nv;
	} else {
		want *= distinct(m, params_eq_cmp);
	}
	long runs = p->seeds_given ? want * p->nseeds : want;
	long have = p->seeds_given ? m->n : cells;
	if (have >= runs)
		return 0;
	snprintf(m->err, m->errlen, "--from: %ld of the sweep's %ld %s have no report "
		 "(compare ... --print-jobs --skip-done DIR lists them)", runs - have, runs,
		 p->seeds_given ? "runs" : "combinations");
	return -1;
}

static int by_sig(const void *a, const void *b)
{
	return strcmp((*(struct entry *const *)a)->sig, (*(struct entry *const *)b)->sig);
}

static int by_params(const void *a, const void *b)
{
	return params_cmp((*(struct entry *const *)a)->params, (*(struct entry *const *)b)->params);
}

/*
 * Give each entry the rank of its parameters' values among all those
 * present: the reports are sorted by their parameters as a string (cheap
 * to compare), and only one of each kind by the values themselves.
 */
static int rank_params(struct merge *m)
{
	struct entry **by = malloc((size_t)(m->n ? m->n : 1) * sizeof(*by));
	struct entry **reps = malloc((size_t)(m->n ? m->n : 1) * sizeof(*reps));
	if (!by || !reps) {
		free(by);
		free(reps);
		snprintf(m->err, m->errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < m->n; i++)
		by[i] = &m->v[i];
	qsort(by, (size_t)m->n, sizeof(*by), by_sig);
	int nreps = 0;
	for (int i = 0; i < m->n; i++)
		if (!i || strcmp(by[i - 1]->sig, by[i]->sig))
			reps[nreps++] = by[i];
	qsort(reps, (size_t)nreps, sizeof(*reps), by_params);
	for (int r = 0; r < nreps; r++)
		reps[r]->params_rank = r;
	for (int i = 0; i < m->n; i++)
		if (i && !strcmp(by[i - 1]->sig, by[i]->sig))
			by[i]->params_rank = by[i - 1]->params_rank;
	free(by);
	free(reps);
	return 0;
}

/* Sort, drop copies of one run, check the seeds, group the seeds. */
static json_t *rows_of(struct merge *m, int *nruns)
{
	g_np = m->plan->np;
	if (rank_params(m) < 0)
		return NULL;
	qsort(m->v, (size_t)m->n, sizeof(*m->v), entry_cmp);
	int k = 0;
	for (int i = 0; i < m->n; i++) {
		struct entry *e = &m->v[i];
		if (k && !cell_cmp(&m->v[k - 1], e) && m->v[k - 1].seed == e->seed) {
			if (strcmp(m->v[k - 1].trace_hash, e->trace_hash)) {
				char what[512];
				describe(e, what, sizeof(what));
				snprintf(m->err, m->errlen, "%s and %s: the same run (%s, seed %" PRIu64
					 ") with different trace_hash (%s and %s): different builds "
					 "or era files", m->files[m->v[k - 1].file], m->files[e->file],
					 what, e->seed, m->v[k - 1].trace_hash, e->trace_hash);
				for (int j = i; j < m->n; j++) {
					json_decref(m->v[j].row);
					free(m->v[j].sig);
				}
				m->n = k;
				return NULL;
			}
			json_decref(e->row);
			free(e->sig);
			continue;
		}
		m->v[k++] = *e;
	}
	m->n = k;
	*nruns = k;
	long cells = 0;
	for (int i = 0; i < m->n; i++)
		cells += !i || cell_cmp(&m->v[i - 1], &m->v[i]);
	if (check_complete(m, cells) < 0)
		return NULL;
	json_t *rows = json_array();
	json_t **seeds = malloc((size_t)(m->n ? m->n : 1) * sizeof(*seeds));
	if (!rows || !seeds) {
		snprintf(m->err, m->errlen, "out of memory");
		goto fail;
	}
	for (int i = 0, j; i < m->n; i = j) {
		for (j = i; j < m->n && !cell_cmp(&m->v[i], &m->v[j]); j++)
			seeds[j - i] = m->v[j].row;
		json_t *row = km_sweep_group(seeds, j - i);
		if (!row || json_array_append_new(rows, row) < 0) {
			snprintf(m->err, m->errlen, "out of memory");
			goto fail;
		}
	}
	free(seeds);
	return rows;
fail:
	free(seeds);
	json_decref(rows);
	return NULL;
}

json_t *km_sweep_merge(const struct km_sweep_merge_opts *o, const struct km_era_list *eras,
		       int *nruns, char *err, size_t errlen)
{
	struct km_sweep_plan plan;
	if (km_sweep_plan_init(&plan, o->select, eras, err, errlen) < 0)
		return NULL;
	struct merge m = { .plan = &plan, .opts = o, .eras = eras, .first = -1, .hash_from = -1, .err = err,
			   .errlen = errlen };
	json_t *table = NULL, *rows = NULL;
	if (!(m.no_params = json_object())) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < o->npaths; i++)
		if (collect(&m, o->paths[i]) < 0)
			goto out;
	for (int i = 0; i < m.nfiles; i++)
		if (read_report(&m, i) < 0)
			goto out;
	if (!m.n) {
		snprintf(err, errlen, "--from: no report is of the combinations asked for");
		goto out;
	}
	if (!(rows = rows_of(&m, nruns)))
		goto out;
	table = km_sweep_table(m.scenario, m.file, rows);
out:
	for (int i = 0; i < m.n; i++) {
		json_decref(m.v[i].row);
		free(m.v[i].sig);
	}
	free(m.v);
	for (int i = 0; i < m.nfiles; i++)
		free(m.files[i]);
	free(m.files);
	free(m.named);
	json_decref(m.no_params);
	km_sweep_plan_free(&plan);
	return table;
}
