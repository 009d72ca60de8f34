/*
 * trace_export.c - the stored trace as Chrome trace-event JSON and as
 * ftrace text.  See trace_export.h.
 *
 * The two formats share one skeleton, export(): set-up, pass 1, the
 * writer's head, one walk over the records, the writer's tail, the check
 * that it all reached the file.  The walk pairs a lock's own records into
 * wait and hold slices itself and hands every other record to the
 * writer's table, keyed on the record's kind (struct writer); the kinds
 * and what their fields mean are the core's (trace_kinds.h).
 *
 * Both writers walk the records twice and write as they go; neither
 * keeps more than a few words per context, lock and CPU, and one end time
 * per lock slice.  The records are the run's stored array, or a spool
 * (trace_spool.h) read a block at a time; with a spool the end times go
 * to its scratch file, written in pass 1 through a window of the newest
 * ENDS_WINDOW (most slices end soon after they begin; one that ends later
 * is patched in place with pwrite) and read back in order in pass 2, so
 * that memory stays flat in the run's length.  The two sources give the
 * same bytes.
 *
 * Pass 1 pairs every lock wait and hold with the record that ends it and
 * remembers only its end time, by ordinal.  Pass 2 walks again, pairs
 * the same way (so the ordinals agree), and writes.  Knowing each slice's
 * end when it begins is what lets both formats nest strictly:
 *
 * Lock slices and their tracks.  A task's waits and holds go on that
 * task's thread ("wait <lock>" from KM_TR_CONTEND to the acquisition or
 * the give-up, "hold <lock>" from KM_TR_ACQUIRE to its KM_TR_RELEASE).
 * Holds need not nest: A taken, B taken, A released leaves B open past
 * A.  Viewers draw a thread's slices as one stack, and Perfetto drops or
 * misplaces a slice that overlaps its parent without ending inside it.
 * So each task has lanes: lane 0 is its own thread; a slice goes on the
 * lowest lane whose innermost open slice ends no earlier than it does
 * (or that has nothing open), and a hold that would cross its parent
 * goes on a further lane, a thread of its own named "task[2]", "task[3]"
 * in the same process, next to the task.  Every lane therefore nests
 * strictly.  Async events (b/e with ids) would avoid lanes, but Perfetto
 * puts async slices on process-level tracks away from the task's thread,
 * keyed by name, and ftrace's B/E marks have no ids at all; lanes work the
 * same way in both formats, so the two files show the same picture.
 * Interrupt handlers' lock slices go on a thread per interrupt source
 * ("irq <name>"), because irq contexts are recycled across sources.
 *
 * A semaphore may be released by a context that did not take it (an
 * interrupt's up()); like the core, the release then closes the oldest
 * open hold of that lock.  Otherwise it closes the releaser's newest hold
 * of it (recursive BKL acquisitions nest).  A release with no hold (held
 * = -1) closes nothing.  Zero-length slices are left out; the counters
 * still show the change.
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
 *
 * ftrace.  The same run as /sys/kernel/tracing/trace prints it with the
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
#include "trace_export.h"

#include <errno.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace_spool.h"
#include "../trace_kinds.h"

#define NONE32 UINT32_MAX
#define READ_BLOCK 2048			/* records read from a spool at a time: 64 KiB */
#define ENDS_WINDOW 65536		/* slice ends in memory when spooled: 512 KiB */
#define FT_TGID 999			/* the scenario's process in ftrace */
#define FT_PID_BASE 1000
#define CH_PID_CPUS 1
#define CH_PID_SCEN 2
#define CH_IRQOFF_TID 10000
/* CPU N is thread N + 1 of "CPUs": Perfetto takes tid 0 for the swapper,
 * and some of its versions merge a JSON thread 0 into thread 1. */
#define CH_CPU_TID(c) ((int)(c) + 1)

enum { SL_WAIT, SL_HOLD };
enum { PS_R, PS_RPLUS, PS_D, PS_X };	/* prev_state of a task, for ftrace */

