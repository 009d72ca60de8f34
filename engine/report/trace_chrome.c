/*
 * trace_chrome.c - the trace as Chrome trace-event JSON, for Perfetto and
 * chrome://tracing: the Chrome writer of the walk (trace_writer.h).
 *
 * Lock slices go on each task's lanes as trace_export.c lays them out,
 * as X events (their end is known when they begin), with a counter per
 * lock (held, waiters).
 *
 * CPU tracks (Chrome).  Process "CPUs" (pid 1) has thread N + 1 for CPU
 * N (named "CPUN", sorted by N; tid 0 is avoided, Perfetto reserves it
 * for the swapper) with an X slice per stretch of one state: the task's
 * name, "spinning", "irq: <source>", "switch"; idle has no slice.
 * Interrupts-off stretches are X slices on thread 10000 + N ("CPUN irqs
 * off"), apart so that they never cross the run slices.  Interrupt
 * entries are instants on the CPU thread.
 *
 * Times are microseconds with three decimals (exact nanoseconds), as the
 * format says; "displayTimeUnit": "ns" only asks viewers to show
 * nanoseconds.  It is written after traceEvents: some past Perfetto
 * releases read it as the unit of ts when it came first.
 *
 * Wake-ups (Chrome).  Each KM_TR_WAKE becomes a flow from the slice the
 * waker was running on its CPU to the first slice in which the wakee then
 * runs (or spins).  A lock hand-off names no waker: it is the context
 * whose release of the same lock came at the same instant.  The flow's
 * ends are put strictly inside those two slices (Perfetto binds "s" and
 * an "f" with "bp":"e" to the slice enclosing them), and both are written
 * when both are known; a wake-up whose wakee never runs again is left out.
 */
#include "trace_writer.h"

#define CH_PID_CPUS 1
#define CH_PID_SCEN 2
#define CH_IRQOFF_TID 10000
/* CPU N is thread N + 1 of "CPUs": Perfetto takes tid 0 for the swapper,
 * and some of its versions merge a JSON thread 0 into thread 1. */
#define CH_CPU_TID(c) ((int)(c) + 1)

/* A JSON string, escaped; invalid UTF-8 becomes U+FFFD. */
static void jstr2(FILE *out, const char *a, const char *b)
{
	putc('"', out);
	for (int part = 0; part < 2; part++) {
		const unsigned char *s = (const unsigned char *)(part ? b : a);
		if (!s)
			continue;
		while (*s) {
			unsigned c = *s;
			if (c == '"' || c == '\\') {
				putc('\\', out);
				putc((int)c, out);
				s++;
			} else if (c < 0x20) {
				switch (c) {
				case '\n': fputs("\\n", out); break;
				case '\t': fputs("\\t", out); break;
				case '\r': fputs("\\r", out); break;
				default: fprintf(out, "\\u%04x", c); break;
				}
				s++;
			} else if (c < 0x80) {
				putc((int)c, out);
				s++;
			} else {
				int len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 :
					  c >= 0xc2 && c < 0xe0 ? 2 : 0;
				int ok = len > 0;
				for (int i = 1; ok && i < len; i++)
					ok = (s[i] & 0xc0) == 0x80;
				if (ok && len == 3 && ((c == 0xe0 && s[1] < 0xa0) ||
						       (c == 0xed && s[1] >= 0xa0)))
					ok = 0;
				if (ok && len == 4 && ((c == 0xf0 && s[1] < 0x90) ||
						       (c == 0xf4 && s[1] >= 0x90)))
					ok = 0;
				if (ok) {
					fwrite(s, 1, (size_t)len, out);
					s += len;
				} else {
					fputs("\\ufffd", out);
					s++;
				}
			}
		}
	}
	putc('"', out);
}

static void jstr(FILE *out, const char *s)
{
	jstr2(out, s, NULL);
}

/* Microseconds with three decimals: exact nanoseconds. */
static void jts(FILE *out, km_time ns)
{
	if (ns < 0) {
		putc('-', out);
		ns = -ns;
	}
	fprintf(out, "%" PRId64 ".%03d", ns / 1000, (int)(ns % 1000));
}

static void ev_sep(struct tx *x)
{
	fputs(x->nev++ ? ",\n" : "\n", x->out);
}

