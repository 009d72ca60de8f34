/*
 * view_describe.c - one trace record in words, for the event line.
 *
 * A visitor reads "t=12.345 ms CPU1 creat/3 down(dir->i_sem): contended,
 * sleeps (2 waiters)", not "CONTEND cpu=1 ctx=7 obj=0 aux=2".  Each kind
 * of record gets a sentence built from the names the simulator kept (the
 * contexts', locks', counters'), using the verbs of the lock's effective
 * primitive: down()/up() for a semaphore, mutex_lock() for a mutex,
 * cli()/sti() for the interrupt lock, and so on.
 *
 * Some facts are only known from the records around this one: whether a
 * contended acquirer then spins or sleeps, and whom a release handed the
 * lock to.  Those are looked up among the following records at the same
 * instant (a bounded scan: the core emits them back to back), so
 * describing costs O(1) amortised and never allocates.
 */
#include "view_model.h"

#include "../time_unit.h"
#include "../report/report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *km_vm_fmt_time(const struct km_view_model *m, km_time t, char *buf, size_t len)
{
	/* the unit of the whole run, so that times in one run compare at a
	 * glance, chosen by its magnitude: "2.940 ms", not "2940.000 us" */
	km_time scale = m && m->end > 0 ? m->end : t;
	if (scale >= 1000000000LL)
		snprintf(buf, len, "%.3f s", (double)t / 1e9);
	else if (scale >= 1000000)
		snprintf(buf, len, "%.3f ms", (double)t / 1e6);
	else if (scale >= 1000)
		snprintf(buf, len, "%.3f \xc2\xb5s", (double)t / 1e3);
	else
		snprintf(buf, len, "%lld ns", (long long)t);
	return buf;
}

const char *km_vm_micro(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	if (!len)
		return buf;
	for (const char *p = s ? s : ""; *p && o + 1 < len; p++) {
		if (p > s && p[-1] >= '0' && p[-1] <= '9' && p[0] == ' ' && p[1] == 'u' &&
		    p[2] == 's' && !((p[3] >= 'a' && p[3] <= 'z') || (p[3] >= 'A' && p[3] <= 'Z'))) {
			if (o + 4 >= len)
				break;
			memcpy(buf + o, " \xc2\xb5s", 4);
			o += 4;
			p += 2;
			continue;
		}
		buf[o++] = *p;
	}
	buf[o] = 0;
	return buf;
}

const char *km_vm_fmt_value(int64_t v, const char *unit, char *buf, size_t len)
{
	if (unit && (!strcmp(unit, "bytes") || !strcmp(unit, "B"))) {
		static const char *const names[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };
		double x = (double)v;
		int k = 0;
		while ((x >= 1024.0 || x <= -1024.0) && k < 5) {
			x /= 1024.0;
			k++;
		}
		if (k == 0)
			snprintf(buf, len, "%lld bytes", (long long)v);
		else
			snprintf(buf, len, "%.*f %s", x < 10 && x > -10 ? 2 : x < 100 && x > -100 ? 1 : 0,
				 x, names[k]);
	} else {
		snprintf(buf, len, "%lld%s%s", (long long)v, unit && *unit ? " " : "",
			 unit ? unit : "");
	}
	return buf;
}

/* A duration with a unit that suits it. */
/* A duration in the unit of the line's time (km_vm_fmt_time: the run's),
 * so that one sentence of the event line uses one unit. */
static const char *dur(const struct km_view_model *m, km_time ns, char *buf, size_t len)
{
	km_time scale = m && m->end > 0 ? m->end : ns;
	struct km_time_unit u = km_time_unit_for(scale >= 10000000000LL ? 1000000000 :
						 scale >= 10000000 ? 1000000 :
						 scale >= 10000 ? 1000 : 0);
	return km_time_in(ns, u, true, buf, len);
}

static const struct km_lock *lock_of(const struct km_view_model *m, uint32_t id)
{
	int li = km_vm_lock_index(m, id);
	return li >= 0 && li < m->nlocks ? m->locks[li].lock : NULL;
}

/* After a contention, at the same instant: does @ctx block or spin? */
static const char *then_what(const struct km_view_model *m, size_t i, uint32_t ctx)
{
	km_time t = m->recs[i].time;
	for (size_t k = i + 1, steps = 0; k < m->nrecs && steps < 32; k++, steps++) {
		const struct km_trace_rec *q = &m->recs[k];
		if (q->time != t)
			break;
		if (q->kind == KM_TR_BLOCK && q->ctx == ctx)
			return "sleeps";
		if (q->kind == KM_TR_CPU && q->ctx == ctx && q->arg == KM_CPU_SPIN)
			return "spins";
	}
	return "waits";
}

