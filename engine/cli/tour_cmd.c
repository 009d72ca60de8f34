/*
 * tour_cmd.c - the headless tour: every exhibit, in chronological order,
 * with its lesson, a line per mode it contrasts, and the full report of
 * the first mode.  With --out DIR the same text goes to DIR/tour.txt and
 * one PNG per exhibit beside it (the view, drawn without a display); each
 * file is written to a temporary name and renamed into place when
 * complete.
 */
#include "tour_cmd.h"
#include "../lua/tour.h"
#include "view_cli.h"
#include "../report/out_file.h"
#include "../cpu_time.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One line a mode: what the run did, and whether that is the lesson:
 * an exhibit marks the modes that fail on purpose (exhibit{ fails }). */
static void summary_line(FILE *out, const struct km_session *s, int mode, int status,
			 bool fails)
{
	const struct km_run_info *ri = &s->ri;
	char t[32];
	fprintf(out, "  %-10s ", km_mode_name(mode));
	if (status == 2) {
		fprintf(out, "%s: %s\n", km_outcome_name(ri->outcome), ri->reason);
		return;
	}
	const struct km_sim *sim = ri->sim;
	uint64_t nv = 0;
	for (int k = 0; k < KM_V_KINDS; k++)
		nv += sim->violation_count[k];
	struct km_cpu_time ct;
	km_cpu_time_of(sim, &ct);
	int okc = 0;
	for (int i = 0; i < ri->nchecks; i++)
		okc += ri->checks[i].ok;
	fprintf(out, "%-10s %10s  busy %5.1f%%  spin %5.1f%%  violations %-4llu checks %d/%d%s\n",
		km_outcome_name(ri->outcome), km_fmt_ns(sim->now, t, sizeof(t)),
		km_cpu_time_pct(&ct, KM_CPU_BUSY), km_cpu_time_pct(&ct, KM_CPU_SPIN), (unsigned long long)nv, okc,
		ri->nchecks, status != 0 && fails ? "  (fails on purpose: the lesson)" :
		status != 0 ? "  (NOT EXPECTED)" : fails ? "  (expected to fail, but passed)" : "");
}

/* Print @text after @lead, wrapped at 78 columns, then a blank line. */
static void wrap(FILE *out, const char *lead, const char *text)
{
	size_t col = strlen(lead), indent = col;
	fputs(lead, out);
	const char *p = text;
	while (*p) {
		const char *w = p;
		while (*w && *w != ' ')
			w++;
		size_t len = (size_t)(w - p);
		if (col > indent && col + 1 + len > 78) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, len, out);
		col += len;
		p = *w ? w + 1 : w;
	}
	fputs("\n\n", out);
}

int km_tour_open(struct km_era_list *eras, struct km_tour *tour, char *err, size_t errlen)
{
	char path[PATH_MAX + 128], scripts[PATH_MAX + 64];
	if (km_load_eras(eras, err, errlen) < 0)
		return -1;
	snprintf(scripts, sizeof(scripts), "%s/scripts", km_datadir());
	snprintf(path, sizeof(path), "%s/tour.lua", scripts);
	bool armed = km_watchdog_arm(path, 10.0, false);
	int trc = km_tour_load(path, scripts, tour, err, errlen);
	km_watchdog_disarm(armed);
	if (trc < 0) {
		km_eras_free(eras);
		return -1;
	}
	return 0;
}

void km_tour_close(struct km_era_list *eras, struct km_tour *tour)
{
	km_tour_free(tour);
	km_eras_free(eras);
}

