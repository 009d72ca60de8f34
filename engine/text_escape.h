/*
 * text_escape.h - text others wrote, printed so that it cannot steer the
 * terminal.  See text_escape.c.
 */
#ifndef KM_ENGINE_TEXT_ESCAPE_H
#define KM_ENGINE_TEXT_ESCAPE_H

#include <stdio.h>

/**
 * km_put_escaped - write @s to @f with its control characters escaped:
 * C0 bytes but tab and DEL as \xNN, C1 controls (U+0080..U+009F) as
 * \u00NN.  Everything else, bad UTF-8 included, is written as it is.
 * Context: any; writes through stdio, the caller checks @f's errors.
 */
void km_put_escaped(const char *s, FILE *f);

/* The same into @out (@len bytes, always terminated, cut if need be). */
void km_escape(char *out, size_t len, const char *s);

#endif /* KM_ENGINE_TEXT_ESCAPE_H */