/* After a release, at the same instant: the wake-up it caused, if any (a
 * hand-off records the wakee's acquisition first, then the wake-up). */
static const struct km_trace_rec *handed_to(const struct km_view_model *m, size_t i)
{
	const struct km_trace_rec *r = &m->recs[i];
	for (size_t k = i + 1, steps = 0; k < m->nrecs && steps < 32; k++, steps++) {
		const struct km_trace_rec *q = &m->recs[k];
		if (q->time != r->time)
			break;
		if (q->kind == KM_TR_WAKE && q->obj == r->obj &&
		    (q->ctx == KM_TR_NONE || q->ctx == r->ctx))
			return q;
		if (q->kind == KM_TR_RELEASE)
			break;		/* another release: not ours */
	}
	return NULL;
}

static const char *wait_name(uint32_t w)
{
	switch (w) {
	case KM_WAIT_LOCK: return "for the lock";
	case KM_WAIT_SLEEP: return "for a timer";
	case KM_WAIT_WQ: return "on a wait queue";
	case KM_WAIT_COMPLETION: return "for a completion";
	default: return "";
	}
}

static const char *obj_name(const struct km_view_model *m, const struct km_trace_rec *r)
{
	const struct km_sim *s = m->sim;
	switch (r->arg) {
	case KM_VM_WAKE_GRANT:
	case KM_VM_WAKE_RETRY:
		return km_vm_lock_name(m, r->obj);
	case KM_VM_WAKE_WAITQ:
		return r->obj < s->waitqs.n ? s->waitqs.v[r->obj]->name : "?";
	default:
		return r->obj < s->completions.n ? s->completions.v[r->obj]->name : "?";
	}
}

