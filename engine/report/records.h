/*
 * records.h - what a report shows of a scenario besides its run: the
 * results of its check()s and the parameters it was run with.
 *
 * Plain records, no Lua and no jansson: the Lua layer fills them (it runs
 * the checks and reads param()), the reports and the view print them.
 * They are defined here, with the reports, so that neither report/ nor
 * view/ needs the Lua layer to read them.
 */
#ifndef KM_REPORT_RECORDS_H
#define KM_REPORT_RECORDS_H

#include <stdbool.h>

/* One check("...", fn) after the run: did it hold, and its message. */
struct km_check_result {
	bool ok;
	char *message;
};

/* One param(name, default), with the value the run used, as printed. */
struct km_param_info {
	char name[129];
	char value[256];
	char def[256];
};

#endif /* KM_REPORT_RECORDS_H */
