/*
 * report_interleaving.c - `--report interleaving`: the run as a homework
 * sheet, one line per operation.
 *
 * OSTEP's simulators (x86.py, lock and condition-variable homework) print
 * a run as a compact table, one line per instruction and a column per
 * thread, and leave the values blank until -c asks for the answers.  This
 * is that table for a lockmuseum run: time (one unit for the whole
 * table), CPU, who (task or interrupt handler), the operation in the
 * kernel's words (down, spin_lock, read, write ...), and the state of the
 * locks after it (who holds each, how many wait).  What a student is to
 * work out -- the values read and written, the violations, the final
 * values, how the run ended and who finished first -- is printed as "?"
 * or left out, unless @answers; then the values are in the table, the
 * violations are lines of it (marked "!!"), and an "answers" section ends
 * the sheet.
 *
 * The table is made from the stored trace (the run keeps it for this
 * report); CPU state changes are not operations and are left out, as are
 * the interrupt flag changes made on a handler's behalf.  The lock
 * columns are kept by replaying contend/acquire/release in order.
 * O(records + locks) time, O(locks + contexts) memory.
 */
#include "report.h"
#include "../time_unit.h"
#include "../text_escape.h"
#include "../trace_kinds.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Up to this many locks get a column each; beyond, the line's own lock. */
#define LOCK_COLUMNS 4

struct lstate {
	uint32_t held;		/* holders now */
	uint32_t holder;	/* the last to acquire it */
	uint32_t waiting;
};

struct sheet {
	FILE *out;
	const struct km_sim *sim;
	bool answers;
	struct km_time_unit unit;
	struct lstate *ls;
	uint32_t *waits_on;	/* per context: lock + 1, or 0 */
};

static const char *ctx_name(const struct km_sim *sim, uint32_t id)
{
	return id < sim->ctxs.n ? km_ctx_name(sim->ctxs.v[id]) : "-";
}

static const struct km_lock *lock_of(const struct km_sim *sim, uint32_t id)
{
	return id < sim->locks.n ? sim->locks.v[id] : NULL;
}

/* The name of @r's object, else @none. */
static const char *obj_name(const struct km_sim *sim, const struct km_trace_rec *r,
			    const char *none)
{
	const char *name = km_report_obj_name(sim, r);
	return name ? name : none;
}

/* "12" or "?" */
static const char *value(const struct sheet *sh, int64_t v, char *buf, size_t len)
{
	if (!sh->answers)
		return "?";
	snprintf(buf, len, "%" PRId64, v);
	return buf;
}

/* The operation of @r into @buf; false if @r is not a line of the sheet. */
static bool operation(const struct sheet *sh, const struct km_trace_rec *r, char *buf, size_t len)
{
	const struct km_sim *sim = sh->sim;
	const struct km_lock *l = lock_of(sim, r->obj);
	char v[32];
	switch (r->kind) {
	case KM_TR_TASK_START:
		snprintf(buf, len, "starts");
		return true;
	case KM_TR_TASK_EXIT:
		snprintf(buf, len, "exits");
		return true;
	case KM_TR_CONTEND:
		snprintf(buf, len, "%s(%s): waits", l ? km_prim_lock_verb(l->prim) : "lock", l ? l->name : "?");
		return true;
	case KM_TR_ACQUIRE:
		snprintf(buf, len, "%s(%s)", l ? km_prim_lock_verb(l->prim) : "lock", l ? l->name : "?");
		return true;
	case KM_TR_RELEASE:
		snprintf(buf, len, "%s(%s)", l ? km_prim_unlock_verb(l->prim) : "unlock", l ? l->name : "?");
		return true;
	case KM_TR_TRYFAIL:
		snprintf(buf, len, r->arg ? "down_timeout(%s): times out" : "trylock(%s): busy",
			 l ? l->name : "?");
		return true;
	case KM_TR_WAKE:
		snprintf(buf, len, "wakes %s", ctx_name(sim, r->aux));
		return r->ctx != KM_TR_NONE;
	case KM_TR_BLOCK:
		snprintf(buf, len, "sleeps");
		return true;
	case KM_TR_IRQ_ENTER:
		snprintf(buf, len, "interrupt: handler starts");
		return true;
	case KM_TR_IRQ_EXIT:
		snprintf(buf, len, "handler returns");
		return true;
	case KM_TR_IRQOFF:
		snprintf(buf, len, r->arg ? "local_irq_disable" : "local_irq_enable");
		return r->ctx != KM_TR_NONE;
	case KM_TR_VAR_READ:
		snprintf(buf, len, "read %s -> %s",
			 obj_name(sim, r, "?"),
			 value(sh, r->arg, v, sizeof(v)));
		return true;
	case KM_TR_VAR_WRITE:
		snprintf(buf, len, "write %s = %s",
			 obj_name(sim, r, "?"),
			 value(sh, r->arg, v, sizeof(v)));
		return true;
	case KM_TR_ATOMIC:
		snprintf(buf, len, "atomic %s -> %s",
			 obj_name(sim, r, "?"),
			 value(sh, r->arg, v, sizeof(v)));
		return true;
	case KM_TR_COUNTER:
		snprintf(buf, len, "count %s = %s",
			 obj_name(sim, r, "?"),
			 value(sh, r->arg, v, sizeof(v)));
		return true;
	case KM_TR_LOG:
		/* the scenario's text: its control characters spelled out */
		if (len < 8)
			return false;
		memcpy(buf, "log \"", 6);
		km_escape(buf + 5, len - 6, obj_name(sim, r, ""));
		strcat(buf, "\"");
		return true;
	case KM_TR_VIOLATION:
		snprintf(buf, len, "!! %s",
			 km_violation_name(r->aux < KM_V_KINDS ? (enum km_violation_kind)r->aux
							   : KM_V_LOST_UPDATE));
		return sh->answers;
	case KM_TR_PREEMPT:
		snprintf(buf, len, "is preempted");
		return true;
	case KM_TR_MIGRATE:
		snprintf(buf, len, "moves to CPU %u", r->aux);
		return true;
	default:
		return false;	/* CPU state changes: not operations */
	}
}

