/*
 * json_sink.c - a JSON value into a jansson tree or out as text.  See
 * json_sink.h.
 *
 * The text layout is jansson's JSON_INDENT(2): an empty container is
 * "{}" or "[]"; otherwise each member starts on its own line, indented
 * two spaces per open container, members are separated by ",", a key by
 * ": ", and the closing bracket stands on its own line at the parent's
 * indentation.  Since a streaming writer does not know whether a
 * container will stay empty, the separator is written when a member
 * arrives and the closing layout is chosen by the member count.
 */
#include "json_sink.h"

#include <stdlib.h>
#include <string.h>

#define FLUSH_AT ((size_t)1 << 20)

/* Length of the well-formed UTF-8 sequence at @p (RFC 3629: no overlong
 * form, no surrogate, nothing above U+10FFFF), or 0. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
	unsigned c = *p;
	if (c < 0x80)
		return 1;
	size_t n;
	uint32_t v;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
	} else {
		return 0;
	}
	if ((size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && v < 0x800) || (n == 4 && v < 0x10000) || v > 0x10ffff ||
	    (v >= 0xd800 && v <= 0xdfff))
		return 0;
	return n;
}

bool km_js_utf8_ok(const char *str, size_t len)
{
	const unsigned char *p = (const unsigned char *)str, *end = p + len;
	while (p < end) {
		size_t n = utf8_seq(p, end);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

/*
 * NOTE: text that is not UTF-8 is never dropped.  The JSON writers once
 * left out a member whose name or value jansson refused -- a lock, a task,
 * a failed check vanished from the report -- so each byte that is not
 * part of a well-formed sequence is written as U+FFFD instead, the same
 * way in the tree and in the text.  Text is validated where it enters
 * (the scenario's names, messages and --set values are refused there);
 * this is the writers' last line, not the rule.
 */
static char *repaired(const char *str)
{
	size_t n = strlen(str);
	char *r = malloc(3 * n + 1), *o = r;
	if (!r)
		return NULL;
	const unsigned char *p = (const unsigned char *)str, *end = p + n;
	while (p < end) {
		size_t k = utf8_seq(p, end);
		if (k) {
			memcpy(o, p, k);
			o += k;
			p += k;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
		}
	}
	*o = 0;
	return r;
}

/* ---------------------------------------------------------------- text -- */

static bool reserve(struct km_jsink *s, size_t more)
{
	if (s->cap - s->len >= more)
		return true;
	size_t ncap = s->cap ? s->cap : 64 << 10;
	while (ncap - s->len < more)
		ncap *= 2;
	char *n = realloc(s->buf, ncap);
	if (!n) {
		s->oom = true;
		return false;
	}
	s->buf = n;
	s->cap = ncap;
	return true;
}

static void put(struct km_jsink *s, const char *p, size_t n)
{
	if (!reserve(s, n))
		return;
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

static void flush(struct km_jsink *s)
{
	if (s->len && s->out && fwrite(s->buf, 1, s->len, s->out) != s->len)
		s->werr = true;
	s->written += s->len;
	s->len = 0;
}

static void maybe_flush(struct km_jsink *s)
{
	if (!s->held && s->len >= FLUSH_AT)
		flush(s);
}

/* @str as a JSON string at @o, which has room for 6 * @n + 2 bytes. */
static char *escape(char *o, const char *str, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	*o++ = '"';
	const unsigned char *end = (const unsigned char *)str + n;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)str[i];
		if (c >= 0x80) {
			/* a well-formed sequence as it is, any other byte as U+FFFD */
			size_t k = utf8_seq((const unsigned char *)str + i, end);
			if (!k) {
				memcpy(o, "\xef\xbf\xbd", 3);
				o += 3;
				continue;
			}
			memcpy(o, str + i, k);
			o += k;
			i += k - 1;
			continue;
		}
		if (c >= 0x20 && c != '"' && c != '\\') {
			*o++ = (char)c;
			continue;
		}
		*o++ = '\\';
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '\b': *o++ = 'b'; break;
		case '\f': *o++ = 'f'; break;
		case '\n': *o++ = 'n'; break;
		case '\r': *o++ = 'r'; break;
		case '\t': *o++ = 't'; break;
		default:
			*o++ = 'u';
			*o++ = '0';
			*o++ = '0';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
			break;
		}
	}
	*o++ = '"';
	return o;
}

