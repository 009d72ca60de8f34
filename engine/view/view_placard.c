/*
 * view_placard.c - the placard panel: the exhibit's text, what to look
 * at, and the era's placard.
 *
 * Placards are markdown files written for people (docs/eras/<id>.md).  The
 * panel renders the small subset they use: "#" and "##" headings, blank
 * lines between paragraphs, fenced code in a monospace font, and inline
 * emphasis (**bold**, *italic*, `code`) shown as plain text with the
 * markers removed -- one font per line keeps the layout simple and the
 * text legible.  Paragraphs are word-wrapped to the panel's width; so are
 * long lines of code in projector mode (elsewhere they are cut, which
 * keeps a listing's shape).
 *
 * Layout is done once per change of text or width, into a list of lines
 * (pointers into our own copy of the text); a frame only draws the
 * visible lines, each a cached texture.  The exhibit's "what to look at"
 * sentence comes first, in a yellow box, because it is the one thing a
 * visitor in a hurry should read.
 */
#include "view_panels.h"

#include <stdlib.h>
#include <string.h>

static int add_line(struct km_placard_doc *doc, const char *s, size_t len, int font,
		    enum km_placard_line_kind kind, int x, int y)
{
	if (doc->nlines == doc->cap) {
		int cap = doc->cap ? doc->cap * 2 : 64;
		struct km_placard_line *v = realloc(doc->line, (size_t)cap * sizeof(*v));
		if (!v)
			return -1;
		doc->line = v;
		doc->cap = cap;
	}
	doc->line[doc->nlines++] = (struct km_placard_line){
		.s = s, .len = (uint32_t)len, .font = (uint8_t)font, .kind = (uint8_t)kind,
		.x = x, .y = y,
	};
	return 0;
}

/* Append @s to the doc's text with markdown emphasis removed; returns the
 * offset of the copy.  Code lines are copied verbatim. */
static size_t append(struct km_placard_doc *doc, size_t *used, const char *s, size_t n, bool raw)
{
	size_t at = *used;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!raw && (c == '*' || c == '`'))
			continue;
		if (c == '\t')
			c = ' ';
		doc->text[(*used)++] = c;
	}
	doc->text[(*used)++] = 0;
	return at;
}

/* Word-wrap the (NUL-terminated) paragraph at @p into lines. */
static int wrap(struct km_draw *d, struct km_placard_doc *doc, char *p, int font,
		enum km_placard_line_kind kind, int x, int w, int *y)
{
	int lh = km_text_height(d->tx, (enum km_font)font);
	size_t len = strlen(p);
	while (len) {
		while (*p == ' ') {
			p++;
			len--;
		}
		if (!len)
			break;
		size_t fit = km_text_fit(d->tx, (enum km_font)font, p, len, w);
		size_t cut = fit;
		if (fit < len) {
			/* back up to a space, unless the word alone is too long */
			size_t sp = fit;
			while (sp > 0 && p[sp] != ' ')
				sp--;
			if (sp > 0)
				cut = sp;
			if (cut == 0)
				cut = fit ? fit : 1;
		}
		if (add_line(doc, p, cut, font, kind, x, *y) < 0)
			return -1;
		*y += lh;
		p += cut;
		len -= cut;
	}
	return 0;
}

/* Flush the paragraph gathered so far as wrapped body text. */
static int flush(struct km_draw *d, struct km_placard_doc *doc, size_t *used, char *para,
		 size_t *plen, int w, int *y)
{
	if (!*plen)
		return 0;
	size_t at = append(doc, used, para, *plen, false);
	*plen = 0;
	if (wrap(d, doc, doc->text + at, KM_FONT_BODY, KM_LINE_TEXT, 0, w, y) < 0)
		return -1;
	*y += km_text_height(d->tx, KM_FONT_BODY) / 2;
	return 0;
}

