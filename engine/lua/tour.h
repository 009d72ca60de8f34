/*
 * tour.h - the museum's route: scripts/tour.lua, a list of exhibits.
 *
 * Each exhibit is one call in the file:
 *
 *   exhibit{ scenario = "uniproc_cli.lua", era = "1991",
 *            modes = { "native", "cli" }, set = { chars = 64 },
 *            title = "...", text = "...", look = "..." }
 *
 * in chronological order.  The file is loaded through the sandbox like
 * every other Lua file of the museum.
 */
#ifndef KM_LUA_TOUR_H
#define KM_LUA_TOUR_H

#include "../km.h"

#define KM_TOUR_MODES 6
#define KM_TOUR_SETS 8

struct km_exhibit {
	char file[512];			/* scenario path, resolved against scripts/ */
	char era[32];
	int cpus;			/* 0: the scenario's or the era's */
	bool anachronism;
	int modes[KM_TOUR_MODES];
	int nmodes;
	bool fails[KM_TOUR_MODES];	/* the run in modes[i] fails on purpose */
	char set_name[KM_TOUR_SETS][64];
	char set_value[KM_TOUR_SETS][128];
	int nsets;
	char title[256];
	char text[2048];
	char look[512];
};

struct km_tour {
	struct km_exhibit *v;
	int n;
};

/* Load @path; scenario names are resolved against @scripts_dir.
 * Returns 0, or -1 with "file:line: message" in @err. */
int km_tour_load(const char *path, const char *scripts_dir, struct km_tour *tour,
		 char *err, size_t errlen);
void km_tour_free(struct km_tour *tour);

#endif /* KM_LUA_TOUR_H */
