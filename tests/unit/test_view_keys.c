/*
 * test_view_keys.c - the window's key table (engine/view/view_keys.c) is
 * what the help overlay shows and what the keys do.
 *
 * - the help overlay, drawn and read back (km_text_record), shows every
 *   labelled row's label and text, in the table's order;
 * - every key of every row reaches that row through the dispatch (the
 *   state after the key press is the state after the row's own function),
 *   and changes the state -- in play mode for the play layer's rows, in a
 *   state where the control applies (projector mode for V, a tour for
 *   N/P, an era on each side for [ and ], the playhead mid-run for Home and
 *   End);
 * - play mode keeps its run: the keys that would run something else
 *   change nothing there;
 * - no key is in two rows of one layer (the dispatch would hide one).
 */
#include "test.h"

#include "../view/view_fixture.h"
#include "view/view_keys.h"
#include "view/view_text.h"

struct ctx {
	struct vfx f;
	int era;
};

static int setup(void **state)
{
	static struct ctx c;
	*state = &c;
	if (vfx_setup(&c.f, "spin2.lua", NULL, KM_MODE_NATIVE) < 0)
		return -1;
	c.era = km_view_era_index(&c.f.eras, c.f.s.ri.era);
	return c.era > 0 && c.era + 1 < c.f.eras.n ? 0 : -1;
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	vfx_teardown(&c->f);
	return 0;
}

/* A state in which every control applies; @play: in play mode, with a
 * digit typed at a question of 20 options, scrolled down two rows. */
static void fresh(struct ctx *c, struct km_view_state *st, bool play)
{
	km_view_state_init(st, &c->f.eras, 1920, 1080, 1.0f);
	st->nexhibits = 3;
	km_view_state_bind(st, &c->f.m, c->era, KM_MODE_NATIVE);
	st->projector = true;
	st->can_play = true;
	/* the playhead in the middle, on an event: Home and End move it */
	st->play = km_view_run_end(st) / 2;
	st->focus = 1;
	st->has_focus = true;
	if (play) {
		st->play_mode = true;
		st->play_options = 20;
		st->play_typed = 1;
		st->play_scroll = 2;	/* scrolled a little: Up and Page Up move too */
	}
}

static bool has(const struct km_view_key *k, SDL_Keycode c)
{
	for (int i = 0; i < KM_VIEW_KEYS_PER_ROW && k->keys[i]; i++)
		if (k->keys[i] == c)
			return true;
	return false;
}

static void test_view_keys_one_row_per_key_and_layer(void **state)
{
	for (int i = 0; i < km_view_nkeys; i++) {
		const struct km_view_key *a = &km_view_keys[i];
		assert_true(!a->label == !a->help);
		if (a->keys[0])
			assert_non_null(a->run);
		else
			assert_non_null(a->label);	/* the mouse's: for the help */
		for (int k = 0; k < KM_VIEW_KEYS_PER_ROW && a->keys[k]; k++)
			for (int j = i + 1; j < km_view_nkeys; j++)
				if (km_view_keys[j].layer == a->layer && has(&km_view_keys[j], a->keys[k]))
					fail_msg("key %d is in rows %d and %d of one layer", a->keys[k], i,
						 j);
	}
}

static void test_view_keys_each_key_does_its_rows_work(void **state)
{
	struct ctx *c = *state;
	static struct km_view_state fresh_st, by_key, by_row;
	for (int i = 0; i < km_view_nkeys; i++) {
		const struct km_view_key *k = &km_view_keys[i];
		for (int n = 0; n < KM_VIEW_KEYS_PER_ROW && k->keys[n]; n++) {
			SDL_Keycode key = k->keys[n];
			fresh(c, &fresh_st, k->layer == KM_KEYS_PLAY);
			by_key = fresh_st;
			by_row = fresh_st;
			vfx_key(&by_key, key);
			assert_true(k->run(&by_row, key));
			if (memcmp(&by_key, &by_row, sizeof(by_key)))
				fail_msg("'%s' (row %d): key %d does not reach its row",
					 k->label ? k->label : "(play)", i, key);
			bool changed = memcmp(&by_key, &fresh_st, sizeof(by_key)) != 0;
			if (k->label && !changed)
				fail_msg("'%s': key %d changes nothing", k->label, key);
			if (!k->label && key != SDLK_ESCAPE && changed)
				fail_msg("play mode: key %d changed its run's state", key);
		}
	}
}

/* The next labelled row from @row on, or km_view_nkeys. */
static int next_labelled(int row)
{
	while (row < km_view_nkeys && !km_view_keys[row].label)
		row++;
	return row;
}

static void test_view_keys_help_shows_the_table(void **state)
{
	struct ctx *c = *state;
	char err[512];
	static struct km_view_state st;
	for (int projector = 0; projector < 2; projector++) {
		/* projector mode turns pages: the rows run on across them */
		int row = next_labelled(0);
		for (int page = 0; page < (projector ? 8 : 1) && row < km_view_nkeys; page++) {
			fresh(c, &st, false);
			st.projector = projector;
			km_view_layout(&st);
			st.help = true;
			st.help_page = page;
			struct km_view_run run = c->f.run;
			struct km_view_frame fr = { .eras = &c->f.eras, .run = &run };
			km_text_record(true);
			km_text_record_frame();
			SDL_Surface *s = km_view_render_surface(&fr, &st, err, sizeof(err));
			assert_non_null(s);
			SDL_FreeSurface(s);
			size_t nb;
			const struct km_text_box *b = km_text_boxes(&nb);
			/* the help is drawn last: its title, then its lines */
			size_t at = nb;
			for (size_t i = 0; i < nb; i++)
				if (b[i].s && !strcmp(b[i].s, "How to visit the museum"))
					at = i + 1;
			assert_true(at < nb);
			for (; at + 1 < nb && row < km_view_nkeys; at++) {
				const struct km_view_key *k = &km_view_keys[row];
				const char *label = k->label + strspn(k->label, " ");
				if (!b[at].s || b[at].font != KM_FONT_BOLD ||
				    strcmp(b[at].s + strspn(b[at].s, " "), label))
					continue;
				/* its text beside it: whole, or (wrapped) its start */
				const char *said = b[at + 1].s;
				assert_non_null(said);
				size_t n = strlen(said) < 8 ? strlen(said) : 8;
				if (strncmp(k->help, said, n))
					fail_msg("'%s': the help says '%s', the table '%s'", k->label,
						 said, k->help);
				row = next_labelled(row + 1);
			}
			km_text_record(false);
		}
		if (row < km_view_nkeys)
			fail_msg("the help%s does not show '%s' (in the table's order)",
				 projector ? " (projector mode)" : "", km_view_keys[row].label);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_keys_one_row_per_key_and_layer),
		cmocka_unit_test(test_view_keys_each_key_does_its_rows_work),
		cmocka_unit_test(test_view_keys_help_shows_the_table),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
