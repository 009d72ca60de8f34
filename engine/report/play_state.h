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
 * only it knows the scenario; so does the line an interrupt handler would
 * run next (irq_line_of).
 *
 * The options of a question are numbered as the chooser's answers are
 * (choice.h): 0 lets the task go, 1 .. nothers let a task go first, and
 * nothers + 1 .. nothers + nirqs let an interrupt come first -- a handler
 * of that source runs to its exit while the task waits, the decision a
 * schedule file writes as `irq:N`.
 */
#ifndef KM_REPORT_PLAY_STATE_H
#define KM_REPORT_PLAY_STATE_H

#include "../choice.h"
#include "report.h"

/* At most this many tasks, and this many interrupt sources, are offered
 * at one choice point. */
#define KM_PLAY_MAX_OTHERS 64
#define KM_PLAY_MAX_IRQS 64
/* An interrupt source's name, as a question keeps it (truncated). */
#define KM_PLAY_IRQ_NAME 48

/* The message of the run the chooser stopped for a question. */
#define KM_PLAY_PAUSED "play: paused at a choice point"

/* One decision that held a task: at choice point @index, task @ctx let
 * task @other go first (the ids of the simulator's contexts), or, with
 * KM_CHOICE_IRQ set in @other, a handler of interrupt source @other's id
 * (a schedule file's decision, schedule.h).  @line, for the schedule
 * file's comment as the explorer writes it: the line of the step @ctx
 * took after the hold (0 until a run got there). */
struct km_play_decision {
	uint32_t index;
	uint32_t ctx;
	uint32_t other;
	int line;
};

/* Why an interrupt source may come first (choice.h): a handler of it
 * runs now, it is latched, or it is due within the hold bound. */
enum km_play_irq_why { KM_PLAY_IRQ_DUE, KM_PLAY_IRQ_LATCHED, KM_PLAY_IRQ_RUNNING };

/* An interrupt that may come first at a question. */
struct km_play_irq {
	uint32_t src;			/* the source's id */
	char name[KM_PLAY_IRQ_NAME];
	int cpu;			/* the CPU it is wired to */
	bool own_cpu;			/* the task's own CPU (its interrupts are on) */
	enum km_play_irq_why why;
	km_time due;			/* KM_PLAY_IRQ_DUE: when it fires */
	int line;			/* where its handler stands (why RUNNING: the
					 * operation it did last), else its first line;
					 * 0: unknown */
};

/* Where the last run stopped for a question. */
struct km_play_question {
	uint32_t index;			/* the choice point */
	km_time now;
	uint32_t ctx;			/* the task about to step */
	/* Where each task stands: the line of the operation it did last
	 * (started: its next step runs the code after that line), or the
	 * first line of its body; 0: unknown.  A choice point comes before
	 * a task's code runs on, so the line it will run next is not known
	 * until it does. */
	int line;
	bool started;
	int nothers;			/* the tasks that could go first */
	uint32_t others[KM_PLAY_MAX_OTHERS];
	int other_lines[KM_PLAY_MAX_OTHERS];
	bool other_started[KM_PLAY_MAX_OTHERS];
	int nirqs;			/* the interrupts that could come first */
	struct km_play_irq irqs[KM_PLAY_MAX_IRQS];
	/* those past the limits above: not offered, and the question says so */
	int more_others, more_irqs;
};

/* The lines the caller knows, for a question (either may be NULL). */
struct km_play_lines {
	/* where @ctx stands, and whether it has started (*started: the line
	 * is that of the operation it did last) */
	int (*task)(void *ud, const struct km_ctx *ctx, bool *started);
	/* the line a handler of @src would run next: where a running one
	 * stands, else the first line of its handler */
	int (*irq)(void *ud, const struct km_sim *sim, const struct km_irqsrc *src);
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
	const struct km_play_lines *lines;
	void *line_ud;
	struct km_chooser chooser;
	char goal[600];			/* the scenario's goal, in words (the caller's) */
};

void km_play_init(struct km_play *p);
void km_play_free(struct km_play *p);

/**
 * km_play_begin - before each run: the chooser to give it.  @lines (may
 * be NULL) tells the line a task or a handler would run next; it is
 * asked while the run is paused at a choice point, with @ud.
 * Context: the run's owner; the chooser is valid while @p is, and
 * @lines while the run is.
 */
const struct km_chooser *km_play_begin(struct km_play *p, const struct km_play_lines *lines,
				       void *ud);

/**
 * km_play_end - after the run of @sim (NULL: none was made): did it stop
 * for a question?  @rc is the run's exit status (2 when the chooser
 * stopped it).  It may still ask the lines of km_play_begin.  A run that ended
 * with every task let go (km_play_answer's to-the-end) leaves no choice
 * point undecided.
 */
bool km_play_end(struct km_play *p, const struct km_sim *sim, int rc);

/* How many options the question has: Enter, the tasks, the interrupts. */
static inline int km_play_options(const struct km_play_question *q)
{
	return 1 + q->nothers + q->nirqs;
}

/**
 * km_play_answer - answer the question the last run stopped at: @k 0 lets
 * the task go, 1 .. q.nothers lets that other task go first, q.nothers +
 * 1 .. q.nothers + q.nirqs lets that interrupt come first; @to_end also
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

/*
 * km_play_default_path - where a played schedule is saved when no file is
 * named: out/<scenario>.schedule, the scenario's name made safe for a
 * file name ('/', '\\' and control bytes become '_').
 */
void km_play_default_path(const char *scenario, char *buf, size_t len);
/*
 * km_safe_file_name - @name (or @def if empty) as one file name in the
 * current folder: '/', '\\', control bytes and a leading '.' become '_',
 * so that a scenario named "../x" or "/etc/x" names no other folder.
 */
void km_safe_file_name(const char *name, const char *def, char *buf, size_t len);

/*
 * km_play_irq_says - what option @i of the interrupts of @q means, in
 * words, into @buf: "irq eth0 -> cpu1 goes first, due at 12.00 us" (a
 * handler of it runs to its exit while the task waits).  Returns @buf.
 */
const char *km_play_irq_says(const struct km_play_question *q, int i, const char *task,
			     char *buf, size_t len);

/* The name of context @id of @sim, "?" when there is none. */
const char *km_play_task_name(const struct km_sim *sim, uint32_t id);

#endif /* KM_REPORT_PLAY_STATE_H */