/* Replay @r on the lock columns. */
static void track(struct sheet *sh, const struct km_trace_rec *r)
{
	const struct km_sim *sim = sh->sim;
	if (r->obj >= sim->locks.n || r->ctx >= sim->ctxs.n)
		return;
	struct lstate *s = &sh->ls[r->obj];
	uint32_t *w = &sh->waits_on[r->ctx];
	switch (r->kind) {
	case KM_TR_CONTEND:
		if (*w != r->obj + 1) {
			*w = r->obj + 1;
			s->waiting++;
		}
		break;
	case KM_TR_ACQUIRE:
		if (*w == r->obj + 1) {
			*w = 0;
			if (s->waiting)
				s->waiting--;
		}
		s->held++;
		s->holder = r->ctx;
		break;
	case KM_TR_RELEASE:
		if (s->held)
			s->held--;
		break;
	case KM_TR_TRYFAIL:
		if (r->arg && *w == r->obj + 1) {
			*w = 0;
			if (s->waiting)
				s->waiting--;
		}
		break;
	default:
		break;
	}
}

static int lock_cell(const struct sheet *sh, uint32_t i, char *buf, size_t len)
{
	const struct lstate *s = &sh->ls[i];
	const char *name = sh->sim->locks.v[i]->name;
	char who[64];
	if (!s->held)
		snprintf(who, sizeof(who), "free");
	else if (s->held == 1)
		snprintf(who, sizeof(who), "%s", ctx_name(sh->sim, s->holder));
	else
		snprintf(who, sizeof(who), "%u holders", s->held);
	if (s->waiting)
		return snprintf(buf, len, "%s:%s+%uw", name, who, s->waiting);
	return snprintf(buf, len, "%s:%s", name, who);
}

static void locks_column(const struct sheet *sh, const struct km_trace_rec *r, char *buf, size_t len)
{
	const struct km_sim *sim = sh->sim;
	buf[0] = 0;
	if (sim->locks.n > LOCK_COLUMNS) {
		if (km_trace_kind_is_lock(r->kind) && r->obj < sim->locks.n)
			lock_cell(sh, r->obj, buf, len);
		return;
	}
	size_t off = 0;
	for (uint32_t i = 0; i < sim->locks.n && off < len; i++) {
		if (i)
			off += (size_t)snprintf(buf + off, len - off, "  ");
		if (off < len)
			off += (size_t)lock_cell(sh, i, buf + off, len - off);
	}
}

static void sheet_time(const struct sheet *sh, km_time t, char *buf, size_t len);

/* When task @c ended, or -1 if it did not (or is a handler). */
static km_time task_end(const struct km_ctx *c)
{
	struct km_ctx_stats st;
	if (km_ctx_kind(c) != KM_CTX_TASK)
		return -1;
	km_ctx_stats(c, &st);
	return st.finished ? st.end_ns : -1;
}

/* The answers; with a window [@lo, @hi] (@windowed), the violations in it
 * one by one and the others counted. */
