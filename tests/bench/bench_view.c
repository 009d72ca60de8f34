/*
 * bench_view.c - frame time of the timeline, drawn headless with SDL's
 * software renderer, for a run with many CPUs and events.
 *
 *   bench_view FILE.lua [--size WxH] [--frames N] [scenario options]
 *
 * Runs the scenario with its trace stored, indexes it (km_vm_build, timed
 * once), then draws frames into one surface with one drawing context, as
 * the window does, and times each km_draw_frame + present:
 *   frame_full_ms    the whole run in view, lane pixels recomputed every
 *                    frame (the cost of any zoom or pan)
 *   frame_cached_ms  the same frame again with nothing changed (the lane
 *                    pixels are reused: what a still window costs)
 *   frame_pan_ms     a window a twentieth of the run wide, moved by a
 *                    hundredth of the run each frame, as panning does
 *   frame_first_ms   the first frame: fonts, buffers, and the CPU lanes'
 *                    summary (view_summary.h), built once per run shown
 *   frame_projector_ms  the whole run in view in projector mode (larger
 *                    type, text wrapped and measured, one side panel), as
 *                    a lecture hall sees it; recomputed every frame
 * Each is the median over --frames frames (default 20).
 *
 * It also prints a hash of the pixels of each kind of frame (pixels_*,
 * every frame of the kind folded in, outside the timing), so that a
 * change meant to make a frame faster can show that it draws the same:
 * the hashes before and after must be equal.
 */
#include "bench_scen.h"
#include "view/view_draw.h"
#include "view/view_render.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double frame(struct km_draw *d, const struct km_view_frame *f,
		    const struct km_view_state *st, bool invalidate)
{
	if (invalidate)
		d->key.valid = false;
	double t0 = bench_now();
	km_draw_frame(d, f, st);
	SDL_RenderPresent(d->r);
	return (bench_now() - t0) * 1e3;
}

/* FNV-1a over the surface's pixels, row by row (the pitch may pad). */
static uint64_t pixels_hash(SDL_Surface *s, uint64_t h)
{
	for (int y = 0; y < s->h; y++) {
		const unsigned char *p = (const unsigned char *)s->pixels + (size_t)y * (size_t)s->pitch;
		for (size_t i = 0; i < (size_t)s->w * 4; i++) {
			h ^= p[i];
			h *= 0x100000001b3ull;
		}
	}
	return h;
}

/* One function per kind of frame, never inlined, so that callgrind's
 * inclusive counts give each kind's instructions apart
 * (callgrind_annotate --inclusive=yes: frame_full, frame_cached, ...).
 * Each notes its kind, so that the compiler cannot fold them into one. */
static volatile int frame_kind;

__attribute__((noinline)) static double frame_first(struct km_draw *d,
		const struct km_view_frame *f, const struct km_view_state *st)
{
	frame_kind = 1;
	return frame(d, f, st, true);
}

__attribute__((noinline)) static double frame_full(struct km_draw *d,
		const struct km_view_frame *f, const struct km_view_state *st)
{
	frame_kind = 2;
	return frame(d, f, st, true);
}

__attribute__((noinline)) static double frame_cached(struct km_draw *d,
		const struct km_view_frame *f, const struct km_view_state *st)
{
	frame_kind = 3;
	return frame(d, f, st, false);
}

__attribute__((noinline)) static double frame_pan(struct km_draw *d,
		const struct km_view_frame *f, const struct km_view_state *st)
{
	frame_kind = 4;
	return frame(d, f, st, false);
}

