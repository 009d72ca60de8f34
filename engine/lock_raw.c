/*
 * lock_raw.c - the raw spinning lock under the spinlock mode, the BKL and
 * the global irq lock of SMP cli(): who gets it next, and what the
 * hand-off costs, in the era's flavour (lock_spin.c tells the story).
 *
 * Each flavour says which cache lines it touches and when, as the kernel's
 * code did; the machine (cache.h) says what that costs, and the order in
 * which the line's home serves the requests decides who is first:
 *
 *  - test-and-set (i386 `lock; decb`, spin reading the byte): a release is
 *    a store that invalidates every spinner's copy; they all re-read it,
 *    served one at a time, nearest the releaser's cache first (the line is
 *    there, Modified, or Owned on a MOESI machine).  The first to read
 *    "free" issues its `lock; decb`: until then (the window) the lock is
 *    free for whoever's atomic comes first -- the releaser coming back, or
 *    any newcomer -- and when the window closes, that first reader takes
 *    it.  So the releaser wins, then its die, then its socket: a mechanism,
 *    not a draw.  Only spinners at the same distance are ordered by the
 *    run's generator (the hardware's arbitration between equals).
 *  - ticket (`lock; xaddw` on the tail, spin reading the head, `incb` to
 *    release): every spinner re-reads the line after the release, one at a
 *    time at the home; the next ticket's holder goes when its own read is
 *    served -- c.k/2 after the release on average with k spinning.
 *  - queued (qspinlock, 4.2): only the pending waiter (the second CPU to
 *    arrive) and the MCS queue's head read the lock line; the others spin
 *    on their own per-CPU node.  A hand-off is the next holder's read and
 *    its store of the locked byte, and, from the queue, its read of its
 *    node's next and one write to the successor's node: O(1), but more
 *    lines on the way in than a ticket's one xadd (queued_arrive()).
 *
 * Every arrival's atomic (decb, xadd, xchg of the tail) takes the line
 * exclusive and so sends the spinners that read it back to the home.
 *
 * On the locks floor, below the primitives that spin: it knows no
 * primitive, only the method table.
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

enum km_spin_flavour km_spin_flavour_of(const struct km_sim *sim)
{
	/* 2.0's BKL and global irq lock were plain test-and-set bits. */
	return sim->era.spinlock == KM_SPIN_NONE ? KM_SPIN_TAS : sim->era.spinlock;
}

enum km_spin_flavour km_lock_spin_flavour(const struct km_sim *sim, const struct km_lock *l)
{
	return l->spin > KM_SPIN_NONE && l->spin <= KM_SPIN_MCS ?
		(enum km_spin_flavour)l->spin : km_spin_flavour_of(sim);
}

static uint32_t raw_id(const struct km_sim *sim, const struct km_lock *l)
{
	if (l == sim->bkl)
		return KM_BKL_ID;
	if (l == sim->gil)
		return KM_GIL_ID;
	return l->id;
}

/* Who supplies @l's line to a reader now: its owner, else its home. */
static int supplier(const struct km_lock *l)
{
	return l->line.owner >= 0 ? l->line.owner : l->line.home;
}

/* A spinner's place in the home's queue after a release: nearer the
 * supplier first; among equals, by @rank. */
struct key {
	km_time d;
	int64_t rank;
};

static bool before(struct key a, struct key b)
{
	return a.d < b.d || (a.d == b.d && a.rank < b.rank);
}

/*
 * reread - every spinner of @l reads the line again after a release, and
 * the home serves them one at a time: nearest the supplier (the line's
 * owner, else its home) first.  Among spinners at the same distance, the
 * order is the hardware's arbitration: with @draw (test-and-set, whose
 * spinners race their atomics from wherever their spin loop was) list
 * order from a start the run's generator draws; without (ticket, whose
 * spinners only read), round the CPUs from the supplier's.  Returns @who
 * (NULL: the first served, which is returned) and its read's latency,
 * from @at (when the release's store is visible), in
 * *@lat, queueing behind those served before it included.  O(spinners).
 */
