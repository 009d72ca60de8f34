/*
 * view_inspect.c - hints for the lanes and the inspector box.
 *
 * A lock lane's waiter band says how many wait; who they are comes from
 * the task spans (view_tasks.h): every context spinning on, or asleep
 * on, the lock at that instant, longest waiting first -- the order a FIFO
 * lock would serve them.  The holder is the lock span's (the oldest
 * holder; a counting semaphore says how many more).  A violation's
 * explanation is the core's own message and, for lock-order and similar
 * reports, its lockdep-style splat, whole: the box wraps lines rather
 * than cut them.  A click on the run's outcome line lists its checks,
 * each passed or failed, whole.
 *
 * Cost: a hint or an inspector walks the contexts once (O(contexts x
 * log spans)); it runs on a click or a pointer move, not per event.
 */
#include "view_inspect.h"
#include "view_marks.h"
#include "view_panels.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool in_rect(const SDL_Rect *r, int x, int y)
{
	return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

/* Append to @buf (of @len) at *@off, never past its end. */
static void put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	if (*off >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off += (size_t)n < len - *off ? (size_t)n : len - *off - 1;
}

/* Where the stretch of @ctx's state containing span @sp began: spans of
 * the same state and object before it are one stretch. */
static km_time stretch_start(const struct km_vm_tasks *T, uint32_t ctx,
			     const struct km_vm_tspan *sp)
{
	size_t i = (size_t)(sp - T->spans), first = T->first[ctx];
	for (int steps = 0; i > first && steps < 100000; i--, steps++) {
		const struct km_vm_tspan *p = &T->spans[i - 1];
		if (p->state != sp->state || p->obj != sp->obj)
			break;
	}
	return T->spans[i].t;
}

struct waiter {
	uint32_t ctx;
	km_time since;
	uint8_t state;
};

static int cmp_waiter(const void *a, const void *b)
{
	const struct waiter *x = a, *y = b;
	if (x->since != y->since)
		return x->since < y->since ? -1 : 1;
	return x->ctx < y->ctx ? -1 : x->ctx > y->ctx;
}

/* The contexts waiting for lock @id at @t, longest first; NULL if none
 * (or out of memory: then *n is 0 too). */
static struct waiter *waiters_at(const struct km_view_model *m, uint32_t id, km_time t, size_t *n)
{
	const struct km_vm_tasks *T = &m->tasks;
	*n = 0;
	struct waiter *w = NULL;
	size_t cap = 0;
	for (uint32_t c = 0; c < T->nctx; c++) {
		const struct km_vm_tspan *sp = km_vm_task_at(T, c, t);
		if (!sp || sp->obj != id ||
		    !(sp->state == KM_TS_SPIN || (sp->state == KM_TS_ASLEEP && sp->wait == KM_WAIT_LOCK)))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			struct waiter *nw = realloc(w, cap * sizeof(*w));
			if (!nw) {
				free(w);
				*n = 0;
				return NULL;
			}
			w = nw;
		}
		w[(*n)++] = (struct waiter){ c, stretch_start(T, c, sp), sp->state };
	}
	if (*n)
		qsort(w, *n, sizeof(*w), cmp_waiter);
	return w;
}

/* "held by X (since ...)" or "free", for lock index @li at @t. */
static void holder_words(const struct km_view_model *m, int li, km_time t, char *buf, size_t len)
{
	const struct km_vm_lspan *ls = km_vm_lock_at(m, li, t);
	char since[32];
	if (!ls || !ls->holders || ls->holder == KM_VM_NONE) {
		snprintf(buf, len, "free: nobody holds it");
		return;
	}
	/* the holder's stretch: back over spans with the same holder */
	const struct km_vm_lspan *p = ls;
	const struct km_vm_lspan *lo = &m->lspans[m->locks[li].first];
	for (int steps = 0; p > lo && (p - 1)->holder == ls->holder && (p - 1)->holders &&
	     steps < 100000; steps++)
		p--;
	km_vm_fmt_time(m, p->t, since, sizeof(since));
	if (ls->holders > 1)
		snprintf(buf, len, "held by %s (since %s) and %u more", km_vm_ctx_name(m, ls->holder),
			 since, ls->holders - 1u);
	else
		snprintf(buf, len, "held by %s since %s", km_vm_ctx_name(m, ls->holder), since);
}