int main(int argc, char **argv)
{
	struct bench_scen b;
	bench_scen_init(&b);
	int w = 1920, h = 1080, frames = 20;
	for (int i = 1; i < argc; i++) {
		int r = bench_scen_opt(&b, argc, argv, &i);
		if (r == 1)
			continue;
		if (r == 0 && !strcmp(argv[i], "--size") && i + 1 < argc &&
		    sscanf(argv[i + 1], "%dx%d", &w, &h) == 2) {
			i++;
			continue;
		}
		if (r == 0 && !strcmp(argv[i], "--frames") && i + 1 < argc) {
			frames = atoi(argv[++i]);
			continue;
		}
		if (r == 0 && argv[i][0] != '-' && !b.file) {
			b.file = argv[i];
			continue;
		}
		fprintf(stderr, "usage: bench_view FILE.lua [--size WxH] [--frames N] "
			"[--cpus N] [--mode M] [--set NAME=VALUE]... [--trace-limit N]\n");
		return 2;
	}
	if (!b.file || frames < 1 || frames > 10000) {
		fprintf(stderr, "bench_view: no scenario file, or a bad --frames\n");
		return 2;
	}
	b.store_trace = true;
	struct km_era_list eras = { 0 };
	char err[1024];
	if (km_load_eras(&eras, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_view: %s\n", err);
		return 2;
	}
	km_view_set_datadir(km_datadir());
	if (bench_scen_run(&b, &eras) < 0) {
		fprintf(stderr, "bench_view: %s\n", b.err);
		return 2;
	}
	struct km_sim *sim = b.sim;
	if (sim->outcome != KM_OUT_COMPLETED) {
		fprintf(stderr, "bench_view: the run ended %s: %s\n",
			km_outcome_name(sim->outcome), sim->reason);
		return 2;
	}

	struct km_view_model m;
	double t0 = bench_now();
	if (km_vm_build(&m, &b.ri, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_view: %s\n", err);
		return 2;
	}
	double model_s = bench_now() - t0;
	long model_peak = bench_peak_kib();

	struct km_view_state st;
	km_view_state_init(&st, &eras, w, h, 1.0f);
	km_view_state_bind(&st, &m, km_view_era_index(&eras, b.ri.era), b.ri.mode);
	km_view_state_still(&st, &m);
	struct km_view_run run = { .ri = &b.ri };
	struct km_view_frame f = { .eras = &eras, .run = &run };

	SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
	SDL_Renderer *r = s ? SDL_CreateSoftwareRenderer(s) : NULL;
	struct km_draw *d = r ? km_draw_new(r, st.lay.u, err, sizeof(err)) : NULL;
	if (!d) {
		fprintf(stderr, "bench_view: cannot draw: %s\n", s && r ? err : SDL_GetError());
		return 2;
	}
	double *full = calloc((size_t)frames, sizeof(double));
	double *cached = calloc((size_t)frames, sizeof(double));
	double *pan = calloc((size_t)frames, sizeof(double));
	if (!full || !cached || !pan)
		return 2;
	const uint64_t fnv = 0xcbf29ce484222325ull;
	double first = frame_first(d, &f, &st);	/* fonts, glyph cache, buffers */
	uint64_t h_first = pixels_hash(s, fnv), h_full = fnv, h_cached = fnv, h_pan = fnv;
	for (int i = 0; i < frames; i++) {
		full[i] = frame_full(d, &f, &st);
		h_full = pixels_hash(s, h_full);
	}
	for (int i = 0; i < frames; i++) {
		cached[i] = frame_cached(d, &f, &st);
		h_cached = pixels_hash(s, h_cached);
	}
	km_time end = st.t1, span = end / 20 > 0 ? end / 20 : 1;
	for (int i = 0; i < frames; i++) {
		st.t0 = (end - span) * (i % 100) / 100;
		st.t1 = st.t0 + span;
		st.play = st.t1;
		pan[i] = frame_pan(d, &f, &st);
		h_pan = pixels_hash(s, h_pan);
	}

	/* projector mode: the still view again, laid out with the type the
	 * frames measure (the window does the same after each frame) */
	double *proj = calloc((size_t)frames, sizeof(double));
	if (!proj)
		return 2;
	km_view_state_still(&st, &m);
	st.projector = true;
	km_view_layout(&st);
	frame_first(d, &f, &st);
	for (int i = 0; i < 2 && km_view_measured(&st, &d->meas); i++)
		frame_first(d, &f, &st);
	uint64_t h_proj = fnv;
	for (int i = 0; i < frames; i++) {
		proj[i] = frame_full(d, &f, &st);
		h_proj = pixels_hash(s, h_proj);
	}

	/* the CPU lanes' summary the frames read, built again to time it */
	struct km_vm_summary sum;
	double ts = bench_now();
	if (km_vm_summary_build(&sum, &m, st.lay.cpus_per_row, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_view: %s\n", err);
		return 2;
	}
	double sum_s = bench_now() - ts;
	size_t nbuckets = sum.off[sum.nlevels - 1] + sum.nb[sum.nlevels - 1] * (size_t)sum.rows;

	BENCH_KV("cpus", "%d", sim->ncpus);
	BENCH_KV("events", "%llu", (unsigned long long)sim->events);
	BENCH_KV("trace_stored", "%zu", sim->trace.len);
	BENCH_KV("run_s", "%.6f", b.run_s);
	BENCH_KV("model_s", "%.6f", model_s);
	BENCH_KV("size", "%dx%d", w, h);
	BENCH_KV("cpu_spans", "%zu", m.cpu_first[m.ncpus]);
	BENCH_KV("end_ns", "%lld", (long long)m.end);
	BENCH_KV("typical_ns", "%lld", (long long)m.typical_ns);
	BENCH_KV("columns", "%d", st.lay.lanes.w);
	BENCH_KV("cpu_rows", "%d", st.lay.cpu_rows);
	BENCH_KV("cpus_per_row", "%d", st.lay.cpus_per_row);
	BENCH_KV("summary_s", "%.6f", sum_s);
	BENCH_KV("summary_b0_ns", "%lld", (long long)sum.b0);
	BENCH_KV("summary_levels", "%d", sum.nlevels);
	BENCH_KV("summary_mib", "%.1f", (double)nbuckets * sizeof(struct km_vm_bucket) / 1048576.0);
	BENCH_KV("summary_marks_mib", "%.1f", (double)(sum.mark ? sum.nmarks * (size_t)m.ncpus : 0) *
		 sizeof(uint32_t) / 1048576.0);
	BENCH_KV("frame_first_ms", "%.3f", first);
	BENCH_KV("frame_full_ms", "%.3f", median(full, frames));
	BENCH_KV("frame_cached_ms", "%.3f", median(cached, frames));
	BENCH_KV("frame_pan_ms", "%.3f", median(pan, frames));
	BENCH_KV("frame_projector_ms", "%.3f", median(proj, frames));
	BENCH_KV("pixels_first", "%016llx", (unsigned long long)h_first);
	BENCH_KV("pixels_full", "%016llx", (unsigned long long)h_full);
	BENCH_KV("pixels_cached", "%016llx", (unsigned long long)h_cached);
	BENCH_KV("pixels_pan", "%016llx", (unsigned long long)h_pan);
	BENCH_KV("pixels_projector", "%016llx", (unsigned long long)h_proj);
	BENCH_KV("peak_after_model_kib", "%ld", model_peak);
	BENCH_KV("peak_kib", "%ld", bench_peak_kib());
	free(full);
	free(cached);
	free(pan);
	free(proj);
	km_vm_summary_free(&sum);
	km_draw_free(d);
	SDL_DestroyRenderer(r);
	SDL_FreeSurface(s);
	km_vm_free(&m);
	bench_scen_free(&b);
	km_eras_free(&eras);
	return 0;
}
