/*
 * trace_kinds.c - the table of trace record kinds.  See trace_kinds.h.
 *
 * Each row was written from the km_emit() calls that make the kind (in
 * sched.c, lock.c, ops.c, check.c): if a call changes what it puts in a
 * field, its row changes with it.  "cpu" is the CPU the record happened
 * on unless the row says otherwise; 0xffff in the record means none.
 */
#include "trace_kinds.h"

static const struct km_trace_kind_info kinds[KM_TR_KIND_MAX] = {
	[KM_TR_CPU] = { "cpu", KM_TNS_NONE,
		"what the CPU runs now (none when idle)", NULL,
		"the CPU's new state, enum km_cpu_state" },
	[KM_TR_IRQOFF] = { "irqoff", KM_TNS_NONE,
		"the context on top of the CPU, or none", NULL,
		"1: interrupts now off, 0: back on" },
	[KM_TR_TASK_START] = { "task_start", KM_TNS_NONE,
		"the task that starts (cpu: none)", NULL, NULL },
	[KM_TR_TASK_EXIT] = { "task_exit", KM_TNS_NONE,
		"the task that ends", NULL, NULL },
	[KM_TR_CONTEND] = { "contend", KM_TNS_LOCK,
		"the context that must wait for the lock", "the lock's waiters, this one counted", NULL,
		KM_TACC_WRITE },
	[KM_TR_ACQUIRE] = { "acquire", KM_TNS_LOCK,
		"the context that takes the lock", NULL, "ns it waited",
		KM_TACC_WRITE },
	[KM_TR_RELEASE] = { "release", KM_TNS_LOCK,
		"the context that releases the lock", NULL,
		"ns it was held, or -1: no hold to close",
		KM_TACC_WRITE },
	[KM_TR_TRYFAIL] = { "tryfail", KM_TNS_LOCK,
		"the context that does not get the lock", NULL,
		"0: a trylock found it busy, 1: a timeout expired (the wait is given up)",
		KM_TACC_WRITE },
	[KM_TR_WAKE] = { "wake", KM_TNS_WAIT,
		"the waker, or none (a timer, a lock's hand-off); cpu: the waker's", "the woken context",
		"why: 0 lock granted, 1 lock to retry, 2 wait queue, 3 completion",
		KM_TACC_SCHED },
	[KM_TR_BLOCK] = { "block", KM_TNS_WAIT,
		"the context that goes to sleep", "what it waits for, enum km_wait", NULL,
		KM_TACC_SCHED },
	[KM_TR_IRQ_ENTER] = { "irq_enter", KM_TNS_IRQSRC,
		"the interrupt's context (recycled across sources)", NULL, NULL },
	[KM_TR_IRQ_EXIT] = { "irq_exit", KM_TNS_IRQSRC,
		"the interrupt's context", NULL, NULL },
	[KM_TR_VAR_READ] = { "var_read", KM_TNS_VAR,
		"the reader", NULL, "the value read",
		KM_TACC_READ },
	[KM_TR_VAR_WRITE] = { "var_write", KM_TNS_VAR,
		"the writer", NULL, "the value written",
		KM_TACC_WRITE },
	[KM_TR_ATOMIC] = { "atomic", KM_TNS_ATOMIC,
		"the context that changes it", NULL, "its new value",
		KM_TACC_WRITE },
	[KM_TR_COUNTER] = { "counter", KM_TNS_COUNTER,
		"the context that counts, or none", NULL, "its new value",
		KM_TACC_WRITE },
	[KM_TR_LOG] = { "log", KM_TNS_LOG,
		"the context that logs, or none", NULL, NULL },
	[KM_TR_VIOLATION] = { "violation", KM_TNS_CHECKED,
		"the context caught, or none", "enum km_violation_kind", NULL },
	[KM_TR_PREEMPT] = { "preempt", KM_TNS_NONE,
		"the context preempted", "the CPU it was preempted on", NULL },
	[KM_TR_MIGRATE] = { "migrate", KM_TNS_NONE,
		"the context that moves; cpu: where it moves to", "the CPU it moves to", NULL },
};

const struct km_trace_kind_info *km_trace_kind_info(unsigned kind)
{
	if (kind >= KM_TR_KIND_MAX || !kinds[kind].name)
		return NULL;
	return &kinds[kind];
}
