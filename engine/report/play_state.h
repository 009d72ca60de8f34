/*
 * play_state.h - "you are the scheduler": the player's decisions, and the
 * chooser that replays them and stops at the next question.
 *
 * A run takes microseconds, so the game keeps only the decisions and runs
 * the scenario again from its start for each question: the decisions so
 * far are replayed, and the run stops (the chooser fails it on purpose,
 * KM_PLAY_PAUSED) at the first choice point past them that offers a
 * choice.  Undo is dropping the last answer; nothing of a run is kept
 * between two questions.  The same decisions give the same run, so what
 * the player saw is what a schedule file of the decisions replays.
 *
 * This is the loop both games share: the terminal's (`lockmuseum play`)
 * and the window's play mode.  It holds no run itself: whoever can make
 * runs (the command line, which owns the Lua sessions) passes
 * km_play_chooser() to the run, then reads where it stopped here.  The
 * line a task would run next comes from that caller too (line_of), since
 * only it knows the scenario.
 */
#ifndef KM_REPORT_PLAY_STATE_H
#define KM_REPORT_PLAY_STATE_H

#include "../choice.h"
#include "report.h"

/* At most this many tasks are offered at one choice point. */
#define KM_PLAY_MAX_OTHERS 64

/* The message of the run the chooser stopped for a question. */
#define KM_PLAY_PAUSED "play: paused at a choice point"

/* One decision that held a task: at choice point @index, task @ctx let
 * task @other go first (the ids of the simulator's contexts). */
struct km_play_decision {
	uint32_t index;
	uint32_t ctx;
	uint32_t other;
};

/* Where the last run stopped for a question. */
struct km_play_question {
	uint32_t index;			/* the choice point */
	km_time now;
	uint32_t ctx;			/* the task about to step */
	int line;			/* the line it would run next, 0: unknown */
	int nothers;			/* the tasks that could go first */
	uint32_t others[KM_PLAY_MAX_OTHERS];
	int other_lines[KM_PLAY_MAX_OTHERS];
};

struct km_play_undo {
	uint32_t upto;
	int ndecisions;
};

struct km_play {
	struct km_play_decision *d;	/* the decisions so far */
	int n, cap;
	uint32_t upto;			/* choice points below this are decided */
	bool to_end;			/* the next run lets every task go */
	struct km_play_undo *hist;	/* one per answer, to undo it */
	int nhist, caphist;

	/* the run being made */
	int next;			/* the next decision to replay */
	uint32_t last_index;		/* the last choice point it passed, +1 */
	bool paused;			/* it stopped for a question */
	struct km_play_question q;
	int (*line_of)(void *ud, const struct km_ctx *ctx);
	void *line_ud;
	struct km_chooser chooser;
	char goal[600];			/* the scenario's goal, in words (the caller's) */
};

void km_play_init(struct km_play *p);
void km_play_free(struct km_play *p);

/**
 * km_play_begin - before each run: the chooser to give it.  @line_of
 * (may be NULL) tells the line a context would run next; it is asked
 * while the run is paused at a choice point, with @ud.
 * Context: the run's owner; the chooser is valid while @p is.
 */
const struct km_chooser *km_play_begin(struct km_play *p,
				       int (*line_of)(void *ud, const struct km_ctx *ctx),
				       void *ud);

/**
 * km_play_end - after the run: did it stop for a question?  @rc is the
 * run's exit status (2 when the chooser stopped it).  A run that ended
 * with every task let go (km_play_answer's to-the-end) leaves no choice
 * point undecided.
 */
bool km_play_end(struct km_play *p, int rc);

/**
 * km_play_answer - answer the question the last run stopped at: @k 0 lets
 * the task go, 1 .. q.nothers lets that other task go first; @to_end also
 * lets every task go at every later point, to the run's end.
 * Returns 0, -1 when @k is not offered (nothing changes), -2 out of
 * memory (nothing changes).
 */
int km_play_answer(struct km_play *p, int k, bool to_end);

/* Drop the last answer.  Returns false when there is none. */
bool km_play_undo(struct km_play *p);

/*
 * km_play_goal - did the finished run reach the goal?  A scenario with
 * checks states its goal in them (a challenge's goal check fails when it
 * is reached); one without, a deadlock or any violation.  The reason in
 * @why.
 */
bool km_play_goal(const struct km_run_info *ri, char *why, size_t len);

/* The name of context @id of @sim, "?" when there is none. */
const char *km_play_task_name(const struct km_sim *sim, uint32_t id);

#endif /* KM_REPORT_PLAY_STATE_H */