static struct km_ctx *reread(struct km_sim *sim, struct km_lock *l, struct km_ctx *who,
			     bool draw, km_time at, km_time *lat)
{
	uint32_t n = l->spinners.len;
	*lat = 0;
	if (!n)
		return NULL;
	int from = supplier(l);
	int64_t start = draw && n > 1 ? km_rng_range(&sim->rng, 0, (int64_t)n - 1) : 0;
	int64_t ncpus = sim->ncpus;
	/* the place of each spinner; the first, or @who's */
	struct key kw = { -1, 0 };
	struct km_ctx *first = NULL;
	struct key kf = { 0, 0 };
	int64_t i = 0;
	for (struct km_ctx *c = l->spinners.head; c; c = c->wnext, i++) {
		struct key k = { km_cpu_distance_cost(sim, from, c->cpu),
				 draw ? (i - start + (int64_t)n) % (int64_t)n
				      : ((int64_t)c->cpu - from - 1 + 2 * ncpus) % ncpus };
		if (!first || before(k, kf)) {
			first = c;
			kf = k;
		}
		if (c == who)
			kw = k;
	}
	if (!who || kw.d < 0) {
		who = first;
		kw = kf;
	}
	/* served before @who, then @who, then the others */
	i = 0;
	for (struct km_ctx *c = l->spinners.head; c; c = c->wnext, i++) {
		struct key k = { km_cpu_distance_cost(sim, from, c->cpu),
				 draw ? (i - start + (int64_t)n) % (int64_t)n
				      : ((int64_t)c->cpu - from - 1 + 2 * ncpus) % ncpus };
		if (c != who && before(k, kw))
			km_line_spin_read(sim, &l->line, c->cpu, at);
	}
	*lat = km_line_read(sim, &l->line, who->cpu, at);
	for (struct km_ctx *c = l->spinners.head; c; c = c->wnext)
		if (!km_line_holds(&l->line, c->cpu))
			km_line_spin_read(sim, &l->line, c->cpu, at);
	return who;
}

/* Is @c still among @l's spinners? */
static bool spinning(const struct km_lock *l, const struct km_ctx *c)
{
	for (const struct km_ctx *s = l->spinners.head; s; s = s->wnext)
		if (s == c)
			return true;
	return false;
}

/*
 * The queued spinlock of 4.2 (kernel/locking/qspinlock.c with the pending
 * bit, 2c83e8e9492d's plain store for the queue head), line by line.  The
 * lock word is one 32-bit line: the locked byte, the pending byte, and the
 * tail (the last queued CPU + 1 and its node's nesting index).  Each CPU
 * has its MCS nodes on one line of its own (mcs_nodes[4], 16 bytes each).
 * The spinners are kept in arrival order: first the pending waiter when
 * there is one (l->u.raw.q_pending), then the MCS queue, whose head spins on the
 * lock word and the others each on their own node.  So at most two CPUs
 * read the lock word, however many wait.
 */

/* The queue's head: the first spinner that is not the pending waiter. */
static struct km_ctx *queue_head(const struct km_lock *l)
{
	struct km_ctx *h = l->spinners.head;
	return h && l->u.raw.q_pending ? h->wnext : h;
}

/*
 * queued_arrive - queued_spin_lock() found the lock taken (its cmpxchg, an
 * atomic on the lock word, failed: the caller's RMW, ending at @at).  The
 * second contender sets the pending bit (cmpxchg) and spins reading the
 * word.  A later one touches its own node (a cold line): `idx =
 * node->count++`, a load it waits for (the node's address and the tail
 * it encodes depend on it), then the stores of count, node->locked and
 * node->next; tries the lock once more (a read), swaps itself into the
 * tail (xchg_tail, an atomic); with no queue before it, it is the head
 * and spins on the word, else it writes its node into its predecessor's
 * (prev->next) and spins on its own node.  The CPUs that read the word
 * (pending waiter, head) read it again after each atomic took it from
 * them.
 */