static void answers_section(const struct sheet *sh, const struct km_run_info *ri, bool windowed,
			    km_time lo, km_time hi)
{
	const struct km_sim *sim = sh->sim;
	FILE *out = sh->out;
	char t[48];
	fprintf(out, "\nanswers\n");
	for (uint32_t i = 0; i < sim->vars.n; i++)
		fprintf(out, "  %s = %" PRId64 " at the end (it started at %" PRId64 ")\n",
			sim->vars.v[i]->name, sim->vars.v[i]->value, sim->vars.v[i]->initial);
	for (uint32_t i = 0; i < sim->atomics.n; i++)
		fprintf(out, "  atomic %s = %" PRId64 " at the end\n", sim->atomics.v[i]->name,
			sim->atomics.v[i]->value);
	for (uint32_t i = 0; i < sim->counters.n; i++)
		fprintf(out, "  counter %s = %" PRId64 " at the end\n", sim->counters.v[i]->name,
			sim->counters.v[i]->value);
	uint64_t nv = 0;
	for (int k = 0; k < KM_V_KINDS; k++)
		nv += sim->violation_count[k];
	fprintf(out, "  violations: %" PRIu64 "%s\n", nv, windowed ? " in the whole run" : "");
	uint64_t outside = 0;
	for (uint32_t i = 0; i < sim->violations.n; i++) {
		km_time vt = sim->violations.v[i].time;
		if (windowed && (vt < lo || vt > hi)) {
			outside++;
			continue;
		}
		sheet_time(sh, vt, t, sizeof(t));
		fprintf(out, "    %s %s  %s\n", t, sh->unit.name, sim->violations.v[i].message);
	}
	if (outside)
		fprintf(out, "    ... and %" PRIu64 " outside the lines shown\n", outside);
	if (nv > sim->violations.n)
		fprintf(out, "    ... and %" PRIu64 " more, not kept\n", nv - sim->violations.n);
	/* who finished first: the tasks in the order they ended */
	fprintf(out, "  finished, first to last:");
	int shown = 0;
	km_time last = -1;
	for (;;) {
		km_time next = -1;
		for (uint32_t i = 0; i < sim->ctxs.n; i++) {
			km_time end = task_end(sim->ctxs.v[i]);
			if (end > last && (next < 0 || end < next))
				next = end;
		}
		if (next < 0)
			break;
		/* every task that ended at that instant */
		for (uint32_t i = 0; i < sim->ctxs.n; i++) {
			const struct km_ctx *c = sim->ctxs.v[i];
			if (task_end(c) == next) {
				sheet_time(sh, next, t, sizeof(t));
				fprintf(out, "%s %s (%s %s)", shown++ ? "," : "", km_ctx_name(c), t,
					sh->unit.name);
			}
		}
		last = next;
	}
	fprintf(out, "%s\n", shown ? "" : " none");
	sheet_time(sh, sim->now, t, sizeof(t));
	fprintf(out, "  outcome: %s at %s %s%s%s (exit status %d)\n", km_outcome_name(ri->outcome),
		t, sh->unit.name,
		ri->reason && *ri->reason ? ": " : "", ri->reason ? ri->reason : "",
		km_report_exit_status(ri));
}

/* The time of @t in the sheet's unit, to its decimals, without the unit:
 * one style down the column ("0.004", never "0.0040" above "0.104"). */
static void sheet_time(const struct sheet *sh, km_time t, char *buf, size_t len)
{
	if (sh->unit.ns <= 1)
		snprintf(buf, len, "%lld", (long long)t);
	else
		snprintf(buf, len, "%.*f", sh->unit.decimals, (double)t / sh->unit.ns);
}

/* The index of the first record of the window, and how many lines it
 * may show: the whole run, [from, to], or the first lost update with
 * what led to it (a third of the lines before it, the rest after). */
static size_t window_start(const struct sheet *sh, const struct km_sheet_opts *o, size_t *steps,
			   bool *found)
{
	const struct km_sim *sim = sh->sim;
	*steps = o->steps;
	*found = true;
	if (!o->from_lost) {
		size_t i = 0;
		while (i < sim->trace.len && sim->trace.recs[i].time < o->from)
			i++;
		return i;
	}
	if (!*steps)
		*steps = KM_SHEET_LOST_STEPS;
	size_t v = 0;
	while (v < sim->trace.len && !(sim->trace.recs[v].kind == KM_TR_VIOLATION &&
				       sim->trace.recs[v].aux == KM_V_LOST_UPDATE))
		v++;
	if (v == sim->trace.len) {
		*found = false;
		return 0;
	}
	/* back a third of the lines: the reads the overwrite was built on */
	size_t before = *steps / 3, i = v;
	while (i > 0 && before > 0) {
		i--;
		char op[192];
		if (operation(sh, &sim->trace.recs[i], op, sizeof(op)))
			before--;
	}
	return i;
}