bool km_view_hint(const struct km_view_state *s, char *buf, size_t len)
{
	const struct km_view_layout *L = &s->lay;
	const struct km_view_model *m = s->model;
	int x = s->mouse_x, y = s->mouse_y;
	if (!m || L->ncmp || !in_rect(&L->lanes, x, y))
		return false;
	km_time t = km_view_time_of(s, x);
	if (t > s->play || t < 0 || t > m->end)
		return false;	/* the future is not told */
	char ts[32], a[32], b[32], hw[256];
	km_vm_fmt_time(m, t, ts, sizeof(ts));
	int tasks_top = L->task_y + L->task_head;
	if (L->ntasks && y >= tasks_top && y < tasks_top + L->ntasks * L->task_h) {
		uint32_t idx = (uint32_t)(s->task_scroll + (y - tasks_top) / L->task_h);
		if (idx >= m->tasks.norder)
			return false;
		uint32_t ctx = m->tasks.order[idx];
		const char *name = km_vm_ctx_name(m, ctx);
		const struct km_vm_tspan *sp = km_vm_task_at(&m->tasks, ctx, t);
		if (!sp || sp->state == KM_TS_NONE) {
			snprintf(buf, len, "t=%s %s: not running yet, or finished", ts, name);
			return true;
		}
		km_time since = stretch_start(&m->tasks, ctx, sp);
		km_vm_fmt_time(m, since, a, sizeof(a));
		km_vm_fmt_time(m, t - since, b, sizeof(b));
		switch (sp->state) {
		case KM_TS_RUNNING:
			snprintf(buf, len, "t=%s %s: running on CPU%u (since %s)", ts, name, sp->cpu, a);
			break;
		case KM_TS_RUNNABLE:
			snprintf(buf, len, "t=%s %s: runnable, waiting for a CPU for %s so far", ts, name, b);
			break;
		case KM_TS_SPIN:
			snprintf(buf, len, "t=%s %s: spinning on %s on CPU%u for %s so far", ts, name,
				 km_vm_lock_name(m, sp->obj), sp->cpu, b);
			break;
		case KM_TS_ASLEEP:
			if (sp->wait == KM_WAIT_LOCK)
				snprintf(buf, len, "t=%s %s: asleep on %s for %s so far (off every CPU)",
					 ts, name, km_vm_lock_name(m, sp->obj), b);
			else
				snprintf(buf, len, "t=%s %s: asleep (%s), not on a lock, for %s so far", ts,
					 name, sp->wait == KM_WAIT_SLEEP ? "a timed sleep" :
					 sp->wait == KM_WAIT_WQ ? "a wait queue" : "a completion", b);
			break;
		case KM_TS_IRQ:
			snprintf(buf, len, "t=%s %s: interrupted on CPU%u: a handler runs above it", ts,
				 name, sp->cpu);
			break;
		default:
			return false;
		}
		return true;
	}
	if (L->nlocks && y >= L->lock_y && y < L->lock_y + L->nlocks * L->lock_h) {
		int li = m->lane_locks[(y - L->lock_y) / L->lock_h];
		size_t n = 0;
		free(waiters_at(m, m->locks[li].id, t, &n));
		holder_words(m, li, t, hw, sizeof(hw));
		snprintf(buf, len, "t=%s %s: %s; %zu waiting%s", ts, m->locks[li].lock->name, hw, n,
			 n ? " (click to see who)" : "");
		return true;
	}
	if (L->nctrs && y >= L->ctr_y && y < L->ctr_y + L->nctrs * L->ctr_h) {
		const struct km_vm_counter *K = &m->counters[m->lane_ctrs[(y - L->ctr_y) / L->ctr_h]];
		int64_t v = 0;
		for (size_t i = K->first; i < K->first + K->n && m->points[i].t <= t; i++)
			v = m->points[i].v;
		snprintf(buf, len, "t=%s %s = %s", ts, K->c->name,
			 km_vm_fmt_value(v, K->c->unit, a, sizeof(a)));
		return true;
	}
	return false;
}