static void queued_arrive(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			  km_time at)
{
	struct km_line *word = &l->line;
	if (!l->spinners.len) {
		at = km_sat_add(at, km_line_rmw(sim, word, ctx->cpu, at));	/* pending */
		l->u.raw.q_pending = true;
		km_line_spin_read(sim, word, ctx->cpu, at);
		return;
	}
	struct km_line *own = &sim->cpus[ctx->cpu].mcs_node;
	/* idx = node->count++: the load first (its value is the node's
	 * index), then count, node->locked and node->next are stored */
	km_time count = km_line_read(sim, own, ctx->cpu, at);
	km_time done = 0;
	km_time stall = km_sat_add(count, km_line_store(sim, own, ctx->cpu,
							 km_sat_add(at, count), &done));
	done = km_sat_add(done, count);		/* from @at, as stall */
	km_time rd = km_line_read(sim, word, ctx->cpu, km_sat_add(at, stall));	/* trylock */
	/* xchg_tail(), a locked instruction: it waits for the buffered
	 * stores to drain (without a store buffer, done == stall) */
	km_time drained = km_sat_add(stall, rd) > done ? km_sat_add(stall, rd) : done;
	at = km_sat_add(at, drained);
	at = km_sat_add(at, km_line_rmw(sim, word, ctx->cpu, at));
	if (!queue_head(l)) {
		km_line_spin_read(sim, word, ctx->cpu, at);		/* the new head */
	} else {
		struct km_ctx *prev = l->spinners.tail;
		struct km_line *pnode = &sim->cpus[prev->cpu].mcs_node;
		km_time linked = 0;				/* prev->next = node */
		km_time link_at = at;
		at = km_sat_add(at, km_line_store(sim, pnode, ctx->cpu, at, &linked));
		/* a predecessor behind the head spins reading its own
		 * node->locked (arch_mcs_spin_lock_contended()): the store took
		 * the line from it and its loop reads it back, so the next it
		 * reads when it hands on is a hit; the head spins on the word */
		if (prev != queue_head(l))
			km_line_spin_read(sim, pnode, prev->cpu, km_sat_add(link_at, linked));
		km_line_spin_read(sim, own, ctx->cpu, at);		/* spin on node->locked */
	}
	if (l->u.raw.q_pending)
		km_line_spin_read(sim, word, l->spinners.head->cpu, at);
	struct km_ctx *head = queue_head(l);
	if (head)
		km_line_spin_read(sim, word, head->cpu, at);
}

/*
 * queued_next - the lock word's locked byte was cleared (the unlock's
 * store): who takes it and after how long.  The pending waiter first: it
 * reads the word, sees it unlocked, and clears pending and sets locked in
 * one 16-bit store; the queue head, spinning on the word, reads it again.
 * Else the queue head reads the word (locked and pending both clear) and
 * takes it: with a plain store of the locked byte when others are queued
 * behind it (2c83e8e9492d), with a cmpxchg that also clears the tail when
 * it is the last; then, still inside spin_lock(), it reads its node's
 * next (written there by its successor) and writes the successor's
 * node->locked, which the successor reads: now the head, it reads the
 * lock word.  Last, at the slow path's `release:` label, either way,
 * this_cpu_dec(mcs_nodes[0].count) gives its node back: a load and a
 * store of its own node line (which a successor's prev->next left
 * shared).  The hand-off touches two lines whatever the queue's length.
 */
static struct km_ctx *queued_next(struct km_sim *sim, struct km_lock *l, km_time from,
				  km_time *delay)
{
	struct km_line *word = &l->line;
	struct km_ctx *next = km_waitlist_pop(&l->spinners);
	km_time at = km_sat_add(from, km_line_read(sim, word, next->cpu, from));
	if (l->u.raw.q_pending) {
		/* clear_pending_set_locked(): a plain 16-bit store */
		l->u.raw.q_pending = false;
		km_time done = 0;
		at = km_sat_add(at, km_line_store(sim, word, next->cpu, at, &done));
		if (l->spinners.head)
			km_line_spin_read(sim, word, l->spinners.head->cpu, km_sat_add(at, done));
		*delay = at - sim->now;
		return next;
	}
	struct km_ctx *succ = l->spinners.head;
	km_time done = 0;
	at = km_sat_add(at, succ ? km_line_store(sim, word, next->cpu, at, &done) /* set_locked */
				 : km_line_rmw(sim, word, next->cpu, at));
	if (succ) {
		struct km_line *own = &sim->cpus[next->cpu].mcs_node;
		struct km_line *node = &sim->cpus[succ->cpu].mcs_node;
		at = km_sat_add(at, km_line_read(sim, own, next->cpu, at));	/* node->next */
		km_time sent = 0;					/* next->locked */
		at = km_sat_add(at, km_line_store(sim, node, next->cpu, at, &sent));
		km_time seen = km_sat_add(at, km_line_read(sim, node, succ->cpu,
							     km_sat_add(at, sent)));
		km_line_spin_read(sim, word, succ->cpu, km_sat_add(seen, sent));
	}
	/* release: this_cpu_dec(mcs_nodes[0].count), a `decl` of the node
	 * line: its load, then its store through the store buffer */
	struct km_line *mine = &sim->cpus[next->cpu].mcs_node;
	at = km_sat_add(at, km_line_read(sim, mine, next->cpu, at));
	at = km_sat_add(at, km_line_store(sim, mine, next->cpu, at, NULL));
	*delay = at - sim->now;
	return next;
}

