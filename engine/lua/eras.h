/*
 * eras.h - loading the collection of eras (one Lua file per era under eras/).
 *
 * Each era file calls era{ ... } once (fields in section 5 of the scenario
 * contract, plus semaphore, mutex_handoff, sleep_check, and the
 * scheduler's fields of era.h: wake_prev_cpu, wake_affine, o1_balance,
 * prio_bias, cache_hot_ns, rq_lock, ttwu_lines, newidle_balance, scheduler
 * and the cfs_*_ns tunables; and semaphores).  Its costs are its own (costs = { ... }) or, in the
 * museum's eras, those of the machine it names (machine = "2005-2006"):
 * the file of that name under machines/ beside the era's, which calls
 * machine{ name = ..., costs = { ... } } once, its name the file's.  The
 * machine's name is kept in struct km_era (machine).
 * Files are loaded through the same sandbox as scenarios, so an era file
 * from elsewhere is no more trusted than a scenario.  The list it
 * fills, and what can be asked of it, are the core's (era.h): the view
 * and the reports read eras without knowing they were Lua.
 */
#ifndef KM_LUA_ERAS_H
#define KM_LUA_ERAS_H

#include "../era.h"

#include <stdbool.h>
#include <stddef.h>

/**
 * km_eras_load - load every *.lua under @dir into @out, sorted by year,
 * each file within @max_wall seconds of wall-clock time (0: the era
 * files' own budget, 10 s; `list --max-wall` sets another).
 * Returns 0, or -1 with a one-line "file:line: message" in @err.
 */
int km_eras_load(const char *dir, double max_wall, struct km_era_list *out, char *err,
		 size_t errlen);

/*
 * The shelf: the eras of a folder, loaded as they are asked for.
 *
 * Compiling all 19 era files is most of what a small run costs (4 of its
 * 5 M instructions), and a run needs one era.  So the folder's index is
 * its file names -- an era file is named after its id (eras/1996.lua holds
 * id "1996"), and an id that is a number is the era's year; both are
 * checked whenever a file of a folder is loaded -- and a file is compiled
 * when its era is first asked for:
 *
 *   - by id: the file of that name alone;
 *   - the newest: when every name is a year, the greatest alone;
 *   - anything else (a version, a year that is no id, the whole list for
 *     `list`, the view, compare, an error naming the other eras): every
 *     file, as km_eras_load does.
 *
 * So a broken era file is reported, file:line, when it is used, and by
 * every command that reads them all (`list`, `check`, compare, the view).
 * A shelf can also hold a list loaded elsewhere (km_era_shelf_wrap).  The
 * eras it returns stay valid until km_era_shelf_close().  Not thread-safe.
 */
struct km_era_shelf {
	char *dir;
	char **names;			/* the ids: file names less ".lua", sorted */
	struct km_era *slot;		/* slot[i]: names[i]'s era, once loaded */
	bool *loaded;
	int n;
	struct km_era_list all;		/* every era by year, once asked for */
	bool complete;			/* all is filled */
	bool borrowed;			/* all belongs to the caller (wrap) */
	double max_wall;		/* a load's wall-clock budget, s (0: 10 s) */
	/* Called around each load when set (after km_era_shelf_open): the
	 * explorer's runs allocate from an arena that a resume rewinds
	 * (cli/snapshot.h), and an era loaded inside a run must outlive
	 * it, so the explorer pauses the arena for the load. */
	bool (*pause)(void);
	void (*unpause)(bool was);
};

/* Index the era files of @dir (no file is compiled).  Returns 0, or -1
 * with @err (the folder cannot be read, or holds no era file). */
int km_era_shelf_open(struct km_era_shelf *shelf, const char *dir, char *err, size_t errlen);

/* A shelf over @list, complete from the start; @list must outlive it. */
void km_era_shelf_wrap(struct km_era_shelf *shelf, const struct km_era_list *list);

/**
 * km_era_shelf_find - the era whose id, version or year is @key (as
 * km_eras_find), or the newest if @key is NULL, into *@out.
 * Returns 0 (with *@out NULL if no era answers to @key), or -1 with a
 * one-line "file:line: message" in @err when an era file it had to load
 * does not load.
 */
int km_era_shelf_find(struct km_era_shelf *shelf, const char *key, const struct km_era **out,
		      char *err, size_t errlen);

/* Every era, by year (loading what is not yet loaded).  NULL with @err
 * when a file does not load. */
const struct km_era_list *km_era_shelf_all(struct km_era_shelf *shelf, char *err, size_t errlen);

void km_era_shelf_close(struct km_era_shelf *shelf);

/* Load one era file.  Returns 0 or -1 with @err. */
int km_era_load_file(const char *path, struct km_era *era, char *err, size_t errlen);

#endif /* KM_LUA_ERAS_H */
