/*
 * trace_ftrace.c - the trace as ftrace text, for Perfetto's text
 * importer: the ftrace writer of the walk (trace_writer.h).
 *
 * The same run as /sys/kernel/tracing/trace prints it with the
 * tgid option: "TASK-PID (TGID) [CPU] FLAGS TIMESTAMP: event: ...".  A
 * task is pid 1000 + its context id, an interrupt source's lock thread
 * 1000 + contexts + source, lane k of track t pid 1000 + k * tracks + t,
 * idle pid 0; all belong to the scenario's process, tgid 999.  Flags are
 * the four-column form (irqs-off, need-resched, hardirq, preempt-depth),
 * which every version of Perfetto's text importer accepts; timestamps are
 * seconds with nine decimals, the simulator's nanoseconds.  Lock slices
 * are tracing_mark_write B/E marks on the lane's thread, counters are C
 * marks on the scenario process, log() lines and violations are console
 * events.
 */
#include "trace_writer.h"

#define FT_TGID 999			/* the scenario's process in ftrace */

enum { PS_R, PS_RPLUS, PS_D, PS_X };	/* prev_state of a task, for ftrace */

/* ftrace: a name usable as a comm (no blanks, '=' or '|'), 15 bytes. */
static const char *comm(char *buf, size_t len, const char *a, const char *b)
{
	size_t n = 0;
	for (int part = 0; part < 2; part++) {
		const unsigned char *s = (const unsigned char *)(part ? b : a);
		for (; s && *s && n + 1 < len && n < 15; s++)
			buf[n++] = (*s <= ' ' || *s >= 0x7f || *s == '=' || *s == '|') ? '_' :
				   (char)*s;
	}
	buf[n] = 0;
	if (!n && len > 1) {
		buf[0] = '?';
		buf[1] = 0;
	}
	return buf;
}

/* ftrace: a line's text part (marks, console), kept on one line. */
static void ft_text(FILE *out, const char *s, bool no_pipe)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		putc(*p < ' ' || *p == 0x7f ? ' ' : (no_pipe && *p == '|') ? '/' : *p, out);
}

static void ft_stamp(FILE *out, km_time t)
{
	if (t < 0)
		t = 0;
	fprintf(out, "%6" PRId64 ".%09" PRId64, t / 1000000000, t % 1000000000);
}

/* The line head for thread (comm, pid) on @cpu at @t, up to "event: ". */
static void ft_head(struct tx *x, const char *cm, uint64_t pid, bool idle, int cpu,
		    bool sched, km_time t, const char *event)
{
	char flags[5] = "....";
	if (cpu >= 0 && cpu < x->ncpus) {
		const struct cpu_st *c = &x->cpus[cpu];
		if (c->irqoff || c->irq_depth > 0 || sched)
			flags[0] = 'd';
		if (c->irq_depth > 0)
			flags[2] = 'h';
	} else {
		cpu = 0;
	}
	if (sched)
		flags[3] = '2';
	fprintf(x->out, "%*s-%-7" PRIu64 " ", 16, cm, pid);
	if (idle)
		fputs("(-------)", x->out);
	else
		fprintf(x->out, "(%7d)", FT_TGID);
	fprintf(x->out, " [%03d] %s ", cpu, flags);
	ft_stamp(x->out, t);
	fprintf(x->out, ": %s: ", event);
}

/* The task an ftrace line of @cpu is written by (its current task). */
static void ft_head_cpu(struct tx *x, int cpu, bool sched, km_time t, const char *event)
{
	uint32_t task = cpu >= 0 && cpu < x->ncpus ? x->cpus[cpu].ftask : NONE32;
	char cb[24];
	if (task == NONE32)
		ft_head(x, "<idle>", 0, true, cpu, sched, t, event);
	else
		ft_head(x, comm(cb, sizeof(cb), ctx_name(x, task), NULL),
			FT_PID_BASE + (uint64_t)task, false, cpu, sched, t, event);
}

/* The line head written by lane @lane of @track. */
static void ft_head_lane(struct tx *x, uint32_t track, uint32_t lane, int cpu, km_time t,
			 const char *event)
{
	char nb[40], cb[24];
	if (track < x->nctx)
		snprintf(nb, sizeof(nb), "%s", ctx_name(x, track));
	else
		snprintf(nb, sizeof(nb), "irq/%s", src_name(x, track - x->nctx));
	char suffix[16] = "";
	if (lane)
		snprintf(suffix, sizeof(suffix), "[%u]", lane + 1);
	/* keep the lane number when the name is cut to 15 bytes */
	size_t room = 15 - strlen(suffix);
	if (strlen(nb) > room)
		nb[room] = 0;
	comm(cb, sizeof(cb), nb, suffix);
	ft_head(x, cb, lane_tid(x, track, lane), false, cpu, false, t, event);
}

