/*
 * snapshot.h - a run, saved at one of its instants and resumed from there.
 *
 * The explorer's runs share their prefix: a child of a run agrees with it
 * up to the choice point where it adds a hold.  Re-simulating that prefix
 * -- and first building the scenario again, a fresh Lua state and its top
 * level, most of a small run's cost -- is what a snapshot saves.
 *
 * A snapshot is the whole state of a session, in memory: its heap and its
 * stack.  A run under snapshots (km_snap_run) executes on a stack of its
 * own, and while it runs every allocation of the program's own code (the
 * core, Lua through the sandbox's allocator, the command line) comes from
 * an arena at a fixed address (heap_wrap.c reroutes malloc and its kin at
 * link time).  km_snap_take, called inside the run, copies the arena's
 * used part, the run's stack and its registers; km_snap_run(from) copies
 * them back and carries on from that instant as if the run had got there
 * itself -- every pointer still points where it did, because nothing
 * moved.  A fork() would do the same by copy-on-write, but on the virtual
 * machines this runs on a fork costs some twenty runs; two memcpy of a
 * few hundred KiB cost a fraction of one.
 *
 * What a snapshot does not hold, its user must: memory allocated with the
 * arena paused (km_snap_pause; the explorer's own records), file
 * descriptors, timers, the wall clock.  The arena is reset once per
 * process, at its first run: what the Lua layer caches across runs (a
 * compiled chunk) stays valid in every state derived from that run.
 *
 * Unavailable (km_snap_usable false) in a binary linked without the
 * rerouting (the unit tests) or built with AddressSanitizer (whose shadow
 * of a copied stack would lie): runs are then made the ordinary way.
 */
#ifndef KM_CLI_SNAPSHOT_H
#define KM_CLI_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>

struct km_snap {
	bool valid;
	uint32_t at;			/* the user's name for the instant */
	jmp_buf jb;			/* the registers */
	char *lo;			/* the stack saved: [lo, the top) */
	char *stack;
	size_t stack_len, stack_cap;
	char *heap;			/* the arena's used part */
	size_t heap_len, heap_cap;	/* cap: the most it has held */
	size_t heap_room;		/* the size of @heap's chunk */
};

/* Can runs be snapshotted in this binary (set up on first call)? */
bool km_snap_usable(void);

/*
 * km_snap_run - run @entry on the session stack, with the arena on; or,
 * when @from is a valid snapshot, resume the run it saved (its km_snap_take
 * returns 1).  Either way the run ends with km_snap_leave.
 * Returns 0, or -1 when snapshots are not usable.
 * Context: the main stack, never inside a run.
 */
int km_snap_run(struct km_snap *from, void (*entry)(void));

/* The end of a run started by km_snap_run: back to its caller. */
_Noreturn void km_snap_leave(void);

/*
 * km_snap_take - save the running session into @sn, named @at.
 * Returns 0 when saved, 1 when a later km_snap_run resumed it here, -1
 * when it could not be saved (out of memory; @sn is then invalid).
 * Context: inside a run, with the arena paused.
 */
int km_snap_take(struct km_snap *sn, uint32_t at);

/* The arena off (for memory that must outlive the run); returns whether
 * it was on, for km_snap_unpause. */
bool km_snap_pause(void);
void km_snap_unpause(bool was);

/* The bytes @sn holds; and free them. */
size_t km_snap_bytes(const struct km_snap *sn);
void km_snap_free(struct km_snap *sn);

/* The arena, for the rerouted allocator (heap_wrap.c): is it on, does it
 * hold @p, and its malloc, realloc, free. */
extern bool km_arena_on;
bool km_arena_holds(const void *p);
void *km_arena_malloc(size_t n);
void *km_arena_realloc(void *p, size_t n);
void km_arena_free(void *p);

#endif /* KM_CLI_SNAPSHOT_H */