/* One lane of a track: the end times of its open slices, innermost last. */
struct lane {
	km_time *st;
	uint32_t n, cap;
	bool named;
};

struct track {
	struct lane *lanes;
	uint32_t n;
};

/* An open hold: who, which incarnation (irq contexts are recycled). */
struct ohold {
	uint32_t ctx, gen, track;
	uint64_t ord;
	int32_t lane;			/* -1: not drawn (zero length) */
};

struct holdvec {
	struct ohold *v;
	uint32_t n, cap;
};

struct owait {
	uint32_t li, track;		/* li NONE32: not waiting */
	uint64_t ord;
	int32_t lane;
};

/* A wake-up arrow on its way to being written (Chrome). */
struct flow {
	uint64_t id;
	uint32_t wakee;
	int src_cpu, dst_cpu;
	km_time src_t, s_ts, f_ts;
	bool s_done, f_done, dst_bound;
	int32_t next;			/* in a CPU's list */
};

struct cpu_st {
	int state;
	uint32_t ctx;
	km_time since;
	bool irqoff;
	km_time irqoff_since;
	bool has_last;
	km_time last_start, last_end;	/* the last slice written */
	int32_t src_head, dst_head;	/* flows anchored on the open slice */
	uint32_t ftask;			/* ftrace: the task on it, NONE32 idle */
	int irq_depth;
};

struct tx;
typedef void (*rec_fn)(struct tx *x, const struct km_trace_rec *r);

/*
 * A format: what it writes before the records, for a record of each kind
 * (on[kind], NULL: nothing), for the lock slices and counters the pairing
 * finds, and after the records.  The walk around them is the same for
 * both (export()).
 */
struct writer {
	void (*begin)(struct tx *x);
	rec_fn on[KM_TR_KIND_MAX];
	/* a wait or hold slice, on @lane of @track, until @end */
	void (*slice_open)(struct tx *x, int kind, int li, uint32_t ctx,
			   const struct km_trace_rec *r, uint32_t track, uint32_t lane, km_time end);
	void (*slice_close)(struct tx *x, uint32_t track, uint32_t lane, int cpu, km_time t);
	void (*lock_counters)(struct tx *x, int li, const struct km_trace_rec *r, uint32_t held,
			      uint32_t waiting);
	void (*end)(struct tx *x);
};

struct tx {
	const struct writer *w;
	int pass;
	const struct km_run_info *ri;
	const struct km_sim *sim;
	FILE *out;
	const struct km_trace_rec *recs;	/* the stored array, or NULL: */
	struct km_trace_spool *spool;		/* the records on disk */
	uint64_t nrecs;
	bool truncated;
	struct km_trace_rec *rbuf;		/* a block of the spool */
	uint64_t rfirst;
	size_t rlen;
	int ioerr;				/* errno of a scratch read or write */
	km_time end;
	uint32_t nctx, nsrc, nlocks, ntracks;
	int ncpus;
	bool oom;
	bool stop;			/* the user asked to stop (km_trace_export_cancel) */

	/* pairing */
	struct holdvec *holds;		/* per lock */
	uint32_t *waiters;		/* per lock */
	bool *lock_used;
	bool *irqoff_used;		/* per CPU */
	struct owait *wait;		/* per context */
	uint32_t *gen, *irq_src;	/* per context */
	km_time *ends;			/* ends[ord - ends_base] */
	uint64_t nends, ends_base;
	size_t capends, ends_len;	/* ends_len: pass 2's window, spooled */
	uint64_t next_ord;

	/* pass 2 */
	struct track *tracks;
	struct cpu_st *cpus;
	uint32_t *c_held, *c_wait;	/* last counter values written */
	km_time *rel_t;			/* per lock: last release/give-up */
	int *rel_cpu;
	struct flow *flows;
	uint32_t nflows, capflows;
	int32_t free_flow;
	int32_t *flow_of;		/* per context */
	uint64_t next_flow_id;
	uint8_t *pstate;		/* per context (ftrace) */
	int *last_cpu;			/* per context */
	uint64_t nev;			/* Chrome events written */
	char ft_comm[24];		/* ftrace: the scenario's process's comm */
	int32_t kept[KM_V_KINDS][KM_VIOLATIONS_KEPT];
	uint32_t nkept[KM_V_KINDS], vseen[KM_V_KINDS];
};

