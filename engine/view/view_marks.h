/*
 * view_marks.h - the moments a lesson points at: violations, the three
 * accesses of a lost update, and the moment an exhibit opens on.
 *
 * A violation is one trace record, but a lost update is a story of
 * three: task A reads the variable, task B writes it, A writes its stale
 * value over B's.  The view joins them with arrows, so the race is seen
 * rather than read about; this finds the three records.  The key moment
 * is where a visitor should look first: the first violation if the run
 * has one, else the first contention, else nothing.
 *
 * Plain functions of a built model, no SDL; each costs a bounded scan of
 * the records around the one asked about.
 */
#ifndef KM_VIEW_VIEW_MARKS_H
#define KM_VIEW_VIEW_MARKS_H

#include "view_model.h"

/* The records of a lost update, by index into the model's records. */
struct km_vm_lost {
	size_t read;			/* the loser's read of the variable */
	size_t other;			/* the other context's write in between */
	size_t over;			/* the loser's write over it */
};

/**
 * km_vm_lost_update - the three records of the lost update reported by
 * violation record @viol.  Returns 0, or -1 when @viol is not a lost
 * update or a record is missing (the trace was cut short).
 */
int km_vm_lost_update(const struct km_view_model *m, size_t viol, struct km_vm_lost *out);

/* Why an exhibit opens where it does. */
enum km_vm_key {
	KM_VM_KEY_NONE,			/* nothing stands out: the start */
	KM_VM_KEY_VIOLATION,		/* the first violation */
	KM_VM_KEY_CONTENTION,		/* the first contended lock */
};

/**
 * km_vm_key_moment - the record a visitor should see first: the first
 * lost update, else the first violation, else the first contention.  Returns what it found, and its
 * record in @rec (untouched for KM_VM_KEY_NONE).  O(records) at worst.
 */
enum km_vm_key km_vm_key_moment(const struct km_view_model *m, size_t *rec);

#endif /* KM_VIEW_VIEW_MARKS_H */
