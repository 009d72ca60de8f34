/*
 * view_text.c - fonts, and a cache of rendered strings.
 *
 * The cache is an open-addressing hash table of textures keyed by the
 * string's FNV-1a hash, the font and the colour, with the string kept to
 * compare on a hit.  A frame draws maybe two hundred strings, almost all
 * the same as the frame before, so a hit costs one hash and one memcmp.
 * When the table fills past three quarters it is emptied at once rather
 * than evicted entry by entry: that happens after thousands of distinct
 * strings (a long playback's event lines), costs one frame's worth of
 * re-rendering, and keeps the code trivially correct.
 *
 * Font sizes are in points at scale 1 (a 1280x800 window) and multiplied
 * by the scale, which folds in the display's pixel density: a 2x display
 * gets fonts of twice the pixels, not text of half the size.
 *
 * Strings longer than KM_TEXT_MAX bytes are drawn truncated: labels are
 * short, and long prose is wrapped by the caller (view_placard.c).
 */
#include "view_text.h"

#include <SDL_ttf.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KM_TEXT_SLOTS 2048
#define KM_TEXT_MAX 512

struct entry {
	uint64_t hash;		/* 0: empty */
	char *s;
	SDL_Texture *tex;
	int w, h;
};

/* Characters outside ASCII that the view writes. */
static const uint32_t extras[] = {
	0x00B5,		/* micro */
	0x00B7,		/* middle dot */
	0x2026,		/* ellipsis */
	0x2264,		/* less or equal */
	0x25A0,		/* black square */
	0x25B6,		/* play */
	0x275A,		/* heavy vertical bar */
	0x2192,		/* arrow */
};
#define NEXTRA (sizeof(extras) / sizeof(extras[0]))
#define NGLYPH (128 + NEXTRA)

/* A font's glyphs, white, tinted at drawing time with a colour mod. */
struct glyphs {
	SDL_Texture *tex[NGLYPH];
	int w[NGLYPH], h[NGLYPH], adv[NGLYPH];
	bool tried[NGLYPH];
};

struct km_text {
	SDL_Renderer *r;
	char dir[PATH_MAX];
	float u;
	TTF_Font *f[KM_FONT_COUNT];
	struct entry slot[KM_TEXT_SLOTS];
	int used;
	struct glyphs g[KM_FONT_COUNT];
	FILE *log;			/* km_text_log */
	enum km_text_role role;		/* km_text_role */
	bool next_cut;			/* km_text_mark_cut */
};

/* The record of placed text (km_text_record). */
static struct {
	bool on;
	struct km_text_box *v;
	size_t n, cap;
} rec;

static const struct {
	const char *file;
	float pt;
	int style;
} specs[KM_FONT_COUNT] = {
	[KM_FONT_SMALL] = { "DejaVuSans.ttf", 10.5f, TTF_STYLE_NORMAL },
	[KM_FONT_BODY] = { "DejaVuSans.ttf", 12.0f, TTF_STYLE_NORMAL },
	[KM_FONT_BOLD] = { "DejaVuSans-Bold.ttf", 12.0f, TTF_STYLE_NORMAL },
	[KM_FONT_HEAD] = { "DejaVuSans-Bold.ttf", 14.0f, TTF_STYLE_NORMAL },
	[KM_FONT_TITLE] = { "DejaVuSans-Bold.ttf", 16.0f, TTF_STYLE_NORMAL },
	[KM_FONT_MONO] = { "DejaVuSansMono.ttf", 11.0f, TTF_STYLE_NORMAL },
};

static void cache_clear(struct km_text *t)
{
	for (int i = 0; i < KM_TEXT_SLOTS; i++) {
		if (t->slot[i].hash) {
			SDL_DestroyTexture(t->slot[i].tex);
			free(t->slot[i].s);
		}
	}
	memset(t->slot, 0, sizeof(t->slot));
	t->used = 0;
}

static void fonts_close(struct km_text *t)
{
	for (int i = 0; i < KM_FONT_COUNT; i++) {
		if (t->f[i])
			TTF_CloseFont(t->f[i]);
		t->f[i] = NULL;
		for (size_t k = 0; k < NGLYPH; k++)
			if (t->g[i].tex[k])
				SDL_DestroyTexture(t->g[i].tex[k]);
		memset(&t->g[i], 0, sizeof(t->g[i]));
	}
}

/*
 * The font files, read once a process and kept: every picture opens its
 * six fonts, and FreeType reading a file loads each glyph with a seek and
 * a read (the tests draw thousands of pictures).  From memory the bytes
 * are the same, and so are the glyphs.  A file that cannot be read whole
 * is opened as before, so its error is the one TTF_OpenFont gives.
 */
