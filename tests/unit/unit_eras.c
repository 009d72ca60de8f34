/*
 * unit_eras.c - the museum's eras for unit tests.  See unit_eras.h.
 */
#include "unit_eras.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int unit_load_eras(struct km_era_list *eras)
{
	char err[1024];
	if (!getenv("LOCKMUSEUM_DATA")) {
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof(cwd)))
			setenv("LOCKMUSEUM_DATA", cwd, 1);
	}
	if (km_load_eras(eras, err, sizeof(err)) < 0) {
		fprintf(stderr, "eras: %s\n", err);
		return -1;
	}
	return 0;
}