static const char *ps_str(uint8_t s)
{
	switch (s) {
	case PS_RPLUS: return "R+";
	case PS_D: return "D";
	case PS_X: return "X";
	default: return "R";
	}
}

/* ftrace: a B mark on the lane's thread (its E comes at the end). */
static void ft_slice_open(struct tx *x, int kind, int li, uint32_t ctx,
			  const struct km_trace_rec *r, uint32_t track, uint32_t lane, km_time end)
{
	ft_head_lane(x, track, lane, r->cpu, r->time, "tracing_mark_write");
	fprintf(x->out, "B|%d|%s", FT_TGID, kind == SL_WAIT ? "wait " : "hold ");
	ft_text(x->out, lock_name(x, li), true);
	putc('\n', x->out);
}

static void ft_slice_close(struct tx *x, uint32_t track, uint32_t lane, int cpu, km_time t)
{
	ft_head_lane(x, track, lane, cpu, t, "tracing_mark_write");
	fprintf(x->out, "E|%d\n", FT_TGID);
}

static void ft_lock_counters(struct tx *x, int li, const struct km_trace_rec *r, uint32_t held,
			     uint32_t waiting)
{
	uint32_t track = r->ctx < x->nctx ? track_of(x, r->ctx) : 0;
	for (int k = 0; k < 2; k++) {
		ft_head_lane(x, track, 0, r->cpu, r->time, "tracing_mark_write");
		fprintf(x->out, "C|%d|", FT_TGID);
		ft_text(x->out, lock_name(x, li), true);
		fprintf(x->out, " %s|%u\n", k ? "waiters" : "held", k ? waiting : held);
	}
}

static void ft_cpu_change(struct tx *x, int c, km_time t, int state, uint32_t ctx)
{
	struct cpu_st *p = &x->cpus[c];
	uint32_t next = p->ftask;
	if (state == KM_CPU_IDLE)
		next = NONE32;
	else if (ctx < x->nctx && !is_irq(x, ctx))
		next = ctx;
	p->state = state;
	p->ctx = ctx;
	if (ctx < x->nctx && !is_irq(x, ctx))
		x->last_cpu[ctx] = c;
	if (next == p->ftask)
		return;
	char pc[24], nc[24], sw[24];
	uint32_t prev = p->ftask;
	ft_head_cpu(x, c, true, t, "sched_switch");
	snprintf(sw, sizeof(sw), "swapper/%d", c);
	fprintf(x->out, "prev_comm=%s prev_pid=%" PRIu64 " prev_prio=120 prev_state=%s ==> "
		"next_comm=%s next_pid=%" PRIu64 " next_prio=120\n",
		prev == NONE32 ? sw : comm(pc, sizeof(pc), ctx_name(x, prev), NULL),
		prev == NONE32 ? 0 : FT_PID_BASE + (uint64_t)prev,
		prev == NONE32 ? "R" : ps_str(x->pstate[prev]),
		next == NONE32 ? sw : comm(nc, sizeof(nc), ctx_name(x, next), NULL),
		next == NONE32 ? 0 : FT_PID_BASE + (uint64_t)next);
	if (next != NONE32)
		x->pstate[next] = PS_R;
	p->ftask = next;
}

static void ft_header(struct tx *x)
{
	const struct km_run_info *ri = x->ri;
	const struct km_sim *sim = x->sim;
	FILE *o = x->out;
	fputs("# tracer: nop\n#\n", o);
	fprintf(o, "# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64 "   #P:%d\n",
		x->nrecs, sim->trace.count, x->ncpus);
	fputs("#\n# lockmuseum: scenario ", o);
	ft_text(o, ri->scenario ? ri->scenario : "", false);
	fputs(", era ", o);
	ft_text(o, ri->era ? ri->era->id : ri->era_key ? ri->era_key : "", false);
	fprintf(o, ", mode %s, %d CPUs, seed %" PRIu64 ", trace_hash %016" PRIx64 "\n",
		km_mode_name(ri->mode), ri->cpus, ri->seed, sim->trace.hash);
	fprintf(o, "# outcome %s, simulated time %" PRId64 " ns; timestamps are simulated "
		"seconds to the nanosecond\n", km_outcome_name(ri->outcome), sim->now);
	fprintf(o, "# tasks are pid %d + context id, tgid %d is the scenario; lock waits and "
		"holds are B/E marks, holds that do not nest go on threads named task[2], ...\n",
		FT_PID_BASE, FT_TGID);
	if (x->truncated)
		fprintf(o, "# TRUNCATED: the trace keeps only the first %" PRIu64 " of %" PRIu64
			" records; what was still open is closed at %" PRId64 " ns, the last "
			"record's time\n", x->nrecs, sim->trace.count, x->end);
	fputs("#\n"
	      "#                                           _-----=> irqs-off\n"
	      "#                                          / _----=> need-resched\n"
	      "#                                         | / _---=> hardirq/softirq\n"
	      "#                                         || / _--=> preempt-depth\n"
	      "#                                         ||| /     delay\n"
	      "#           TASK-PID       TGID    CPU#  ||||    TIMESTAMP  FUNCTION\n"
	      "#              | |           |       |   ||||       |         |\n", o);
}

