/*
 * view_keys.h - the window's controls, one table: the keys, the layer they
 * act in, what they do and what the help overlay says of them.
 *
 * The help overlay (view_help.c) prints the rows' labels and texts; the
 * state (view_state.c) hands every key press to km_view_key(), which runs
 * the row that has the key.  Both read km_view_keys[], so they cannot
 * disagree: a key in the help does what its row does, and a key that does
 * something is in a row.  The mouse's controls (wheel, drag, point,
 * clicks) are rows without keys, for the help; view_state.c handles them.
 */
#ifndef KM_VIEW_VIEW_KEYS_H
#define KM_VIEW_VIEW_KEYS_H

#include <SDL.h>
#include <stdbool.h>

struct km_view_state;

/* Where a row's keys act. */
enum km_view_key_layer {
	KM_KEYS_VIEW,			/* always, after the play layer */
	KM_KEYS_PLAY,			/* play mode with the help closed: tried first */
};

#define KM_VIEW_KEYS_PER_ROW 20

struct km_view_key {
	enum km_view_key_layer layer;
	/* its keys, 0-terminated; none: a control of the mouse */
	SDL_Keycode keys[KM_VIEW_KEYS_PER_ROW];
	const char *label;		/* the help's left column; NULL: not in the help */
	const char *help;		/* what the help says it does */
	/* do it; false: the key is not this row's in this state, and the
	 * next row (or layer) that has it is asked */
	bool (*run)(struct km_view_state *s, SDL_Keycode c);
};

extern const struct km_view_key km_view_keys[];
extern const int km_view_nkeys;

/*
 * km_view_key - the key @c pressed: the play layer's row that has it
 * (in play mode with the help closed), else the view layer's.
 * Context: pure: changes @s, draws and runs nothing (requests are flags).
 */
void km_view_key(struct km_view_state *s, SDL_Keycode c);

#endif
