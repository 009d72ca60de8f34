/*
 * view_palette.c - the museum's colours.  See view_palette.h for why
 * each one is what it is.
 */
#include "view_palette.h"

#include "../sim.h"

static const uint32_t pal[KM_C_COUNT] = {
	[KM_C_BG] = 0xFBFAF6,
	[KM_C_PANEL] = 0xF0EEE6,
	[KM_C_INK] = 0x1E1E1E,
	[KM_C_MUTED] = 0x5F5F5F,
	[KM_C_GRID] = 0xD6D2C6,
	[KM_C_IDLE] = 0xE3E0D6,
	[KM_C_SPIN] = 0xC04F00,		/* a darker vermillion: apart from waiting's amber
					 * for deuteranopes too (test_view_palette.c) */
	[KM_C_IRQ] = 0xCC79A7,		/* reddish purple */
	[KM_C_SWITCH] = 0x3C3C3C,
	[KM_C_IRQOFF] = 0xF0E442,	/* yellow */
	[KM_C_WAIT] = 0xF2B950,		/* light amber: lighter than spinning */
	[KM_C_HILITE] = 0xF0E442,
	[KM_C_BAD] = 0xD55E00,
	[KM_C_GOOD] = 0x009E73,
	[KM_C_COUNTER] = 0x9CCFEE,
	[KM_C_COUNTER_LINE] = 0x0072B2,
	[KM_C_ARROW] = 0x1E1E1E,
	[KM_C_FOCUS] = 0x0072B2,
};

/* Blue, bluish green, sky blue, and a darker and a lighter shade of
 * them: the cool half of Okabe-Ito, kept apart from the warm states. */
static const uint32_t tasks[KM_TASK_COLOURS] = {
	0x0072B2, 0x009E73, 0x56B4E9, 0x004F7C, 0x7ACBB5, 0x00604A,
};

/* The same, for a projector: only what a washed-out image loses. */
static const struct { enum km_colour c; uint32_t rgb; } contrast_pal[] = {
	{ KM_C_BG, 0xFFFFFF }, { KM_C_PANEL, 0xF2F2F2 }, { KM_C_INK, 0x000000 },
	{ KM_C_MUTED, 0x303030 }, { KM_C_GRID, 0x8C8C8C }, { KM_C_IDLE, 0xC8C8C8 },
	{ KM_C_COUNTER, 0x6FB6E4 },
};

static bool contrast;

void km_pal_set_contrast(bool high)
{
	contrast = high;
}

uint32_t km_pal(enum km_colour c)
{
	if ((unsigned)c >= KM_C_COUNT)
		return 0xFF00FF;
	if (contrast)
		for (size_t i = 0; i < sizeof(contrast_pal) / sizeof(contrast_pal[0]); i++)
			if (contrast_pal[i].c == c)
				return contrast_pal[i].rgb;
	return pal[c];
}

uint32_t km_pal_task(unsigned slot)
{
	if (slot == 255)
		return pal[KM_C_IRQ];
	return tasks[slot % KM_TASK_COLOURS];
}

uint32_t km_pal_state(int state, unsigned slot)
{
	switch (state) {
	case KM_CPU_IDLE: return km_pal(KM_C_IDLE);
	case KM_CPU_BUSY: return km_pal_task(slot);
	case KM_CPU_SPIN: return pal[KM_C_SPIN];
	case KM_CPU_IRQ: return pal[KM_C_IRQ];
	case KM_CPU_SWITCH: return pal[KM_C_SWITCH];
	default: return pal[KM_C_BG];
	}
}

uint32_t km_pal_text_on(uint32_t rgb)
{
	unsigned r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
	/* relative luminance, integer approximation of Rec. 709 */
	unsigned y = (2126 * r + 7152 * g + 722 * b) / 10000;
	return y > 150 ? km_pal(KM_C_INK) : 0xFFFFFF;
}

uint32_t km_pal_mix(uint32_t a, uint32_t b, unsigned t)
{
	uint32_t out = 0;
	for (int sh = 0; sh <= 16; sh += 8) {
		unsigned x = (a >> sh) & 255, y = (b >> sh) & 255;
		out |= ((x * (255 - t) + y * t) / 255) << sh;
	}
	return out;
}

/* Okabe-Ito: blue, vermillion, bluish green, reddish purple, orange,
 * sky blue, black (yellow left out: it vanishes on white). */
static const uint32_t series[KM_SERIES] = {
	0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x000000,
};

static const unsigned char dashes[KM_SERIES][8] = {
	{ 1, 0 },			/* solid */
	{ 5, 3, 0 },			/* dashed */
	{ 1, 2, 0 },			/* dotted */
	{ 6, 2, 1, 2, 0 },		/* dash-dot */
	{ 10, 3, 0 },			/* long dash */
	{ 6, 2, 1, 2, 1, 2, 0 },	/* dash-dot-dot */
	{ 3, 3, 0 },			/* short dash */
};

uint32_t km_pal_series(unsigned i)
{
	return series[i % KM_SERIES];
}

enum km_marker km_series_marker(unsigned i)
{
	return (enum km_marker)((i + 3 * (i / KM_SERIES)) % KM_MARKS);
}

const unsigned char *km_series_dash(unsigned i)
{
	return dashes[i % KM_SERIES];
}
