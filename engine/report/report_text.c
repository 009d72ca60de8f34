/*
 * report_text.c - the readable report and the /proc/lock_stat table.
 *
 * Text is for a person at a terminal: aligned columns, times with units,
 * the most telling rows first, and long lists (1024 CPUs, 100,000 tasks)
 * summarised rather than dumped.  The lock_stat table copies the kernel's
 * own format (kernel/locking/lockdep_proc.c, "lock_stat version 0.4"):
 * same columns, times in microseconds with two decimals.
 */
#include "report.h"
#include "../cpu_time.h"
#include "../time_unit.h"
#include "../trace_kinds.h"
#include "../text_escape.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *km_report_obj_name(const struct km_sim *sim, const struct km_trace_rec *r)
{
	const struct km_trace_kind_info *k = km_trace_kind_info(r->kind);
	uint32_t i = r->obj;
	switch (k ? k->ns : KM_TNS_NONE) {
	case KM_TNS_LOCK:
		return i < sim->locks.n ? sim->locks.v[i]->name : NULL;
	case KM_TNS_IRQSRC:
		return i < sim->irqsrcs.n ? sim->irqsrcs.v[i]->name : NULL;
	case KM_TNS_VAR:
		return i < sim->vars.n ? sim->vars.v[i]->name : NULL;
	case KM_TNS_ATOMIC:
		return i < sim->atomics.n ? sim->atomics.v[i]->name : NULL;
	case KM_TNS_COUNTER:
		return i < sim->counters.n ? sim->counters.v[i]->name : NULL;
	case KM_TNS_LOG:
		return i < sim->logs.n ? sim->logs.v[i] : NULL;
	default:
		return NULL;	/* a wait's object: the record says which array */
	}
}

