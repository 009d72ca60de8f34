#!/usr/bin/env bash
# timed.sh CMD [ARGS...] - run a test command, then print the wall time
# and the CPU time (user + system of the command and everything it
# started) it took, "(run_cli.sh build/lockmuseum: 12.3 s, CPU 8.1 s)",
# and exit with its status.  Every suite of `make test` runs its scripts
# through it, so that a slow one shows in the log (docs/performance.md,
# section 12).  The CPU time is the figure a loaded machine stretches
# least, and the one the two cores of the budget divide between them.
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
# the second line of `times`: the children's user and system time, as
# "1m2.345s 0m0.678s" (`times` run in this shell: a subshell's children
# are its own)
t=$(mktemp) && times >"$t" && cpu=$(sed -n 2p "$t")
rm -f "$t"
awk -v a="$start" -v b="$end" -v cpu="$cpu" -v what="$(basename "$1")${2:+ $2}" '
	function secs(t,   m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); return m * 60 + t }
	BEGIN { split(cpu, c, " "); printf "(%s: %.1f s, CPU %.1f s)\n", what, b - a, secs(c[1]) + secs(c[2]) }'
exit $rc
