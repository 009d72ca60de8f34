/*
 * report_read.h - a JSON report read back, only the members wanted.
 */
#ifndef KM_REPORT_REPORT_READ_H
#define KM_REPORT_REPORT_READ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * What to keep of an object: the members named (or "*": every member),
 * each whole (sub NULL) or only its own members in @sub -- of each
 * element, when the member is an array.  Ends with a NULL key.
 */
struct km_pick {
	const char *key;
	const struct km_pick *sub;
};

/**
 * km_report_read - parse @len bytes of @text, keeping what @pick names.
 * Returns what json_loadb() returns for the text (a key given twice
 * refused, nesting deeper than 2048 refused): the value, or NULL with
 * jansson's error (and line) in @err.  When the value is an object, it
 * is cut down to its picked members, in the text's order.
 * Context: any thread; allocates (the caller frees the value).
 */
json_t *km_report_read(const char *text, size_t len, const struct km_pick *pick,
		       json_error_t *err);

#endif /* KM_REPORT_REPORT_READ_H */