int km_tour_command(const struct km_tour_opts *o)
{
	char err[1024];
	struct km_era_list eras;
	struct km_tour tour;
	if (km_tour_open(&eras, &tour, err, sizeof(err)) < 0) {
		fprintf(stderr, "lockmuseum: %s\n", err);
		return 2;
	}
	FILE *txt = NULL;
	struct km_out_file txt_out;
	char txt_final[PATH_MAX + 64];
	if (o->out_dir) {
		if (mkdir(o->out_dir, 0777) < 0 && errno != EEXIST) {
			fprintf(stderr, "lockmuseum: --out %s: %s\n", o->out_dir, strerror(errno));
			km_tour_close(&eras, &tour);
			return 2;
		}
		/* a folder that cannot be written is said before 15 exhibits run */
		if (access(o->out_dir, W_OK | X_OK) < 0) {
			fprintf(stderr, "lockmuseum: --out %s: %s\n", o->out_dir, strerror(errno));
			km_tour_close(&eras, &tour);
			return 2;
		}
		snprintf(txt_final, sizeof(txt_final), "%s/tour.txt", o->out_dir);
		if (km_out_open(&txt_out, txt_final, err, sizeof(err)) < 0) {
			fprintf(stderr, "lockmuseum: %s: %s\n", txt_final, err);
			km_tour_close(&eras, &tour);
			return 2;
		}
		txt = txt_out.f;
	}
	int status = 0, pngs = 0;
	bool stopped = false;	/* a file could not be written: said once, no more runs */
	km_writing_output++;	/* tour.txt's temporary, and the PNGs */
	for (int i = 0; i < tour.n && !km_interrupted && !stopped; i++) {
		const struct km_exhibit *e = &tour.v[i];
		FILE *outs[2] = { stdout, txt };
		char cpus_s[16] = "";
		if (e->cpus)
			snprintf(cpus_s, sizeof(cpus_s), "%d", e->cpus);
		for (int f = 0; f < 2; f++) {
			if (!outs[f])
				continue;
			fprintf(outs[f], "%s== Exhibit %d of %d: %s\n   (%s, era %s%s%s)\n\n",
				i ? "\n\n" : "", i + 1, tour.n, e->title, strrchr(e->file, '/') + 1,
				e->era, e->cpus ? ", CPUs " : "", cpus_s);
			wrap(outs[f], "", e->text);
			wrap(outs[f], "   Look at: ", e->look);
		}
		struct km_param_set sets[KM_TOUR_SETS];
		for (int k = 0; k < e->nsets; k++) {
			sets[k].name = e->set_name[k];
			sets[k].value = e->set_value[k];
		}
		/* every mode's run, for the picture: an exhibit whose lesson is
		 * in two modes shows both, side by side */
		struct km_session runs[KM_TOUR_MODES];
		int nruns = 0, main_run = 0;
		struct km_session first;
		memset(&first, 0, sizeof(first));
		int first_status = 2;
		for (int m = 0; m < e->nmodes; m++) {
			struct km_run_request rq = *o->base;
			rq.file = e->file;
			rq.era = e->era;
			rq.mode = e->modes[m];
			rq.cpus = e->cpus;
			rq.anachronism = e->anachronism;
			rq.sets = sets;
			rq.nsets = e->nsets;
			rq.store_trace = o->out_dir && (m == 0 || e->nmodes <= KM_VIEW_MAX_COMPARE);
			struct km_session s;
			int st = km_session_run(&s, &eras, &rq);
			if (st == 2 && s.ri.outcome == KM_OUT_ERROR)
				status = 2;
			for (int f = 0; f < 2; f++)
				if (outs[f])
					summary_line(outs[f], &s, e->modes[m], st, e->fails[m]);
			if (m == 0) {
				first = s;
				first_status = st;
			}
			if (o->out_dir && st != 2 && rq.store_trace) {
				/* the mode that fails on purpose is the lesson: its
				 * figures in the panel */
				if (e->fails[m] && !e->fails[main_run])
					main_run = nruns;
				runs[nruns++] = s;
			} else if (m != 0) {
				km_session_free(&s);
			}
		}
		if (first_status != 2) {
			for (int f = 0; f < 2; f++) {
				if (!outs[f])
					continue;
				fputc('\n', outs[f]);
				km_report_text(outs[f], &first.ri);
			}
			if (o->out_dir) {
				char png[PATH_MAX + 128];
				const char *base = strrchr(e->file, '/') + 1;
				snprintf(png, sizeof(png), "%s/%02d-%.*s-%s.png", o->out_dir, i + 1,
					 (int)(strlen(base) - 4), base, e->era);
				struct km_view_exhibit vex;
				km_cli_exhibit_of(&vex, e);
				int rc = nruns > 1 ? km_cli_png_exhibit_modes(&eras, &vex, runs, nruns,
									    main_run, png, o->png_w,
									    o->png_h, err, sizeof(err))
						   : km_cli_png_exhibit(&eras, &vex, &first, png, o->png_w,
									o->png_h, err, sizeof(err));
				if (rc < 0) {
					/* a full disk or a file-size limit fails every
					 * picture after this one too: say it once */
					fprintf(stderr, "lockmuseum: %s: %s\n", png, err);
					status = 2;
					stopped = true;
				} else {
					pngs++;
				}
			}
		}
		for (int k = 0; k < nruns; k++)
			if (runs[k].ri.sim != first.ri.sim)
				km_session_free(&runs[k]);
		km_session_free(&first);
		/* tour.txt as it grows: its write error now, with its errno
		 * (ENOSPC, EFBIG), not a stdio flag found at the end */
		if (txt && !stopped && fflush(txt) != 0) {
			fprintf(stderr, "lockmuseum: %s: cannot write: %s\n", txt_final,
				strerror(errno));
			status = 2;
			stopped = true;
		}
	}
	if (txt && (km_interrupted || stopped)) {
		/* never leave a half-written tour behind */
		km_out_abort(&txt_out);
		status = 2;
	} else if (txt) {
		if (km_out_commit(&txt_out, err, sizeof(err)) < 0) {
			fprintf(stderr, "lockmuseum: %s: %s\n", txt_final, err);	/* err: "cannot write: ..." */
			status = 2;
		} else {
			/* the report first: one file given both streams (make run >
			 * log 2>&1) reads in order, not with this line in the middle
			 * of the last exhibit's (a write error stays stdout's, found
			 * at exit) */
			fflush(stdout);
			fprintf(stderr, "lockmuseum: wrote %s and %d PNG%s under %s\n", txt_final,
				pngs, pngs == 1 ? "" : "s", o->out_dir);
		}
	}
	km_writing_output--;
	km_tour_close(&eras, &tour);
	return status;
}
