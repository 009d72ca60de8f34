/*
 * lock_ops.c - the dispatcher of the locks floor: the method table of
 * each primitive, picked for a mode, and the names the tables give.
 *
 * A lock's primitive is fixed when the run starts (sim.c): its declared
 * kind in the native mode, else the mode's.  From then on lock.c reaches
 * the primitive only through l->ops; this is the one file that names
 * every table, at the top of the locks floor.
 */
#include "lock.h"
#include "core.h"

#include <string.h>
#include <strings.h>

const struct km_lock_ops *km_lock_ops_for(enum km_prim p)
{
	switch (p) {
	case KM_PRIM_CLI: return &km_cli_ops;
	case KM_PRIM_BKL: return &km_bkl_ops;
	case KM_PRIM_SPIN: return &km_spin_ops;
	case KM_PRIM_SEM: return &km_sem_ops;
	case KM_PRIM_MUTEX: return &km_mutex_ops;
	default: return NULL;
	}
}

/* ---------------------------------------------------------------- names -- */

/* A primitive's name is its method table's. */
const char *km_prim_name(enum km_prim p)
{
	const struct km_lock_ops *ops = km_lock_ops_for(p);
	return ops ? ops->name : "?";
}

/* The kernel's names for taking and releasing @p: "down", "up". */
const char *km_prim_lock_verb(enum km_prim p)
{
	const struct km_lock_ops *ops = km_lock_ops_for(p);
	return ops ? ops->lock_verb : "lock";
}

const char *km_prim_unlock_verb(enum km_prim p)
{
	const struct km_lock_ops *ops = km_lock_ops_for(p);
	return ops ? ops->unlock_verb : "unlock";
}

int km_prim_parse(const char *s)
{
	for (int i = 0; i < KM_PRIM_COUNT; i++)
		if (!strcmp(s, km_lock_ops_for((enum km_prim)i)->name))
			return i;
	return -1;
}

const char *km_mode_name(int mode)
{
	return mode == KM_MODE_NATIVE ? "native" : km_prim_name((enum km_prim)mode);
}

/* A mode as a person types it: "Mutex" and "MUTEX" are "mutex". */
int km_mode_parse(const char *s)
{
	if (!strcasecmp(s, "native"))
		return KM_MODE_NATIVE;
	for (int i = 0; i < KM_PRIM_COUNT; i++)
		if (!strcasecmp(s, km_lock_ops_for((enum km_prim)i)->name))
			return i;
	return -2;
}
