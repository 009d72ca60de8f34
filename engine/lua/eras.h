/*
 * eras.h - loading the collection of eras (one Lua file per era under eras/).
 *
 * Each era file calls era{ ... } once (fields in section 5 of the scenario
 * contract, plus semaphore, mutex_handoff, sleep_check and semaphores).
 * Files are loaded through the same sandbox as scenarios, so an era file
 * from elsewhere is no more trusted than a scenario.  The list is kept in
 * chronological order: that is the order of `lockmuseum list`, of the era
 * ribbon, and how "which era did the mutex arrive in" is answered.
 */
#ifndef KM_LUA_ERAS_H
#define KM_LUA_ERAS_H

#include "../sim.h"

struct km_era_list {
	struct km_era *v;
	int n;
};

/**
 * km_eras_load - load every *.lua under @dir into @out, sorted by year.
 * Returns 0, or -1 with a one-line "file:line: message" in @err.
 */
int km_eras_load(const char *dir, struct km_era_list *out, char *err, size_t errlen);

/* Load one era file.  Returns 0 or -1 with @err. */
int km_era_load_file(const char *path, struct km_era *era, char *err, size_t errlen);

void km_eras_free(struct km_era_list *list);

/* The era whose id, version or year is @key, or NULL. */
const struct km_era *km_eras_find(const struct km_era_list *list, const char *key);

/* The first era (chronologically) that has primitive @p, and the first
 * after that which no longer has it; either may be NULL. */
const struct km_era *km_eras_arrival(const struct km_era_list *list, enum km_prim p);
const struct km_era *km_eras_removal(const struct km_era_list *list, enum km_prim p);

#endif /* KM_LUA_ERAS_H */
