#!/usr/bin/env bash
# The 2008 exhibit against Nick Piggin's measurement for the ticket lock
# (314cdbefd1fd, "x86: FIFO ticket spinlocks"): on an 8-core, 2-socket
# Opteron, threads hammering one test-and-set spinlock finished with "up to
# 2x" differences in run time; with ticket locks "all threads appear to
# finish at exactly the same time".  The model runs scripts/spin_fairness.lua
# (8 tasks, one per CPU, 400 takes each) on that machine
# (eras/machines/2007-2008.lua: 2 sockets x 4 cores, MOESI), era 2007
# (2.6.23's `lock; decb`) against era 2008 (2.6.25's tickets).  Asserted over
# 20 seeds, at least 90% of them passing each check:
#  - test-and-set: the finish-time spread between 1.5x and 3x;
#  - the releasing socket favoured: the first four to finish are the four
#    CPUs of one socket -- the lock stays where the line is;
#  - ticket: spread within 1.00-1.05.
# Then the variant without the coherence model: the same machine made flat
# (its topology removed: every line one `cacheline` away, docs/reproductions.md,
# "spin2008"): printed beside, to show what the mechanism adds.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
repro_setup "${1:-}" spin_fairness.lua

# spread FILE: last finish time over first
# (one awk on the report, as flat made it: one process, not four)
spread() {
	awk 'BEGIN { RS = "\001" } { s = s $0 } END {
		gsub(/[ \n]/, "", s); n = split(s, a, /"end_ns":/)
		for (i = 2; i <= n; i++) { match(a[i], /^[0-9]*/); v = substr(a[i], 1, RLENGTH) + 0
			if (i == 2 || v < lo) lo = v; if (v > hi) hi = v }
		printf "%.3f", hi / lo }' "$1"
}
# first_socket FILE: the sockets (cpu / 4) of the first four to finish, as
# one word ("0000", "0101", ...): each CPU's task ("cpuN") by its end time
# (ties: by the CPU's number as text, as sort -n breaks them), in one awk
first_socket() {
	awk 'BEGIN { RS = "\001" } { s = s $0 } END {
		gsub(/[ \n]/, "", s)
		while (match(s, /"name":"cpu[0-9]*","cpu":[0-9]*,[^}]*"end_ns":[0-9]*/)) {
			m = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			c = m; sub(/.*"cpu":/, "", c); sub(/,.*/, "", c)
			e = m; sub(/.*"end_ns":/, "", e)
			n++; end[n] = e + 0; cpu[n] = c
		}
		for (k = 1; k <= 4 && k <= n; k++) {
			b = k
			for (i = k + 1; i <= n; i++)
				if (end[i] < end[b] || (end[i] == end[b] && (end[i] " " cpu[i]) < (end[b] " " cpu[b]))) b = i
			t = end[k]; end[k] = end[b]; end[b] = t; t = cpu[k]; cpu[k] = cpu[b]; cpu[b] = t
			printf "%d", int(cpu[k] / 4)
		}
	}' "$1"
}

seeds=20
tas_ok=0 sock_ok=0 tick_ok=0 all=""
for s in $(seq 1 $seeds); do
	[ "$(run "t$s.json" --era 2007 --seed "$s")" = 0 ] || { bad "2007 run, seed $s"; continue; }
	[ "$(run "k$s.json" --era 2008 --seed "$s")" = 0 ] || { bad "2008 run, seed $s"; continue; }
	st=$(spread "$tmp/t$s.json"); sk=$(spread "$tmp/k$s.json"); fs=$(first_socket "$tmp/t$s.json")
	all="$all $st"
	ge "$st" 1.5 && ge 3 "$st" && tas_ok=$((tas_ok + 1))
	case "$fs" in 0000|1111) sock_ok=$((sock_ok + 1)) ;; esac
	ge "$sk" 1.00 && ge 1.05 "$sk" && tick_ok=$((tick_ok + 1))
done
echo "     test-and-set spreads over $seeds seeds:$all (published: up to 2x)"
echo "     ticket spread, seed 1: $(spread "$tmp/k1.json")x (published: all finish together)"
need=$(( (seeds * 9 + 9) / 10 ))
[ "$tas_ok" -ge "$need" ] && ok "test-and-set: spread 1.5x-3x in $tas_ok of $seeds seeds" ||
	bad "test-and-set: spread 1.5x-3x in only $tas_ok of $seeds seeds"
[ "$sock_ok" -ge "$need" ] && ok "test-and-set: one socket's four CPUs finish first in $sock_ok of $seeds seeds" ||
	bad "test-and-set: one socket first in only $sock_ok of $seeds seeds"
[ "$tick_ok" -ge "$need" ] && ok "ticket: spread 1.00-1.05 in $tick_ok of $seeds seeds" ||
	bad "ticket: spread 1.00-1.05 in only $tick_ok of $seeds seeds"

# The machine without its caches: the same file, topology removed.
flatd="$tmp/flat"
era_data "$flatd"
awk '/^  topology = \{/ { skip = 1 } !skip { print } skip && /^  \},/ { skip = 0 }' \
	"$here/../../eras/machines/2007-2008.lua" >"$flatd/eras/machines/2007-2008.lua"
if grep -q '^  topology' "$flatd/eras/machines/2007-2008.lua"; then
	bad "the flat variant still has a topology"
else
	fl=$(LOCKMUSEUM_DATA="$flatd" "$bin" run "$script" --report json --era 2007 --seed 1 2>"$tmp/flat.err" >"$tmp/flat.json"; echo $?)
	[ "$fl" = 0 ] && ok "2007 on the flat machine runs" || bad "2007 on the flat machine: $(head -n 1 "$tmp/flat.err")"
	echo "     no coherence model (flat, cacheline 70 ns): test-and-set spread $(spread "$tmp/flat.json")x, first four to finish on sockets $(first_socket "$tmp/flat.json")"
fi
finish
