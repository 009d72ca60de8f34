/*
 * report_read.c - a JSON report read back, only the members wanted.
 *
 * Merging a sweep reads thousands of reports and needs a small part of
 * each: a few counters of each lock, of each CPU, of each measure.  The
 * report is read by jansson, whole, and then cut down to the members the
 * pick list names (report_read.h), so that the thousands of summaries a
 * merge keeps hold only what the table needs.
 *
 * jansson, not a reader of our own: a report comes from anywhere (a
 * sweep's jobs run on other machines, its files can be edited), and a
 * reader written here for speed -- this file held one, 30 times faster
 * -- accepted what jansson refuses (raw control bytes in strings,
 * mismatched brackets, NaN in a member it skipped, keys that are not
 * UTF-8) and recursed without a limit (100,000 nested arrays overflowed
 * the stack).  jansson stops at a depth of 2048, checks UTF-8 and every
 * rule of the grammar, and its error names the line; docs/hardening.md
 * says what the change costs `make bench`.  A key given twice is refused
 * (JSON_REJECT_DUPLICATES): a report never has one, and which of two
 * "seed" members counts would be anyone's guess.
 *
 * Cost: jansson's reading of the whole text (about 50 MB/s), then one
 * walk over what was built, freeing what is not picked.
 */
#include "report_read.h"

#include <string.h>

static const struct km_pick *find_pick(const struct km_pick *pick, const char *key)
{
	for (; pick->key; pick++)
		if ((pick->key[0] == '*' && !pick->key[1]) || !strcmp(pick->key, key))
			return pick;
	return NULL;
}

/* Cut @v down to what @pick names: of an object, its members named
 * (each cut by its sub-pick); of an array, each element. */
static void prune(json_t *v, const struct km_pick *pick)
{
	if (!pick)
		return;
	if (json_is_array(v)) {
		size_t i;
		json_t *el;
		json_array_foreach(v, i, el)
			prune(el, pick);
		return;
	}
	if (!json_is_object(v))
		return;
	const char *key;
	json_t *m;
	void *tmp;
	json_object_foreach_safe(v, tmp, key, m) {
		const struct km_pick *p = find_pick(pick, key);
		if (!p)
			json_object_del(v, key);
		else
			prune(m, p->sub);
	}
}

json_t *km_report_read(const char *text, size_t len, const struct km_pick *pick,
		       json_error_t *err)
{
	json_t *whole = json_loadb(text, len, JSON_REJECT_DUPLICATES, err);
	if (json_is_object(whole))
		prune(whole, pick);
	return whole;
}