#define KM_FONT_FILES 4
#define KM_FONT_FILE_MAX (64L << 20)

static struct {
	char path[PATH_MAX + 64];
	void *data;
	long len;
} font_files[KM_FONT_FILES];
static pthread_mutex_t font_files_lock = PTHREAD_MUTEX_INITIALIZER;

static const void *font_bytes(const char *path, long *len)
{
	const void *found = NULL;
	pthread_mutex_lock(&font_files_lock);
	int i = 0;
	while (i < KM_FONT_FILES && font_files[i].data && strcmp(font_files[i].path, path))
		i++;
	if (i < KM_FONT_FILES && !font_files[i].data) {
		FILE *f = fopen(path, "rb");
		long n = -1;
		void *data = NULL;
		if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && n <= KM_FONT_FILE_MAX &&
		    fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n)) &&
		    fread(data, 1, (size_t)n, f) == (size_t)n) {
			snprintf(font_files[i].path, sizeof(font_files[i].path), "%s", path);
			font_files[i].data = data;
			font_files[i].len = n;
			data = NULL;
		}
		free(data);
		if (f)
			fclose(f);
	}
	if (i < KM_FONT_FILES && font_files[i].data) {
		found = font_files[i].data;
		*len = font_files[i].len;
	}
	pthread_mutex_unlock(&font_files_lock);
	return found;
}

static TTF_Font *font_open(const char *path, int px)
{
	long len;
	const void *bytes = font_bytes(path, &len);
	SDL_RWops *rw = bytes ? SDL_RWFromConstMem(bytes, (int)len) : NULL;
	return rw ? TTF_OpenFontRW(rw, 1, px) : TTF_OpenFont(path, px);
}

static int fonts_open(struct km_text *t, char *err, size_t errlen)
{
	for (int i = 0; i < KM_FONT_COUNT; i++) {
		char path[PATH_MAX + 64];
		snprintf(path, sizeof(path), "%s/%s", t->dir, specs[i].file);
		int px = (int)(specs[i].pt * t->u * 96.0f / 72.0f + 0.5f);
		t->f[i] = font_open(path, px < 6 ? 6 : px);
		if (!t->f[i]) {
			if (err)
				snprintf(err, errlen, "cannot open the font %s: %s", path,
					 TTF_GetError());
			fonts_close(t);
			return -1;
		}
		TTF_SetFontStyle(t->f[i], specs[i].style);
		TTF_SetFontHinting(t->f[i], TTF_HINTING_LIGHT);
	}
	return 0;
}

struct km_text *km_text_new(SDL_Renderer *r, const char *assets_dir, float u,
			    char *err, size_t errlen)
{
	if (!TTF_WasInit() && TTF_Init() < 0) {
		snprintf(err, errlen, "SDL_ttf: %s", TTF_GetError());
		return NULL;
	}
	struct km_text *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->r = r;
	t->u = u;
	snprintf(t->dir, sizeof(t->dir), "%s", assets_dir);
	if (fonts_open(t, err, errlen) < 0) {
		free(t);
		return NULL;
	}
	return t;
}

void km_text_free(struct km_text *t)
{
	if (!t)
		return;
	cache_clear(t);
	fonts_close(t);
	free(t);
}

int km_text_rescale(struct km_text *t, float u)
{
	if (u == t->u)
		return 0;
	cache_clear(t);
	fonts_close(t);
	t->u = u;
	return fonts_open(t, NULL, 0);
}

static uint64_t hash_key(const char *s, size_t n, int font, uint32_t rgb)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	h ^= (uint64_t)font * 0x9E3779B97F4A7C15ULL ^ (uint64_t)rgb << 20;
	h *= 1099511628211ULL;
	return h ? h : 1;
}

