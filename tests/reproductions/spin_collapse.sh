#!/usr/bin/env bash
# The 2012 exhibit against Boyd-Wickizer, Kaashoek, Morris and Zeldovich,
# "Non-scalable locks are dangerous" (Linux Symposium 2012; figures read
# from a copy, docs/research/coherence.md): on their 48-core Opteron, with a
# 400-cycle serial section that is 2% of one core's time (their Figure 9),
# the ticket lock's speedup rises to about 10 near 12 cores, then collapses
# to about 1 at 48; MCS locks do not collapse (their Figure 12).  Asserted,
# on scripts/spin_collapse.lua in the 2012 era, for each of 20 seeds (the
# work outside the lock is exponential, drawn from the seed), and passed by
# at least 18 of them:
#  - ticket: the throughput peaks between 8 and 24 cores, and at 48 cores
#    is at most half that peak;
#  - MCS (lock{ spin = "mcs" }) on the same runs: at 48 cores at least 85%
#    of its highest throughput;
# and over the 20 seeds, MCS at 48 cores keeps on average at least 90% of
# its best: the issue's "within 10% of its peak", which the machine wired
# as AMD's twisted ladder gives on the mean (92%) and on 17 of 20 seeds
# alone, where the ring it replaced gave 87% (the paper's Figure 12: MCS
# keeps 83% of its peak on MEMPOP, 45% on FOPS;
# docs/reproductions/spin_collapse.md);
# and once, the paper's Markov model (compare --markov) for the same a, s
# and c: it too peaks inside the sweep and falls to at most half by 48.
# The sweep samples the CPU counts around the knee (the full 1..48 sweep is
# in docs/reproductions.md); each run lasts 250 us of simulated time, 20 to
# 900 lock operations: about 300 short runs in all.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
repro_setup "${1:-}" spin_collapse.lua

ticket_cpus=1,8,12,14,16,18,20,24,48
mcs_cpus=12,16,20,24,32,40,48
seeds=20
window="--set window_us=250"

# rates FILE: "cpus rate" per row of a compare JSON table, in order
rates() {
	flat "$1" | sed 's/{"mode":/\n{"mode":/g' | grep '"cpus":' |
		sed 's/.*"cpus":\([0-9]*\).*"acquisitions_per_s":\([0-9.e+-]*\).*/\1 \2/'
}

passed=0
worst=""
mcs_sum=0
mcs_n=0
for s in $(seq 1 $seeds); do
	# shellcheck disable=SC2086
	"$bin" compare "$script" --modes spinlock --cpus $ticket_cpus --set lock=ticket \
		--seed "$s" $window --report json >"$tmp/t$s.json" 2>"$tmp/t$s.err"
	st_t=$?
	# shellcheck disable=SC2086
	"$bin" compare "$script" --modes spinlock --cpus $mcs_cpus --set lock=mcs \
		--seed "$s" $window --report json >"$tmp/m$s.json" 2>"$tmp/m$s.err"
	st_m=$?
	if [ $st_t != 0 ] || [ $st_m != 0 ]; then
		echo "     seed $s: compare exited $st_t (ticket), $st_m (mcs)"
		continue
	fi
	verdict=$( { rates "$tmp/t$s.json" | sed 's/^/t /'; rates "$tmp/m$s.json" | sed 's/^/m /'; } |
		awk '$1 == "t" { if ($3 > tp) { tp = $3; tn = $2 } if ($2 == 48) t48 = $3 }
		     $1 == "m" { if ($3 > mp) mp = $3; if ($2 == 48) m48 = $3 }
		     END {
			ok = tn >= 8 && tn <= 24 && t48 <= tp / 2 && m48 >= 0.85 * mp
			printf "%s ticket peak %.0f/s at %d, %.2f of it at 48; mcs at 48 %.3f of its best\n",
			       ok ? "ok" : "no", tp, tn, t48 / tp, m48 / mp
		     }')
	share=$(echo "$verdict" | sed -n 's/.*mcs at 48 \([0-9.]*\) of its best.*/\1/p')
	if [ -n "$share" ]; then
		mcs_sum=$(awk -v a="$mcs_sum" -v b="$share" 'BEGIN { print a + b }')
		mcs_n=$((mcs_n + 1))
	fi
	case $verdict in
	ok*) passed=$((passed + 1)) ;;
	*) worst="$worst
     seed $s: ${verdict#no }" ;;
	esac
	[ "$s" = 1 ] && echo "     seed 1: ${verdict#?? }"
done
[ -n "$worst" ] && echo "     seeds that missed:$worst"
echo "     $passed of $seeds seeds reproduce the collapse and the MCS plateau"
[ "$passed" -ge $((seeds * 9 / 10)) ] &&
	ok "ticket collapses to at most half its peak at 48 cores, MCS keeps 85% of its best: $passed/$seeds seeds" ||
	bad "only $passed of $seeds seeds reproduce the figure (at least 18 needed)"
mcs_mean=$(awk -v a="$mcs_sum" -v n="$mcs_n" 'BEGIN { printf "%.3f", n ? a / n : 0 }')
echo "     MCS at 48 cores, mean over $mcs_n seeds: $mcs_mean of its best"
[ "$mcs_n" = "$seeds" ] && ge "$mcs_mean" 0.90 &&
	ok "MCS within 10% of its peak at 48 cores on the mean of $seeds seeds ($mcs_mean)" ||
	bad "MCS at 48 cores keeps $mcs_mean of its best on the mean of $mcs_n seeds (at least 0.90 asked)"

# The model, for the exhibit's own a, s and c: the machine's line transfer.
"$bin" compare "$script" --modes spinlock --cpus 1,12,20,48 --set lock=ticket --seed 1 $window \
	--markov 8183,167,120 --report json >"$tmp/model.json" 2>"$tmp/model.err"
model=$(flat "$tmp/model.json" | sed 's/.*"points":\[//' | sed 's/{"cpus":/\n/g' | grep . |
	sed 's/^\([0-9]*\),"acquisitions_per_s":\([0-9.e+-]*\).*/\1 \2/' |
	awk '{ if ($2 > p) { p = $2; n = $1 } if ($1 == 48) e = $2 }
	     END { printf "%d %.0f %.3f", n, p, (p > 0 ? e / p : 1) }')
set -- $model
echo "     the Markov model (a 8183 ns, s 167 ns, c 120 ns): peak ${2:-?}/s at ${1:-?} cores, ${3:-?} of it at 48"
[ "${1:-0}" -gt 1 ] && [ "${1:-48}" -lt 48 ] && ge 0.5 "${3:-1}" &&
	ok "the model peaks inside the sweep and falls to at most half by 48 cores" ||
	bad "the model's curve: peak at ${1:-?}, ${3:-?} of it at 48"

finish
