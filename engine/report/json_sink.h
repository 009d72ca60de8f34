/*
 * json_sink.h - one description of a JSON value, two places to put it.
 *
 * The JSON report used to be built as a jansson tree and then dumped:
 * for 100,000 tasks that is four million small objects made, written
 * and freed, twice (once more for the checks).  A sink lets the report
 * be described once, as a sequence of calls, and sent either
 *
 *  - into a jansson tree (KM_JS_TREE), for the checks and for compare and
 *    explore, which read values back; or
 *  - straight out as text (KM_JS_TEXT), byte for byte what
 *    json_dumpf(tree, JSON_INDENT(2) | JSON_PRESERVE_ORDER) writes for
 *    the same tree, without making the tree.
 *
 * NOTE: neither sink drops anything.  jansson refuses a string or a key
 * that is not valid UTF-8 (the member disappears), which once made a
 * lock, a task or a failed check vanish from the report; here each byte
 * outside a well-formed sequence is written as U+FFFD instead, the same
 * way in the tree and the text, and a NULL string is null.
 * km_js_packed() opens an object that is all-or-nothing (used for
 * running out of memory); km_js_object() an ordinary one.  The text sink
 * keeps what it writes in memory until no all-or-nothing object is open,
 * so it can take back a failed one.
 *
 * Not a general JSON library: integers, strings, booleans and null, in
 * objects and arrays nested at most KM_JS_DEPTH deep; no reals.
 *
 * Cost: text output is a few instructions per byte (an integer is
 * formatted by hand, a string is checked and copied in two passes); the
 * tree costs what jansson costs.
 */
#ifndef KM_REPORT_JSON_SINK_H
#define KM_REPORT_JSON_SINK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define KM_JS_DEPTH 16

enum km_js_kind { KM_JS_TREE, KM_JS_TEXT };

struct km_js_level {
	json_t *node;			/* tree: the container being filled */
	const char *key;		/* its key in the parent (NULL in an array) */
	size_t count;			/* text: members written so far */
	size_t mark;			/* text: buffer length before it began */
	size_t parent_count;		/* text: the parent's count before it */
	bool object, packed, failed;
};

struct km_jsink {
	enum km_js_kind kind;
	int depth;			/* open containers */
	struct km_js_level lv[KM_JS_DEPTH];
	json_t *root;			/* tree: the finished value */
	int skip;			/* containers opened past KM_JS_DEPTH */
	bool oom;			/* or too deep: the value is refused */
	/* text */
	FILE *out;
	char *buf;
	size_t len, cap;
	int held;			/* open all-or-nothing objects: no flush */
	bool werr;
	size_t written;			/* bytes handed to @out so far */
};

/* A sink into a jansson tree; take the value with km_js_take_tree. */
void km_js_init_tree(struct km_jsink *s);
/* A sink writing to @out; km_js_finish_text flushes it.  Its buffer is
 * reserved whole at the start (twice the flush size), so that once bytes
 * have reached @out no allocation is needed unless one member is larger
 * than the flush size: running out of memory half-way would leave half a
 * JSON document on stdout. */
void km_js_init_text(struct km_jsink *s, FILE *out);

/**
 * km_js_take_tree - the finished tree (a new reference), or NULL if it
 * was dropped or memory ran out.  Frees what the sink still holds.
 */
json_t *km_js_take_tree(struct km_jsink *s);
/**
 * km_js_finish_text - write what is buffered, free the buffer.
 * Returns 0, or -1 if a write failed or memory ran out.
 */
int km_js_finish_text(struct km_jsink *s);

/*
 * The values.  @key names the member inside an object and must be NULL
 * inside an array and for the outermost value.  A NULL @str is null;
 * text that is not UTF-8 is written with U+FFFD for each bad byte.
 */
void km_js_object(struct km_jsink *s, const char *key);
void km_js_packed(struct km_jsink *s, const char *key);
void km_js_array(struct km_jsink *s, const char *key);
void km_js_end(struct km_jsink *s);
void km_js_int(struct km_jsink *s, const char *key, int64_t v);
void km_js_str(struct km_jsink *s, const char *key, const char *str);
void km_js_bool(struct km_jsink *s, const char *key, bool v);
void km_js_null(struct km_jsink *s, const char *key);

/* Whether @s is valid UTF-8 by jansson's rules (no overlong forms, no
 * surrogates, nothing past U+10FFFF). */
bool km_js_utf8_ok(const char *s, size_t len);

#endif /* KM_REPORT_JSON_SINK_H */
