/*
 * compare.c - one scenario across modes, eras and CPU counts; and the
 * search for the seed that breaks it.
 *
 * compare runs every combination of --modes x --eras x --cpus (through
 * runner.c, in parallel processes) and lays the results out as one table
 * a kernel developer can read down a column: outcome, simulated time,
 * throughput, contention, waits, the CPU split, each measure()'s p99 and
 * the violations.  A combination that cannot run says why in its row.
 *
 * explore runs one configuration under many seeds and reports the first
 * seed that reaches the goal (a violation, a deadlock) or the worst one
 * for a measure, with the command line that replays it exactly.
 */
#include "compare.h"
#include "explore_schedules.h"
#include "runner.h"
#include "out.h"
#include "sweep.h"
#include "view_lib.h"
#include "../report/markov.h"
#include "../text_escape.h"
#include "../time_unit.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void progress_bar(int done, int total, void *ud)
{
	(void)ud;
	if (!isatty(STDERR_FILENO))
		return;
	int width = 30, fill = total ? done * width / total : width;
	fprintf(stderr, "\r  [%.*s%*s] %d/%d runs", fill, "##############################",
		width - fill, "", done, total);
	if (done == total)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

static double num(const json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);
	return json_is_real(v) ? json_real_value(v) : (double)json_integer_value(v);
}

static void violations_str(const json_t *row, char *buf, size_t len)
{
	buf[0] = 0;
	size_t off = 0;
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(row, "violations"), k, v)
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s:%lld",
					off ? " " : "", k, (long long)json_integer_value(v));
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* The names of the table's rows' objects @key (the swept parameters of
 * "params", the measures of "p99_ns"), in the order first seen, at most
 * @max of them. */
static int key_names(const json_t *rows, const char *key, const char **names, int max)
{
	int n = 0;
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row) {
		const char *k;
		json_t *v;
		json_object_foreach(json_object_get(row, key), k, v) {
			bool seen = false;
			for (int j = 0; j < n; j++)
				seen |= !strcmp(names[j], k);
			if (!seen && n < max)
				names[n++] = k;
		}
	}
	return n;
}

static bool several_seeds(const json_t *rows)
{
	return json_array_size(rows) && json_object_get(json_array_get(rows, 0), "seeds");
}

static const char *param_value(const json_t *row, const char *name)
{
	const char *v = json_string_value(json_object_get(json_object_get(row, "params"), name));
	return v ? v : "-";
}

static double spread(const json_t *row, const char *key, const char *end)
{
	json_t *v = json_object_get(json_object_get(json_object_get(row, "spread"), key), end);
	return json_is_real(v) ? json_real_value(v) : (double)json_integer_value(v);
}

/* A whole number of a row as it is: through a double, INT64_MAX would
 * come back as 2^63, which no long long holds. */
static long long whole(const json_t *v)
{
	if (json_is_integer(v))
		return (long long)json_integer_value(v);
	return (long long)km_sweep_sat_round(json_real_value(v));
}

static long long inum(const json_t *row, const char *key)
{
	return whole(json_object_get(row, key));
}

static long long ispread(const json_t *row, const char *key, const char *end)
{
	return whole(json_object_get(json_object_get(json_object_get(row, "spread"), key), end));
}

/* "4/4", "3/4" (passed of all), or "-" for a run without checks */
static const char *checks_str(const json_t *row, char *buf, size_t len)
{
	long long n = inum(row, "checks"), ok = inum(row, "checks_ok");
	if (n <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld/%lld", ok, n);
	return buf;
}

/*
 * The text table: a column model, so that it fits the terminal.  Each
 * column has an id (what --columns names), a header that is never cut,
 * and a priority: when the columns are wider than the terminal ($COLUMNS,
 * else 100), those of the highest priority go first, rightmost first,
 * and a note says which went and how to choose.  A column of times has
 * one unit, chosen by its largest value and named in its header.  A row
 * that has no figures (not-applicable, error) says why on a line of its
 * own under it, wrapped to the width.
 */
#define COL_MAX (16 + KM_SWEEP_MAX_PARAMS)
#define CELL 48

struct col {
	char id[40], head[48];
	char h1[48], h2[48];	/* the header on two lines (h1 empty: one) */
	bool left;
	int prio;		/* 0: always shown; 1 .. 4: dropped from 4 down */
	int w;
	bool shown;
};

struct tab {
	struct col c[COL_MAX];
	int n;
	size_t nrows;
	char *cells;		/* nrows x COL_MAX x CELL */
};

static char *cell(struct tab *t, size_t row, int col)
{
	return t->cells + (row * COL_MAX + (size_t)col) * CELL;
}

static int add_col(struct tab *t, const char *id, const char *head, bool left, int prio)
{
	if (t->n == COL_MAX)
		return -1;
	struct col *c = &t->c[t->n];
	snprintf(c->id, sizeof(c->id), "%s", id);
	snprintf(c->head, sizeof(c->head), "%s", head);
	c->left = left;
	c->prio = prio;
	c->shown = true;
	return t->n++;
}

/* A column of times: one unit, the largest value's; the header names it. */
static void time_col(struct tab *t, const json_t *rows, int col, const char *key,
		     const char *measure)
{
	km_time big = 0;
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row) {
		json_t *v = measure ? json_object_get(json_object_get(row, "p99_ns"), measure)
				    : json_object_get(row, key);
		km_time x = v ? (km_time)whole(v) : 0;	/* saturated: a report's number is hostile */
		big = x > big ? x : big;
	}
	struct km_time_unit u = km_time_unit_for(big);
	size_t n = strlen(t->c[col].head);
	snprintf(t->c[col].head + n, sizeof(t->c[col].head) - n, " %s", u.name);
	json_array_foreach(rows, i, row) {
		if (!json_object_get(row, "sim_time_ns"))
			continue;
		json_t *v = measure ? json_object_get(json_object_get(row, "p99_ns"), measure)
				    : json_object_get(row, key);
		char *c = cell(t, i, col);
		if (!v) {
			snprintf(c, CELL, "-");
			continue;
		}
		/* to the unit's decimals, every cell alike: "0.00", never
		 * "0.000020" above "12.10" (the unit is in the header) */
		double x = json_is_real(v) ? json_real_value(v) : (double)json_integer_value(v);
		if (u.ns <= 1)
			snprintf(c, CELL, "%.0f", x);
		else
			snprintf(c, CELL, "%.*f", u.decimals, x / u.ns);
	}
}

