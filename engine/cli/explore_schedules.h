/*
 * explore_schedules.h - `explore --strategy`: search the schedules.
 */
#ifndef KM_CLI_EXPLORE_SCHEDULES_H
#define KM_CLI_EXPLORE_SCHEDULES_H

#include "compare.h"

enum km_strategy_kind { KM_STRAT_RANDOM, KM_STRAT_PCT, KM_STRAT_EXHAUSTIVE };

struct km_strategy {
	enum km_strategy_kind kind;
	int depth;			/* pct:D, exhaustive:K; 0 for random */
};

/* "random", "pct:D" (D 1..10), "exhaustive:K" (K 0..10).  Returns 0, or
 * -1 with why in @err. */
int km_strategy_parse(const char *s, struct km_strategy *st, char *err, size_t errlen);

/*
 * km_explore_schedules - the search of @o under @st: runs in this
 * process, shrinks what reached the goal, saves it as a schedule file,
 * prints the interleaving and the replay command.
 * Returns 0 found, 1 not found, 2 error.
 */
int km_explore_schedules(const struct km_explore_opts *o, const struct km_strategy *st);

#endif /* KM_CLI_EXPLORE_SCHEDULES_H */
