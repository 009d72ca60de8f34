/*
 * era.c - what can be asked of an era and of the collection of eras.
 *
 * Pure queries over plain data: does an era have a primitive, which era
 * is "2.6.16" or "2006", when did the mutex arrive and the BKL go.  The
 * Lua layer fills the list (lua/eras.c); the command line, the view and
 * the reports ask it questions here, so none of them needs the Lua layer
 * to read an era.  Every query is a linear scan: there are about twenty
 * eras.
 */
#include "era.h"

#include <stdlib.h>
#include <string.h>

bool km_era_has(const struct km_era *era, enum km_prim p)
{
	switch (p) {
	case KM_PRIM_CLI: return true;
	case KM_PRIM_BKL: return era->bkl;
	case KM_PRIM_SPIN: return era->spinlock != KM_SPIN_NONE;
	case KM_PRIM_SEM: return era->semaphore != KM_SEM_NONE;
	case KM_PRIM_MUTEX: return era->mutex;
	default: return false;
	}
}

int km_bkl_flavour_parse(const char *s, enum km_bkl_flavour *out)
{
	static const char *const names[] = { "spinlock", "legacy-semaphore", "generic-semaphore" };
	for (int i = 0; i < 3; i++)
		if (s && !strcmp(s, names[i])) {
			*out = (enum km_bkl_flavour)i;
			return 0;
		}
	return -1;
}

void km_eras_free(struct km_era_list *list)
{
	free(list->v);
	list->v = NULL;
	list->n = 0;
}

const struct km_era *km_eras_find(const struct km_era_list *list, const char *key)
{
	for (int i = 0; i < list->n; i++)
		if (!strcmp(list->v[i].id, key))
			return &list->v[i];
	for (int i = 0; i < list->n; i++)
		if (!strcmp(list->v[i].version, key))
			return &list->v[i];
	char *end;
	long y = strtol(key, &end, 10);
	if (*key && !*end)
		for (int i = 0; i < list->n; i++)
			if (list->v[i].year == y)
				return &list->v[i];
	return NULL;
}

const struct km_era *km_eras_arrival(const struct km_era_list *list, enum km_prim p)
{
	for (int i = 0; i < list->n; i++)
		if (km_era_has(&list->v[i], p))
			return &list->v[i];
	return NULL;
}

const struct km_era *km_eras_removal(const struct km_era_list *list, enum km_prim p)
{
	bool seen = false;
	for (int i = 0; i < list->n; i++) {
		if (km_era_has(&list->v[i], p))
			seen = true;
		else if (seen)
			return &list->v[i];
	}
	return NULL;
}