/* Does the seed change anything in @row: any spread wider than a point? */
static bool seeds_differ(const json_t *row)
{
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(row, "spread"), k, v)
		if (spread(row, k, "min") != spread(row, k, "max"))
			return true;
	const json_t *oc = json_object_get(row, "outcomes");
	return json_object_size(oc) > 1;
}

static void print_trimmed(char *line)
{
	size_t n = strlen(line);
	while (n && line[n - 1] == ' ')
		line[--n] = 0;
	puts(line);
}

/* One line of the table: the shown columns of @order, each padded to its
 * width; @head 1 or 2 is the header's first or second line, 0 the cells
 * of row @row. */
static void print_line(struct tab *t, const int *order, int no, int head, size_t row)
{
	char line[4096] = "";
	size_t off = 0;
	int first = 1;
	for (int k = 0; k < no && off < sizeof(line); k++) {
		struct col *c = &t->c[order[k]];
		if (!c->shown)
			continue;
		const char *text = head == 1 ? c->h1 : head == 2 ? c->h2 : cell(t, row, order[k]);
		off += (size_t)snprintf(line + off, sizeof(line) - off, "%s%*s", first ? "" : " ",
					c->left ? -c->w : c->w, text);
		first = 0;
	}
	print_trimmed(line);
}

/* A note under the table, "(...)", wrapped at @width (continued lines
 * indented by one). */
static void note(int width, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	int col = 0;
	const char *p = buf;
	while (*p) {
		size_t wl = strcspn(p, " ");
		if (col > 1 && col + 1 + (int)wl > width) {
			fputs("\n ", stdout);
			col = 1;
		} else if (col > 0 && col != 1) {
			putchar(' ');
			col++;
		} else if (col == 1) {
			/* just indented */
		}
		printf("%.*s", (int)wl, p);
		col += (int)wl;
		p += wl;
		while (*p == ' ')
			p++;
	}
	putchar('\n');
}

/* The terminal's width: $COLUMNS, else 100. */
static int term_width(void)
{
	const char *e = getenv("COLUMNS");
	char *end;
	long w = e && *e ? strtol(e, &end, 10) : 0;
	return e && *e && !*end && w >= 40 && w <= 10000 ? (int)w : 100;
}