static size_t lock_text(const struct km_view_state *s, char *buf, size_t len)
{
	const struct km_view_model *m = s->model;
	int li = s->inspect_lock;
	if (li < 0 || li >= m->nlocks)
		return 0;
	const struct km_lock *l = m->locks[li].lock;
	char ts[32], a[32], b[32], hw[256];
	size_t off = 0;
	km_vm_fmt_time(m, s->inspect_t, ts, sizeof(ts));
	put(buf, len, &off, "%s (%s) at t=%s\n", l->name, km_prim_name(l->prim), ts);
	holder_words(m, li, s->inspect_t, hw, sizeof(hw));
	put(buf, len, &off, "%s\n", hw);
	size_t n = 0;
	struct waiter *w = waiters_at(m, m->locks[li].id, s->inspect_t, &n);
	if (!n)
		put(buf, len, &off, "nobody waits for it");
	else
		put(buf, len, &off, "%zu waiting, longest first:", n);
	for (size_t i = 0; i < n && i < 12; i++) {
		km_vm_fmt_time(m, w[i].since, a, sizeof(a));
		km_vm_fmt_time(m, s->inspect_t - w[i].since, b, sizeof(b));
		put(buf, len, &off, "\n%s: %s since %s (%s)", km_vm_ctx_name(m, w[i].ctx),
		    w[i].state == KM_TS_SPIN ? "spinning" : "asleep", a, b);
	}
	if (n > 12)
		put(buf, len, &off, "\nand %zu more", n - 12);
	free(w);
	return off;
}

static size_t violation_text(const struct km_view_state *s, char *buf, size_t len)
{
	const struct km_view_model *m = s->model;
	size_t k = s->inspect_viol;
	if (k >= m->nviols)
		return 0;
	const struct km_trace_rec *r = &m->recs[m->viols[k]];
	size_t off = 0;
	char ts[32], line[512];
	km_vm_fmt_time(m, r->time, ts, sizeof(ts));
	put(buf, len, &off, "Violation %zu of %zu: %s at t=%s\n", k + 1, m->nviols,
	    km_violation_name((enum km_violation_kind)r->aux), ts);
	int32_t msg = m->viol_msg[k];
	const struct km_violation *v = msg >= 0 ? &m->sim->violations.v[msg] : NULL;
	if (v && v->message)
		put(buf, len, &off, "%s", km_vm_micro(v->message, line, sizeof(line)));
	else
		put(buf, len, &off, "%s", km_vm_describe(m, m->viols[k], line, sizeof(line)));
	struct km_vm_lost lu;
	if (km_vm_lost_update(m, m->viols[k], &lu) == 0) {
		const struct km_trace_rec *rd = &m->recs[lu.read], *ot = &m->recs[lu.other],
					  *ov = &m->recs[lu.over];
		char t1[32], t2[32], t3[32];
		put(buf, len, &off, "\n1. %s reads %lld at t=%s\n2. %s writes %lld at t=%s\n"
		    "3. %s writes %lld at t=%s: the write of step 2 is lost",
		    km_vm_ctx_name(m, rd->ctx), (long long)rd->arg,
		    km_vm_fmt_time(m, rd->time, t1, sizeof(t1)), km_vm_ctx_name(m, ot->ctx),
		    (long long)ot->arg, km_vm_fmt_time(m, ot->time, t2, sizeof(t2)),
		    km_vm_ctx_name(m, ov->ctx), (long long)ov->arg,
		    km_vm_fmt_time(m, ov->time, t3, sizeof(t3)));
	}
	if (v && v->splat)
		put(buf, len, &off, "\n%s", v->splat);
	return off;
}

static size_t event_text(const struct km_view_state *s, char *buf, size_t len)
{
	const struct km_view_model *m = s->model;
	if (!s->has_focus || s->focus >= m->nrecs)
		return 0;
	const struct km_trace_rec *r = &m->recs[s->focus];
	char line[1024];
	size_t off = 0;
	put(buf, len, &off, "%s", km_vm_describe(m, s->focus, line, sizeof(line)));
	if (r->ctx >= m->nctx)
		return off;
	const char *text;
	int n = km_vm_source_at(&m->src, r->ctx, r->time, &text);
	const char *file = m->ri && m->ri->file ? m->ri->file : "the scenario";
	if (!n) {
		put(buf, len, &off, "\n%s had called no operation of %s yet", km_vm_ctx_name(m, r->ctx),
		    file);
		return off;
	}
	put(buf, len, &off, "\n%s was running %s:%d", km_vm_ctx_name(m, r->ctx), file, n);
	if (text) {
		while (*text == ' ' || *text == '\t')
			text++;
		put(buf, len, &off, "\n    %s", text);
	}
	return off;
}