/* The header, then the scenario's process, named by its main thread,
 * with its counters at zero. */
static void ft_begin(struct tx *x)
{
	const struct km_run_info *ri = x->ri;
	const struct km_sim *sim = x->sim;
	FILE *out = x->out;
	ft_header(x);
	char *sc = x->ft_comm;
	comm(sc, sizeof(x->ft_comm), ri->scenario && ri->scenario[0] ? ri->scenario : "scenario",
	     NULL);
	for (uint32_t li = 0; li < x->nlocks; li++) {
		if (!x->lock_used[li])
			continue;
		for (int k = 0; k < 2; k++) {
			ft_head(x, sc, FT_TGID, false, 0, false, 0, "tracing_mark_write");
			fprintf(out, "C|%d|", FT_TGID);
			ft_text(out, lock_name(x, (int)li), true);
			fprintf(out, " %s|0\n", k ? "waiters" : "held");
		}
	}
	for (uint32_t k = 0; k < sim->counters.n; k++) {
		ft_head(x, sc, FT_TGID, false, 0, false, 0, "tracing_mark_write");
		fprintf(out, "C|%d|", FT_TGID);
		ft_text(out, counter_name(x, k), true);
		fputs("|0\n", out);
	}
}

/* The CPU a line about @r is written on: its own, else where its context
 * last ran. */
static int ft_cpu(const struct tx *x, const struct km_trace_rec *r)
{
	return r->cpu < x->ncpus ? r->cpu : (r->ctx < x->nctx ? x->last_cpu[r->ctx] : 0);
}

static void ft_rec_cpu(struct tx *x, const struct km_trace_rec *r)
{
	if (r->cpu < x->ncpus)
		ft_cpu_change(x, r->cpu, r->time, (int)r->arg, r->ctx);
}

static void ft_rec_irqoff(struct tx *x, const struct km_trace_rec *r)
{
	if (r->cpu < x->ncpus)
		x->cpus[r->cpu].irqoff = r->arg != 0;
}

static void ft_rec_irq_enter(struct tx *x, const struct km_trace_rec *r)
{
	if (r->cpu >= x->ncpus)
		return;
	x->cpus[r->cpu].irq_depth++;
	ft_head_cpu(x, r->cpu, false, r->time, "irq_handler_entry");
	fprintf(x->out, "irq=%u name=", r->obj + 1);
	char nb[24];
	fputs(comm(nb, sizeof(nb), src_name(x, r->obj), NULL), x->out);
	putc('\n', x->out);
}

static void ft_rec_irq_exit(struct tx *x, const struct km_trace_rec *r)
{
	if (r->cpu >= x->ncpus)
		return;
	ft_head_cpu(x, r->cpu, false, r->time, "irq_handler_exit");
	fprintf(x->out, "irq=%u ret=handled\n", r->obj + 1);
	if (x->cpus[r->cpu].irq_depth > 0)
		x->cpus[r->cpu].irq_depth--;
}

static void ft_rec_block(struct tx *x, const struct km_trace_rec *r)
{
	if (r->ctx < x->nctx)
		x->pstate[r->ctx] = PS_D;
}

static void ft_rec_preempt(struct tx *x, const struct km_trace_rec *r)
{
	if (r->ctx < x->nctx)
		x->pstate[r->ctx] = PS_RPLUS;
}

static void ft_rec_task_exit(struct tx *x, const struct km_trace_rec *r)
{
	if (r->ctx >= x->nctx || is_irq(x, r->ctx))
		return;
	x->pstate[r->ctx] = PS_X;
	char nb[24];
	ft_head_cpu(x, ft_cpu(x, r), false, r->time, "sched_process_exit");
	fprintf(x->out, "comm=%s pid=%" PRIu64 " prio=120\n",
		comm(nb, sizeof(nb), ctx_name(x, r->ctx), NULL), FT_PID_BASE + (uint64_t)r->ctx);
}

