/*
 * view_keys.c - the window's keys: one table, from which both the key
 * dispatch and the help overlay are made.
 *
 * A row is a line of the help (its label and text) with the keys it
 * answers to and the function that acts on them; the mouse's controls
 * are rows with no keys, listed for the help only.  The rows are in the
 * help's order.  Play mode (view_play.c) is a layer over the others: when
 * it is on and the help is closed, its rows are asked first, so a digit
 * answers the question instead of switching the mode; a row that does
 * not take a key in the state it finds returns false and the key goes on
 * to the next row that has it.  Two play-layer rows are not in the help:
 * Escape there forgets the digits typed, then leaves play mode; and the
 * keys that would run something else (eras, compare, exhibits) do
 * nothing, as play mode keeps its run.
 *
 * To add a key: a row here, where the help should list it, and its
 * function above the table.  tests/unit/test_view_keys.c presses every
 * key of every row and fails if one does nothing, if two rows of a layer
 * share a key, or if the help shows other lines than the table's.
 *
 * Everything here is a pure function of the state, as view_state.c is:
 * nothing draws, runs or reads a clock; what needs the outside world (a
 * new run, a screenshot, a play decision) is a request flag.
 */
#include "view_keys.h"
#include "view_state.h"
#include "view.h"

#include "../era.h"

#define SPEED_MIN (-12)
#define SPEED_MAX 12

/* ------------------------------------------------------------ the view -- */

static bool play_pause(struct km_view_state *s, SDL_Keycode c)
{
	if (!s->playing && s->play >= km_view_run_end(s))
		s->play = 0;	/* play again from the start */
	s->playing = !s->playing;
	return true;
}

static bool step(struct km_view_state *s, SDL_Keycode c)
{
	km_view_step(s, c == SDLK_RIGHT ? +1 : -1);
	return true;
}

static bool speed(struct km_view_state *s, SDL_Keycode c)
{
	if (c == SDLK_MINUS || c == SDLK_KP_MINUS) {
		if (s->speed > SPEED_MIN)
			s->speed--;
	} else if (s->speed < SPEED_MAX) {
		s->speed++;
	}
	return true;
}

static void request_mode(struct km_view_state *s, int mode)
{
	s->want_mode = mode;
	s->want_era = s->era;
	s->req |= KM_VREQ_RERUN;
}

static bool mode(struct km_view_state *s, SDL_Keycode c)
{
	request_mode(s, km_view_modes[c >= SDLK_KP_1 && c <= SDLK_KP_6 ? c - SDLK_KP_1
								 : c - SDLK_1]);
	return true;
}

static bool era(struct km_view_state *s, SDL_Keycode c)
{
	int n = s->eras ? s->eras->n : 0;
	int e = s->era + (c == SDLK_RIGHTBRACKET ? 1 : -1);
	if (e >= 0 && e < n) {
		s->want_era = e;
		s->want_mode = s->mode;
		s->req |= KM_VREQ_RERUN;
	}
	return true;
}

static bool compare(struct km_view_state *s, SDL_Keycode c)
{
	s->compare = !s->compare;
	if (s->compare)
		s->req |= KM_VREQ_COMPARE;
	km_view_layout(s);
	s->t0 = 0;
	s->t1 = km_view_run_end(s);
	s->has_hover = false;
	/* (entering: km_view_state_set_compare reveals the runs) */
	if (s->play > km_view_run_end(s))
		s->play = km_view_run_end(s);
	return true;
}

static bool exhibit(struct km_view_state *s, SDL_Keycode c)
{
	if (s->nexhibits > 0) {
		int d = (c == SDLK_n || c == SDLK_PAGEDOWN) ? 1 : -1;
		s->want_exhibit = km_view_wrap(s->exhibit, d, s->nexhibits);
		s->req |= KM_VREQ_EXHIBIT;
	}
	return true;
}

/* G: enter play mode (where it can be played: not in compare), or, in
 * it, leave; with the help open over play mode, nothing. */
static bool play_mode(struct km_view_state *s, SDL_Keycode c)
{
	if (!s->play_mode) {
		if (s->can_play && !s->compare)
			km_view_play_request(s, KM_VPLAY_ENTER, 0);
	} else if (!s->help) {
		km_view_play_request(s, KM_VPLAY_LEAVE, 0);
	}
	return true;
}

static bool screenshot(struct km_view_state *s, SDL_Keycode c)
{
	s->req |= KM_VREQ_SCREENSHOT;
	return true;
}

static bool projector(struct km_view_state *s, SDL_Keycode c)
{
	s->projector = !s->projector;	/* a lecture hall */
	km_view_layout(s);
	return true;
}

static bool figures(struct km_view_state *s, SDL_Keycode c)
{
	if (s->projector) {
		s->figures = !s->figures;
		km_view_layout(s);
	}
	return true;
}