/* The cached texture of @s, rendering it on a miss; NULL if it cannot. */
static struct entry *lookup(struct km_text *t, enum km_font f, const char *s, uint32_t rgb)
{
	char buf[KM_TEXT_MAX + 1];
	size_t n = strlen(s);
	if (n > KM_TEXT_MAX) {
		n = KM_TEXT_MAX;
		while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;		/* cut at a character boundary */
		memcpy(buf, s, n);
		buf[n] = 0;
		s = buf;
	}
	uint64_t h = hash_key(s, n, (int)f, rgb);
	unsigned i = (unsigned)(h % KM_TEXT_SLOTS);
	for (;;) {
		struct entry *e = &t->slot[i];
		if (!e->hash)
			break;
		if (e->hash == h && !strcmp(e->s, s))
			return e;
		i = (i + 1) % KM_TEXT_SLOTS;
	}
	if (t->used >= KM_TEXT_SLOTS * 3 / 4) {
		cache_clear(t);
		i = (unsigned)(h % KM_TEXT_SLOTS);
	}
	SDL_Color c = { (Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb, 255 };
	SDL_Surface *surf = TTF_RenderUTF8_Blended(t->f[f], s, c);
	if (!surf)
		return NULL;
	SDL_Texture *tex = SDL_CreateTextureFromSurface(t->r, surf);
	int w = surf->w, hh = surf->h;
	SDL_FreeSurface(surf);
	char *copy = strdup(s);
	if (!tex || !copy) {
		SDL_DestroyTexture(tex);
		free(copy);
		return NULL;
	}
	struct entry *e = &t->slot[i];
	*e = (struct entry){ .hash = h, .s = copy, .tex = tex, .w = w, .h = hh };
	t->used++;
	return e;
}

void km_text_log(struct km_text *t, FILE *f)
{
	t->log = f;
}

void km_text_record_frame(void)
{
	for (size_t i = 0; i < rec.n; i++)
		free(rec.v[i].s);
	rec.n = 0;
}

void km_text_record(bool on)
{
	km_text_record_frame();
	if (!on) {
		free(rec.v);
		rec.v = NULL;
		rec.cap = 0;
	}
	rec.on = on;
}

const struct km_text_box *km_text_boxes(size_t *n)
{
	*n = rec.n;
	return rec.v;
}

enum km_text_role km_text_role(struct km_text *t, enum km_text_role role)
{
	enum km_text_role old = t->role;
	t->role = role;
	return old;
}

void km_text_mark_cut(struct km_text *t)
{
	t->next_cut = true;
}

/* Keep a box: @s NULL for a fill.  Out of memory, the record stops
 * growing (a test then finds boxes missing, and says so). */
static void record(SDL_Renderer *rd, const char *s, int n, const SDL_Rect *r, int font,
		   int role, bool cut)
{
	if (rec.n == rec.cap) {
		size_t cap = rec.cap ? rec.cap * 2 : 256;
		struct km_text_box *v = realloc(rec.v, cap * sizeof(*v));
		if (!v)
			return;
		rec.v = v;
		rec.cap = cap;
	}
	struct km_text_box *b = &rec.v[rec.n];
	*b = (struct km_text_box){ .r = *r, .font = (uint8_t)font, .role = (uint8_t)role,
				   .cut = cut };
	if (s && !(b->s = strndup(s, (size_t)n)))
		return;
	if (SDL_RenderIsClipEnabled(rd)) {
		SDL_RenderGetClipRect(rd, &b->clip);
	} else {
		b->clip.x = b->clip.y = 0;
		SDL_GetRendererOutputSize(rd, &b->clip.w, &b->clip.h);
	}
	rec.n++;
}

void km_text_record_fill(SDL_Renderer *rd, const SDL_Rect *r, bool picture)
{
	if (!rec.on)
		return;
	record(rd, NULL, 0, r, 0, 0, false);
	if (rec.n && !rec.v[rec.n - 1].s)
		rec.v[rec.n - 1].picture = picture;
}

int km_text_draw(struct km_text *t, enum km_font f, const char *s, int x, int y,
		 uint32_t rgb, enum km_align a)
{
	if (!s || !*s)
		return 0;
	if (t->log)
		fprintf(t->log, "text: %s\n", s);
	bool cut = t->next_cut;
	t->next_cut = false;
	struct entry *e = lookup(t, f, s, rgb);
	if (!e)
		return 0;
	SDL_Rect dst = { x, y, e->w, e->h };
	if (a == KM_CENTRE)
		dst.x -= e->w / 2;
	else if (a == KM_RIGHT)
		dst.x -= e->w;
	SDL_RenderCopy(t->r, e->tex, NULL, &dst);
	if (rec.on)
		record(t->r, s, (int)strlen(s), &dst, (int)f, (int)t->role, cut);
	return e->w;
}

/* Decode one UTF-8 character at *s (advancing it); '?' when malformed. */
static uint32_t utf8_next(const char **s)
{
	const unsigned char *p = (const unsigned char *)*s;
	uint32_t c = p[0];
	int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
	if (n < 0) {
		(*s)++;
		return '?';
	}
	c = n == 0 ? c : n == 1 ? c & 0x1F : n == 2 ? c & 0x0F : c & 0x07;
	for (int i = 1; i <= n; i++) {
		if ((p[i] & 0xC0) != 0x80) {
			*s += i;
			return '?';
		}
		c = (c << 6) | (p[i] & 0x3F);
	}
	*s += n + 1;
	return c;
}

static int glyph_index(uint32_t c)
{
	if (c >= 32 && c < 128)
		return (int)c;
	for (size_t i = 0; i < NEXTRA; i++)
		if (extras[i] == c)
			return 128 + (int)i;
	return '?';
}

/* The glyph @k of font @f, rendered on first use. */
static SDL_Texture *glyph(struct km_text *t, enum km_font f, int k)
{
	struct glyphs *g = &t->g[f];
	if (g->tex[k] || g->tried[k])
		return g->tex[k];
	g->tried[k] = true;
	uint32_t c = k < 128 ? (uint32_t)k : extras[k - 128];
	SDL_Color white = { 255, 255, 255, 255 };
	SDL_Surface *surf = TTF_RenderGlyph32_Blended(t->f[f], c, white);
	if (!surf)
		return NULL;
	g->tex[k] = SDL_CreateTextureFromSurface(t->r, surf);
	g->w[k] = surf->w;
	g->h[k] = surf->h;
	SDL_FreeSurface(surf);
	int minx, maxx, miny, maxy, adv;
	g->adv[k] = TTF_GlyphMetrics32(t->f[f], c, &minx, &maxx, &miny, &maxy, &adv) == 0 ? adv
										   : g->w[k];
	if (g->tex[k])
		SDL_SetTextureBlendMode(g->tex[k], SDL_BLENDMODE_BLEND);
	return g->tex[k];
}

int km_text_draw_fast(struct km_text *t, enum km_font f, const char *s, int x, int y,
		      uint32_t rgb, int maxw)
{
	if (!s)
		return 0;
	int ell = glyph_index(0x2026);
	glyph(t, f, ell);
	int ellw = t->g[f].adv[ell];
	/* does it all fit? */
	int total = 0;
	for (const char *p = s; *p;) {
		int k = glyph_index(utf8_next(&p));
		glyph(t, f, k);
		total += t->g[f].adv[k];
	}
	int limit = total <= maxw ? maxw : maxw - ellw;
	int cx = x;
	bool cut = false;
	const char *p = s;
	while (*p) {
		const char *at = p;
		int k = glyph_index(utf8_next(&p));
		SDL_Texture *tex = glyph(t, f, k);
		if (cx - x + t->g[f].adv[k] > limit) {
			cut = true;
			p = at;
			break;
		}
		if (tex) {
			SDL_SetTextureColorMod(tex, (Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb);
			SDL_Rect dst = { cx, y, t->g[f].w[k], t->g[f].h[k] };
			SDL_RenderCopy(t->r, tex, NULL, &dst);
		}
		cx += t->g[f].adv[k];
	}
	if (cut) {
		SDL_Texture *tex = glyph(t, f, ell);
		if (tex) {
			SDL_SetTextureColorMod(tex, (Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb);
			SDL_Rect dst = { cx, y, t->g[f].w[ell], t->g[f].h[ell] };
			SDL_RenderCopy(t->r, tex, NULL, &dst);
		}
		cx += ellw;
	}
	if (t->log)
		fprintf(t->log, "text: %.*s%s\n", (int)(p - s), s, cut ? "\xe2\x80\xa6" : "");
	if (rec.on)
		record(t->r, s, (int)(p - s), &(SDL_Rect){ x, y, cx - x, TTF_FontHeight(t->f[f]) },
		       (int)f, (int)t->role, cut);
	return cx - x;
}

int km_text_width(struct km_text *t, enum km_font f, const char *s)
{
	int w = 0, h = 0;
	if (!s || !*s || TTF_SizeUTF8(t->f[f], s, &w, &h) < 0)
		return 0;
	return w;
}

int km_text_height(struct km_text *t, enum km_font f)
{
	return TTF_FontLineSkip(t->f[f]);
}

size_t km_text_fit(struct km_text *t, enum km_font f, const char *s, size_t len, int w)
{
	char buf[KM_TEXT_MAX + 1];
	if (len > KM_TEXT_MAX)
		len = KM_TEXT_MAX;
	/* binary search on the byte length, snapped to character starts */
	size_t lo = 0, hi = len;
	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;
		while (mid > lo && mid < len && ((unsigned char)s[mid] & 0xC0) == 0x80)
			mid--;
		if (mid == lo) {
			/* no character boundary between lo and the midpoint: step */
			mid = lo + 1;
			while (mid < len && ((unsigned char)s[mid] & 0xC0) == 0x80)
				mid++;
		}
		memcpy(buf, s, mid);
		buf[mid] = 0;
		int tw = 0, th = 0;
		TTF_SizeUTF8(t->f[f], buf, &tw, &th);
		if (tw <= w)
			lo = mid;
		else
			hi = mid - 1;
		while (hi > lo && hi < len && ((unsigned char)s[hi] & 0xC0) == 0x80)
			hi--;
	}
	return lo;
}