static int print_text(const json_t *table, const char *columns, const char *title)
{
	const json_t *rows = json_object_get(table, "runs");
	/* the measure() names, in the order first seen */
	const char *names[8], *params[KM_SWEEP_MAX_PARAMS];
	int nn = key_names(rows, "p99_ns", names, 8);
	int np = key_names(rows, "params", params, KM_SWEEP_MAX_PARAMS);
	bool seeds = several_seeds(rows);
	size_t i;
	json_t *row;
	struct tab t = { .n = 0, .nrows = json_array_size(rows) };
	t.cells = calloc(t.nrows ? t.nrows : 1, (size_t)COL_MAX * CELL);
	if (!t.cells) {
		km_out_fail("out of memory for the table");
		return 2;
	}
	int c_mode = add_col(&t, "mode", "mode", true, 0);
	int c_era = add_col(&t, "era", "era", true, 0);
	int c_cpus = add_col(&t, "cpus", "cpus", false, 0);
	int c_par[KM_SWEEP_MAX_PARAMS];
	for (int j = 0; j < np; j++)
		c_par[j] = add_col(&t, params[j], params[j], true, 0);
	int c_seeds = seeds ? add_col(&t, "seeds", "seeds", false, 0) : -1;
	int c_out = add_col(&t, "outcome", "outcome", true, 0);
	int c_time = add_col(&t, "time", "sim time", false, 0);
	int c_acq = add_col(&t, "acq/s", "acq/s", false, 1);
	int c_amin = seeds ? add_col(&t, "acq/s-min", "acq/s min", false, 4) : -1;
	int c_amax = seeds ? add_col(&t, "acq/s-max", "acq/s max", false, 4) : -1;
	int c_cont = add_col(&t, "contended", "contended", false, 3);
	int c_wavg = add_col(&t, "wait-avg", "wait avg", false, 3);
	int c_wmax = add_col(&t, "wait-max", "wait max", false, 4);
	int c_busy = add_col(&t, "busy", "busy", false, 1);
	int c_spin = add_col(&t, "spin", "spin", false, 1);
	int c_idle = add_col(&t, "idle", "idle", false, 3);
	int c_p99[8];
	for (int j = 0; j < nn; j++) {
		char head[48];
		snprintf(head, sizeof(head), "%s p99", names[j]);
		c_p99[j] = add_col(&t, names[j], head, false, 2);
	}
	int c_chk = add_col(&t, "checks", "checks", false, 0);
	int c_viol = add_col(&t, "violations", "violations", true, 0);

	json_array_foreach(rows, i, row) {
		snprintf(cell(&t, i, c_mode), CELL, "%s", json_string_value(json_object_get(row, "mode")));
		snprintf(cell(&t, i, c_era), CELL, "%s", json_string_value(json_object_get(row, "era")));
		snprintf(cell(&t, i, c_cpus), CELL, "%lld",
			 (long long)json_integer_value(json_object_get(row, "cpus")));
		for (int j = 0; j < np; j++)
			snprintf(cell(&t, i, c_par[j]), CELL, "%s", param_value(row, params[j]));
		if (seeds)
			snprintf(cell(&t, i, c_seeds), CELL, "%lld%s",
				 (long long)json_integer_value(json_object_get(row, "seeds")),
				 json_object_get(row, "sim_time_ns") && !seeds_differ(row) ? "=" : "");
		/* "n/a": the line under the row says why */
		const char *oc = json_string_value(json_object_get(row, "outcome"));
		snprintf(cell(&t, i, c_out), CELL, "%s", oc && !strcmp(oc, "not-applicable") ? "n/a" :
			 oc ? oc : "?");
		if (!json_object_get(row, "sim_time_ns"))
			continue;
		snprintf(cell(&t, i, c_acq), CELL, "%.0f", num(row, "acquisitions_per_s"));
		if (seeds) {
			snprintf(cell(&t, i, c_amin), CELL, "%.0f", spread(row, "acquisitions_per_s", "min"));
			snprintf(cell(&t, i, c_amax), CELL, "%.0f", spread(row, "acquisitions_per_s", "max"));
		}
		snprintf(cell(&t, i, c_cont), CELL, "%lld", inum(row, "contentions"));
		snprintf(cell(&t, i, c_busy), CELL, "%.1f%%", num(row, "busy_pct"));
		snprintf(cell(&t, i, c_spin), CELL, "%.1f%%", num(row, "spin_pct"));
		snprintf(cell(&t, i, c_idle), CELL, "%.1f%%", num(row, "idle_pct"));
		checks_str(row, cell(&t, i, c_chk), CELL);
		violations_str(row, cell(&t, i, c_viol), CELL);
	}
	time_col(&t, rows, c_time, "sim_time_ns", NULL);
	time_col(&t, rows, c_wavg, "wait_avg_ns", NULL);
	time_col(&t, rows, c_wmax, "wait_max_ns", NULL);
	for (int j = 0; j < nn; j++)
		time_col(&t, rows, c_p99[j], NULL, names[j]);

	/* one era for every row: in the title, not a column (unless asked) */
	const char *era0 = t.nrows ? cell(&t, 0, c_era) : "";
	bool one_era = t.nrows > 0;
	for (size_t r = 1; r < t.nrows; r++)
		one_era &= !strcmp(cell(&t, r, c_era), era0);
	char era_title[64] = "";
	/* the order and the choice: --columns, else every column, fitted */
	int order[COL_MAX], no = 0;
	if (columns) {
		char list[512];
		snprintf(list, sizeof(list), "%s", columns);
		for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
			int k = 0;
			while (k < t.n && strcmp(t.c[k].id, tok))
				k++;
			if (k == t.n) {
				char known[1024];
				size_t off = 0;
				for (int j = 0; j < t.n; j++)
					off += (size_t)snprintf(known + off, off < sizeof(known) ?
								sizeof(known) - off : 0, "%s%s",
								j ? "," : "", t.c[j].id);
				km_out_fail("--columns: no column '%s' in this table (its columns: %s)", tok,
					    known);
				free(t.cells);
				return 2;
			}
			if (no < COL_MAX)
				order[no++] = k;
		}
	} else {
		for (int k = 0; k < t.n; k++)
			order[no++] = k;
	}
	bool era_listed = false;
	for (int k = 0; k < no; k++)
		era_listed |= columns && order[k] == c_era;
	if (one_era && !era_listed && *era0) {
		t.c[c_era].shown = false;
		snprintf(era_title, sizeof(era_title), ", era %s", era0);
	}
	bool two = false;
	for (int k = 0; k < t.n; k++) {
		struct col *c = &t.c[k];
		int cw = 0;
		for (size_t r = 0; r < t.nrows; r++) {
			int w = (int)strlen(cell(&t, r, k));
			cw = w > cw ? w : cw;
		}
		/* a header wider than its cells goes on two lines, split at
		 * the space that makes it narrowest; a word is never cut */
		int hw = (int)strlen(c->head), best = hw;
		size_t at = 0;
		for (size_t j = 0; c->head[j]; j++)
			if (c->head[j] == ' ') {
				int a = (int)j, b = hw - (int)j - 1, m = a > b ? a : b;
				if (m < best) {
					best = m;
					at = j;
				}
			}
		/* h1, h2 and head are fields of one struct: copied with
		 * lengths, which the compiler can see do not overlap */
		size_t hl = strnlen(c->head, sizeof(c->head) - 1);
		c->h1[0] = 0;
		memcpy(c->h2, c->head, hl);
		c->h2[hl] = 0;
		if (hw > cw && at) {
			memcpy(c->h1, c->head, at);
			c->h1[at] = 0;
			memmove(c->h2, c->head + at + 1, hl - at - 1);
			c->h2[hl - at - 1] = 0;
			two = true;
			hw = best;
		}
		c->w = hw > cw ? hw : cw;
	}
	int width = term_width(), total = 0;
	for (int k = 0, first = 1; k < no; k++)
		if (t.c[order[k]].shown) {
			total += t.c[order[k]].w + (first ? 0 : 1);
			first = 0;
		}
	int full = total;
	char dropped[512] = "";
	for (int prio = 4; !columns && prio >= 1 && total > width; prio--)
		for (int k = no - 1; k >= 0 && total > width; k--) {
			struct col *c = &t.c[order[k]];
			if (c->prio != prio || !c->shown)
				continue;
			c->shown = false;
			total -= c->w + 1;
			size_t n = strlen(dropped);
			snprintf(dropped + n, sizeof(dropped) - n, "%s%s", n ? ", " : "", c->id);
		}
	printf("%s%s\n\n", title, era_title);
	/* the header (on two lines where one is narrower so), then the rows;
	 * a line's trailing blanks are not printed */
	for (int h = two ? 1 : 2; h <= 2; h++)
		print_line(&t, order, no, h, 0);
	json_array_foreach(rows, i, row) {
		print_line(&t, order, no, 0, i);
		if (!json_object_get(row, "sim_time_ns")) {
			/* why, on lines of its own, wrapped */
			const char *why = json_string_value(json_object_get(row, "reason"));
			const char *oc = json_string_value(json_object_get(row, "outcome"));
			const char *p = why ? why : "";
			int lead = 4, col = 0;
			col = printf("%*s%s", lead, "", oc && !strcmp(oc, "not-applicable") ?
				     "not applicable:" : "");
			if (col < lead)
				col = lead;
			while (*p) {
				size_t wl = strcspn(p, " ");
				if (col > lead && col + 1 + (int)wl > width) {
					printf("\n%*s", lead, "");
					col = lead;
				} else if (col > lead) {
					putchar(' ');
					col++;
				}
				printf("%.*s", (int)wl, p);
				col += (int)wl;
				p += wl;
				while (*p == ' ')
					p++;
			}
			printf("\n");
		}
	}
	if (nn)
		note(width, "(the p99 columns: the 99th percentile of each measure())");
	if (seeds) {
		note(width, "(each row: the mean over its seeds, acq/s also the lowest and highest; "
		     "violations add up; \"mixed\": the seeds' outcomes differ)");
		size_t same = 0, with = 0;
		json_array_foreach(rows, i, row)
			if (json_object_get(row, "sim_time_ns")) {
				with++;
				same += !seeds_differ(row);
			}
		if (with && same == with)
			note(width, "(the seed changes nothing here: every seed of each row gave the "
			     "same figures, \"=\" in the seeds column)");
		else if (same)
			note(width, "(\"=\" in the seeds column: every seed of that row gave the same "
			     "figures)");
	}
	if (dropped[0])
		note(width, "(left out to fit %d columns: %s; --columns chooses, COLUMNS=%d shows all)",
		     width, dropped, full);
	free(t.cells);
	return 0;
}

