/*
 * view_source.c - the notes of source lines, by context; the file's text.
 *
 * A counting sort of the notes by context keeps each context's notes in
 * time order, so the line at an instant is a binary search.  The file is
 * read whole (scenario files are small; more than KM_SRC_MAX bytes are
 * not shown) and cut into lines in place.
 */
#include "view_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KM_SRC_MAX (4 << 20)

static void read_text(struct km_vm_source *s, const char *file)
{
	FILE *f = file ? fopen(file, "rb") : NULL;
	if (!f)
		return;
	char *buf = malloc(KM_SRC_MAX + 1);
	size_t n = buf ? fread(buf, 1, KM_SRC_MAX + 1, f) : 0;
	bool bad = ferror(f) || n > KM_SRC_MAX;
	fclose(f);
	if (!buf || bad) {
		free(buf);
		return;
	}
	buf[n] = 0;
	int lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += buf[i] == '\n';
	const char **v = malloc((size_t)lines * sizeof(*v));
	if (!v) {
		free(buf);
		return;
	}
	int k = 0;
	char *p = buf;
	v[k++] = p;
	for (char *q = strchr(p, '\n'); q; q = strchr(q + 1, '\n')) {
		*q = 0;
		if (q > p && q[-1] == '\r')
			q[-1] = 0;
		v[k++] = q + 1;
	}
	s->text = buf;
	s->line = v;
	s->nlines = k;
}

int km_vm_source_build(struct km_vm_source *s, const struct km_srcline *notes, size_t n,
		       uint32_t nctx, const char *file)
{
	memset(s, 0, sizeof(*s));
	s->notes = notes;
	s->nctx = nctx;
	s->first = calloc((size_t)nctx + 2, sizeof(*s->first));
	s->by_ctx = malloc((n ? n : 1) * sizeof(*s->by_ctx));
	if (!s->first || !s->by_ctx) {
		km_vm_source_free(s);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (notes[i].ctx < nctx)
			s->first[notes[i].ctx + 1]++;
	for (uint32_t c = 0; c < nctx; c++)
		s->first[c + 1] += s->first[c];
	size_t *fill = calloc((size_t)nctx + 1, sizeof(*fill));
	if (!fill) {
		km_vm_source_free(s);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t c = notes[i].ctx;
		if (c < nctx)
			s->by_ctx[s->first[c] + fill[c]++] = (uint32_t)i;
	}
	free(fill);
	read_text(s, file);
	return 0;
}

void km_vm_source_free(struct km_vm_source *s)
{
	free(s->by_ctx);
	free(s->first);
	free(s->text);
	free(s->line);
	memset(s, 0, sizeof(*s));
}

int km_vm_source_at(const struct km_vm_source *s, uint32_t ctx, km_time t, const char **text)
{
	*text = NULL;
	if (!s->first || ctx >= s->nctx)
		return 0;
	size_t lo = s->first[ctx], hi = s->first[ctx + 1];
	/* the last note at or before t */
	size_t a = lo, b = hi;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (s->notes[s->by_ctx[mid]].time <= t)
			a = mid + 1;
		else
			b = mid;
	}
	if (a == lo)
		return 0;
	int line = s->notes[s->by_ctx[a - 1]].line;
	if (line >= 1 && line <= s->nlines)
		*text = s->line[line - 1];
	return line;
}
