/*
 * report_read.c - a JSON report read back, only the members wanted.
 *
 * Merging a sweep reads thousands of reports and needs a small part of
 * each: a few counters of each lock, of each CPU, of each measure; the
 * per-task table, the list of violations and most of each lock's
 * statistics are the bulk of the bytes and none of the table.  jansson
 * spends some hundred instructions a byte building all of it, so the
 * report is read here instead, by a small recursive-descent reader that
 * follows a pick list (report_read.h): what is picked is built as jansson
 * values, what is not is skipped over without being built.
 *
 * The reader is not a validator: anything it does not understand -- not
 * an object, a broken string, a number it cannot read, a \u escape --
 * sends the whole text to json_loadb() instead, so that the result (or
 * the error and its line) is jansson's own.  Same values either way.
 *
 * Cost: one pass over the text; allocation only for what is picked.
 */
#include "report_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct reader {
	const char *p, *end;
};

static void skip_ws(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r'))
		r->p++;
}

/* Past the string opening at r->p; false if it does not end. */
static bool skip_string(struct reader *r, bool *escaped)
{
	*escaped = false;
	for (r->p++; r->p < r->end; r->p++) {
		if (*r->p == '\\') {
			*escaped = true;
			r->p++;
		} else if (*r->p == '"') {
			r->p++;
			return true;
		}
	}
	return false;
}

/* Past the value at r->p, nothing built. */
static bool skip_value(struct reader *r)
{
	bool esc;
	if (r->p >= r->end)
		return false;
	if (*r->p == '"')
		return skip_string(r, &esc);
	if (*r->p == '{' || *r->p == '[') {
		int depth = 0;
		while (r->p < r->end) {
			char c = *r->p;
			if (c == '"') {
				if (!skip_string(r, &esc))
					return false;
				continue;
			}
			if (c == '{' || c == '[')
				depth++;
			else if ((c == '}' || c == ']') && --depth == 0) {
				r->p++;
				return true;
			}
			r->p++;
		}
		return false;
	}
	const char *s = r->p;
	while (r->p < r->end && !strchr(",}] \n\t\r", *r->p))
		r->p++;
	return r->p > s;
}

static json_t *read_value(struct reader *r, const struct km_pick *pick);

/* The string at r->p as a value; NULL (give up) if it has escapes. */
static json_t *read_string(struct reader *r)
{
	const char *s = r->p + 1;
	bool esc;
	if (!skip_string(r, &esc) || esc)
		return NULL;
	return json_stringn(s, (size_t)(r->p - 1 - s));
}

static json_t *read_number(struct reader *r)
{
	const char *s = r->p;
	bool real = false;
	while (r->p < r->end && strchr("0123456789+-.eE", *r->p)) {
		real |= *r->p == '.' || *r->p == 'e' || *r->p == 'E';
		r->p++;
	}
	char buf[64], *end;
	size_t len = (size_t)(r->p - s);
	if (!len || len >= sizeof(buf))
		return NULL;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	if (real) {
		double d = strtod(buf, &end);
		return *end || errno ? NULL : json_real(d);
	}
	long long v = strtoll(buf, &end, 10);
	return *end || errno ? NULL : json_integer(v);
}

static const struct km_pick *find_pick(const struct km_pick *pick, const char *key, size_t len)
{
	for (; pick->key; pick++)
		if ((pick->key[0] == '*' && !pick->key[1]) ||
		    (strlen(pick->key) == len && !memcmp(pick->key, key, len)))
			return pick;
	return NULL;
}

/* An object; with @pick, only its members named there (sub-picked). */
static json_t *read_object(struct reader *r, const struct km_pick *pick)
{
	json_t *obj = json_object();
	r->p++;
	skip_ws(r);
	if (r->p < r->end && *r->p == '}') {
		r->p++;
		return obj;
	}
	while (obj) {
		if (r->p >= r->end || *r->p != '"')
			goto bad;
		const char *key = r->p + 1;
		bool esc;
		if (!skip_string(r, &esc) || esc)
			goto bad;
		size_t klen = (size_t)(r->p - 1 - key);
		skip_ws(r);
		if (r->p >= r->end || *r->p != ':')
			goto bad;
		r->p++;
		skip_ws(r);
		const struct km_pick *m = pick ? find_pick(pick, key, klen) : NULL;
		if (pick && !m) {
			if (!skip_value(r))
				goto bad;
		} else {
			json_t *v = read_value(r, m ? m->sub : NULL);
			if (!v || json_object_setn_new_nocheck(obj, key, klen, v) < 0)
				goto bad;
		}
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			skip_ws(r);
			continue;
		}
		if (r->p < r->end && *r->p == '}') {
			r->p++;
			return obj;
		}
		goto bad;
	}
bad:
	json_decref(obj);
	return NULL;
}

/* An array; @pick applies to each element. */
static json_t *read_array(struct reader *r, const struct km_pick *pick)
{
	json_t *arr = json_array();
	r->p++;
	skip_ws(r);
	if (r->p < r->end && *r->p == ']') {
		r->p++;
		return arr;
	}
	while (arr) {
		json_t *v = read_value(r, pick);
		if (!v || json_array_append_new(arr, v) < 0)
			break;
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			skip_ws(r);
			continue;
		}
		if (r->p < r->end && *r->p == ']') {
			r->p++;
			return arr;
		}
		break;
	}
	json_decref(arr);
	return NULL;
}

static bool word(struct reader *r, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n))
		return false;
	r->p += n;
	return true;
}

static json_t *read_value(struct reader *r, const struct km_pick *pick)
{
	if (r->p >= r->end)
		return NULL;
	switch (*r->p) {
	case '{':
		return read_object(r, pick);
	case '[':
		return read_array(r, pick);
	case '"':
		return read_string(r);
	case 't':
		return word(r, "true") ? json_true() : NULL;
	case 'f':
		return word(r, "false") ? json_false() : NULL;
	case 'n':
		return word(r, "null") ? json_null() : NULL;
	default:
		return read_number(r);
	}
}

json_t *km_report_read(const char *text, size_t len, const struct km_pick *pick,
		       json_error_t *err)
{
	struct reader r = { text, text + len };
	skip_ws(&r);
	json_t *obj = r.p < r.end && *r.p == '{' ? read_object(&r, pick) : NULL;
	if (obj) {
		skip_ws(&r);
		if (r.p == r.end)
			return obj;
		json_decref(obj);
	}
	/* not understood here: jansson's own reading, or its error */
	json_t *whole = json_loadb(text, len, 0, err);
	if (!whole || !json_is_object(whole))
		return whole;
	/* well-formed but beyond this reader (escapes): pick from jansson's */
	json_t *picked = json_object();
	const char *key;
	json_t *v;
	json_object_foreach(whole, key, v)
		if (find_pick(pick, key, strlen(key)))
			json_object_set(picked, key, v);
	json_decref(whole);
	return picked;
}