static void ch_meta(struct tx *x, const char *what, int pid, uint64_t tid, bool thread,
		    const char *name, const char *name2, long sort)
{
	ev_sep(x);
	fprintf(x->out, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d", what, pid);
	if (thread)
		fprintf(x->out, ",\"tid\":%" PRIu64, tid);
	if (name) {
		fputs(",\"args\":{\"name\":", x->out);
		jstr2(x->out, name, name2);
		fputs("}}", x->out);
	} else {
		fprintf(x->out, ",\"args\":{\"sort_index\":%ld}}", sort);
	}
}

/* Chrome: name lane @k of @track the first time it is used. */
static void lane_name(struct tx *x, uint32_t track, uint32_t k)
{
	struct lane *L = lane_get(x, track, k);
	if (!L || L->named)
		return;
	L->named = true;
	char nb[16] = "";
	if (k)
		snprintf(nb, sizeof(nb), "[%u]", k + 1);
	uint64_t tid = lane_tid(x, track, k);
	if (track < x->nctx)
		ch_meta(x, "thread_name", CH_PID_SCEN, tid, true, ctx_name(x, track), nb, 0);
	else {
		char ib[300];
		snprintf(ib, sizeof(ib), "irq %s", src_name(x, track - x->nctx));
		ch_meta(x, "thread_name", CH_PID_SCEN, tid, true, ib, nb, 0);
	}
	ch_meta(x, "thread_sort_index", CH_PID_SCEN, tid, true, NULL, NULL,
		(long)(1000 + (uint64_t)track * 16 + (k < 15 ? k : 15)));
}

/* Chrome: an X slice on the lane's thread, its end known. */
static void ch_slice_open(struct tx *x, int kind, int li, uint32_t ctx,
			  const struct km_trace_rec *r, uint32_t track, uint32_t lane, km_time end)
{
	lane_name(x, track, lane);
	ev_sep(x);
	fputs("{\"ph\":\"X\",\"name\":", x->out);
	jstr2(x->out, kind == SL_WAIT ? "wait " : "hold ", lock_name(x, li));
	fprintf(x->out, ",\"cat\":\"lock\",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":",
		CH_PID_SCEN, lane_tid(x, track, lane));
	jts(x->out, r->time);
	fputs(",\"dur\":", x->out);
	jts(x->out, end - r->time);
	fputs(",\"args\":{\"lock\":", x->out);
	jstr(x->out, lock_name(x, li));
	fputs(",\"by\":", x->out);
	jstr(x->out, ctx_name(x, ctx));
	if (kind == SL_HOLD && r->arg > 0)
		fprintf(x->out, ",\"waited_ns\":%" PRId64, r->arg);
	fputs("}}", x->out);
}

static void ch_lock_counters(struct tx *x, int li, const struct km_trace_rec *r, uint32_t held,
			     uint32_t waiting)
{
	ev_sep(x);
	fputs("{\"ph\":\"C\",\"name\":", x->out);
	jstr2(x->out, "lock ", lock_name(x, li));
	fprintf(x->out, ",\"pid\":%d,\"ts\":", CH_PID_SCEN);
	jts(x->out, r->time);
	fprintf(x->out, ",\"args\":{\"held\":%u,\"waiters\":%u}}", held, waiting);
}

static void flow_unlink(struct tx *x, int32_t *head, int32_t f)
{
	for (int32_t *p = head; *p >= 0; p = &x->flows[*p].next) {
		if (*p == f) {
			*p = x->flows[f].next;
			x->flows[f].next = -1;
			return;
		}
	}
}

static void flow_free(struct tx *x, int32_t f)
{
	struct flow *F = &x->flows[f];
	if (F->wakee < x->nctx && x->flow_of[F->wakee] == f)
		x->flow_of[F->wakee] = -1;
	F->next = x->free_flow;
	x->free_flow = f;
}

/* Drop a flow wherever it is anchored. */
static void flow_drop(struct tx *x, int32_t f)
{
	struct flow *F = &x->flows[f];
	if (!F->s_done && F->src_cpu >= 0)
		flow_unlink(x, &x->cpus[F->src_cpu].src_head, f);
	if (!F->f_done && F->dst_bound && F->dst_cpu >= 0)
		flow_unlink(x, &x->cpus[F->dst_cpu].dst_head, f);
	flow_free(x, f);
}

static void flow_try_write(struct tx *x, int32_t f)
{
	struct flow *F = &x->flows[f];
	if (!F->s_done || !F->f_done)
		return;
	for (int k = 0; k < 2; k++) {
		ev_sep(x);
		fprintf(x->out, "{\"ph\":\"%s\",\"id\":%" PRIu64 ",\"name\":\"wakeup\","
			"\"cat\":\"wakeup\",\"pid\":%d,\"tid\":%d,\"ts\":", k ? "f" : "s", F->id,
			CH_PID_CPUS, CH_CPU_TID(k ? F->dst_cpu : F->src_cpu));
		jts(x->out, k ? F->f_ts : F->s_ts);
		fputs(k ? ",\"bp\":\"e\"}" : "}", x->out);
	}
	flow_free(x, f);
}

/* A point strictly inside [a, b] when there is one, near @t. */
static km_time inside(km_time t, km_time a, km_time b)
{
	if (b - a < 2)
		return a;
	if (t <= a)
		return a + 1;
	if (t >= b)
		return b - 1;
	return t;
}

static void flow_new(struct tx *x, const struct km_trace_rec *r)
{
	uint32_t wakee = r->aux;
	if (wakee >= x->nctx)
		return;
	int src = -1;
	if (r->ctx != KM_TR_NONE) {
		src = r->cpu;
	} else {
		int li = lock_index(x, r->obj);
		if (li >= 0 && x->rel_t[li] == r->time)
			src = x->rel_cpu[li];
	}
	if (src < 0 || src >= x->ncpus || x->cpus[src].state == KM_CPU_IDLE)
		return;
	if (x->flow_of[wakee] >= 0)
		flow_drop(x, x->flow_of[wakee]);
	int32_t f = x->free_flow;
	if (f >= 0) {
		x->free_flow = x->flows[f].next;
	} else {
		struct flow *n = grow(x->flows, &x->capflows, x->nflows + 1, sizeof(*n), &x->oom);
		if (!n)
			return;
		x->flows = n;
		f = (int32_t)x->nflows++;
	}
	struct flow *F = &x->flows[f];
	*F = (struct flow){ .id = ++x->next_flow_id, .wakee = wakee, .src_cpu = src,
			    .dst_cpu = -1, .src_t = r->time,
			    .next = x->cpus[src].src_head };
	x->cpus[src].src_head = f;
	x->flow_of[wakee] = f;
}

static void ch_cpu_slice(struct tx *x, int c, const struct cpu_st *p, km_time t)
{
	ev_sep(x);
	fputs("{\"ph\":\"X\",\"name\":", x->out);
	const char *cname = NULL;
	switch (p->state) {
	case KM_CPU_BUSY:
		jstr(x->out, ctx_name(x, p->ctx));
		break;
	case KM_CPU_SPIN:
		jstr(x->out, "spinning");
		cname = "terrible";
		break;
	case KM_CPU_IRQ:
		jstr2(x->out, "irq: ", ctx_name(x, p->ctx));
		cname = "yellow";
		break;
	case KM_CPU_SWITCH:
		jstr(x->out, "switch");
		cname = "grey";
		break;
	default:
		jstr(x->out, km_cpu_state_name((enum km_cpu_state)p->state));
		break;
	}
	fprintf(x->out, ",\"cat\":\"cpu\",\"pid\":%d,\"tid\":%d,\"ts\":", CH_PID_CPUS,
		CH_CPU_TID(c));
	jts(x->out, p->since);
	fputs(",\"dur\":", x->out);
	jts(x->out, t - p->since);
	if (cname)
		fprintf(x->out, ",\"cname\":\"%s\"", cname);
	fputs(",\"args\":{\"state\":", x->out);
	jstr(x->out, km_cpu_state_name((enum km_cpu_state)p->state));
	fputs(p->state == KM_CPU_SWITCH ? ",\"to\":" : ",\"ctx\":", x->out);
	jstr(x->out, ctx_name(x, p->ctx));
	fputs("}}", x->out);
}

/* Chrome: CPU @c changes to (@state, @ctx) at @t. */
static void ch_cpu_change(struct tx *x, int c, km_time t, int state, uint32_t ctx)
{
	struct cpu_st *p = &x->cpus[c];
	int32_t carry = -1;
	if (p->state != KM_CPU_IDLE) {
		if (t > p->since) {
			ch_cpu_slice(x, c, p, t);
			for (int32_t f = p->src_head, n; f >= 0; f = n) {
				n = x->flows[f].next;
				x->flows[f].next = -1;
				x->flows[f].s_ts = inside(x->flows[f].src_t, p->since, t);
				x->flows[f].s_done = true;
				flow_try_write(x, f);
			}
			for (int32_t f = p->dst_head, n; f >= 0; f = n) {
				n = x->flows[f].next;
				x->flows[f].next = -1;
				x->flows[f].f_ts = inside(p->since + 1, p->since, t);
				x->flows[f].f_done = true;
				flow_try_write(x, f);
			}
			p->has_last = true;
			p->last_start = p->since;
			p->last_end = t;
		} else {
			/* an empty slice: the waker's end moves on, the wakee's
			 * waits for its next real one */
			carry = p->src_head;
			for (int32_t f = p->dst_head, n; f >= 0; f = n) {
				n = x->flows[f].next;
				x->flows[f].next = -1;
				x->flows[f].dst_bound = false;
				x->flows[f].dst_cpu = -1;
			}
		}
		p->src_head = p->dst_head = -1;
	}
	p->state = state;
	p->ctx = ctx;
	p->since = t;
	if (state != KM_CPU_IDLE) {
		p->src_head = carry;
		if ((state == KM_CPU_BUSY || state == KM_CPU_SPIN) && ctx < x->nctx &&
		    x->flow_of[ctx] >= 0) {
			int32_t f = x->flow_of[ctx];
			struct flow *F = &x->flows[f];
			if (!F->dst_bound && !F->f_done) {
				F->dst_bound = true;
				F->dst_cpu = c;
				F->next = p->dst_head;
				p->dst_head = f;
			}
		}
	} else {
		for (int32_t f = carry, n; f >= 0; f = n) {
			n = x->flows[f].next;
			x->flows[f].next = -1;
			if (p->has_last && p->last_end == t) {
				x->flows[f].s_ts = inside(x->flows[f].src_t, p->last_start, t);
				x->flows[f].s_done = true;
				flow_try_write(x, f);
			} else {
				x->flows[f].src_cpu = -1;
				flow_drop(x, f);
			}
		}
	}
}

static void ch_irqoff(struct tx *x, int c, km_time t, bool off)
{
	struct cpu_st *p = &x->cpus[c];
	if (off == p->irqoff)
		return;
	if (off) {
		p->irqoff = true;
		p->irqoff_since = t;
		return;
	}
	p->irqoff = false;
	if (t <= p->irqoff_since)
		return;
	uint64_t tid = CH_IRQOFF_TID + (uint64_t)c;
	ev_sep(x);
	fprintf(x->out, "{\"ph\":\"X\",\"name\":\"irqs off\",\"cat\":\"irqoff\",\"pid\":%d,"
		"\"tid\":%" PRIu64 ",\"ts\":", CH_PID_CPUS, tid);
	jts(x->out, p->irqoff_since);
	fputs(",\"dur\":", x->out);
	jts(x->out, t - p->irqoff_since);
	fputs(",\"cname\":\"bad\"}", x->out);
}

static void ch_instant(struct tx *x, const char *name, const char *name2, int pid,
		       uint64_t tid, char scope, km_time t)
{
	ev_sep(x);
	fputs("{\"ph\":\"i\",\"name\":", x->out);
	jstr2(x->out, name, name2);
	fprintf(x->out, ",\"pid\":%d", pid);
	if (scope == 't')
		fprintf(x->out, ",\"tid\":%" PRIu64, tid);
	fprintf(x->out, ",\"s\":\"%c\",\"ts\":", scope);
	jts(x->out, t);
}

static void ch_other_data(struct tx *x)
{
	const struct km_run_info *ri = x->ri;
	const struct km_sim *sim = x->sim;
	FILE *o = x->out;
	fputs("\"otherData\":{\"scenario\":", o);
	jstr(o, ri->scenario ? ri->scenario : "");
	fputs(",\"title\":", o);
	jstr(o, ri->title ? ri->title : "");
	fputs(",\"era\":", o);
	jstr(o, ri->era ? ri->era->id : ri->era_key ? ri->era_key : "");
	fputs(",\"era_version\":", o);
	jstr(o, ri->era ? ri->era->version : "");
	fputs(",\"mode\":", o);
	jstr(o, km_mode_name(ri->mode));
	fprintf(o, ",\"cpus\":%d,\"seed\":%" PRIu64 ",\"trace_hash\":\"%016" PRIx64 "\"",
		ri->cpus, ri->seed, sim->trace.hash);
	fputs(",\"outcome\":", o);
	jstr(o, km_outcome_name(ri->outcome));
	fprintf(o, ",\"sim_time_ns\":%" PRId64 ",\"end_ns\":%" PRId64 ",\"records\":%" PRIu64
		",\"records_emitted\":%" PRIu64 ",\"truncated\":%s", sim->now, x->end, x->nrecs,
		sim->trace.count, x->truncated ? "true" : "false");
	if (x->truncated)
		fprintf(o, ",\"truncated_note\":\"the trace keeps only the first %" PRIu64 " of %" PRIu64
			" records; what was still open is closed at the last record's time\"",
			x->nrecs, sim->trace.count);
	fputs(",\"layout\":\"pid 1 CPUs: thread N+1 = CPU N (what runs), thread 10000+N = "
	      "CPU N with interrupts off; pid 2 scenario: one thread per task (1000 + context "
	      "id) and per interrupt source with lock wait/hold slices, holds that do not "
	      "nest on extra threads named task[2], task[3]; wakeup flows from the waker's "
	      "CPU slice to the wakee's\"}", o);
}

/* The file's head, its processes and threads named, counters at zero. */
static void ch_begin(struct tx *x)
{
	const struct km_run_info *ri = x->ri;
	const struct km_sim *sim = x->sim;
	FILE *out = x->out;
	fputs("{\"traceEvents\":[", out);

	/* names */
	ch_meta(x, "process_name", CH_PID_CPUS, 0, false, "CPUs", NULL, 0);
	ch_meta(x, "process_sort_index", CH_PID_CPUS, 0, false, NULL, NULL, 1);
	ch_meta(x, "process_name", CH_PID_SCEN, 0, false,
		ri->scenario && ri->scenario[0] ? ri->scenario : "scenario", NULL, 0);
	ch_meta(x, "process_sort_index", CH_PID_SCEN, 0, false, NULL, NULL, 2);
	for (int c = 0; c < x->ncpus; c++) {
		char nb[32];
		snprintf(nb, sizeof(nb), "CPU%d", c);
		ch_meta(x, "thread_name", CH_PID_CPUS, (uint64_t)CH_CPU_TID(c), true, nb, NULL, 0);
		ch_meta(x, "thread_sort_index", CH_PID_CPUS, (uint64_t)CH_CPU_TID(c), true, NULL,
			NULL, 2L * c);
		if (x->irqoff_used[c]) {
			snprintf(nb, sizeof(nb), "CPU%d irqs off", c);
			ch_meta(x, "thread_name", CH_PID_CPUS, CH_IRQOFF_TID + (uint64_t)c, true,
				nb, NULL, 0);
			ch_meta(x, "thread_sort_index", CH_PID_CPUS, CH_IRQOFF_TID + (uint64_t)c,
				true, NULL, NULL, 2L * c + 1);
		}
	}
	/* counters start at zero */
	for (uint32_t li = 0; li < x->nlocks; li++) {
		if (!x->lock_used[li])
			continue;
		ev_sep(x);
		fputs("{\"ph\":\"C\",\"name\":", out);
		jstr2(out, "lock ", lock_name(x, (int)li));
		fprintf(out, ",\"pid\":%d,\"ts\":0.000,\"args\":{\"held\":0,\"waiters\":0}}",
			CH_PID_SCEN);
	}
	for (uint32_t k = 0; k < sim->counters.n; k++) {
		ev_sep(x);
		fputs("{\"ph\":\"C\",\"name\":", out);
		jstr(out, counter_name(x, k));
		fprintf(out, ",\"pid\":%d,\"ts\":0.000,\"args\":{\"value\":0}}", CH_PID_SCEN);
	}
}

static void ch_rec_cpu(struct tx *x, const struct km_trace_rec *r)
{
	if (r->cpu < x->ncpus)
		ch_cpu_change(x, r->cpu, r->time, (int)r->arg, r->ctx);
}

static void ch_rec_irqoff(struct tx *x, const struct km_trace_rec *r)
{
	if (r->cpu < x->ncpus)
		ch_irqoff(x, r->cpu, r->time, r->arg != 0);
}

static void ch_rec_irq_enter(struct tx *x, const struct km_trace_rec *r)
{
	if (r->cpu >= x->ncpus)
		return;
	ch_instant(x, "irq ", src_name(x, r->obj), CH_PID_CPUS, (uint64_t)CH_CPU_TID(r->cpu),
		   't', r->time);
	fputs(",\"args\":{\"irq\":", x->out);
	jstr(x->out, src_name(x, r->obj));
	fputs("}}", x->out);
}

static void ch_rec_counter(struct tx *x, const struct km_trace_rec *r)
{
	ev_sep(x);
	fputs("{\"ph\":\"C\",\"name\":", x->out);
	jstr(x->out, counter_name(x, r->obj));
	fprintf(x->out, ",\"pid\":%d,\"ts\":", CH_PID_SCEN);
	jts(x->out, r->time);
	fprintf(x->out, ",\"args\":{\"value\":%" PRId64 "}}", r->arg);
}

static void ch_rec_log(struct tx *x, const struct km_trace_rec *r)
{
	if (r->ctx < x->nctx) {
		uint32_t tr = track_of(x, r->ctx);
		lane_name(x, tr, 0);
		ch_instant(x, log_msg(x, r), NULL, CH_PID_SCEN, lane_tid(x, tr, 0), 't', r->time);
	} else {
		ch_instant(x, log_msg(x, r), NULL, CH_PID_SCEN, 0, 'p', r->time);
	}
	fputs(",\"cat\":\"log\",\"args\":{\"by\":", x->out);
	jstr(x->out, ctx_name(x, r->ctx));
	fputs("}}", x->out);
}

static void ch_rec_violation(struct tx *x, const struct km_trace_rec *r)
{
	const char *msg = violation_msg(x, r);
	const char *kind = r->aux < KM_V_KINDS ?
			   km_violation_name((enum km_violation_kind)r->aux) : "?";
	ch_instant(x, "violation: ", kind, CH_PID_SCEN, 0, 'p', r->time);
	fputs(",\"cat\":\"violation\",\"args\":{\"kind\":", x->out);
	jstr(x->out, kind);
	fputs(",\"by\":", x->out);
	jstr(x->out, ctx_name(x, r->ctx));
	if (msg) {
		fputs(",\"message\":", x->out);
		jstr(x->out, msg);
	}
	fputs("}}", x->out);
}

/* What is still open ends with the trace; then the file's tail. */
static void ch_end(struct tx *x)
{
	for (int c = 0; c < x->ncpus && !x->oom; c++) {
		ch_cpu_change(x, c, x->end, KM_CPU_IDLE, NONE32);
		ch_irqoff(x, c, x->end, false);
	}
	fputs("\n],\"displayTimeUnit\":\"ns\",", x->out);
	ch_other_data(x);
	fputs("}\n", x->out);
}

/* Chrome, kind by kind; the lock's own records are the walk's. */
static const struct writer chrome = {
	.begin = ch_begin,
	.on = {
		[KM_TR_CPU] = ch_rec_cpu,
		[KM_TR_IRQOFF] = ch_rec_irqoff,
		[KM_TR_IRQ_ENTER] = ch_rec_irq_enter,
		[KM_TR_WAKE] = flow_new,
		[KM_TR_COUNTER] = ch_rec_counter,
		[KM_TR_LOG] = ch_rec_log,
		[KM_TR_VIOLATION] = ch_rec_violation,
	},
	.slice_open = ch_slice_open,
	.lock_counters = ch_lock_counters,
	.end = ch_end,
};

int km_trace_write_chrome(const struct km_run_info *ri, struct km_trace_spool *spool, FILE *out,
			  char *err, size_t errlen)
{
	struct tx tx;
	return km_trace_export_run(&tx, &chrome, ri, spool, out, err, errlen);
}
