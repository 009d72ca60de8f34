/*
 * view_marks.c - the records behind violation markers and the key moment.
 *
 * The core reports a lost update at the loser's write, just before the
 * write record itself (ops.c: var_store), with the variable in obj and
 * the loser in ctx.  Its read is the loser's last read of the variable
 * before that, and the write it destroys is the last write of the
 * variable by anyone else before the violation.  Both are found by
 * walking back from the violation; the overwrite by walking forward.
 * The walks are bounded (SCAN records), so a marker costs the same in a
 * run of millions of records; a story longer than that is not joined.
 */
#include "view_marks.h"

#define SCAN 1000000

int km_vm_lost_update(const struct km_view_model *m, size_t viol, struct km_vm_lost *out)
{
	if (viol >= m->nrecs)
		return -1;
	const struct km_trace_rec *v = &m->recs[viol];
	if (v->kind != KM_TR_VIOLATION || v->aux != KM_V_LOST_UPDATE)
		return -1;
	size_t over = SIZE_MAX, read = SIZE_MAX, other = SIZE_MAX;
	for (size_t i = viol + 1, k = 0; i < m->nrecs && k < SCAN; i++, k++) {
		const struct km_trace_rec *r = &m->recs[i];
		if (r->kind == KM_TR_VAR_WRITE && r->obj == v->obj && r->ctx == v->ctx) {
			over = i;
			break;
		}
	}
	for (size_t i = viol, k = 0; i-- > 0 && k < SCAN; k++) {
		const struct km_trace_rec *r = &m->recs[i];
		if (r->obj != v->obj)
			continue;
		if (r->kind == KM_TR_VAR_WRITE && r->ctx != v->ctx && other == SIZE_MAX)
			other = i;
		if (r->kind == KM_TR_VAR_READ && r->ctx == v->ctx) {
			read = i;
			break;
		}
	}
	if (over == SIZE_MAX || read == SIZE_MAX || other == SIZE_MAX)
		return -1;
	*out = (struct km_vm_lost){ .read = read, .other = other, .over = over };
	return 0;
}

enum km_vm_key km_vm_key_moment(const struct km_view_model *m, size_t *rec)
{
	/* a lost update first: a wrong result, told in three steps on the
	 * lanes, is the lesson wherever one happens (the 2003 cli() run
	 * sleeps while atomic first, and loses its updates after) */
	for (size_t k = 0; k < m->nviols; k++)
		if (m->recs[m->viols[k]].aux == KM_V_LOST_UPDATE) {
			*rec = m->viols[k];
			return KM_VM_KEY_VIOLATION;
		}
	if (m->nviols) {
		*rec = m->viols[0];
		return KM_VM_KEY_VIOLATION;
	}
	for (size_t i = 0; i < m->nrecs; i++)
		if (m->recs[i].kind == KM_TR_CONTEND) {
			*rec = i;
			return KM_VM_KEY_CONTENTION;
		}
	return KM_VM_KEY_NONE;
}
