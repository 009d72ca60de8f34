/*
 * defaults.h - every default of lockmuseum, in one place.
 *
 * What a run gets when nobody says otherwise: the budgets of section 6
 * of the scenario contract, the simulator's event bound, the sizes of the
 * pictures, the seeds explore tries.  The command line's --help prints
 * these, the session and the sandbox apply them: a default changed here
 * changes everywhere at once.  Plain constants, no code, so that any
 * layer may include it.
 */
#ifndef KM_ENGINE_DEFAULTS_H
#define KM_ENGINE_DEFAULTS_H

/* Budgets of a scenario (section 6 of the contract). */
#define KM_DEFAULT_MAX_INSTRUCTIONS 200000000ULL	/* Lua instructions */
#define KM_DEFAULT_MAX_MEMORY (256u << 20)		/* Lua memory, bytes */
#define KM_DEFAULT_MAX_WALL 120.0			/* seconds of wall clock */
#define KM_DEFAULT_MAX_EVENTS 500000000ULL		/* simulator events */

/* The window keeps at most this many trace records (32 bytes each). */
#define KM_DEFAULT_WINDOW_TRACE_LIMIT ((size_t)8 << 20)
/* So do --trace and --png without --trace-limit: the trace is kept in
 * memory for the exporters' two passes (docs/hardening.md), 256 MiB of
 * records at most unless asked for more. */
#define KM_DEFAULT_TRACE_LIMIT KM_DEFAULT_WINDOW_TRACE_LIMIT

/* run --png, tour --out and the headless museum: the picture's size. */
#define KM_DEFAULT_PNG_WIDTH 1920
#define KM_DEFAULT_PNG_HEIGHT 1080

/* The headless museum writes its pictures here. */
#define KM_DEFAULT_OUT_DIR "out"

/* explore without --seeds. */
#define KM_DEFAULT_SEEDS "1..100"
/* One seed range everywhere (run --seed, compare and explore --seeds,
 * scenario{ seed }, a schedule file, the "seed" of a JSON report): the
 * integers of Lua and of JSON, 0 to 2^63 - 1. */
#define KM_SEED_RANGE_SAYS "a seed must be a whole number from 0 to 9223372036854775807"

/* `list` loads each scenario's top level for its title, within these. */
#define KM_LIST_MAX_INSTRUCTIONS 50000000ULL
#define KM_LIST_MAX_MEMORY (64u << 20)
#define KM_LIST_MAX_WALL 10.0

#endif /* KM_ENGINE_DEFAULTS_H */
