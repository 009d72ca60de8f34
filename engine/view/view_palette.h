/*
 * view_palette.h - the museum's colours.
 *
 * Built on Okabe and Ito's palette ("Color Universal Design", 2008): eight
 * colours that stay distinct under the common forms of colour blindness.
 * The choice carries meaning so that a visitor learns it in one look:
 *
 *   cool colours (blue, bluish green, sky blue and their shades) are tasks
 *   doing useful work;
 *   vermillion is a CPU spinning -- burnt, wasted;
 *   reddish purple is an interrupt handler;
 *   yellow-and-black hatching, like warning tape, is "interrupts off";
 *   orange is tasks waiting for a lock;
 *   dark grey is the cost of a context switch; pale grey is idle.
 *
 * Nothing in the view depends on colour alone: lanes carry labels, the
 * legend names every swatch, the hatching differs in pattern as well.
 * The palette is compiled in (not read from assets/) so that a render is
 * the same wherever it runs, which the render tests rely on.
 */
#ifndef KM_VIEW_VIEW_PALETTE_H
#define KM_VIEW_VIEW_PALETTE_H

#include <stdbool.h>
#include <stdint.h>

enum km_colour {
	KM_C_BG,		/* paper */
	KM_C_PANEL,		/* side panels */
	KM_C_INK,		/* text */
	KM_C_MUTED,		/* secondary text */
	KM_C_GRID,		/* rules and grid lines */
	KM_C_IDLE,
	KM_C_SPIN,
	KM_C_IRQ,
	KM_C_SWITCH,
	KM_C_IRQOFF,		/* the yellow of the hatching (the other is ink) */
	KM_C_WAIT,		/* waiters on a lock */
	KM_C_HILITE,		/* the current era, the focus */
	KM_C_BAD,		/* violations, deadlock */
	KM_C_GOOD,
	KM_C_COUNTER,		/* sparkline fill */
	KM_C_COUNTER_LINE,
	KM_C_ARROW,
	KM_C_FOCUS,		/* the event line's marker */
	KM_C_COUNT
};

/* 0xRRGGBB */
uint32_t km_pal(enum km_colour c);

/*
 * High contrast, for a projector: white paper, black ink, darker muted
 * text and rules, a deeper idle grey (a washed-out projector turns pale
 * grey into white).  The state colours keep their hues.  A setting of
 * the drawing, made by each frame from its view state.
 */
void km_pal_set_contrast(bool high);

/* The colour of task slot @slot (view_model's ctx_colour); slot 255 is an
 * interrupt context. */
uint32_t km_pal_task(unsigned slot);

/* What a CPU lane shows for @state (enum km_cpu_state), running @slot. */
uint32_t km_pal_state(int state, unsigned slot);

/* Ink or white, whichever reads better on @rgb. */
uint32_t km_pal_text_on(uint32_t rgb);

/* @a mixed with @b, @t = 0..255 of @b. */
uint32_t km_pal_mix(uint32_t a, uint32_t b, unsigned t);

#define KM_TASK_COLOURS 6

/*
 * Series: the lines of a chart (compare --plot, and any chart with one
 * line per mode).  Okabe and Ito's qualitative palette in full, yellow
 * left out (it vanishes on paper), black last; and because a projector
 * washes colours out and a grey print loses them, each series also has
 * its own marker and its own dash pattern, so that six modes stay apart
 * with no colour at all.  Series i has colour i, marker i and dash i,
 * modulo KM_SERIES; past KM_SERIES the marker is shifted so that no two
 * of the first 2 * KM_SERIES series look alike.
 */
#define KM_SERIES 7

enum km_marker {
	KM_MARK_CIRCLE, KM_MARK_SQUARE, KM_MARK_TRIANGLE, KM_MARK_DIAMOND,
	KM_MARK_TRIANGLE_DOWN, KM_MARK_CROSS, KM_MARK_PLUS, KM_MARKS
};

uint32_t km_pal_series(unsigned i);
enum km_marker km_series_marker(unsigned i);
/* The dash pattern of series @i: on, off, on, off ... lengths in units
 * of the pen's width, ending with 0; { 1, 0 } is a solid line. */
const unsigned char *km_series_dash(unsigned i);

#endif /* KM_VIEW_VIEW_PALETTE_H */