static bool home_end(struct km_view_state *s, SDL_Keycode c)
{
	if (c == SDLK_HOME) {
		s->play = 0;
		s->has_focus = false;
		s->playing = false;
		km_view_show_time(s, 0);
	} else if (c == SDLK_END) {
		s->play = km_view_run_end(s);
		s->playing = false;
	} else {
		s->t0 = 0;
		s->t1 = km_view_run_end(s);
		s->whole = true;
	}
	return true;
}

static bool whole(struct km_view_state *s, SDL_Keycode c)
{
	if (!s->compare)
		km_view_toggle_whole(s);
	return true;
}

/* I: idle CPUs (0% busy through the run) in one lane, or a lane each. */
static bool idle_fold(struct km_view_state *s, SDL_Keycode c)
{
	s->unfold_idle = !s->unfold_idle;
	km_view_layout(s);
	return true;
}

static bool help(struct km_view_state *s, SDL_Keycode c)
{
	/* projector mode: the help may take pages, H turns them */
	if (s->help && s->projector && s->help_page + 1 < s->meas.help_pages) {
		s->help_page++;
	} else {
		s->help = !s->help;
		s->help_page = 0;
	}
	return true;
}

static bool quit(struct km_view_state *s, SDL_Keycode c)
{
	if (c == SDLK_q)
		s->quit = true;
	else if (s->help)
		s->help = false;
	else if (s->inspect)
		s->inspect = KM_INSPECT_NONE;
	else
		s->quit = true;
	return true;
}

/* ------------------------------------------------------------ play mode -- */

/* A number lets that task (or interrupt) go first, typed whole when the
 * question has ten options or more (km_view_play_digit); 0 only after
 * another digit. */
static bool play_number(struct km_view_state *s, SDL_Keycode c)
{
	if (c >= SDLK_1 && c <= SDLK_9)
		km_view_play_digit(s, (int)(c - SDLK_1) + 1);
	else if (c >= SDLK_KP_1 && c <= SDLK_KP_9)
		km_view_play_digit(s, (int)(c - SDLK_KP_1) + 1);
	else if (s->play_typed)
		km_view_play_digit(s, 0);
	else
		return false;
	return true;
}

/* Enter lets the task go (or answers with the digits typed); U or
 * Backspace undoes (Backspace first takes back a typed digit); R runs to
 * the end. */
static bool play_answer(struct km_view_state *s, SDL_Keycode c)
{
	switch (c) {
	case SDLK_RETURN:
	case SDLK_KP_ENTER:
		km_view_play_request(s, KM_VPLAY_ANSWER, s->play_typed);
		s->play_typed = 0;
		break;
	case SDLK_BACKSPACE:
		if (s->play_typed) {
			s->play_typed /= 10;	/* the last digit typed */
			break;
		}
		km_view_play_request(s, KM_VPLAY_UNDO, 0);
		break;
	case SDLK_u:
		km_view_play_request(s, KM_VPLAY_UNDO, 0);
		break;
	default:
		km_view_play_request(s, KM_VPLAY_TO_END, 0);
		break;
	}
	return true;
}

static bool play_save(struct km_view_state *s, SDL_Keycode c)
{
	km_view_play_request(s, KM_VPLAY_SAVE, 0);
	return true;
}

/* Page Down/Up (or Down/Up): the options of a question longer than its
 * place, so a keyboard or a clicker reaches every one. */
static bool play_scroll(struct km_view_state *s, SDL_Keycode c)
{
	int page = s->lay.play_rows > 1 ? s->lay.play_rows - 1 : 1;
	km_view_play_scroll_by(s, c == SDLK_PAGEDOWN ? page : c == SDLK_PAGEUP ? -page
						   : c == SDLK_DOWN ? 1 : -1);
	return true;
}

/* Escape: an explanation open closes first (the view's Escape), then the
 * digits typed are forgotten, then play mode is left. */
static bool play_escape(struct km_view_state *s, SDL_Keycode c)
{
	if (s->inspect)
		return false;
	if (s->play_typed)
		s->play_typed = 0;
	else
		km_view_play_request(s, KM_VPLAY_LEAVE, 0);
	return true;
}

/* The keys that would run something else: play mode keeps its run. */
static bool play_keeps_run(struct km_view_state *s, SDL_Keycode c)
{
	return true;
}

/* -------------------------------------------------------------- the table -- */

#define VIEW KM_KEYS_VIEW
#define PLAY KM_KEYS_PLAY
#define MOUSE(label, help) { VIEW, { 0 }, label, help, NULL }