int km_report_interleaving(FILE *out, const struct km_run_info *ri, const struct km_sheet_opts *o)
{
	const struct km_sim *sim = ri->sim;
	if (!sim || !sim->trace.store)
		return -1;
	bool answers = o->answers;
	struct sheet sh = { .out = out, .sim = sim, .answers = answers,
			    .unit = km_time_unit_for(sim->now) };
	if (sh.unit.ns > 1)
		sh.unit.decimals = 3;	/* a table of instants: to the nanosecond in us */
	sh.ls = calloc(sim->locks.n + 1, sizeof(*sh.ls));
	sh.waits_on = calloc(sim->ctxs.n + 1, sizeof(*sh.waits_on));
	if (!sh.ls || !sh.waits_on) {
		free(sh.ls);
		free(sh.waits_on);
		return -1;
	}
	fprintf(out, "interleaving: %s (%s), Linux %s (%s), mode %s, %d CPU%s, seed %" PRIu64 "\n",
		ri->scenario, ri->file ? ri->file : "?", ri->era ? ri->era->version : "?",
		ri->era ? ri->era->id : "?", km_mode_name(ri->mode), ri->cpus, ri->cpus == 1 ? "" : "s",
		ri->seed);
	if (answers)
		fprintf(out, "times in %s; the answers are shown (values, violations marked !!, "
			"and the end)\n", sh.unit.name);
	else
		fprintf(out, "times in %s; ? marks what to work out (run again with --answers to "
			"see it)\n", sh.unit.name);
	size_t steps;
	bool found;
	size_t first = window_start(&sh, o, &steps, &found);
	bool windowed = o->from_lost || o->from > 0 || o->to > 0 || o->steps > 0;
	if (o->from_lost && !found)
		fprintf(out, "no update was lost in this run: the sheet starts at its start\n");
	else if (o->from_lost && answers)
		fprintf(out, "around the first lost update (--from lost)\n");
	/* the operation column is padded only when a lock column follows */
	int opw = sim->locks.n ? 32 : 0;
	fprintf(out, "\n%12s  %3s  %-16s %-*s%s%s\n", "time", "cpu", "who", opw, "operation",
		sim->locks.n ? " " : "", sim->locks.n > LOCK_COLUMNS ? "lock" : sim->locks.n ? "locks" : "");
	char op[192], lk[256], t[48];
	size_t shown = 0, total = 0, hidden_before = 0;
	km_time first_t = 0, last_t = 0;
	for (size_t i = 0; i < sim->trace.len; i++) {
		const struct km_trace_rec *r = &sim->trace.recs[i];
		track(&sh, r);
		if (!operation(&sh, r, op, sizeof(op)))
			continue;
		total++;
		if (i < first) {
			hidden_before++;
			continue;
		}
		if ((o->to > 0 && r->time > o->to) || (steps && shown >= steps))
			continue;
		if (!shown && hidden_before)
			fprintf(out, "%12s  (%zu operation%s before)\n", "...", hidden_before,
				hidden_before == 1 ? "" : "s");
		locks_column(&sh, r, lk, sizeof(lk));
		sheet_time(&sh, r->time, t, sizeof(t));
		char cpu[8];
		if (r->cpu == 0xffff)
			snprintf(cpu, sizeof(cpu), "-");
		else
			snprintf(cpu, sizeof(cpu), "%u", r->cpu);
		fprintf(out, "%12s  %3s  %-16.16s %-*s%s%s\n", t, cpu, ctx_name(sim, r->ctx), opw, op,
			lk[0] ? " " : "", lk);
		if (!shown++)
			first_t = r->time;
		last_t = r->time;
	}
	if (shown + hidden_before < total)
		fprintf(out, "%12s  (%zu operation%s after)\n", "...", total - shown - hidden_before,
			total - shown - hidden_before == 1 ? "" : "s");
	if (windowed) {
		char a[48];
		sheet_time(&sh, last_t, a, sizeof(a));
		fprintf(out, "%zu of the run's %zu operations shown%s%s%s%s; --from, --to and "
			"--steps choose\n", shown, total, shown ? ", to " : "", shown ? a : "",
			shown ? " " : "", shown ? sh.unit.name : "");
	}
	if (sim->trace.truncated)
		fprintf(out, "... the trace kept only the first %zu records (--trace-limit)\n",
			sim->trace.len);
	if (answers)
		answers_section(&sh, ri, windowed, first_t, last_t);
	else
		fprintf(out, "\nquestions: what does each ? hold; what are the values at the end; "
			"was any update lost;\nwho finished first?  (--answers prints them)\n");
	free(sh.ls);
	free(sh.waits_on);
	return ferror(out) ? -1 : 0;
}
