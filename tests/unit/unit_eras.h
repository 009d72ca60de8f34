/*
 * unit_eras.h - the museum's eras, for unit tests that run real scenarios.
 *
 * The tests run from the source tree (make check-unit), so the data
 * folder defaults to the working directory unless LOCKMUSEUM_DATA says
 * otherwise.
 */
#ifndef KM_TESTS_UNIT_ERAS_H
#define KM_TESTS_UNIT_ERAS_H

#include "cli/session.h"

/* Load eras/ into @eras; 0, or -1 with the reason on stderr. */
int unit_load_eras(struct km_era_list *eras);

#endif