/* @v in decimal at @o, which has room for 20 bytes. */
static char *format_int(char *o, int64_t v)
{
	char tmp[24];
	char *e = tmp + sizeof(tmp), *p = e;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	memcpy(o, p, (size_t)(e - p));
	return o + (e - p);
}

static void put_indent(struct km_jsink *s, int depth)
{
	static const char nl_spaces[] = "\n                                  ";
	put(s, nl_spaces, 1 + (size_t)depth * 2);
}

/* ------------------------------------------------------------- shared -- */

static struct km_js_level *top(struct km_jsink *s)
{
	return s->depth ? &s->lv[s->depth - 1] : NULL;
}

/* A member that jansson would refuse: an all-or-nothing parent fails. */
static void dropped(struct km_jsink *s)
{
	struct km_js_level *p = top(s);
	if (p && p->packed)
		p->failed = true;
}

static bool key_ok(struct km_jsink *s, const char *key, size_t *klen)
{
	struct km_js_level *p = top(s);
	*klen = 0;
	if (!p || !p->object)
		return true;
	if (!key)
		return false;
	*klen = strlen(key);
	return true;	/* escape() repairs what is not UTF-8 */
}

/*
 * Text: the separator, indentation and key of a member (@key of @klen
 * bytes, checked), with @extra bytes more reserved for its value.
 * Returns false when memory ran out.
 */
static bool text_member(struct km_jsink *s, const char *key, size_t klen, size_t extra)
{
	struct km_js_level *p = top(s);
	if (!p)
		return reserve(s, extra);
	size_t ind = (size_t)s->depth * 2;
	if (!reserve(s, 2 + ind + (p->object ? klen * 6 + 4 : 0) + extra))
		return false;
	char *o = s->buf + s->len;
	if (p->count)
		*o++ = ',';
	*o++ = '\n';
	memset(o, ' ', ind);
	o += ind;
	p->count++;
	if (p->object) {
		o = escape(o, key, klen);
		*o++ = ':';
		*o++ = ' ';
	}
	s->len = (size_t)(o - s->buf);
	return true;
}

/* Tree: hang @v (a new reference, or NULL) under the open container. */
static void tree_attach(struct km_jsink *s, const char *key, json_t *v)
{
	struct km_js_level *p = top(s);
	if (!p) {
		json_decref(s->root);
		s->root = v;
		return;
	}
	int rc;
	if (p->object && key && !km_js_utf8_ok(key, strlen(key))) {
		char *fixed = repaired(key);
		rc = fixed ? json_object_set_new(p->node, fixed, v) : (json_decref(v), -1);
		free(fixed);
	} else {
		rc = p->object ? json_object_set_new(p->node, key, v) :
				 json_array_append_new(p->node, v);
	}
	if (rc < 0)
		dropped(s);
}

static void scalar_text(struct km_jsink *s, const char *key, const char *lit, size_t n,
			bool is_int, int64_t v)
{
	size_t klen;
	if (!key_ok(s, key, &klen)) {
		dropped(s);
		return;
	}
	if (!text_member(s, key, klen, is_int ? 20 : n))
		return;
	if (is_int) {
		s->len = (size_t)(format_int(s->buf + s->len, v) - s->buf);
	} else {
		memcpy(s->buf + s->len, lit, n);
		s->len += n;
	}
	maybe_flush(s);
}

/* ------------------------------------------------------------ values -- */

void km_js_init_tree(struct km_jsink *s)
{
	memset(s, 0, sizeof(*s));
	s->kind = KM_JS_TREE;
}

void km_js_init_text(struct km_jsink *s, FILE *out)
{
	memset(s, 0, sizeof(*s));
	s->kind = KM_JS_TEXT;
	s->out = out;
	reserve(s, 2 * FLUSH_AT);	/* see json_sink.h; failure is s->oom */
}