static void csv_quoted(const char *s, char *r, size_t len)
{
	size_t k = 0;
	for (const char *p = s ? s : ""; *p && k + 2 < len; p++) {
		if (*p == '"')
			r[k++] = '"';
		r[k++] = *p;
	}
	r[k] = 0;
}

/* "a=1 b=2" of the members of @obj */
static void pairs_str(const json_t *obj, char *buf, size_t len)
{
	size_t off = 0;
	const char *key;
	json_t *val;
	buf[0] = 0;
	json_object_foreach((json_t *)obj, key, val) {
		if (json_is_string(val))
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s=%s",
						off ? " " : "", key, json_string_value(val));
		else
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s=%lld",
						off ? " " : "", key,
						(long long)json_integer_value(val));
	}
}

static void print_csv(const json_t *table)
{
	const json_t *rows = json_object_get(table, "runs");
	const char *params[KM_SWEEP_MAX_PARAMS];
	bool swept = key_names(rows, "params", params, KM_SWEEP_MAX_PARAMS) > 0;
	bool seeds = several_seeds(rows);
	printf("mode,era,cpus,outcome,reason,sim_time_ns,acquisitions_per_s,contentions,"
	       "wait_avg_ns,wait_max_ns,busy_pct,spin_pct,idle_pct,p99,violations,checks_ok,"
	       "checks%s%s\n",
	       swept ? ",params" : "", seeds ? ",seeds,outcomes,sim_time_ns_min,sim_time_ns_max,"
	       "acquisitions_per_s_min,acquisitions_per_s_max" : "");
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row) {
		char r[600], p99[256], v[256], q[600];
		csv_quoted(json_string_value(json_object_get(row, "reason")), r, sizeof(r));
		pairs_str(json_object_get(row, "p99_ns"), p99, sizeof(p99));
		violations_str(row, v, sizeof(v));
		printf("%s,%s,%lld,%s,\"%s\",%lld,%.1f,%lld,%lld,%lld,%.2f,%.2f,%.2f,\"%s\",\"%s\"",
		       json_string_value(json_object_get(row, "mode")),
		       json_string_value(json_object_get(row, "era")),
		       (long long)json_integer_value(json_object_get(row, "cpus")),
		       json_string_value(json_object_get(row, "outcome")), r,
		       inum(row, "sim_time_ns"), num(row, "acquisitions_per_s"),
		       inum(row, "contentions"), inum(row, "wait_avg_ns"),
		       inum(row, "wait_max_ns"), num(row, "busy_pct"),
		       num(row, "spin_pct"), num(row, "idle_pct"), p99, v);
		printf(",%lld,%lld", inum(row, "checks_ok"), inum(row, "checks"));
		if (swept) {
			pairs_str(json_object_get(row, "params"), p99, sizeof(p99));
			csv_quoted(p99, q, sizeof(q));
			printf(",\"%s\"", q);
		}
		if (seeds) {
			pairs_str(json_object_get(row, "outcomes"), v, sizeof(v));
			printf(",%lld,\"%s\",%lld,%lld,%.1f,%.1f",
			       (long long)json_integer_value(json_object_get(row, "seeds")), v,
			       ispread(row, "sim_time_ns", "min"),
			       ispread(row, "sim_time_ns", "max"),
			       spread(row, "acquisitions_per_s", "min"),
			       spread(row, "acquisitions_per_s", "max"));
		}
		putchar('\n');
	}
}