const char *km_fmt_ns(km_time ns, char *buf, size_t len)
{
	double v = (double)ns;
	if (ns < 1000)
		snprintf(buf, len, "%lld ns", (long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.2f us", v / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", v / 1e6);
	else
		snprintf(buf, len, "%.2f s", v / 1e9);
	return buf;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

#define MAX_ROWS 24

static void lock_row(FILE *out, const struct km_lock *l, const char *kind)
{
	char w1[32], w2[32], h1[32], h2[32];
	/* the wait pair in one unit, the hold pair in one: avg beside max */
	struct km_time_unit uw = km_time_unit_for(l->st.wait.max);
	struct km_time_unit uh = km_time_unit_for(l->st.hold.max);
	fprintf(out, "  %-24.24s %-10s %9" PRIu64 " %9" PRIu64 " %5u %11s %11s %11s %11s\n",
		l->name, kind, l->st.acquisitions, l->st.contentions, l->st.max_waiters,
		km_time_in(km_minmax_avg(&l->st.wait), uw, false, w1, sizeof(w1)),
		km_time_in(l->st.wait.max, uw, false, w2, sizeof(w2)),
		km_time_in(km_minmax_avg(&l->st.hold), uh, false, h1, sizeof(h1)),
		km_time_in(l->st.hold.max, uh, false, h2, sizeof(h2)));
}

/* The thundering herd of sleeping locks whose woken waiters retry: how
 * many wake-ups, how many of them lost (woken, retried, slept again), and
 * how many acquisitions went past a woken waiter on its way. */
static void herd_text(FILE *out, const struct km_sim *sim)
{
	bool any = false;
	for (uint32_t i = 0; i < sim->locks.n && i < MAX_ROWS; i++) {
		const struct km_lock *l = sim->locks.v[i];
		if (!l->st.wakeups)
			continue;
		if (!any)
			fprintf(out, "\nwake-ups                     woken      lost   lost %%    steals"
				"   (lost: woken, retried, asleep again;\n%67s steals: taken past a "
				"woken waiter)\n", "");
		any = true;
		fprintf(out, "  %-24.24s %9" PRIu64 " %9" PRIu64 " %6.1f%% %9" PRIu64 "\n", l->name,
			l->st.wakeups, l->st.wake_lost,
			100.0 * (double)l->st.wake_lost / (double)l->st.wakeups, l->st.steals);
	}
}

static void cpus_text(FILE *out, const struct km_sim *sim)
{
	km_time total = sim->now;
	fprintf(out, "\ncpus        busy    spin     irq  irqoff    idle  switch   ctxsw\n");
	uint64_t ctxsw = 0, migrations = 0;
	for (int i = 0; i < sim->ncpus; i++) {
		const struct km_cpu *c = &sim->cpus[i];
		ctxsw += c->ctxsw;
		migrations += c->migrations;
		if (i < 16)
			fprintf(out, "  cpu%-4d %6.1f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%% %7" PRIu64 "\n",
				i, pct(c->acct[KM_CPU_BUSY], total), pct(c->acct[KM_CPU_SPIN], total),
				pct(c->acct[KM_CPU_IRQ], total), pct(c->irqoff_ns, total),
				pct(c->acct[KM_CPU_IDLE], total), pct(c->acct[KM_CPU_SWITCH], total),
				c->ctxsw);
	}
	if (sim->ncpus > 16)
		fprintf(out, "  ... %d more CPUs\n", sim->ncpus - 16);
	/* the whole run: one definition of the shares for every output */
	struct km_cpu_time ct;
	km_cpu_time_of(sim, &ct);
	fprintf(out, "  all     %6.1f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%% %7" PRIu64 "\n",
		km_cpu_time_pct(&ct, KM_CPU_BUSY), km_cpu_time_pct(&ct, KM_CPU_SPIN),
		km_cpu_time_pct(&ct, KM_CPU_IRQ), km_cpu_time_pct(&ct, KM_CPU_STATES),
		km_cpu_time_pct(&ct, KM_CPU_IDLE), km_cpu_time_pct(&ct, KM_CPU_SWITCH), ctxsw);
	/* who ran a task that could run elsewhere: the scheduler's choices */
	if (sim->ncpus > 1)
		fprintf(out, "  tasks moved between CPUs: %" PRIu64 "\n", migrations);
}

static void tasks_text(FILE *out, const struct km_sim *sim)
{
	int ntasks = 0, finished = 0;
	for (uint32_t i = 0; i < sim->ctxs.n; i++) {
		const struct km_ctx *t = sim->ctxs.v[i];
		if (km_ctx_kind(t) != KM_CTX_TASK)
			continue;
		struct km_ctx_stats st;
		km_ctx_stats(t, &st);
		ntasks++;
		finished += st.finished;
	}
	fprintf(out, "\ntasks (%d, %d finished)      cpu        run       spin    blocked    waitcpu        end\n",
		ntasks, finished);
	int shown = 0;
	for (uint32_t i = 0; i < sim->ctxs.n && shown < MAX_ROWS; i++) {
		const struct km_ctx *t = sim->ctxs.v[i];
		if (km_ctx_kind(t) != KM_CTX_TASK)
			continue;
		char a[32], b[32], c[32], d[32], e[32];
		struct km_ctx_stats st;
		km_ctx_stats(t, &st);
		km_time end = st.finished ? st.end_ns : sim->now;
		/* a table: each column read down, each cell its own unit */
		fprintf(out, "  %-24.24s %4d %10s %10s %10s %10s %10s%s\n", km_ctx_name(t), st.cpu,
			km_fmt_ns(st.cpu_ns, a, sizeof(a)), km_fmt_ns(st.spin_ns, b, sizeof(b)),
			km_fmt_ns(st.blocked_ns, c, sizeof(c)),
			km_fmt_ns(st.runnable_ns, d, sizeof(d)),
			km_fmt_ns(end, e, sizeof(e)),
			st.finished ? "" : "  (not finished)");
		shown++;
	}
	if (ntasks > shown)
		fprintf(out, "  ... %d more tasks\n", ntasks - shown);
}

void km_report_text(FILE *out, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	char t1[32];
	fprintf(out, "lockmuseum: %s%s%s\n", ri->scenario ? ri->scenario : "?",
		ri->title && ri->title[0] ? " - " : "", ri->title ? ri->title : "");
	if (ri->era)
		fprintf(out, "  era %s (Linux %s) \"%s\", mode %s, %d CPU%s, seed %" PRIu64 "\n",
			ri->era->id, ri->era->version, ri->era->title, km_mode_name(ri->mode),
			ri->cpus, ri->cpus == 1 ? "" : "s", ri->seed);
	if (ri->schedule)
		fprintf(out, "  schedule %s: its decisions replayed at the choice points\n",
			ri->schedule);
	for (int i = 0; i < ri->nparams; i++)
		fprintf(out, "%s%s=%s%s", i ? " " : "  parameters: ", ri->params[i].name,
			ri->params[i].value, i + 1 == ri->nparams ? "\n" : "");
	fprintf(out, "  outcome: %s", km_outcome_name(ri->outcome));
	if (sim)
		fprintf(out, " at %s simulated, %" PRIu64 " events, trace %016" PRIx64,
			km_fmt_ns(sim->now, t1, sizeof(t1)), sim->events, sim->trace.hash);
	fprintf(out, "\n");
	if (ri->reason && ri->reason[0])
		fprintf(out, "  reason: %s\n", ri->reason);
	if (!sim || ri->outcome == KM_OUT_NOT_APPLICABLE)
		return;

	if (sim->locks.n || sim->bkl->used || sim->gil->used) {
		fprintf(out, "\nlocks                      kind             acq      cont  maxw    wait avg    wait max    hold avg    hold max\n");
		for (uint32_t i = 0; i < sim->locks.n && i < MAX_ROWS; i++)
			lock_row(out, sim->locks.v[i], km_prim_name(sim->locks.v[i]->prim));
		if (sim->locks.n > MAX_ROWS)
			fprintf(out, "  ... %u more locks\n", sim->locks.n - MAX_ROWS);
		if (sim->bkl->used)
			lock_row(out, sim->bkl, "(the BKL)");
		if (sim->gil->used)
			lock_row(out, sim->gil, "(cli)");
		/* locktorture's summary: ??? unfair, !!! exclusion broken */
		fprintf(out, "\nlocktorture-style summary (??? when the busiest task took a lock more\n"
			"than twice as often as the least busy, !!! when two holders were inside)\n");
		for (uint32_t i = 0; i < sim->locks.n && i < MAX_ROWS; i++) {
			const struct km_lock *l = sim->locks.v[i];
			uint64_t total, mx, mn;
			uint32_t n = km_lock_fairness(l, &total, &mx, &mn);
			fprintf(out, "  %-24.24s Total: %" PRIu64 "  Max/Min: %" PRIu64 "/%" PRIu64
				" over %u task%s%s%s\n", l->name, total, mx, mn, n, n == 1 ? "" : "s",
				n > 1 && mx > 2 * mn ? " ???" : "", l->st.exclusion_broken ? " !!!" : "");
		}
		herd_text(out, sim);
	}
	cpus_text(out, sim);
	tasks_text(out, sim);

	if (sim->vars.n || sim->atomics.n) {
		fprintf(out, "\nvariables\n");
		for (uint32_t i = 0; i < sim->vars.n; i++)
			fprintf(out, "  %-24s %lld%s\n", sim->vars.v[i]->name,
				(long long)sim->vars.v[i]->value,
				sim->vars.v[i]->lost ? "  (updates were lost)" : "");
		for (uint32_t i = 0; i < sim->atomics.n; i++)
			fprintf(out, "  %-24s %lld (atomic)\n", sim->atomics.v[i]->name,
				(long long)sim->atomics.v[i]->value);
	}
	if (sim->counters.n) {
		fprintf(out, "\ncounters                          value            peak\n");
		for (uint32_t i = 0; i < sim->counters.n; i++) {
			const struct km_counter *c = sim->counters.v[i];
			fprintf(out, "  %-24s %15lld %15lld %s\n", c->name, (long long)c->value,
				(long long)c->peak, c->unit);
		}
	}
	if (sim->opstats.n) {
		fprintf(out, "\nlatency (measure)             count         p50         p99         max\n");
		for (uint32_t i = 0; i < sim->opstats.n; i++) {
			const struct km_opstat *o = sim->opstats.v[i];
			char a[32], b[32], c[32];
			/* each figure in the unit its magnitude asks for, to the
			 * unit's decimals: "190 ns", never "0.00019 ms" */
			km_time q[3] = { km_hist_quantile(&o->hist, 0.5),
					 km_hist_quantile(&o->hist, 0.99), o->hist.mm.max };
			fprintf(out, "  %-24s %9" PRIu64 " %11s %11s %11s\n", o->name, o->hist.mm.n,
				km_time_in(q[0], km_time_unit_for(q[0]), false, a, sizeof(a)),
				km_time_in(q[1], km_time_unit_for(q[1]), false, b, sizeof(b)),
				km_time_in(q[2], km_time_unit_for(q[2]), false, c, sizeof(c)));
		}
	}
	uint64_t nv = 0;
	for (int k = 0; k < KM_V_KINDS; k++)
		nv += sim->violation_count[k];
	if (nv) {
		fprintf(out, "\nviolations (%" PRIu64 ")\n", nv);
		for (int k = 0; k < KM_V_KINDS; k++)
			if (sim->violation_count[k])
				fprintf(out, "  %-24s %" PRIu64 "\n",
					km_violation_name((enum km_violation_kind)k),
					sim->violation_count[k]);
		uint32_t shown = 0;
		for (uint32_t i = 0; i < sim->violations.n && shown < 10; i++, shown++) {
			const struct km_violation *v = &sim->violations.v[i];
			/* in the unit of the message's own instants (ops.c) */
			fprintf(out, "  t=%-12s [%s] %s\n",
				km_time_in(v->time, km_time_unit_exact(v->time), false, t1, sizeof(t1)),
				km_violation_name(v->kind), v->message);
			if (v->splat) {
				/* the lockdep report, indented as dmesg would show it */
				fputc('\n', out);
				for (const char *p = v->splat; *p;) {
					const char *nl = strchr(p, '\n');
					int n = nl ? (int)(nl - p) : (int)strlen(p);
					fprintf(out, "    %.*s\n", n, p);
					p += n + (nl ? 1 : 0);
				}
				fputc('\n', out);
			}
		}
		/* the JSON keeps KM_VIOLATIONS_KEPT of each kind and says how
		 * many it left out (violations_dropped): say the same here */
		uint64_t dropped = nv > sim->violations.n ? nv - sim->violations.n : 0;
		if (sim->violations.n > shown && dropped)
			fprintf(out, "  ... %u more in the JSON report, and %" PRIu64 " counted but not "
				"kept (its violations_dropped: it keeps the first %d of each kind)\n",
				sim->violations.n - shown, dropped, KM_VIOLATIONS_KEPT);
		else if (sim->violations.n > shown)
			fprintf(out, "  ... %u more in the JSON report\n", sim->violations.n - shown);
	} else {
		fprintf(out, "\nviolations: none\n");
	}
	if (ri->nchecks) {
		fprintf(out, "\nchecks\n");
		for (int i = 0; i < ri->nchecks; i++) {
			/* the scenario's text: its control characters spelled out */
			fprintf(out, "  %-4s ", ri->checks[i].ok ? "ok" : "FAIL");
			km_put_escaped(ri->checks[i].message ? ri->checks[i].message : "", out);
			fputc('\n', out);
		}
	}
}

/* ------------------------------------------------------------ lock_stat -- */

static void lstime(FILE *out, km_time ns)
{
	char num[64];
	long long us = ns / 1000, frac = (ns % 1000) / 10;
	snprintf(num, sizeof(num), "%lld.%02lld", us, frac);
	fprintf(out, " %14s", num);
}

static void ls_line(FILE *out)
{
	for (int i = 0; i < 40 + 1 + 12 * (14 + 1); i++)
		fputc('-', out);
	fputc('\n', out);
}

static void ls_row(FILE *out, const struct km_lock *l)
{
	char name[64];
	snprintf(name, sizeof(name), "%s", l->name);
	fprintf(out, "%40s:", name);
	fprintf(out, "%14" PRIu64 " ", l->st.con_bounces);
	fprintf(out, "%14" PRIu64, l->st.contentions);
	lstime(out, l->st.wait.min);
	lstime(out, l->st.wait.max);
	lstime(out, l->st.wait.total);
	lstime(out, km_minmax_avg(&l->st.wait));
	fprintf(out, " %14" PRIu64 " ", l->st.acq_bounces);
	fprintf(out, "%14" PRIu64, l->st.acquisitions);
	lstime(out, l->st.hold.min);
	lstime(out, l->st.hold.max);
	lstime(out, l->st.hold.total);
	lstime(out, km_minmax_avg(&l->st.hold));
	fputs("\n\n", out);
}

void km_report_lockstat(FILE *out, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	fputs("lock_stat version 0.4\n", out);
	ls_line(out);
	fprintf(out, "%40s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s\n",
		"class name", "con-bounces", "contentions", "waittime-min", "waittime-max",
		"waittime-total", "waittime-avg", "acq-bounces", "acquisitions",
		"holdtime-min", "holdtime-max", "holdtime-total", "holdtime-avg");
	ls_line(out);
	fputc('\n', out);
	if (!sim)
		return;
	/* The kernel sorts by contentions, most contended first. */
	uint32_t n = sim->locks.n;
	const struct km_lock **v = malloc((n + 2) * sizeof(*v));
	if (!v)
		return;
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		v[k++] = sim->locks.v[i];
	if (sim->bkl->used)
		v[k++] = sim->bkl;
	if (sim->gil->used)
		v[k++] = sim->gil;
	for (uint32_t i = 1; i < k; i++) {	/* insertion sort: stable */
		const struct km_lock *x = v[i];
		uint32_t j = i;
		while (j > 0 && v[j - 1]->st.contentions < x->st.contentions) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	for (uint32_t i = 0; i < k; i++)
		ls_row(out, v[i]);
	/* Not in the kernel's file: the wake-ups of the locks that had any,
	 * as comment lines a lock_stat parser skips. */
	bool any = false;
	for (uint32_t i = 0; i < k; i++) {
		if (!v[i]->st.wakeups)
			continue;
		if (!any)
			fprintf(out, "# %38s %14s %14s %14s\n", "wake-ups (lockmuseum)", "woken",
				"lost", "steals");
		any = true;
		fprintf(out, "# %38s:%14" PRIu64 " %14" PRIu64 " %14" PRIu64 "\n", v[i]->name,
			v[i]->st.wakeups, v[i]->st.wake_lost, v[i]->st.steals);
	}
	free(v);
}