const struct km_view_key km_view_keys[] = {
	{ VIEW, { SDLK_SPACE }, "Space", "play / pause (from the start again at the end)",
	  play_pause },
	{ VIEW, { SDLK_RIGHT, SDLK_LEFT }, "Right / Left", "step one event forward / back", step },
	{ VIEW, { SDLK_PLUS, SDLK_EQUALS, SDLK_KP_PLUS, SDLK_MINUS, SDLK_KP_MINUS }, "+ / -",
	  "play faster / slower", speed },
	MOUSE("mouse wheel", "zoom in and out where the mouse is; over task names: scroll"),
	MOUSE("drag", "pan along the time axis"),
	MOUSE("point", "the event line says what happens on the lane there"),
	MOUSE("click", "the event there, whole, and the scenario line its task ran"),
	MOUSE("click a name", "a lock's name: its statistics; the outcome: every check"),
	MOUSE("click a lock lane", "who holds the lock and who waits, at that instant"),
	MOUSE("click a red marker", "the violation's whole explanation (Escape closes)"),
	{ VIEW, { SDLK_1, SDLK_2, SDLK_3, SDLK_4, SDLK_5, SDLK_6, SDLK_KP_1, SDLK_KP_2, SDLK_KP_3,
		  SDLK_KP_4, SDLK_KP_5, SDLK_KP_6 },
	  "1 2 3 4 5 6", "mode: native, cli, bkl, spinlock, semaphore, mutex", mode },
	{ VIEW, { SDLK_LEFTBRACKET, SDLK_RIGHTBRACKET }, "[ / ]",
	  "previous / next era; or click an era on the ribbon", era },
	{ VIEW, { SDLK_TAB }, "Tab", "compare: the exhibit under each mode, one time axis", compare },
	{ VIEW, { SDLK_n, SDLK_PAGEDOWN, SDLK_p, SDLK_PAGEUP }, "N / P",
	  "next / previous exhibit of the tour", exhibit },
	{ VIEW, { SDLK_g }, "G", "play: you are the scheduler (G again leaves)", play_mode },
	{ PLAY, { SDLK_1, SDLK_2, SDLK_3, SDLK_4, SDLK_5, SDLK_6, SDLK_7, SDLK_8, SDLK_9, SDLK_0,
		  SDLK_KP_1, SDLK_KP_2, SDLK_KP_3, SDLK_KP_4, SDLK_KP_5, SDLK_KP_6, SDLK_KP_7,
		  SDLK_KP_8, SDLK_KP_9, SDLK_KP_0 },
	  "  number / click", "play: hold the task, that task or interrupt goes first", play_number },
	{ PLAY, { SDLK_PAGEDOWN, SDLK_PAGEUP, SDLK_DOWN, SDLK_UP }, "  PgDn / PgUp",
	  "play: the options out of sight (or the wheel, or a number)", play_scroll },
	{ PLAY, { SDLK_RETURN, SDLK_KP_ENTER, SDLK_u, SDLK_BACKSPACE, SDLK_r }, "  Enter / U / R",
	  "play: let it go / undo (or Backspace) / run to the end", play_answer },
	{ PLAY, { SDLK_w }, "  W", "play: save the schedule (when the goal is reached)", play_save },
	{ PLAY, { SDLK_ESCAPE }, NULL, NULL, play_escape },
	{ PLAY, { SDLK_LEFTBRACKET, SDLK_RIGHTBRACKET, SDLK_TAB, SDLK_n, SDLK_p }, NULL, NULL,
	  play_keeps_run },
	{ VIEW, { SDLK_s }, "S", "save a screenshot (PNG, in the current folder)", screenshot },
	{ VIEW, { SDLK_l }, "L", "projector mode: larger type, high contrast, text wraps", projector },
	{ VIEW, { SDLK_v }, "V", "projector mode: the placard or the figures in the side column",
	  figures },
	{ VIEW, { SDLK_HOME, SDLK_END, SDLK_0, SDLK_KP_0 }, "Home / End / 0",
	  "playhead to the start / end; zoom to the whole run", home_end },
	{ VIEW, { SDLK_z }, "Z", "the whole run / back to the key moment the exhibit opens on",
	  whole },
	{ VIEW, { SDLK_i }, "I", "idle CPUs (0% busy): folded into one lane / a lane each",
	  idle_fold },
	{ VIEW, { SDLK_h, SDLK_F1 }, "H or F1", "this help", help },
	{ VIEW, { SDLK_q, SDLK_ESCAPE }, "Q or Escape",
	  "quit (Escape closes this help or an explanation first)", quit },
};

const int km_view_nkeys = (int)(sizeof(km_view_keys) / sizeof(km_view_keys[0]));

static bool has_key(const struct km_view_key *k, SDL_Keycode c)
{
	for (int i = 0; i < KM_VIEW_KEYS_PER_ROW && k->keys[i]; i++)
		if (k->keys[i] == c)
			return true;
	return false;
}

void km_view_key(struct km_view_state *s, SDL_Keycode c)
{
	bool play = s->play_mode && !s->help;
	for (int layer = play ? KM_KEYS_PLAY : KM_KEYS_VIEW; layer >= KM_KEYS_VIEW; layer--)
		for (int i = 0; i < km_view_nkeys; i++) {
			const struct km_view_key *k = &km_view_keys[i];
			if ((int)k->layer == layer && k->run && has_key(k, c) && k->run(s, c))
				return;
		}
}