/* ------------------------------------------------------------- helpers -- */

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int lock_index(const struct tx *x, uint32_t id)
{
	if (id < x->sim->locks.n)
		return (int)id;
	if (id == KM_BKL_ID)
		return (int)x->sim->locks.n;
	if (id == KM_GIL_ID)
		return (int)x->sim->locks.n + 1;
	return -1;
}

static const char *lock_name(const struct tx *x, int li)
{
	const struct km_sim *sim = x->sim;
	const struct km_lock *l = li < (int)sim->locks.n ? sim->locks.v[li] :
				  li == (int)sim->locks.n ? sim->bkl : sim->gil;
	return l && l->name ? l->name : "?";
}

static const char *src_name(const struct tx *x, uint32_t src)
{
	if (src < x->nsrc && x->sim->irqsrcs.v[src]->name)
		return x->sim->irqsrcs.v[src]->name;
	return "?";
}

static bool is_irq(const struct tx *x, uint32_t ctx)
{
	return ctx < x->nctx && x->sim->ctxs.v[ctx]->kind == KM_CTX_IRQ;
}

/* What to call a context now: a task's name, an interrupt's source. */
static const char *ctx_name(const struct tx *x, uint32_t ctx)
{
	if (ctx >= x->nctx)
		return "-";
	if (is_irq(x, ctx) && x->irq_src[ctx] != NONE32)
		return src_name(x, x->irq_src[ctx]);
	const char *n = x->sim->ctxs.v[ctx]->name;
	return n ? n : "?";
}

/* The track of a context's lock slices: its own, or its irq source's. */
static uint32_t track_of(const struct tx *x, uint32_t ctx)
{
	if (is_irq(x, ctx) && x->irq_src[ctx] != NONE32 && x->irq_src[ctx] < x->nsrc)
		return x->nctx + x->irq_src[ctx];
	return ctx;
}

static uint64_t lane_tid(const struct tx *x, uint32_t track, uint32_t lane)
{
	return FT_PID_BASE + (uint64_t)lane * x->ntracks + track;
}

static void *grow(void *v, uint32_t *cap, uint32_t need, size_t el, bool *oom)
{
	if (need <= *cap)
		return v;
	uint32_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *n = realloc(v, (size_t)ncap * el);
	if (!n) {
		*oom = true;
		return NULL;
	}
	*cap = ncap;
	return n;
}

/* ------------------------------------------------------------- writing -- */

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

/* ---------------------------------------------------------------- lanes -- */

