/*
 * heap_wrap.c - the program's allocations, rerouted to the snapshot arena
 * while a run under snapshots is on (snapshot.h).
 *
 * The program is linked with --wrap for malloc, calloc, realloc, free,
 * strdup and strndup: every call the program's own objects make lands
 * here, and __real_X is the C library's (or a sanitizer's) X.  Calls from
 * inside the libraries (jansson, the C library itself) are not rerouted:
 * they allocate and free their own, within one call or one report.  A
 * block of the arena is recognised by its address, so it may be freed
 * with the arena off, and a block of the C library's with it on.
 *
 * Linked into the program only: the unit tests link no rerouting, and
 * snapshots are then off (km_snap_usable).
 */
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

const bool km_heap_rerouted = true;

void *__real_malloc(size_t n);
void *__real_calloc(size_t a, size_t b);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t a, size_t b);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

void *__wrap_malloc(size_t n)
{
	return km_arena_on ? km_arena_malloc(n) : __real_malloc(n);
}

void *__wrap_calloc(size_t a, size_t b)
{
	if (!km_arena_on)
		return __real_calloc(a, b);
	if (b && a > (size_t)-1 / b)
		return NULL;
	void *p = km_arena_malloc(a * b);
	if (p)
		memset(p, 0, a * b);
	return p;
}

void *__wrap_realloc(void *p, size_t n)
{
	if (p && km_arena_holds(p)) {
		if (n == 0) {
			km_arena_free(p);
			return NULL;
		}
		return km_arena_realloc(p, n);
	}
	if (!p && km_arena_on)
		return km_arena_malloc(n);
	return __real_realloc(p, n);
}

void __wrap_free(void *p)
{
	if (p && km_arena_holds(p))
		km_arena_free(p);
	else
		__real_free(p);
}

char *__wrap_strndup(const char *s, size_t n)
{
	if (!km_arena_on)
		return __real_strndup(s, n);
	size_t len = strnlen(s, n);
	char *d = km_arena_malloc(len + 1);
	if (d) {
		memcpy(d, s, len);
		d[len] = 0;
	}
	return d;
}

char *__wrap_strdup(const char *s)
{
	return km_arena_on ? __wrap_strndup(s, (size_t)-1) : __real_strdup(s);
}
