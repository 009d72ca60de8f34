/*
 * time_unit.h - one unit for the times of one message.
 *
 * "wait avg 850 ns, max 1.20 us" makes the reader convert before they
 * can compare; "wait avg 0.85 us, max 1.20 us" does not.  A message (a
 * report line, a panel line, a table) that prints several times picks
 * one unit for all of them from the largest, with km_time_unit_for(),
 * and prints each with km_time_in().  The unit is the largest of ns, us,
 * ms and s in which the largest value is at least 1, with two digits
 * after the point (whole nanoseconds in ns), so that a smaller value in
 * the same message reads "0.85 us".  One value on its own is
 * km_time_in(v, km_time_unit_for(v), ...).
 *
 * Instants that must stay apart (a read at 3500 ns, a write at 3503 ns)
 * take km_time_unit_exact(): three digits after the point, so that
 * microseconds keep their nanoseconds.
 *
 * The core's own messages (a violation's) use it as the reports do,
 * which is why it lives in the core and not in report/.
 *
 * NOTE: "us", not the micro sign, in reports (text that goes through
 * terminals, CSV and grep); the window passes @micro to print the sign.
 */
#ifndef KM_ENGINE_TIME_UNIT_H
#define KM_ENGINE_TIME_UNIT_H

#include <stdbool.h>
#include <stddef.h>

#include "km.h"

struct km_time_unit {
	double ns;		/* nanoseconds in one unit */
	int decimals;
	const char *name;	/* "ns", "us", "ms", "s" */
};

/* The unit for a message whose largest time is @largest (ns, >= 0). */
struct km_time_unit km_time_unit_for(km_time largest);

/* The same unit, with three digits after the point (instants). */
struct km_time_unit km_time_unit_exact(km_time largest);

/* The unit for the @n times @v[] of one message. */
struct km_time_unit km_time_unit_of(const km_time *v, size_t n);

/**
 * km_time_in() - @ns written in unit @u, with the unit's name: "1.20 us".
 * @micro: write the micro sign (UTF-8) rather than "us"
 *
 * Return: @buf.
 */
const char *km_time_in(km_time ns, struct km_time_unit u, bool micro, char *buf, size_t len);

#endif /* KM_ENGINE_TIME_UNIT_H */
