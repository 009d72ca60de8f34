# figs.awk - the figures of one lockmuseum JSON report, every one a
# reproduction asks for, read in one pass (lib.sh's report_figs):
#
#   awk -f figs.awk REPORT QUERY...
#
# prints the figures on one line, in the order asked, separated by "|"
# (a figure the report lacks is empty).  The report is read as lib.sh's
# `flat` made it: every space and newline removed.  The queries, each what
# lib.sh's helper of the same name read before with grep, head, cut and
# sed (a dozen processes a figure, where each costs milliseconds):
#
#   int:KEY          the first integer value of "KEY" (json_int)
#   sum:KEY          the sum of every integer value of "KEY" (json_sum)
#   count:KEY        how many times "KEY" occurs
#   counter:NAME     the final value of counter NAME (counter)
#   peak:NAME        the peak of counter NAME
#   lock:KEY:LOCK    integer KEY of the lock named LOCK (lock_int)
#   op:FIELD:NAME    FIELD (count, min_ns, p50_ns, p99_ns) of measure()
#                    series NAME (op_p99 is op:p99_ns:NAME)
#   cpu_used         CPU time used (ns): every CPU's time but its idle time
#   share            the CPU share used, in percent of all the run's CPUs
#   idle             100 less that share (as printed, one decimal)
#   per_op           CPU time (ns) per operation
#   ops_per_s        operations per second of simulated time (0 if none)
BEGIN {
	nq = ARGC - 2
	for (i = 1; i <= nq; i++)
		q[i] = ARGV[i + 1]
	ARGC = 2
	RS = "\001"	# not in a report: the whole file is one record
}
{ s = s $0 }
END {
	gsub(/[ \n]/, "", s)
	for (i = 1; i <= nq; i++)
		printf "%s%s", (i > 1 ? "|" : ""), fig(q[i])
	printf "\n"
}

# the integer at the start of t (digits, maybe a minus), or ""
function num(t) { return match(t, /^-?[0-9]*/) ? substr(t, 1, RLENGTH) : "" }

# the integer after the first occurrence of the text pre in t
function first(t, pre,   p) {
	p = index(t, pre)
	return p ? num(substr(t, p + length(pre))) : ""
}

# a regular expression matching the text t as it is
function lit(t) { gsub(/[][\\^$.|?*+(){}\/]/, "\\\\&", t); return t }

function fig(what,   k, rest, n, a, i, tot, p, seg, e, c, t, o) {
	k = what
	sub(/:.*/, "", k)
	rest = substr(what, length(k) + 2)
	if (k == "int")
		return first(s, "\"" rest "\":")
	if (k == "counter")
		return first(s, "\"" rest "\":{\"value\":")
	if (k == "peak") {
		# "NAME":{"value":V,"peak":P
		p = index(s, "\"" rest "\":{\"value\":")
		if (!p)
			return ""
		seg = substr(s, p + length(rest) + 12)
		return match(seg, /^-?[0-9]*,"peak":-?[0-9]*/) ? first(substr(seg, 1, RLENGTH), "\"peak\":") : ""
	}
	if (k == "sum" || k == "count") {
		n = split(s, a, lit("\"" rest "\":"))
		if (k == "count")
			return n > 0 ? n - 1 : 0
		tot = 0
		for (i = 2; i <= n; i++) {
			match(a[i], /^[0-9]*/)
			tot += substr(a[i], 1, RLENGTH)
		}
		return tot + 0
	}
	if (k == "lock" || k == "op") {
		# rest is FIELD:NAME
		e = index(rest, ":")
		c = substr(rest, 1, e - 1)
		rest = substr(rest, e + 1)
		if (k == "lock") {
			# the lock's object: from {"name":"LOCK", to the next {"name":
			p = index(s, "{\"name\":\"" rest "\",")
			if (!p)
				return ""
			seg = substr(s, p)
			e = index(substr(seg, 2), "{\"name\":")
			if (e)
				seg = substr(seg, 1, e)
			return first(seg, "\"" c "\":")
		}
		# "NAME":{"count":N,"min_ns":N,"p50_ns":N,"p99_ns":N
		p = index(s, "\"" rest "\":{\"count\":")
		if (!p)
			return ""
		seg = substr(s, p + length(rest) + 3)
		if (!match(seg, /^\{"count":[0-9]*,"min_ns":[0-9]*,"p50_ns":[0-9]*,"p99_ns":[0-9]*/))
			return ""
		return first(substr(seg, 1, RLENGTH), "\"" c "\":")
	}
	if (k == "cpu_used" || k == "share" || k == "idle" || k == "per_op") {
		t = first(s, "\"sim_time_ns\":")
		n = fig("count:idle_ns")
		c = n * t - fig("sum:idle_ns")
		if (k == "cpu_used")
			return sprintf("%.0f", c)
		if (k == "per_op")
			return c / fig("counter:operations")
		p = sprintf("%.1f", 100 * c / (n * t))
		return k == "share" ? p : sprintf("%.1f", 100 - p)
	}
	if (k == "ops_per_s") {
		o = fig("counter:operations")
		t = first(s, "\"sim_time_ns\":")
		return t > 0 ? sprintf("%.0f", o / (t / 1e9)) : 0
	}
	return ""
}