static void ft_rec_wake(struct tx *x, const struct km_trace_rec *r)
{
	uint32_t w = r->aux;
	if (w >= x->nctx || is_irq(x, w))
		return;
	int cpu = ft_cpu(x, r);
	int src = r->ctx != KM_TR_NONE ? cpu : -1;
	if (src < 0) {
		int li = lock_index(x, r->obj);
		src = li >= 0 && x->rel_t[li] == r->time ? x->rel_cpu[li] : cpu;
	}
	int target = x->last_cpu[w] >= 0 ? x->last_cpu[w] : (r->cpu < x->ncpus ? r->cpu : 0);
	char nb[24];
	ft_head_cpu(x, src, false, r->time, "sched_waking");
	fprintf(x->out, "comm=%s pid=%" PRIu64 " prio=120 target_cpu=%03d\n",
		comm(nb, sizeof(nb), ctx_name(x, w), NULL), FT_PID_BASE + (uint64_t)w, target);
}

static void ft_rec_counter(struct tx *x, const struct km_trace_rec *r)
{
	uint32_t tr = r->ctx < x->nctx ? track_of(x, r->ctx) : NONE32;
	if (tr != NONE32)
		ft_head_lane(x, tr, 0, ft_cpu(x, r), r->time, "tracing_mark_write");
	else
		ft_head(x, x->ft_comm, FT_TGID, false, ft_cpu(x, r), false, r->time,
			"tracing_mark_write");
	fprintf(x->out, "C|%d|", FT_TGID);
	ft_text(x->out, counter_name(x, r->obj), true);
	fprintf(x->out, "|%" PRId64 "\n", r->arg);
}

static void ft_rec_log(struct tx *x, const struct km_trace_rec *r)
{
	ft_head_cpu(x, ft_cpu(x, r), false, r->time, "console");
	ft_text(x->out, log_msg(x, r), false);
	putc('\n', x->out);
}

static void ft_rec_violation(struct tx *x, const struct km_trace_rec *r)
{
	const char *msg = violation_msg(x, r);
	ft_head_cpu(x, ft_cpu(x, r), false, r->time, "console");
	fprintf(x->out, "lockmuseum: [%s] ", r->aux < KM_V_KINDS ?
		km_violation_name((enum km_violation_kind)r->aux) : "?");
	ft_text(x->out, msg ? msg : ctx_name(x, r->ctx), false);
	putc('\n', x->out);
}

/* Close the slices still open, innermost first, at the end. */
static void ft_end(struct tx *x)
{
	for (uint32_t t = 0; t < x->ntracks && !x->oom; t++) {
		for (uint32_t k = 0; k < x->tracks[t].n; k++) {
			struct lane *L = &x->tracks[t].lanes[k];
			for (; L->n; L->n--) {
				ft_head_lane(x, t, k, t < x->nctx && x->last_cpu[t] >= 0 ?
					     x->last_cpu[t] : 0, x->end, "tracing_mark_write");
				fprintf(x->out, "E|%d\n", FT_TGID);
			}
		}
	}
}

/* ftrace, kind by kind; the lock's own records are the walk's. */
static const struct writer ftrace = {
	.begin = ft_begin,
	.on = {
		[KM_TR_CPU] = ft_rec_cpu,
		[KM_TR_IRQOFF] = ft_rec_irqoff,
		[KM_TR_IRQ_ENTER] = ft_rec_irq_enter,
		[KM_TR_IRQ_EXIT] = ft_rec_irq_exit,
		[KM_TR_BLOCK] = ft_rec_block,
		[KM_TR_PREEMPT] = ft_rec_preempt,
		[KM_TR_TASK_EXIT] = ft_rec_task_exit,
		[KM_TR_WAKE] = ft_rec_wake,
		[KM_TR_COUNTER] = ft_rec_counter,
		[KM_TR_LOG] = ft_rec_log,
		[KM_TR_VIOLATION] = ft_rec_violation,
	},
	.slice_open = ft_slice_open,
	.slice_close = ft_slice_close,
	.lock_counters = ft_lock_counters,
	.end = ft_end,
};

int km_trace_write_ftrace(const struct km_run_info *ri, struct km_trace_spool *spool, FILE *out,
			  char *err, size_t errlen)
{
	struct tx tx;
	return km_trace_export_run(&tx, &ftrace, ri, spool, out, err, errlen);
}