const char *km_vm_describe(const struct km_view_model *m, size_t i, char *buf, size_t len)
{
	if (!m || i >= m->nrecs) {
		snprintf(buf, len, "no events");
		return buf;
	}
	const struct km_sim *s = m->sim;
	const struct km_trace_rec *r = &m->recs[i];
	char t[32], d[32], cpu[16] = "", who[96];
	km_vm_fmt_time(m, r->time, t, sizeof(t));
	if (r->cpu != 0xffff)
		snprintf(cpu, sizeof(cpu), "CPU%u ", r->cpu);
	snprintf(who, sizeof(who), "%s", km_vm_ctx_name(m, r->ctx));
	size_t off = (size_t)snprintf(buf, len, "t=%s %s", t, cpu);
	if (off >= len)
		return buf;
	char *p = buf + off;
	size_t n = len - off;
	const struct km_lock *l;
	/* the name of its object, by its kind's namespace (trace_kinds.h) */
	const char *name = km_report_obj_name(s, r);

	switch (r->kind) {
	case KM_TR_CPU:
		switch (r->arg) {
		case KM_CPU_IDLE: snprintf(p, n, "goes idle"); break;
		case KM_CPU_BUSY: snprintf(p, n, "runs %s", who); break;
		case KM_CPU_SPIN: snprintf(p, n, "%s spins, burning the CPU until the lock is free", who); break;
		case KM_CPU_IRQ: snprintf(p, n, "runs the interrupt handler %s", who); break;
		case KM_CPU_SWITCH: snprintf(p, n, "context switch to %s", who); break;
		default: snprintf(p, n, "state %" PRId64, r->arg); break;
		}
		break;
	case KM_TR_IRQOFF:
		if (r->ctx == KM_TR_NONE)
			snprintf(p, n, r->arg ? "interrupts off" : "interrupts back on");
		else
			snprintf(p, n, r->arg ? "%s: interrupts off (cli): the CPU will not take an "
						"interrupt" : "%s: interrupts back on (sti)", who);
		break;
	case KM_TR_TASK_START:
		snprintf(p, n, "%s starts", who);
		break;
	case KM_TR_TASK_EXIT:
		snprintf(p, n, "%s exits", who);
		break;
	case KM_TR_CONTEND:
		l = lock_of(m, r->obj);
		snprintf(p, n, "%s %s(%s): contended, %s (%u waiter%s)", who,
			 l ? km_prim_lock_verb(l->prim) : "lock", l ? l->name : "?",
			 then_what(m, i, r->ctx), r->aux, r->aux == 1 ? "" : "s");
		break;
	case KM_TR_ACQUIRE:
		l = lock_of(m, r->obj);
		if (r->arg > 0)
			snprintf(p, n, "%s %s(%s): acquired after waiting %s", who,
				 l ? km_prim_lock_verb(l->prim) : "lock", l ? l->name : "?",
				 dur(m, r->arg, d, sizeof(d)));
		else
			snprintf(p, n, "%s %s(%s): acquired at once", who,
				 l ? km_prim_lock_verb(l->prim) : "lock", l ? l->name : "?");
		break;
	case KM_TR_RELEASE: {
		l = lock_of(m, r->obj);
		const struct km_trace_rec *w = handed_to(m, i);
		char tail[128] = "";
		if (w && w->arg == KM_VM_WAKE_GRANT)
			snprintf(tail, sizeof(tail), "; hands it straight to %s",
				 km_vm_ctx_name(m, w->aux));
		else if (w)
			snprintf(tail, sizeof(tail), "; wakes %s to try again",
				 km_vm_ctx_name(m, w->aux));
		if (r->arg >= 0)
			snprintf(p, n, "%s %s(%s): released after holding it %s%s", who,
				 l ? km_prim_unlock_verb(l->prim) : "unlock", l ? l->name : "?",
				 dur(m, r->arg, d, sizeof(d)), tail);
		else
			snprintf(p, n, "%s %s(%s): released%s", who,
				 l ? km_prim_unlock_verb(l->prim) : "unlock", l ? l->name : "?", tail);
		break;
	}
	case KM_TR_TRYFAIL:
		l = lock_of(m, r->obj);
		snprintf(p, n, r->arg ? "%s down_timeout(%s): timed out, gives up"
				      : "%s trylock(%s): busy, does not wait", who, l ? l->name : "?");
		break;
	case KM_TR_WAKE:
		if (r->ctx != KM_TR_NONE)
			snprintf(p, n, "%s wakes %s (%s)", who, km_vm_ctx_name(m, r->aux),
				 obj_name(m, r));
		else
			snprintf(p, n, "%s is woken: %s %s", km_vm_ctx_name(m, r->aux),
				 obj_name(m, r), r->arg == KM_VM_WAKE_GRANT ?
				 "was handed to it by up()" : "is free, it must try again");
		break;
	case KM_TR_BLOCK:
		snprintf(p, n, "%s goes to sleep %s", who, wait_name(r->aux));
		break;
	case KM_TR_IRQ_ENTER:
		snprintf(p, n, "interrupt: %s's handler starts", name ? name : who);
		break;
	case KM_TR_IRQ_EXIT:
		snprintf(p, n, "%s's handler returns", name ? name : who);
		break;
	case KM_TR_VAR_READ:
	case KM_TR_VAR_WRITE:
		snprintf(p, n, "%s %s %s = %" PRId64, who,
			 r->kind == KM_TR_VAR_READ ? "reads" : "writes",
			 name ? name : "?", r->arg);
		break;
	case KM_TR_ATOMIC:
		snprintf(p, n, "%s atomic %s = %" PRId64, who,
			 name ? name : "?", r->arg);
		break;
	case KM_TR_COUNTER:
		if (r->obj < s->counters.n)
			snprintf(p, n, "%s: %s = %s", who, s->counters.v[r->obj]->name,
				 km_vm_fmt_value(r->arg, s->counters.v[r->obj]->unit, d, sizeof(d)));
		else
			snprintf(p, n, "counter = %" PRId64, r->arg);
		break;
	case KM_TR_LOG:
		snprintf(p, n, "%s: %s", who, name ? name : "");
		break;
	case KM_TR_VIOLATION: {
		const char *msg = NULL;
		size_t lo = 0, hi = m->nviols;	/* viols are in record order */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (m->viols[mid] < i)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < m->nviols && m->viols[lo] == i && m->viol_msg[lo] >= 0)
			msg = s->violations.v[m->viol_msg[lo]].message;
		char mu[600];
		snprintf(p, n, "BUG (%s): %s",
			 km_violation_name(r->aux < KM_V_KINDS ? (enum km_violation_kind)r->aux
							   : KM_V_LOST_UPDATE),
			 msg ? km_vm_micro(msg, mu, sizeof(mu)) : who);
		break;
	}
	case KM_TR_PREEMPT:
		snprintf(p, n, "%s is preempted", who);
		break;
	case KM_TR_MIGRATE:
		snprintf(p, n, "%s moves to CPU%u", who, r->aux);
		break;
	default:
		snprintf(p, n, "record kind %u", r->kind);
		break;
	}
	return buf;
}
