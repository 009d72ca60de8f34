/*
 * text_escape.c - text others wrote, printed so that it cannot steer the
 * terminal.
 *
 * A scenario's print() and log(), a check()'s message, a report's
 * "reason" or "file" read back by `compare --from`: all of it is text
 * somebody else chose, and a terminal obeys the escape sequences in what
 * it is sent (ESC, or the one-character CSI, U+009B: colours, a cursor
 * moved over earlier lines, a window title set, on some terminals a
 * string echoed back as if typed).  Every path that prints such text on
 * a terminal -- stderr, the text and CSV reports -- writes it through
 * here, which spells each control character out (\x1b, \u009b) and keeps
 * tabs, the only one a line of text needs.
 */
#include "text_escape.h"

#include <string.h>

/* How @p's first character is written: its length in @s (1 or 2) and
 * its escape in @esc, or 0 if it is written as it is. */
static int escape_one(const unsigned char *p, char esc[8])
{
	if ((*p < 0x20 && *p != '\t') || *p == 0x7f) {
		snprintf(esc, 8, "\\x%02x", *p);
		return 1;
	}
	if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
		snprintf(esc, 8, "\\u%04x", p[1]);
		return 2;
	}
	return 0;
}

void km_put_escaped(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[8];
	while (*p) {
		int n = escape_one(p, esc);
		if (n) {
			fputs(esc, f);
			p += n;
		} else {
			fputc(*p++, f);
		}
	}
}

void km_escape(char *out, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k = 0;
	char esc[8];
	if (!len)
		return;
	while (*p) {
		int n = escape_one(p, esc);
		const char *w = n ? esc : (const char *)p;
		size_t wl = n ? strlen(esc) : 1;
		if (k + wl >= len)
			break;
		memcpy(out + k, w, wl);
		k += wl;
		p += n ? (size_t)n : 1;
	}
	out[k] = 0;
}