static void open_level(struct km_jsink *s, const char *key, bool object, bool packed)
{
	if (s->skip || s->depth == KM_JS_DEPTH) {
		s->skip++;	/* deeper than any report: refuse it, visibly */
		s->oom = true;
		return;
	}
	struct km_js_level *parent = top(s);
	struct km_js_level lv = { .key = key, .object = object, .packed = packed };
	size_t klen;
	lv.failed = !key_ok(s, key, &klen);
	if (s->kind == KM_JS_TREE) {
		lv.node = object ? json_object() : json_array();
		if (!lv.node) {
			s->oom = true;
			lv.failed = true;
		}
	} else {
		lv.mark = s->len;
		lv.parent_count = parent ? parent->count : 0;
		text_member(s, lv.failed ? "" : key, lv.failed ? 0 : klen, 0);
		put(s, object ? "{" : "[", 1);
		if (lv.failed || packed)
			s->held++;
	}
	s->lv[s->depth++] = lv;
}

void km_js_object(struct km_jsink *s, const char *key)
{
	open_level(s, key, true, false);
}

void km_js_packed(struct km_jsink *s, const char *key)
{
	open_level(s, key, true, true);
}

void km_js_array(struct km_jsink *s, const char *key)
{
	open_level(s, key, false, false);
}

void km_js_end(struct km_jsink *s)
{
	if (s->skip) {
		s->skip--;
		return;
	}
	if (!s->depth)
		return;
	struct km_js_level lv = s->lv[--s->depth];
	if (s->kind == KM_JS_TREE) {
		if (lv.failed) {
			json_decref(lv.node);
			dropped(s);
		} else {
			tree_attach(s, lv.key, lv.node);
		}
		return;
	}
	if (lv.failed || lv.packed)
		s->held--;
	if (lv.failed) {
		/* take the member back, separator and all */
		s->len = lv.mark;
		struct km_js_level *p = top(s);
		if (p)
			p->count = lv.parent_count;
		dropped(s);
		return;
	}
	if (lv.count)
		put_indent(s, s->depth);
	put(s, lv.object ? "}" : "]", 1);
	maybe_flush(s);
}

void km_js_int(struct km_jsink *s, const char *key, int64_t v)
{
	if (s->skip)
		return;
	if (s->kind == KM_JS_TREE)
		tree_attach(s, key, json_integer((json_int_t)v));
	else
		scalar_text(s, key, NULL, 0, true, v);
}

void km_js_bool(struct km_jsink *s, const char *key, bool v)
{
	if (s->skip)
		return;
	if (s->kind == KM_JS_TREE)
		tree_attach(s, key, json_boolean(v));
	else
		scalar_text(s, key, v ? "true" : "false", v ? 4 : 5, false, 0);
}

void km_js_null(struct km_jsink *s, const char *key)
{
	if (s->skip)
		return;
	if (s->kind == KM_JS_TREE)
		tree_attach(s, key, json_null());
	else
		scalar_text(s, key, "null", 4, false, 0);
}

void km_js_str(struct km_jsink *s, const char *key, const char *str)
{
	if (s->skip)
		return;
	if (!str) {
		km_js_null(s, key);	/* a missing string is null, not nothing */
		return;
	}
	if (s->kind == KM_JS_TREE) {
		json_t *v = NULL;
		if (str && km_js_utf8_ok(str, strlen(str))) {
			v = json_string(str);
		} else if (str) {
			char *fixed = repaired(str);
			v = fixed ? json_string(fixed) : NULL;
			free(fixed);
		}
		tree_attach(s, key, v);
		return;
	}
	size_t n = str ? strlen(str) : 0, klen;
	if (!str || !key_ok(s, key, &klen)) {
		dropped(s);
		return;
	}
	if (!text_member(s, key, klen, n * 6 + 2))
		return;
	s->len = (size_t)(escape(s->buf + s->len, str, n) - s->buf);
	maybe_flush(s);
}

json_t *km_js_take_tree(struct km_jsink *s)
{
	s->skip = 0;
	while (s->depth)
		km_js_end(s);
	json_t *r = s->oom ? NULL : s->root;
	if (s->oom)
		json_decref(s->root);
	s->root = NULL;
	return r;
}

int km_js_finish_text(struct km_jsink *s)
{
	s->skip = 0;
	while (s->depth)
		km_js_end(s);
	if (!s->oom)
		flush(s);
	free(s->buf);
	s->buf = NULL;
	s->len = s->cap = 0;
	return s->oom || s->werr ? -1 : 0;
}