static size_t checks_text(const struct km_view_state *s, char *buf, size_t len)
{
	const struct km_run_info *ri = s->model->ri;
	size_t off = 0;
	int ok = 0;
	for (int i = 0; i < ri->nchecks; i++)
		ok += ri->checks[i].ok;
	put(buf, len, &off, "Checks: %d of %d passed", ok, ri->nchecks);
	for (int i = 0; i < ri->nchecks; i++)
		put(buf, len, &off, "\n%s  %s", ri->checks[i].ok ? "ok" : "FAILED",
		    ri->checks[i].message ? ri->checks[i].message : "");
	return off;
}

size_t km_view_inspect_text(const struct km_view_state *s, char *buf, size_t len)
{
	if (len)
		buf[0] = 0;
	if (!s->model || !len)
		return 0;
	switch (s->inspect) {
	case KM_INSPECT_LOCK:
		return lock_text(s, buf, len);
	case KM_INSPECT_VIOLATION:
		return violation_text(s, buf, len);
	case KM_INSPECT_EVENT:
		return event_text(s, buf, len);
	case KM_INSPECT_CHECKS:
		return s->model->ri ? checks_text(s, buf, len) : 0;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------- the box -- */

/* Lines of @s (up to '\n') wrapped at @w pixels: calls @draw for each
 * piece, or only counts them when @draw is false.  Returns the count. */
static int wrap(struct km_draw *d, enum km_font f, const char *s, int x, int y, int w, int lh,
		uint32_t rgb, bool draw)
{
	int n = 0;
	char piece[1024];
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		size_t at = 0;
		do {
			size_t fit = km_text_fit(d->tx, f, s + at, len - at, w);
			if (fit == 0)
				fit = 1;
			if (at + fit < len) {
				/* break at the last space that fits, if any */
				size_t sp = fit;
				while (sp > 0 && s[at + sp] != ' ')
					sp--;
				if (sp > 0)
					fit = sp;
			}
			/* a character that does not fit alone: take it whole */
			while (at + fit < len && ((unsigned char)s[at + fit] & 0xC0) == 0x80)
				fit++;
			if (fit >= sizeof(piece))
				fit = sizeof(piece) - 1;
			if (draw) {
				memcpy(piece, s + at, fit);
				piece[fit] = 0;
				km_text_draw(d->tx, f, piece, x, y + n * lh, rgb, KM_LEFT);
			}
			n++;
			at += fit;
			while (at < len && s[at] == ' ')
				at++;
		} while (at < len);
		s += len + (nl ? 1 : 0);
	}
	return n;
}

void km_draw_inspector(struct km_draw *d, const struct km_view_state *st)
{
	static char text[16384];
	if (!km_view_inspect_text(st, text, sizeof(text)))
		return;
	const SDL_Rect *lanes = &st->lay.lanes;
	int pad = km_draw_px(d, 12);
	int w = lanes->w * 2 / 3;
	if (w < km_draw_px(d, 360))
		w = lanes->w;
	int x = lanes->x + lanes->w - w;
	int lh = km_text_height(d->tx, KM_FONT_BODY);
	char *body = strchr(text, '\n');
	if (body)
		*body++ = 0;
	int inner = w - 2 * pad;
	int nhead = wrap(d, KM_FONT_BOLD, text, 0, 0, inner, lh, 0, false);
	int nbody = body ? wrap(d, KM_FONT_BODY, body, 0, 0, inner, lh, 0, false) : 0;
	int h = (nhead + nbody + 1) * lh + 2 * pad;
	/* at the bottom of the lanes: the CPU lanes above, where a story's
	 * arrows are, stay in view */
	int maxh = lanes->h - km_draw_px(d, 8);
	if (h > maxh)
		h = maxh;
	int y = lanes->y + lanes->h - h - km_draw_px(d, 4);
	km_draw_fill(d, x, y, w, h, km_pal(KM_C_PANEL));
	km_draw_frame_rect(d, x, y, w, h, km_pal(KM_C_INK));
	SDL_Rect clip = { x, y, w, h };
	SDL_RenderSetClipRect(d->r, &clip);
	int ty = y + pad;
	wrap(d, KM_FONT_BOLD, text, x + pad, ty, inner, lh, km_pal(KM_C_INK), true);
	ty += nhead * lh;
	if (body)
		wrap(d, KM_FONT_BODY, body, x + pad, ty, inner, lh, km_pal(KM_C_INK), true);
	km_text_draw(d->tx, KM_FONT_SMALL, "Escape or a click elsewhere closes this", x + pad,
		     y + h - pad / 2 - km_text_height(d->tx, KM_FONT_SMALL), km_pal(KM_C_MUTED),
		     KM_LEFT);
	SDL_RenderSetClipRect(d->r, NULL);
}

/* -------------------------------------------------------- the test dump -- */

void km_view_test_dump(const struct km_view_state *s, struct km_view_dump_memo *memo)
{
	if (!memo->checked) {
		const char *e = getenv("LOCKMUSEUM_VIEW_DUMP");
		memo->on = e && *e;
		memo->checked = true;
	}
	const struct km_view_model *m = s->model;
	if (!memo->on || !m)
		return;
	float dpi = s->dpi > 0 ? s->dpi : 1.0f;
	const struct km_view_layout *L = &s->lay;
	if (memo->serial != m->serial || memo->t0 != s->t0 || memo->t1 != s->t1 ||
	    memo->play != s->play || memo->w != s->w || memo->h != s->h ||
	    memo->projector != s->projector || memo->figures != s->figures ||
	    memo->help != s->help || memo->compare != s->compare || memo->cpu_fold != L->cpu_fold) {
		memo->cpu_fold = L->cpu_fold;
		memo->help = s->help;
		memo->compare = s->compare;
		memo->w = s->w;
		memo->h = s->h;
		memo->projector = s->projector;
		memo->figures = s->figures;
		printf("place: size %d %d%s%s%s%s\n", (int)((float)s->w / dpi),
		       (int)((float)s->h / dpi), s->projector ? " projector" : "",
		       s->figures ? " figures" : "", s->compare ? " compare" : "",
		       s->help ? " help" : "");
		memo->serial = m->serial;
		memo->t0 = s->t0;
		memo->t1 = s->t1;
		memo->play = s->play;
		/* the middle of what is revealed and in view */
		km_time a = s->t0 > 0 ? s->t0 : 0, b = s->t1 < s->play ? s->t1 : s->play;
		int mx = (int)((float)km_view_x_of(s, a + (b - a) / 2) / dpi);
		/* the CPU rows, and how many idle CPUs share the last */
		if (!L->ncmp)
			printf("place: cpus %d rows %d folded\n", L->cpu_rows, L->cpu_fold);
		for (int c = 0; c < m->ncpus && c < 4 && !L->ncmp; c++)
			if (km_view_cpu_y(s, c) >= 0)
				printf("place: cpu CPU%d %d %d\n", c, mx,
				       (int)((float)km_view_cpu_y(s, c) / dpi));
		for (int k = 0; k < L->nlocks && !L->ncmp; k++)
			printf("place: lock %s %d %d\n", m->locks[m->lane_locks[k]].lock->name, mx,
			       (int)((float)(L->lock_y + k * L->lock_h + L->lock_h / 4) / dpi));
		for (int k = 0; k < L->ntasks && !L->ncmp; k++)
			printf("place: task %s %d %d\n",
			       km_vm_ctx_name(m, m->tasks.order[s->task_scroll + k]), mx,
			       (int)((float)km_view_task_y(s, k) / dpi));
		int base = L->axis.y + L->axis.h - (int)(3.0f * L->u);
		for (size_t k = 0, n = 0; k < m->nviols && n < 3 && !L->ncmp; k++) {
			km_time t = m->recs[m->viols[k]].time;
			if (t < s->t0 || t > s->t1 || t > s->play)
				continue;
			printf("place: violation %zu %d %d\n", k + 1,
			       (int)((float)km_view_x_of(s, t) / dpi), (int)((float)base / dpi));
			n++;
		}
		printf("place: end\n");
		fflush(stdout);
		memo->text_next = true;
	}
	if (memo->inspect_serial != s->inspect_serial && s->inspect) {
		static char text[16384];
		memo->inspect_serial = s->inspect_serial;
		km_view_inspect_text(s, text, sizeof(text));
		printf("inspect: %s\ninspect: end\n", text);
		fflush(stdout);
	}
}