/*
 * A copy of @v whose every string and key has its control characters
 * escaped (text_escape.h): the table's text comes from reports, which
 * `compare --from` reads from anywhere, and its reason, file, params...
 * must not steer the terminal the table is printed on.  NULL: out of
 * memory.
 */
static json_t *escaped_copy(const json_t *v)
{
	char buf[4096];
	if (json_is_string(v)) {
		km_escape(buf, sizeof(buf), json_string_value(v));
		return json_string_nocheck(buf);	/* bytes as they were, escaped */
	}
	if (json_is_array(v)) {
		json_t *a = json_array();
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e)
			json_array_append_new(a, escaped_copy(e));
		return a;
	}
	if (json_is_object(v)) {
		json_t *o = json_object();
		const char *k;
		json_t *e;
		json_object_foreach((json_t *)v, k, e) {
			km_escape(buf, sizeof(buf), k);
			json_object_set_new_nocheck(o, buf, escaped_copy(e));
		}
		return o;
	}
	return json_deep_copy(v);
}

/*
 * The text table of @table (already escaped), or, with @one_line, one
 * line when every run ended in the same error (a --sets typo is one
 * mistake, not a table of it; reports merged with --from are shown as
 * they are, whatever they say).  Returns 0, or 2 when nothing was printed
 * for that reason or the table could not be made.
 */
static int show_text(const json_t *table, const char *columns, int nruns, bool one_line)
{
	const char *same = NULL;
	size_t i;
	json_t *row;
	bool all_same = one_line && json_array_size(json_object_get(table, "runs")) > 0;
	json_array_foreach(json_object_get(table, "runs"), i, row) {
		const char *oc = json_string_value(json_object_get(row, "outcome"));
		const char *r = json_string_value(json_object_get(row, "reason"));
		if (!oc || strcmp(oc, "error") || !r || (same && strcmp(same, r)))
			all_same = false;
		same = same ? same : r;
	}
	if (all_same) {
		km_out_fail("%s", same);
		return 2;
	}
	char title[1200];
	snprintf(title, sizeof(title), "%s (%s): %d runs",
		 json_string_value(json_object_get(table, "scenario")),
		 json_string_value(json_object_get(table, "file")), nruns);
	return print_text(table, columns, title) ? 2 : 0;
}

/*
 * The model's three times, "A,S,C" in nanoseconds: each a finite number,
 * A and C at least 0, S above 0, as km_markov_ticket() takes them.
 */
static int markov_times(const char *spec, double t[3], char *err, size_t errlen)
{
	const char *p = spec;
	for (int i = 0; i < 3; i++) {
		char *end;
		errno = 0;
		t[i] = strtod(p, &end);
		if (end == p || errno || !isfinite(t[i]) || t[i] < 0 || t[i] > 1e15 ||
		    (i == 1 && !(t[i] > 0)) || *end != (i < 2 ? ',' : '\0')) {
			snprintf(err, errlen, "--markov %.200s: must be A,S,C: the work outside the "
				 "lock, the serial section and one line transfer, in ns (A and C "
				 "0 to 1e15, S above 0)", spec);
			return -1;
		}
		p = end + 1;
	}
	return 0;
}

int km_compare_markov(json_t *table, const char *spec, char *err, size_t errlen)
{
	double t[3];
	if (markov_times(spec, t, err, errlen) < 0)
		return -1;
	/* the table's CPU counts, ascending, once each */
	int cpus[64], nc = 0;
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(table, "runs"), i, row) {
		json_int_t c = json_integer_value(json_object_get(row, "cpus"));
		bool seen = false;
		for (int k = 0; k < nc; k++)
			seen |= cpus[k] == c;
		if (!seen && c >= 1 && c <= KM_MARKOV_MAX_N && nc < 64)
			cpus[nc++] = (int)c;
	}
	for (int a = 1; a < nc; a++)
		for (int b = a; b > 0 && cpus[b - 1] > cpus[b]; b--) {
			int x = cpus[b];
			cpus[b] = cpus[b - 1];
			cpus[b - 1] = x;
		}
	json_t *points = json_array();
	for (int k = 0; k < nc; k++) {
		struct km_markov_point m;
		if (!km_markov_ticket(cpus[k], t[0], t[1], t[2], &m)) {
			json_decref(points);
			snprintf(err, errlen, "--markov %.200s: the model has no figure for %d CPUs",
				 spec, cpus[k]);
			return -1;
		}
		json_array_append_new(points, json_pack("{s:i, s:f, s:f, s:f}", "cpus", cpus[k],
							"acquisitions_per_s", m.throughput * 1e9,
							"speedup", m.speedup, "waiting", m.waiting));
	}
	json_object_set_new(table, "model", json_pack("{s:s, s:f, s:f, s:f, s:o}",
		"name", "Markov model of a ticket spinlock (Boyd-Wickizer et al. 2012, section 3)",
		"a_ns", t[0], "s_ns", t[1], "c_ns", t[2], "points", points));
	return 0;
}