/* The next owner of @l, its hand-off starting at @from (when the release
 * is visible); *@delay counts from now. */
static struct km_ctx *pick_next(struct km_sim *sim, struct km_lock *l, km_time from,
				km_time *delay)
{
	uint32_t n = l->spinners.len;
	if (!n)
		return NULL;
	switch (km_lock_spin_flavour(sim, l)) {
	case KM_SPIN_MCS: {
		/* (the releaser's write is km_raw_spin_unlock's): the next
		 * waiter reads its own node, written by its predecessor */
		struct km_ctx *next = km_waitlist_pop(&l->spinners);
		*delay = km_sat_add(from - sim->now,
				    km_line_read(sim, &sim->cpus[next->cpu].mcs_node, next->cpu, from));
		return next;
	}
	case KM_SPIN_QUEUED:
		return queued_next(sim, l, from, delay);
	case KM_SPIN_TICKET: {
		/* every spinner re-reads the head; the next ticket's holder
		 * goes when its own read is served */
		km_time lat = 0;
		reread(sim, l, l->spinners.head, false, from, &lat);
		*delay = km_sat_add(from - sim->now, lat);
		return km_waitlist_pop(&l->spinners);
	}
	default: {
		/* test-and-set, the window closed: its first reader's
		 * `lock; decb`, queued behind the other spinners' reads */
		struct km_ctx *c = l->u.raw.window_next;
		l->u.raw.window_next = NULL;
		if (!c || !spinning(l, c)) {
			km_time lat = 0;
			c = reread(sim, l, NULL, true, from, &lat);
		}
		km_waitlist_remove(&l->spinners, c);
		*delay = km_sat_add(from - sim->now, km_line_rmw(sim, &l->line, c->cpu, from));
		return c;
	}
	}
}

struct km_ctx *km_spin_pick_next(struct km_sim *sim, struct km_lock *l, km_time *delay)
{
	return pick_next(sim, l, sim->now, delay);
}

/* Only test-and-set has a window in which the lock is free for anyone. */
static bool tas(const struct km_sim *sim, const struct km_lock *l)
{
	return km_lock_spin_flavour(sim, l) == KM_SPIN_TAS;
}

/*
 * open_window - test-and-set release with spinners waiting: they re-read
 * the line; until the first of them has read it free, the lock is free
 * for whoever's atomic comes first; then that reader takes it.
 */
static void open_window(struct km_sim *sim, struct km_lock *l, km_time from)
{
	l->u.raw.window_open = true;
	l->u.raw.token++;
	km_time lat = 0;
	l->u.raw.window_next = reread(sim, l, NULL, true, from, &lat);
	km_push(sim, km_sat_add(from, lat), KM_EV_HANDOFF, raw_id(sim, l), l->u.raw.token);
}

/*
 * km_raw_spin_arrive - @ctx's atomic on @l's line as it starts to spin
 * (lock; decb, xadd of a ticket, xchg of the queue's tail): the line goes
 * exclusive to its CPU, and the spinners that read it read it again.  A
 * queued spinner links its MCS node after its predecessor's and spins on
 * its own; only the queue head reads the lock line.
 * Context: @ctx is not on l->spinners yet.
 */
void km_raw_spin_arrive(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	km_time at = km_sat_add(sim->now, km_line_rmw(sim, &l->line, ctx->cpu, sim->now));
	if (km_lock_spin_flavour(sim, l) == KM_SPIN_MCS) {
		/* mcs_spin_lock(): xchg of the tail (above) returned the
		 * predecessor -- the last spinner, else the holder, whose node
		 * is in the queue too; link after it, spin on our own node */
		struct km_ctx *prev = l->spinners.tail ? l->spinners.tail : l->owner;
		struct km_line *own = &sim->cpus[ctx->cpu].mcs_node;
		at = km_sat_add(at, km_line_write(sim, own, ctx->cpu, at));
		if (prev)
			at = km_sat_add(at, km_line_write(sim, &sim->cpus[prev->cpu].mcs_node,
							   ctx->cpu, at));
		/* a waiting predecessor spins reading its node->locked, on
		 * the line just written: it reads it back (the holder does not) */
		if (l->spinners.tail)
			km_line_spin_read(sim, &sim->cpus[prev->cpu].mcs_node, prev->cpu, at);
		km_line_spin_read(sim, own, ctx->cpu, at);
		return;
	}
	if (km_lock_spin_flavour(sim, l) == KM_SPIN_QUEUED) {
		queued_arrive(sim, l, ctx, at);
		return;
	}
	for (struct km_ctx *c = l->spinners.head; c; c = c->wnext)
		km_line_spin_read(sim, &l->line, c->cpu, at);
	km_line_spin_read(sim, &l->line, ctx->cpu, at);
}