/* Lay out one markdown text starting at *y. */
static int layout_md(struct km_draw *d, struct km_placard_doc *doc, size_t *used, const char *md,
		     int w, int *y)
{
	int body = km_text_height(d->tx, KM_FONT_BODY);
	bool code = false;
	char para[4096];
	size_t plen = 0;
	for (const char *s = md; *s;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
			n--;
		bool fence = n >= 3 && !strncmp(s, "```", 3);
		if (code) {
			if (fence) {
				code = false;
				*y += body / 2;
			} else {
				size_t at = append(doc, used, s, n, true);
				char *line = doc->text + at;
				int cx = km_draw_px(d, 6);
				if (doc->wrap_code && km_text_width(d->tx, KM_FONT_MONO, line) > w - cx) {
					/* projector mode: a long line of code wraps too */
					if (wrap(d, doc, line, KM_FONT_MONO, KM_LINE_CODE, cx, w - cx, y) < 0)
						return -1;
				} else {
					if (add_line(doc, line, strlen(line), KM_FONT_MONO, KM_LINE_CODE,
						     cx, *y) < 0)
						return -1;
					*y += km_text_height(d->tx, KM_FONT_MONO);
				}
			}
		} else if (fence) {
			if (flush(d, doc, used, para, &plen, w, y) < 0)
				return -1;
			code = true;
		} else if (n && s[0] == '#') {
			if (flush(d, doc, used, para, &plen, w, y) < 0)
				return -1;
			size_t level = 0;
			while (level < n && s[level] == '#')
				level++;
			size_t at = append(doc, used, s + level, n - level, false);
			if (wrap(d, doc, doc->text + at, level == 1 ? KM_FONT_HEAD : KM_FONT_BOLD,
				 KM_LINE_TEXT, 0, w, y) < 0)
				return -1;
			*y += body / 4;
		} else if (!n) {
			if (flush(d, doc, used, para, &plen, w, y) < 0)
				return -1;
		} else if (plen + n + 2 < sizeof(para)) {
			if (plen)
				para[plen++] = ' ';
			memcpy(para + plen, s, n);
			plen += n;
		}
		s = nl ? nl + 1 : s + strlen(s);
	}
	return flush(d, doc, used, para, &plen, w, y);
}

static int layout(struct km_draw *d, struct km_placard_doc *doc, const char *title,
		  const char *ex, const char *look, const char *era, int w)
{
	size_t need = (title ? strlen(title) : 0) + (ex ? strlen(ex) : 0) +
		      (look ? strlen(look) : 0) + (era ? strlen(era) : 0) + 4096;
	/* every line gets a NUL: at most one per byte */
	need *= 2;
	if (need > doc->text_cap) {
		char *t = realloc(doc->text, need);
		if (!t)
			return -1;
		doc->text = t;
		doc->text_cap = need;
	}
	doc->nlines = 0;
	size_t used = 0;
	int y = 0;
	int pad = km_draw_px(d, 8);
	if (title && *title) {
		size_t at = append(doc, &used, title, strlen(title), false);
		if (wrap(d, doc, doc->text + at, KM_FONT_HEAD, KM_LINE_TEXT, 0, w, &y) < 0)
			return -1;
		y += pad / 2;
	}
	if (look && *look) {
		static const char label[] = "What to look at: ";
		char buf[2048];
		snprintf(buf, sizeof(buf), "%s%s", label, look);
		size_t at = append(doc, &used, buf, strlen(buf), false);
		int first = doc->nlines;
		y += pad / 2;
		if (wrap(d, doc, doc->text + at, KM_FONT_BOLD, KM_LINE_LOOK, pad, w - 2 * pad, &y) < 0)
			return -1;
		(void)first;
		y += pad;
	}
	if (ex && *ex) {
		if (layout_md(d, doc, &used, ex, w, &y) < 0)
			return -1;
		y += pad;
	}
	if (era && *era) {
		if (add_line(doc, "", 0, KM_FONT_BODY, KM_LINE_RULE, 0, y) < 0)
			return -1;
		y += pad;
		if (layout_md(d, doc, &used, era, w, &y) < 0)
			return -1;
	}
	doc->height = y;
	return 0;
}