/* The model's figures under the text table, one line per CPU count. */
static void print_model_text(const json_t *table)
{
	const json_t *m = json_object_get(table, "model");
	if (!m)
		return;
	printf("\n%s,\na = %g ns outside the lock, s = %g ns inside, c = %g ns a line "
	       "transfer:\n%5s %12s %8s %8s\n", json_string_value(json_object_get(m, "name")),
	       json_real_value(json_object_get(m, "a_ns")),
	       json_real_value(json_object_get(m, "s_ns")),
	       json_real_value(json_object_get(m, "c_ns")), "cpus", "model acq/s", "speedup",
	       "waiting");
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(m, "points"), i, p)
		printf("%5d %12.0f %8.2f %8.2f\n",
		       (int)json_integer_value(json_object_get(p, "cpus")),
		       json_real_value(json_object_get(p, "acquisitions_per_s")),
		       json_real_value(json_object_get(p, "speedup")),
		       json_real_value(json_object_get(p, "waiting")));
}

int km_compare_print(json_t *table, enum km_table_format format, int nruns, const char *plot,
		     const char *columns, bool merged)
{
	if (km_interrupted) {
		/* runs stopped by a Ctrl-C are no table: with --report json,
		 * the interrupted object (km_out_json_fallback) */
		km_session_say_interrupted();
		return 130;
	}
	int status = 0;
	/* the plot first: with --report json, its failure is the outcome */
	char why[1200] = "", err[1024];
	if (plot) {
		km_writing_output++;
		/* the view sets its data folder, for the fonts, when opened */
		const struct km_view_api *view = km_view_lib(err, sizeof(err));
		if (!view || view->plot_png(table, plot, 1600, 800, err, sizeof(err)) < 0) {
			snprintf(why, sizeof(why), "--plot %s: %s", plot, err);
			status = 2;
		}
		km_writing_output--;
	}
	size_t i;
	json_t *row;
	bool errors = false;
	json_array_foreach(json_object_get(table, "runs"), i, row) {
		const char *oc = json_string_value(json_object_get(row, "outcome"));
		errors |= (oc && !strcmp(oc, "error")) ||
			  json_object_get(json_object_get(row, "outcomes"), "error");
	}
	/* Otherwise the worst run decides, as `run` would have: a deadlock
	 * (3), else a failed check or a violation (1).  A combination the era
	 * did not have (not-applicable) is no failure of the others. */
	int worst = 0;
	json_array_foreach(json_object_get(table, "runs"), i, row) {
		const char *oc = json_string_value(json_object_get(row, "outcome"));
		json_int_t ex = json_integer_value(json_object_get(row, "exit"));
		if (oc && !strcmp(oc, "not-applicable"))
			continue;
		if (ex == 3 || (ex == 1 && worst == 0))
			worst = (int)ex;
	}
	if (errors)
		status = 2;
	else if (status == 0)
		status = worst;
	json_object_set_new(table, "outcome", json_string(status == 2 ? "error" : status == 3 ?
							   "deadlock" : "completed"));
	json_object_set_new(table, "reason", why[0] ? json_string(why) : errors ?
			    json_string("some runs ended in an error (see the table)") : json_null());
	switch (format) {
	case KM_TABLE_JSON: {
		/* whole or not at all: json_dumpf() stops half-way on a string
		 * it cannot write, and the fallback prints the error object */
		char *text = json_dumps(table, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (!text) {
			snprintf(why, sizeof(why), "the table cannot be written as JSON");
			status = 2;
			break;
		}
		printf("%s\n", text);
		free(text);
		km_out_json_sent();
		break;
	}
	case KM_TABLE_CSV:
	case KM_TABLE_TEXT: {
		/* text from reports is shown escaped (escaped_copy) */
		json_t *shown = escaped_copy(table);
		if (!shown) {
			km_out_fail("out of memory");
			return 2;
		}
		int rc = format == KM_TABLE_CSV ? (print_csv(shown), 0) :
						  show_text(shown, columns, nruns, !merged);
		json_decref(shown);
		if (!rc && format == KM_TABLE_TEXT)
			print_model_text(table);
		if (rc)
			return 2;
		break;
	}
	}
	bool lost = false;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		km_out_stdout_failed("the table", errno);
		status = 2;
		lost = true;
	}
	if (why[0])
		km_out_fail("%s", why);
	/* a combination that could not even start is worth a line on stderr
	 * (when there is a table to see) */
	else if (errors && !lost)
		km_out_fail("some runs ended in an error (see the table)");
	return status;
}

