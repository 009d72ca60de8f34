/*
 * trace_export.c - the stored trace as Chrome trace-event JSON and as
 * ftrace text: the walk both formats share.  See trace_export.h; the
 * formats are trace_chrome.c and trace_ftrace.c (trace_writer.h).
 *
 * The two formats share one skeleton, km_trace_export_run(): set-up,
 * pass 1, the writer's head, one walk over the records, the writer's
 * tail, the check that it all reached the file.  The walk pairs a lock's own records into
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
 */
#include "trace_writer.h"

#include <errno.h>
#include <stdarg.h>
#include <unistd.h>

#define READ_BLOCK 2048			/* records read from a spool at a time: 64 KiB */
#define ENDS_WINDOW 65536		/* slice ends in memory when spooled: 512 KiB */

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
int km_trace_export_run(struct tx *x, const struct writer *w, const struct km_run_info *ri,
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