void km_draw_placard(struct km_draw *d, const struct km_view_frame *f,
		     const struct km_view_state *st)
{
	const SDL_Rect *r = &st->lay.placard;
	if (r->w <= 0 || r->h <= 0)
		return;		/* projector mode, the figures' turn */
	struct km_placard_doc *doc = &d->doc;
	const char *title = f->ex ? f->ex->title : NULL;
	const char *ex = f->ex ? f->ex->placard : NULL;
	const char *look = f->ex ? f->ex->look : NULL;
	const char *era = f->run ? f->run->era_placard : NULL;
	int pad = km_draw_px(d, 10);
	int w = r->w - 2 * pad;
	if (doc->src_title != title || doc->src_ex != ex || doc->src_look != look ||
	    doc->src_era != era || doc->width != w || doc->u != d->u ||
	    doc->wrap_code != st->projector) {
		doc->wrap_code = st->projector;
		if (layout(d, doc, title, ex, look, era, w) < 0)
			doc->nlines = 0;
		doc->src_title = title;
		doc->src_ex = ex;
		doc->src_look = look;
		doc->src_era = era;
		doc->width = w;
		doc->u = d->u;
	}
	km_draw_fill(d, r->x, r->y, r->w, r->h, km_pal(KM_C_PANEL));
	SDL_RenderSetClipRect(d->r, r);
	int scroll = st->placard_scroll;
	if (scroll > doc->height - r->h / 2)
		scroll = doc->height - r->h / 2;
	if (scroll < 0)
		scroll = 0;
	int x0 = r->x + pad, y0 = r->y + pad - scroll;
	/* the "look" box behind its lines */
	int ly0 = -1, ly1 = -1;
	for (int i = 0; i < doc->nlines; i++) {
		if (doc->line[i].kind != KM_LINE_LOOK)
			continue;
		if (ly0 < 0)
			ly0 = doc->line[i].y;
		ly1 = doc->line[i].y + km_text_height(d->tx, KM_FONT_BOLD);
	}
	if (ly0 >= 0)
		km_draw_fill(d, x0, y0 + ly0 - pad / 2, w, ly1 - ly0 + pad, km_pal(KM_C_HILITE));
	/* only whole lines: a line the panel's edge would slice is left for
	 * the wheel, and a sign at the foot says that more is below */
	int sign_h = km_text_height(d->tx, KM_FONT_SMALL) + km_draw_px(d, 2);
	int bottom = r->y + r->h - (doc->height - scroll > r->h ? sign_h : 0);
	bool below = false;
	char buf[1024];
	for (int i = 0; i < doc->nlines; i++) {
		const struct km_placard_line *l = &doc->line[i];
		int y = y0 + l->y;
		int lh = km_text_height(d->tx, (enum km_font)l->font);
		if (y < r->y)
			continue;
		/* a heading's lines go together: none shown unless its last is */
		bool heading = l->kind == KM_LINE_TEXT &&
			       (l->font == KM_FONT_HEAD || l->font == KM_FONT_BOLD);
		int last = i;
		while (heading && last + 1 < doc->nlines && doc->line[last + 1].font == l->font &&
		       doc->line[last + 1].kind == l->kind)
			last++;
		if (y0 + doc->line[last].y + lh > bottom) {
			below = true;
			break;
		}
		if (l->kind == KM_LINE_RULE) {
			km_draw_hline(d, x0, x0 + w, y, km_pal(KM_C_GRID));
			continue;
		}
		if (l->kind == KM_LINE_CODE)
			km_draw_fill(d, x0, y, w, lh, km_pal_mix(km_pal(KM_C_PANEL), 0xFFFFFF, 140));
		size_t n = l->len < sizeof(buf) - 1 ? l->len : sizeof(buf) - 1;
		memcpy(buf, l->s, n);
		buf[n] = 0;
		if (l->kind == KM_LINE_CODE)
			km_draw_text_fit(d, KM_FONT_MONO, buf, x0 + l->x, y, w - l->x, km_pal(KM_C_INK));
		else {
			enum km_text_role role = km_text_role(d->tx, heading ? KM_ROLE_HEADING
									 : KM_ROLE_TEXT);
			km_text_draw(d->tx, (enum km_font)l->font, buf, x0 + l->x, y, km_pal(KM_C_INK),
				     KM_LEFT);
			km_text_role(d->tx, role);
		}
	}
	if (below) {
		int sy = r->y + r->h - sign_h;
		km_draw_fill(d, r->x, sy, r->w, sign_h, km_pal(KM_C_PANEL));
		km_draw_hline(d, x0, x0 + w, sy, km_pal(KM_C_GRID));
		km_text_draw(d->tx, KM_FONT_SMALL, "\xe2\x96\xbc more below: scroll", x0 + w,
			     sy + km_draw_px(d, 1), km_pal(KM_C_MUTED), KM_RIGHT);
	}
	SDL_RenderSetClipRect(d->r, NULL);
	if (doc->height > r->h) {
		/* a scroll hint */
		int bar = r->h * r->h / (doc->height + 1);
		int by = r->y + (int)((long long)(r->h - bar) * scroll / (doc->height - r->h / 2 + 1));
		km_draw_fill(d, r->x + r->w - km_draw_px(d, 4), by, km_draw_px(d, 3), bar,
			     km_pal(KM_C_GRID));
	}
}