int km_compare_command(const struct km_compare_opts *o)
{
	struct km_era_list list;
	char err[1024];
	if (km_load_eras(&list, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		return 2;
	}
	int status = 2;
	double t[3];
	if (o->markov && markov_times(o->markov, t, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		km_eras_free(&list);
		return 2;
	}
	if (o->from) {
		int nruns = 0;
		json_t *table = km_sweep_merge(o->from, &list, &nruns, err, sizeof(err));
		if (!table)
			km_out_fail("%s", err);
		else if (o->markov && km_compare_markov(table, o->markov, err, sizeof(err)) < 0)
			km_out_fail("%s", err);
		else
			status = km_compare_print(table, o->format, nruns, o->plot, o->columns, true);
		json_decref(table);
		km_eras_free(&list);
		return status;
	}
	struct km_sweep_plan plan;
	if (km_sweep_plan_init(&plan, o->spec, &list, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		km_eras_free(&list);
		return 2;
	}
	if (o->jobs_out) {
		status = km_sweep_print_jobs(&plan, o->jobs_out);
		goto out_plan;
	}
	long n = plan.nruns;
	int nsets = o->spec->base->nsets + plan.np;
	struct km_run_request *rqs = calloc((size_t)n, sizeof(*rqs));
	struct km_run_result *res = calloc((size_t)n, sizeof(*res));
	struct km_param_set *sets = calloc((size_t)n * (size_t)(nsets ? nsets : 1), sizeof(*sets));
	json_t *rows = json_array(), **seeds = calloc((size_t)plan.nseeds, sizeof(*seeds));
	if (!rqs || !res || !sets || !rows || !seeds) {
		km_out_fail("out of memory for %ld runs", n);
		goto out;
	}
	for (long k = 0; k < n; k++)
		km_sweep_request(&plan, k, &rqs[k], sets + k * nsets);
	km_run_parallel(&list, rqs, (int)n, o->jobs, res, progress_bar, NULL);

	const char *scen = NULL;
	for (long cell = 0, k = 0; cell < plan.ncells; cell++) {
		for (long s = 0; s < plan.nseeds; s++, k++) {
			seeds[s] = km_sweep_summarise(res[k].report, res[k].status,
						      km_mode_name(rqs[k].mode), rqs[k].era,
						      rqs[k].cpus);
			if (res[k].report && !scen)
				scen = json_string_value(json_object_get(res[k].report, "scenario"));
		}
		json_t *row = km_sweep_group(seeds, (int)plan.nseeds);
		for (long s = 0; s < plan.nseeds; s++)
			json_decref(seeds[s]);
		if (!row || json_array_append_new(rows, row) < 0) {
			km_out_fail("out of memory");
			goto out;
		}
	}
	json_t *table = km_sweep_table(scen ? scen : o->spec->file, o->spec->file, rows);
	rows = NULL;
	if (o->markov && km_compare_markov(table, o->markov, err, sizeof(err)) < 0)
		km_out_fail("%s", err);
	else
		status = km_compare_print(table, o->format, (int)n, o->plot, o->columns, false);
	json_decref(table);
out:
	json_decref(rows);
	free(seeds);
	if (res)
		km_run_results_free(res, (int)n);
	free(rqs);
	free(res);
	free(sets);
out_plan:
	km_sweep_plan_free(&plan);
	km_eras_free(&list);
	return status;
}

/* -------------------------------------------------------------- explore -- */

static bool hits(const json_t *rep, const char *goal)
{
	if (!rep)
		return false;
	if (!strcmp(goal, "deadlock"))
		return !strcmp(json_string_value(json_object_get(rep, "outcome")), "deadlock");
	if (!strcmp(goal, "violation"))
		return json_object_size(json_object_get(rep, "violation_counts")) > 0;
	if (!strcmp(goal, "check")) {
		size_t i;
		json_t *c;
		json_array_foreach(json_object_get(rep, "checks"), i, c)
			if (json_is_false(json_object_get(c, "ok")))
				return true;
	}
	return false;
}

/* max:ops.NAME.p99 (or .p50, .max): the value, or -1 */
static double measure_of(const json_t *rep, const char *goal)
{
	char name[256];
	const char *p = goal + 4;
	if (strncmp(p, "ops.", 4))
		return -1;
	p += 4;
	const char *dot = strrchr(p, '.');
	if (!dot || (size_t)(dot - p) >= sizeof(name))
		return -1;
	memcpy(name, p, (size_t)(dot - p));
	name[dot - p] = 0;
	char field[32];
	snprintf(field, sizeof(field), "%s_ns", dot + 1);
	if (!strcmp(dot + 1, "max"))
		snprintf(field, sizeof(field), "max_ns");
	json_t *op = json_object_get(json_object_get(rep, "ops"), name);
	json_t *v = json_object_get(op, field);
	return v ? (double)json_integer_value(v) : -1;
}

static void replay_line(const struct km_explore_opts *o, uint64_t seed)
{
	if (km_out_json)
		return;
	printf("replay: lockmuseum run %s", o->file);
	/* every option of the explore command line but --seeds, --goal, --jobs */
	for (int i = 2; i < o->argc; i++) {
		const char *a = o->argv[i];
		if (!strcmp(a, o->file))
			continue;
		if (!strcmp(a, "--seeds") || !strcmp(a, "--goal") || !strcmp(a, "--jobs")) {
			i++;
			continue;
		}
		if (!strncmp(a, "--seeds=", 8) || !strncmp(a, "--goal=", 7) ||
		    !strncmp(a, "--jobs=", 7))
			continue;
		printf(" %s", a);
	}
	printf(" --seed %" PRIu64 "\n", seed);
}

int km_explore_command(const struct km_explore_opts *o)
{
	if (o->strategy) {
		struct km_strategy st;
		char why[256];
		if (km_strategy_parse(o->strategy, &st, why, sizeof(why)) < 0) {
			km_out_fail("--strategy %s: %s", o->strategy, why);
			return 2;
		}
		return km_explore_schedules(o, &st);
	}
	if (o->out) {
		km_out_fail("--out: explore saves a schedule only with --strategy");
		return 2;
	}
	const char *goal = o->goal ? o->goal : "violation";
	bool is_max = !strncmp(goal, "max:", 4);
	if (!is_max && strcmp(goal, "violation") && strcmp(goal, "deadlock") && strcmp(goal, "check")) {
		km_out_fail("--goal %s: must be violation, deadlock, check or "
			"max:ops.NAME.p99", goal);
		return 2;
	}
	/* how many seeds, minus one: the full 64-bit range must not wrap */
	uint64_t span = o->seed_hi >= o->seed_lo ? o->seed_hi - o->seed_lo : 0;
	if (o->seed_hi < o->seed_lo || span >= 1000000) {
		km_out_fail("--seeds: give a range A..B of at most 1,000,000 seeds");
		return 2;
	}
	struct km_era_list list;
	char err[1024];
	if (km_load_eras(&list, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		return 2;
	}
	/* in batches, so that a hit early on stops the search early */
	int batch = o->jobs > 1 ? o->jobs * 4 : 16;
	struct km_run_request *rqs = calloc((size_t)batch, sizeof(*rqs));
	struct km_run_result *res = calloc((size_t)batch, sizeof(*res));
	int status = 1;
	double worst = -1;
	uint64_t worst_seed = 0, ran = 0;
	uint64_t count = span + 1, left = count;
	bool found = false;
	uint64_t found_seed = 0;
	json_t *hit = NULL;
	for (uint64_t s = o->seed_lo; rqs && res && left && status == 1 && !km_interrupted;) {
		int n = 0;
		for (; n < batch && left; n++, s++, left--) {
			rqs[n] = *o->base;
			rqs[n].file = o->file;
			rqs[n].seed = s;
			rqs[n].has_seed = true;
		}
		km_run_parallel(&list, rqs, n, o->jobs, res, NULL, NULL);
		for (int i = 0; i < n; i++, ran++) {
			if (km_interrupted)
				break;
			const json_t *rep = res[i].report;
			const char *oc = rep ? json_string_value(json_object_get(rep, "outcome")) : NULL;
			if (!rep || (oc && (!strcmp(oc, "error") || !strcmp(oc, "not-applicable")))) {
				km_out_fail("seed %" PRIu64 ": %s", rqs[i].seed,
					rep ? json_string_value(json_object_get(rep, "reason")) :
					"the run crashed");
				status = 2;
				break;
			}
			if (is_max) {
				double v = measure_of(rep, goal);
				if (v > worst) {
					worst = v;
					worst_seed = rqs[i].seed;
				}
			} else if (hits(rep, goal)) {
				if (!km_out_json)
					printf("seed %" PRIu64 " reaches the goal (%s) after %" PRIu64
					       " run%s: outcome %s\n", rqs[i].seed, goal, ran + 1,
					       ran ? "s" : "", oc);
				found = true;
				found_seed = rqs[i].seed;
				json_decref(hit);
				hit = json_incref(res[i].report);
				replay_line(o, rqs[i].seed);
				status = 0;
				ran++;	/* the hit is a run: the JSON's "runs" is the text's */
				break;
			}
		}
		km_run_results_free(res, n);
		if (isatty(STDERR_FILENO))
			progress_bar((int)(s - o->seed_lo), (int)count, NULL);
	}
	if (km_interrupted && status == 1) {
		/* stopped before its seeds were all run: nothing to claim */
		km_session_say_interrupted();
		status = 130;
	} else if (is_max && status != 2) {
		if (worst < 0) {
			km_out_fail("--goal %s: no such measure in the report", goal);
			status = 2;
		} else {
			char b[32];
			if (!km_out_json)
				printf("worst seed %" PRIu64 " of %" PRIu64 ": %s = %s\n", worst_seed,
				       count, goal + 4, km_fmt_ns((km_time)worst, b, sizeof(b)));
			found = true;
			found_seed = worst_seed;
			replay_line(o, worst_seed);
			status = 0;
		}
	} else if (status == 1 && !km_out_json) {
		printf("no seed in %" PRIu64 "..%" PRIu64 " reaches the goal (%s)\n", o->seed_lo,
		       o->seed_hi, goal);
	}
	if (km_out_json && !km_interrupted && status != 2) {
		/* one object: what was searched, what was found, and the report
		 * of the run that reached the goal; exit 0 found, 1 not */
		json_t *j = json_object();
		json_object_set_new(j, "command", json_string("explore"));
		json_object_set_new(j, "goal", json_string(goal));
		json_object_set_new(j, "seed_lo", json_integer((json_int_t)o->seed_lo));
		json_object_set_new(j, "seed_hi", json_integer((json_int_t)o->seed_hi));
		json_object_set_new(j, "runs", json_integer((json_int_t)ran));
		json_object_set_new(j, "outcome", json_string("completed"));
		json_object_set_new(j, "reason", json_null());
		json_object_set_new(j, "found", json_boolean(found));
		json_object_set_new(j, "seed", found ? json_integer((json_int_t)found_seed) : json_null());
		if (is_max && found)
			json_object_set_new(j, "value_ns", json_integer((json_int_t)worst));
		json_object_set_new(j, "report", hit ? json_incref(hit) : json_null());
		km_report_write_json(stdout, j);
		km_out_json_sent();
		json_decref(j);
	}
	json_decref(hit);
	free(rqs);
	free(res);
	km_eras_free(&list);
	return status;
}