void km_raw_spin_line_written(struct km_sim *sim, struct km_lock *l, km_time at)
{
	if (!l->spinners.len || l->prim != KM_PRIM_SPIN)
		return;
	switch (km_lock_spin_flavour(sim, l)) {
	case KM_SPIN_MCS:
		return;			/* its waiters spin on their own nodes */
	case KM_SPIN_QUEUED: {
		/* the pending waiter and the queue's head read the word */
		if (l->u.raw.q_pending)
			km_line_spin_read(sim, &l->line, l->spinners.head->cpu, at);
		struct km_ctx *head = queue_head(l);
		if (head)
			km_line_spin_read(sim, &l->line, head->cpu, at);
		return;
	}
	default:
		for (struct km_ctx *c = l->spinners.head; c; c = c->wnext)
			km_line_spin_read(sim, &l->line, c->cpu, at);
	}
}

/* Grant functions of the three spinning-lock users. */

static void spin_give(struct km_sim *sim, struct km_lock *l, struct km_ctx *next,
		      km_time delay)
{
	l->avail = 0;
	l->owner = next;
	if (l->ops && l->ops->raw_granted)
		l->ops->raw_granted(sim, next, delay);
	else
		km_lock_grant(sim, next->wait_obj, next, delay);
}

void km_spin_window_close(struct km_sim *sim, struct km_lock *l, uint64_t token)
{
	if (token != l->u.raw.token || !l->u.raw.window_open)
		return;
	l->u.raw.window_open = false;
	if (l->ops && l->ops->window_closed) {
		l->ops->window_closed(sim, l);	/* the global irq lock's */
		return;
	}
	if (l->avail <= 0) {
		l->u.raw.window_next = NULL;
		return;
	}
	km_time delay = 0;
	struct km_ctx *next = km_spin_pick_next(sim, l, &delay);
	if (next)
		spin_give(sim, l, next, delay);
}

/*
 * km_raw_spin_unlock - release a raw spinning lock and pass it on.
 * Context: any.
 */
void km_raw_spin_unlock(struct km_sim *sim, struct km_lock *l)
{
	km_raw_spin_unlock_after(sim, l, 0);
}

/*
 * km_raw_spin_unlock_after - the same, the unlock's store visible to the
 * spinners @visible ns from now (it drains from the releaser's store
 * buffer: km_line_store()); the hand-off starts then.
 * Context: any.
 */
void km_raw_spin_unlock_after(struct km_sim *sim, struct km_lock *l, km_time visible)
{
	km_time from = km_sat_add(sim->now, visible);
	struct km_ctx *releaser = l->owner;
	l->owner = NULL;
	l->avail = 1;
	if (!l->spinners.len)
		return;
	if (km_lock_spin_flavour(sim, l) == KM_SPIN_MCS && releaser) {
		/* mcs_spin_unlock(): read our node's next (written there by
		 * the successor), then WRITE_ONCE(next->locked): one line to
		 * the successor, who reads it back; the lock word untouched */
		struct km_ctx *next = l->spinners.head;
		int me = releaser->cpu;
		km_time at = km_sat_add(sim->now, km_line_read(sim, &sim->cpus[me].mcs_node,
								me, sim->now));
		at = km_sat_add(at, km_line_write(sim, &sim->cpus[next->cpu].mcs_node, me, at));
		km_time delay = 0;
		km_spin_pick_next(sim, l, &delay);
		spin_give(sim, l, next, km_sat_add(at - sim->now, delay));
		return;
	}
	if (tas(sim, l)) {
		open_window(sim, l, from);
		return;
	}
	km_time delay = 0;
	struct km_ctx *next = pick_next(sim, l, from, &delay);
	spin_give(sim, l, next, delay);
}

/* May a newcomer take @l right now? */
bool km_raw_spin_free_for_newcomer(const struct km_sim *sim, const struct km_lock *l)
{
	if (l->avail <= 0)
		return false;
	return tas(sim, l) || l->spinners.len == 0;
}

/* A newcomer takes @l (test-and-set: closes any open window). */
void km_raw_spin_take(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	l->avail = 0;
	l->owner = ctx;
	if (l->u.raw.window_open) {
		l->u.raw.window_open = false;
		l->u.raw.window_next = NULL;
		l->u.raw.token++;
	}
}