static struct lane *lane_get(struct tx *x, uint32_t track, uint32_t k)
{
	struct track *T = &x->tracks[track];
	if (k >= T->n) {
		struct lane *n = realloc(T->lanes, (size_t)(k + 1) * sizeof(*n));
		if (!n) {
			x->oom = true;
			return NULL;
		}
		memset(n + T->n, 0, (size_t)(k + 1 - T->n) * sizeof(*n));
		T->lanes = n;
		T->n = k + 1;
	}
	return &T->lanes[k];
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

/* The lowest lane of @track that a slice ending at @end nests in. */
static int32_t lane_pick(struct tx *x, uint32_t track, km_time end)
{
	struct track *T = &x->tracks[track];
	uint32_t k = 0;
	for (; k < T->n; k++) {
		struct lane *L = &T->lanes[k];
		if (!L->n || L->st[L->n - 1] >= end)
			break;
	}
	struct lane *L = lane_get(x, track, k);
	if (!L)
		return -1;
	km_time *st = grow(L->st, &L->cap, L->n + 1, sizeof(*st), &x->oom);
	if (!st)
		return -1;
	L->st = st;
	L->st[L->n++] = end;
	return (int32_t)k;
}

/* ----------------------------------------------------- records, ends -- */

/* Record @i, read in order: from the array, or from the spool a block at
 * a time.  NULL on a read error (x->ioerr). */
static const struct km_trace_rec *rec_at(struct tx *x, uint64_t i)
{
	if (x->recs)
		return &x->recs[i];
	if (i < x->rfirst || i >= x->rfirst + x->rlen) {
		ssize_t n = km_trace_spool_read(x->spool, i, x->rbuf, READ_BLOCK);
		if (n <= 0) {
			x->ioerr = n < 0 && errno ? errno : EIO;
			x->rlen = 0;
			return NULL;
		}
		x->rfirst = i;
		x->rlen = (size_t)n;
	}
	return &x->rbuf[i - x->rfirst];
}

/* The spool's scratch file holds end time @ord at byte ord * 8. */
static void ends_write(struct tx *x, uint64_t ord, const km_time *v, size_t n)
{
	const char *p = (const char *)v;
	size_t len = n * sizeof(*v), done = 0;
	off_t at = (off_t)(ord * sizeof(*v));
	while (done < len && !x->ioerr) {
		ssize_t w = pwrite(x->spool->scratch_fd, p + done, len - done, at + (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			x->ioerr = w < 0 && errno ? errno : EIO;
		else
			done += (size_t)w;
	}
}

/* Pass 1: a slice begins, its end not known yet; *@ord is its number. */
static void ends_push(struct tx *x, uint64_t *ord)
{
	*ord = x->nends;
	if (x->nends - x->ends_base == x->capends) {
		if (x->spool && x->capends >= ENDS_WINDOW) {
			/* the older half of the window goes to disk */
			size_t half = x->capends / 2;
			ends_write(x, x->ends_base, x->ends, half);
			memmove(x->ends, x->ends + half, (x->capends - half) * sizeof(*x->ends));
			x->ends_base += half;
		} else {
			size_t cap = x->capends ? x->capends * 2 : 1024;
			km_time *e = realloc(x->ends, cap * sizeof(*e));
			if (!e) {
				x->oom = true;
				return;
			}
			x->ends = e;
			x->capends = cap;
		}
	}
	x->ends[x->nends++ - x->ends_base] = KM_TIME_NEVER;
}

/* Pass 1: slice @ord ends at @t. */
static void ends_set(struct tx *x, uint64_t ord, km_time t)
{
	if (ord >= x->nends)
		return;
	if (ord >= x->ends_base)
		x->ends[ord - x->ends_base] = t;
	else
		ends_write(x, ord, &t, 1);	/* a long slice: patched on disk */
}

/* After pass 1: a spool's window goes to disk and becomes pass 2's. */
static void ends_seal(struct tx *x)
{
	if (!x->spool)
		return;
	ends_write(x, x->ends_base, x->ends, (size_t)(x->nends - x->ends_base));
	x->ends_base = x->nends;
	x->ends_len = 0;
}

/* Pass 2: when slice @ord ends (asked in order), at most at the trace's
 * end: a slice still open then is closed there. */
static km_time ends_get(struct tx *x, uint64_t ord)
{
	km_time e = x->end;
	if (ord < x->nends && !x->spool) {
		e = x->ends[ord];
	} else if (ord < x->nends) {
		if (ord < x->ends_base || ord >= x->ends_base + x->ends_len) {
			uint64_t n = x->nends - ord;
			if (n > x->capends)
				n = x->capends;
			size_t len = (size_t)n * sizeof(*x->ends), got = 0;
			while (got < len && !x->ioerr) {
				ssize_t r = pread(x->spool->scratch_fd, (char *)x->ends + got,
						  len - got, (off_t)(ord * sizeof(*x->ends) + got));
				if (r < 0 && errno == EINTR)
					continue;
				if (r <= 0)
					x->ioerr = r < 0 && errno ? errno : EIO;
				else
					got += (size_t)r;
			}
			if (x->ioerr)
				return x->end;
			x->ends_base = ord;
			x->ends_len = (size_t)n;
		}
		e = x->ends[ord - x->ends_base];
	}
	return e == KM_TIME_NEVER || e > x->end ? x->end : e;
}

/* ------------------------------------------------------------ pairing -- */

static void slice_open(struct tx *x, int kind, int li, uint32_t ctx, const struct km_trace_rec *r,
		       uint64_t *ord, uint32_t *track, int32_t *lane)
{
	*lane = -1;
	*track = NONE32;
	if (x->pass == 1) {
		ends_push(x, ord);
		return;
	}
	*ord = x->next_ord++;
	km_time end = ends_get(x, *ord);
	*track = track_of(x, ctx);
	if (end <= r->time)
		return;
	*lane = lane_pick(x, *track, end);
	if (*lane < 0)
		return;
	x->w->slice_open(x, kind, li, ctx, r, *track, (uint32_t)*lane, end);
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

/* ftrace: a B mark on the lane's thread (its E comes at the end). */
static void ft_slice_open(struct tx *x, int kind, int li, uint32_t ctx,
			  const struct km_trace_rec *r, uint32_t track, uint32_t lane, km_time end)
{
	ft_head_lane(x, track, lane, r->cpu, r->time, "tracing_mark_write");
	fprintf(x->out, "B|%d|%s", FT_TGID, kind == SL_WAIT ? "wait " : "hold ");
	ft_text(x->out, lock_name(x, li), true);
	putc('\n', x->out);
}

static void slice_close(struct tx *x, uint64_t ord, uint32_t track, int32_t lane, int cpu,
			km_time t)
{
	if (x->pass == 1) {
		ends_set(x, ord, t);
		return;
	}
	if (lane < 0 || track >= x->ntracks || (uint32_t)lane >= x->tracks[track].n)
		return;
	struct lane *L = &x->tracks[track].lanes[lane];
	if (L->n)
		L->n--;			/* innermost: ends at the same time (see above) */
	if (x->w->slice_close)
		x->w->slice_close(x, track, (uint32_t)lane, cpu, t);
}

static void ft_slice_close(struct tx *x, uint32_t track, uint32_t lane, int cpu, km_time t)
{
	ft_head_lane(x, track, lane, cpu, t, "tracing_mark_write");
	fprintf(x->out, "E|%d\n", FT_TGID);
}

static void wait_close(struct tx *x, uint32_t c, int cpu, km_time t)
{
	struct owait *w = &x->wait[c];
	if (w->li == NONE32)
		return;
	x->waiters[w->li]--;
	slice_close(x, w->ord, w->track, w->lane, cpu, t);
	w->li = NONE32;
}

static void counters_lock(struct tx *x, int li, const struct km_trace_rec *r)
{
	uint32_t held = x->holds[li].n, waiting = x->waiters[li];
	if (held == x->c_held[li] && waiting == x->c_wait[li])
		return;
	x->c_held[li] = held;
	x->c_wait[li] = waiting;
	x->w->lock_counters(x, li, r, held, waiting);
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

static void lock_rec(struct tx *x, const struct km_trace_rec *r)
{
	int li = lock_index(x, r->obj);
	uint32_t c = r->ctx;
	if (li < 0 || c >= x->nctx)
		return;
	x->lock_used[li] = true;
	struct holdvec *H = &x->holds[li];
	switch (r->kind) {
	case KM_TR_CONTEND: {
		struct owait *w = &x->wait[c];
		if (w->li == (uint32_t)li)
			break;
		if (w->li != NONE32)
			wait_close(x, c, r->cpu, r->time);
		slice_open(x, SL_WAIT, li, c, r, &w->ord, &w->track, &w->lane);
		w->li = (uint32_t)li;
		x->waiters[li]++;
		break;
	}
	case KM_TR_ACQUIRE: {
		if (x->wait[c].li == (uint32_t)li)
			wait_close(x, c, r->cpu, r->time);
		struct ohold *v = grow(H->v, &H->cap, H->n + 1, sizeof(*v), &x->oom);
		if (!v)
			return;
		H->v = v;
		struct ohold *h = &H->v[H->n++];
		h->ctx = c;
		h->gen = x->gen[c];
		slice_open(x, SL_HOLD, li, c, r, &h->ord, &h->track, &h->lane);
		break;
	}
	case KM_TR_RELEASE: {
		if (x->pass == 2) {
			x->rel_t[li] = r->time;
			x->rel_cpu[li] = r->cpu;
		}
		if (r->arg < 0 || !H->n)
			break;
		uint32_t at = 0;
		for (uint32_t i = H->n; i-- > 0;) {
			if (H->v[i].ctx == c && H->v[i].gen == x->gen[c]) {
				at = i;
				break;
			}
		}
		struct ohold h = H->v[at];
		memmove(&H->v[at], &H->v[at + 1], (H->n - at - 1) * sizeof(H->v[0]));
		H->n--;
		slice_close(x, h.ord, h.track, h.lane, r->cpu, r->time);
		break;
	}
	case KM_TR_TRYFAIL:
		if (x->pass == 2) {
			x->rel_t[li] = r->time;
			x->rel_cpu[li] = r->cpu;
		}
		if (r->arg == 1 && x->wait[c].li == (uint32_t)li)
			wait_close(x, c, r->cpu, r->time);
		break;
	default:
		break;
	}
	if (x->pass == 2)
		counters_lock(x, li, r);
}

static void pairing_reset(struct tx *x)
{
	for (uint32_t li = 0; li < x->nlocks; li++) {
		x->holds[li].n = 0;
		x->waiters[li] = 0;
	}
	for (uint32_t c = 0; c < x->nctx; c++) {
		x->wait[c].li = NONE32;
		x->gen[c] = 0;
		x->irq_src[c] = NONE32;
	}
	x->next_ord = 0;
}

/* --------------------------------------------------------------- flows -- */

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

/* ----------------------------------------------------------------- CPUs -- */

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

/* ---------------------------------------------------------- the walk -- */

static int tx_init(struct tx *x, const struct writer *w, const struct km_run_info *ri,
		   struct km_trace_spool *spool, FILE *out, char *err, size_t errlen)
{
	memset(x, 0, sizeof(*x));
	errno = 0;			/* what finish() reports is this write's */
	x->w = w;
	x->ri = ri;
	x->out = out;
	if (!ri || !ri->sim) {
		set_err(err, errlen, "the run never started: there is no trace to write");
		return -1;
	}
	const struct km_sim *sim = ri->sim;
	x->sim = sim;
	km_time last = 0;
	if (spool) {
		if (km_trace_spool_flush(spool) < 0) {
			set_err(err, errlen, "cannot write the trace: %s", strerror(spool->err));
			return -1;
		}
		x->spool = spool;
		x->nrecs = spool->n;
		x->truncated = spool->truncated;
		last = spool->last_time;
		x->rbuf = malloc(READ_BLOCK * sizeof(*x->rbuf));
		if (!x->rbuf) {
			set_err(err, errlen, "out of memory writing the trace");
			return -1;
		}
	} else if (!sim->trace.store) {
		set_err(err, errlen, "the run did not keep its trace (store_trace was off)");
		return -1;
	} else {
		x->recs = sim->trace.recs;
		x->nrecs = sim->trace.len;
		x->truncated = sim->trace.truncated;
		if (x->nrecs)
			last = x->recs[x->nrecs - 1].time;
	}
	x->end = sim->now;
	if (x->nrecs && (x->truncated || last > x->end))
		x->end = last;
	x->nctx = sim->ctxs.n;
	x->nsrc = sim->irqsrcs.n;
	x->nlocks = sim->locks.n + 2;
	x->ntracks = x->nctx + x->nsrc;
	x->ncpus = sim->ncpus;
	size_t nc = (size_t)x->nctx + 1, nl = x->nlocks;
	x->holds = calloc(nl, sizeof(*x->holds));
	x->waiters = calloc(nl, sizeof(*x->waiters));
	x->lock_used = calloc(nl, sizeof(*x->lock_used));
	x->irqoff_used = calloc((size_t)x->ncpus + 1, sizeof(*x->irqoff_used));
	x->c_held = calloc(nl, sizeof(*x->c_held));
	x->c_wait = calloc(nl, sizeof(*x->c_wait));
	x->rel_t = malloc(nl * sizeof(*x->rel_t));
	x->rel_cpu = calloc(nl, sizeof(*x->rel_cpu));
	x->wait = calloc(nc, sizeof(*x->wait));
	x->gen = calloc(nc, sizeof(*x->gen));
	x->irq_src = calloc(nc, sizeof(*x->irq_src));
	x->flow_of = malloc(nc * sizeof(*x->flow_of));
	x->pstate = calloc(nc, sizeof(*x->pstate));
	x->last_cpu = calloc(nc, sizeof(*x->last_cpu));
	x->tracks = calloc((size_t)x->ntracks + 1, sizeof(*x->tracks));
	x->cpus = calloc((size_t)x->ncpus + 1, sizeof(*x->cpus));
	if (!x->holds || !x->waiters || !x->lock_used || !x->irqoff_used || !x->c_held || !x->c_wait || !x->rel_t ||
	    !x->rel_cpu || !x->wait || !x->gen || !x->irq_src || !x->flow_of || !x->pstate ||
	    !x->last_cpu || !x->tracks || !x->cpus) {
		set_err(err, errlen, "out of memory writing the trace");
		return -1;
	}
	for (size_t i = 0; i < nl; i++)
		x->rel_t[i] = -1;
	for (size_t i = 0; i < nc; i++) {
		x->flow_of[i] = -1;
		x->last_cpu[i] = -1;
	}
	for (int c = 0; c < x->ncpus; c++) {
		x->cpus[c].state = KM_CPU_IDLE;
		x->cpus[c].ctx = NONE32;
		x->cpus[c].ftask = NONE32;
		x->cpus[c].src_head = x->cpus[c].dst_head = -1;
	}
	x->free_flow = -1;
	/* which kept violation message goes with the n-th record of a kind */
	memset(x->kept, 0xff, sizeof(x->kept));
	for (uint32_t j = 0; j < sim->violations.n; j++) {
		uint32_t k = (uint32_t)sim->violations.v[j].kind;
		if (k < KM_V_KINDS && x->nkept[k] < KM_VIOLATIONS_KEPT)
			x->kept[k][x->nkept[k]++] = (int32_t)j;
	}
	return 0;
}

static void tx_free(struct tx *x)
{
	if (x->holds)
		for (uint32_t i = 0; i < x->nlocks; i++)
			free(x->holds[i].v);
	if (x->tracks)
		for (uint32_t t = 0; t < x->ntracks; t++) {
			for (uint32_t k = 0; k < x->tracks[t].n; k++)
				free(x->tracks[t].lanes[k].st);
			free(x->tracks[t].lanes);
		}
	free(x->holds);
	free(x->waiters);
	free(x->lock_used);
	free(x->irqoff_used);
	free(x->c_held);
	free(x->c_wait);
	free(x->rel_t);
	free(x->rel_cpu);
	free(x->wait);
	free(x->gen);
	free(x->irq_src);
	free(x->flow_of);
	free(x->pstate);
	free(x->last_cpu);
	free(x->tracks);
	free(x->cpus);
	free(x->flows);
	free(x->ends);
	free(x->rbuf);
}

/* A big trace takes seconds to write: every 4096 records the exporter
 * looks at the flag the command line gave it, so that a Ctrl-C stops
 * the export promptly (its caller then removes the temporary file). */
static const volatile int *cancel_flag;

void km_trace_export_cancel(const volatile int *flag)
{
	cancel_flag = flag;
}

static bool go_on(struct tx *x, size_t i)
{
	if ((i & 4095) == 0 && cancel_flag && *cancel_flag)
		x->stop = true;
	return !x->oom && !x->stop && !x->ioerr;
}

/*
 * One walk over the records, pass 1's or a writer's.  What every walk
 * does itself: an interrupt's context takes its source (its lock slices
 * go on the source's thread), and a lock's own records are paired into
 * waits and holds (lock_rec, which hands the slices to the writer in pass
 * 2); every other record goes to @on[kind], if any.
 */
static void walk(struct tx *x, const rec_fn *on)
{
	for (uint64_t i = 0; i < x->nrecs && go_on(x, i); i++) {
		const struct km_trace_rec *r = rec_at(x, i);
		if (!r)
			break;
		if (r->kind == KM_TR_IRQ_ENTER && r->ctx < x->nctx) {
			x->gen[r->ctx]++;
			x->irq_src[r->ctx] = r->obj;
		}
		if (km_trace_kind_is_lock(r->kind))
			lock_rec(x, r);
		else if (r->kind < KM_TR_KIND_MAX && on[r->kind])
			on[r->kind](x, r);
	}
}

static void p1_irqoff(struct tx *x, const struct km_trace_rec *r)
{
	if (r->cpu < x->ncpus)
		x->irqoff_used[r->cpu] = true;
}

/* Pass 1: when does each lock slice end?  (And which CPUs ever turn
 * their interrupts off: Chrome names a thread for those only.) */
static const rec_fn pass1_on[KM_TR_KIND_MAX] = {
	[KM_TR_IRQOFF] = p1_irqoff,
};

static int pass1(struct tx *x)
{
	x->pass = 1;
	pairing_reset(x);
	walk(x, pass1_on);
	ends_seal(x);
	x->pass = 2;
	pairing_reset(x);
	return x->oom || x->stop || x->ioerr ? -1 : 0;
}

static const char *violation_msg(struct tx *x, const struct km_trace_rec *r)
{
	uint32_t k = r->aux;
	if (k >= KM_V_KINDS)
		return NULL;
	uint32_t n = x->vseen[k]++;
	if (n < x->nkept[k] && x->kept[k][n] >= 0)
		return x->sim->violations.v[x->kept[k][n]].message;
	return NULL;
}

static const char *log_msg(const struct tx *x, const struct km_trace_rec *r)
{
	if (r->obj < x->sim->logs.n && x->sim->logs.v[r->obj])
		return x->sim->logs.v[r->obj];
	return "";
}

static const char *counter_name(const struct tx *x, uint32_t id)
{
	if (id < x->sim->counters.n && x->sim->counters.v[id]->name)
		return x->sim->counters.v[id]->name;
	return "?";
}

static int finish(struct tx *x, char *err, size_t errlen)
{
	if (x->stop) {
		set_err(err, errlen, "interrupted");
		return -1;
	}
	if (x->oom) {
		set_err(err, errlen, "out of memory writing the trace");
		return -1;
	}
	if (x->ioerr) {
		set_err(err, errlen, "cannot write the trace: its scratch file: %s",
			strerror(x->ioerr));
		return -1;
	}
	if (fflush(x->out) != 0 || ferror(x->out)) {
		set_err(err, errlen, "cannot write the trace: %s",
			errno ? strerror(errno) : "write error");
		return -1;
	}
	return 0;
}

/*
 * The skeleton both formats share: set up and pass 1, then the writer's
 * head, the walk that hands it each record, its tail; then whether it all
 * reached the file, and the clean-up.  @x is the caller's, so that it can
 * live on the stack.
 */
static int export(struct tx *x, const struct writer *w, const struct km_run_info *ri,
		  struct km_trace_spool *spool, FILE *out, char *err, size_t errlen)
{
	if (tx_init(x, w, ri, spool, out, err, errlen) < 0 || pass1(x) < 0) {
		if (x->sim && (x->oom || x->stop || x->ioerr))
			finish(x, err, errlen);
		tx_free(x);
		return -1;
	}
	w->begin(x);
	walk(x, w->on);
	w->end(x);
	int rc = finish(x, err, errlen);
	tx_free(x);
	return rc;
}

/* -------------------------------------------------------------- Chrome -- */

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
	return export(&tx, &chrome, ri, spool, out, err, errlen);
}

/* -------------------------------------------------------------- ftrace -- */

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
	return export(&tx, &ftrace, ri, spool, out, err, errlen);
}
