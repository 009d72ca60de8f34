/*
 * time_unit.c - one unit for the times of one message (see time_unit.h).
 */
#include "time_unit.h"

#include <stdio.h>

struct km_time_unit km_time_unit_for(km_time largest)
{
	if (largest >= 1000000000)
		return (struct km_time_unit){ 1e9, 2, "s" };
	if (largest >= 1000000)
		return (struct km_time_unit){ 1e6, 2, "ms" };
	if (largest >= 1000)
		return (struct km_time_unit){ 1e3, 2, "us" };
	return (struct km_time_unit){ 1, 0, "ns" };
}

struct km_time_unit km_time_unit_exact(km_time largest)
{
	struct km_time_unit u = km_time_unit_for(largest);
	if (u.ns > 1)
		u.decimals = 3;
	return u;
}

struct km_time_unit km_time_unit_of(const km_time *v, size_t n)
{
	km_time big = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] > big)
			big = v[i];
	return km_time_unit_for(big);
}

const char *km_time_in(km_time ns, struct km_time_unit u, bool micro, char *buf, size_t len)
{
	const char *name = micro && u.name[0] == 'u' ? "\xc2\xb5s" : u.name;
	if (u.ns == 1) {
		snprintf(buf, len, "%lld %s", (long long)ns, name);
		return buf;
	}
	/* a small value in a large unit keeps two significant digits
	 * (0.0032 ms, not 0.00 ms), down to the nanosecond */
	double v = (double)ns / u.ns;
	int dec = u.decimals;
	int most = u.ns >= 1e9 ? 9 : u.ns >= 1e6 ? 6 : 3;
	double step = 1.0;
	for (int i = 0; i < dec; i++)
		step /= 10;
	while (ns > 0 && dec < most && v < 10 * step) {
		dec++;
		step /= 10;
	}
	snprintf(buf, len, "%.*f %s", dec, v, name);
	return buf;
}
