/*
 * eras.h - loading the collection of eras (one Lua file per era under eras/).
 *
 * Each era file calls era{ ... } once (fields in section 5 of the scenario
 * contract, plus semaphore, mutex_handoff, sleep_check and semaphores).
 * Files are loaded through the same sandbox as scenarios, so an era file
 * from elsewhere is no more trusted than a scenario.  The list it
 * fills, and what can be asked of it, are the core's (era.h): the view
 * and the reports read eras without knowing they were Lua.
 */
#ifndef KM_LUA_ERAS_H
#define KM_LUA_ERAS_H

#include "../era.h"

#include <stddef.h>

/**
 * km_eras_load - load every *.lua under @dir into @out, sorted by year.
 * Returns 0, or -1 with a one-line "file:line: message" in @err.
 */
int km_eras_load(const char *dir, struct km_era_list *out, char *err, size_t errlen);

/* Load one era file.  Returns 0 or -1 with @err. */
int km_era_load_file(const char *path, struct km_era *era, char *err, size_t errlen);

#endif /* KM_LUA_ERAS_H */
