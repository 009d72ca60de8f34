#!/usr/bin/env bash
# The aim7_bkl exhibit against the 2008 BKL regression, measured as Ingo
# Molnar measured it (commit bf726eab3711): AIM7 on his quad, 2000 tasks,
# 2.6.25 against 2.6.26-rc1, whose BKL was the generic semaphore
# (hand-off to the first waiter, 64ac24e73882): 56,096 against 33,231
# jobs/min (0.59), the same CPU time, 2.6.26-rc1's CPUs 44% idle; his
# stealing fix within 1% of 2.6.25, and the spinlock BKL of 8e3e076c5a78
# fixed it completely (Yanmin Zhang).  The scenario runs that machine
# shape (4 CPUs, the 2008 machine's costs) and counts jobs after a
# warm-up.  Asserted, each for at least 90% of 20 seeds:
#  - the issue's criteria: generic/spinlock 0.50-0.75 and the legacy
#    (stealing) semaphore within 15% of the spinlock;
#  - generic/legacy 0.65-0.77, what the model reaches (published 0.57-0.59:
#    the model's fair BKL loses less; docs/reproductions.md);
#  - the mechanism: the generic BKL never stolen and at least 15% of the
#    CPUs idle (Molnar: 44%), the legacy one stolen, and the legacy and
#    spinlock BKLs each under 5% idle (Molnar's 2.6.25: 4.9%).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
repro_setup "${1:-}" aim7_bkl.lua

seeds=20
need=$(( (seeds * 9 + 9) / 10 ))	# 90%, rounded up
n_g=0; n_l=0; n_ll=0; n_mech=0; clean=0
sum_s=0; sum_l=0; sum_g=0; rg=; rl=; rgl=; ig_all=
span() { echo "$1" | tr ' ' '\n' | sed '/^$/d' | sort -n | sed -n '1p;$p' | paste -sd- -; }
# the counted window: the run less the scenario's warm-up (its params)
window_ns() {
	local w; w=$(flat "$1" | grep -o '"warmup_ms":"[0-9]*"' | head -n 1 | tr -dc '0-9')
	echo $(( $(json_int "$1" sim_time_ns) - ${w:-0} * 1000000 ))
}
for s in $(seq 1 "$seeds"); do
	ok_runs=1
	for b in spinlock legacy-semaphore generic-semaphore; do
		[ "$(run "$b.$s.json" --seed "$s" --set "bkl=$b")" = 0 ] || ok_runs=0
	done
	[ "$ok_runs" = 1 ] && clean=$((clean + 1))
	# each report read once: its jobs, the BKL's steals, the CPUs' idle share
	IFS='|' read -r js is < <(report_figs "$tmp/spinlock.$s.json" int:jobs idle)
	IFS='|' read -r jl st_l il < <(report_figs "$tmp/legacy-semaphore.$s.json" int:jobs lock:steals:kernel_sem idle)
	IFS='|' read -r jg st_g ig < <(report_figs "$tmp/generic-semaphore.$s.json" int:jobs lock:steals:kernel_sem idle)
	sum_s=$((sum_s + ${js:-0})); sum_l=$((sum_l + ${jl:-0})); sum_g=$((sum_g + ${jg:-0}))
	# no figure from a run that did no job
	if [ "${js:-0}" -le 0 ] || [ "${jl:-0}" -le 0 ] || [ "${jg:-0}" -le 0 ]; then
		continue
	fi
	# the seed's ratios (as ratio prints them), each band's verdict (1 in
	# it), and the idle shares' (generic >= 15%, legacy and spinlock <= 5%)
	# in one awk
	read -r r_g r_l r_gl in_g in_l in_ll idle_ok < <(awk -v s="$js" -v l="$jl" -v g="$jg" \
		-v ig="$ig" -v il="$il" -v is="$is" 'BEGIN {
		r = g / s; a = r >= 0.50 && r <= 0.75; r = l / s; b = r >= 0.85 && r <= 1.15
		r = g / l; c = r >= 0.65 && r <= 0.77; d = ig >= 15 && 5 >= il && 5 >= is
		printf "%.2f %.2f %.2f %d %d %d %d\n", g / s, l / s, g / l, a, b, c, d }')
	rg="$rg $r_g"; rl="$rl $r_l"; rgl="$rgl $r_gl"
	[ "$in_g" = 1 ] && n_g=$((n_g + 1))
	[ "$in_l" = 1 ] && n_l=$((n_l + 1))
	[ "$in_ll" = 1 ] && n_ll=$((n_ll + 1))
	ig_all="$ig_all $ig"
	if [ "${st_g:-1}" = 0 ] && [ "${st_l:-0}" -gt 0 ] && [ "$idle_ok" = 1 ]; then
		n_mech=$((n_mech + 1))
	fi
	if [ "$s" = 1 ]; then
		for b in spinlock legacy-semaphore generic-semaphore; do
			f="$tmp/$b.1.json"
			t=$(window_ns "$f")
			st=$(lock_int "$f" kernel_sem steals)
			echo "     seed 1, $b BKL: $(json_int "$f" jobs) jobs in the $((t / 1000000)) ms after the warm-up" \
			     "= $(awk -v j="$(json_int "$f" jobs)" -v t="$t" 'BEGIN { printf "%.0f", (t > 0 ? j * 6e10 / t : 0) }') jobs/min," \
			     "CPUs $(share "$f")% busy or spinning${st:+, kernel_sem stolen $st times}"
		done
	fi
done
echo "     mean over $seeds seeds: jobs spinlock $((sum_s / seeds)), legacy $((sum_l / seeds)), generic $((sum_g / seeds));" \
     "generic/spinlock $(ratio "$sum_g" "$sum_s"), legacy/spinlock $(ratio "$sum_l" "$sum_s") (published: the spinlock" \
     "fixed it completely; Molnar's stealing fix within 1% of 2.6.25), generic/legacy $(ratio "$sum_g" "$sum_l")" \
     "(Molnar: 0.57-0.59)"
echo "     per seed: generic/spinlock $(span "$rg"), legacy/spinlock $(span "$rl"), generic/legacy $(span "$rgl");" \
     "generic BKL's CPUs idle $(span "$ig_all")% (Molnar: 44%)"
[ "$clean" = "$seeds" ] && ok "all $((seeds * 3)) runs clean" || bad "$((seeds - clean)) seeds had a failed run"
[ "$n_g" -ge "$need" ] && ok "generic/spinlock in 0.50-0.75 for $n_g of $seeds seeds" ||
	bad "generic/spinlock in 0.50-0.75 for only $n_g of $seeds seeds"
[ "$n_l" -ge "$need" ] && ok "legacy/spinlock in 0.85-1.15 for $n_l of $seeds seeds" ||
	bad "legacy/spinlock in 0.85-1.15 for only $n_l of $seeds seeds"
[ "$n_ll" -ge "$need" ] && ok "generic/legacy in 0.65-0.77 for $n_ll of $seeds seeds" ||
	bad "generic/legacy in 0.65-0.77 for only $n_ll of $seeds seeds"
[ "$n_mech" -ge "$need" ] && ok "generic never stolen, >= 15% idle; legacy stolen; legacy and spinlock < 5% idle ($n_mech of $seeds)" ||
	bad "the mechanism held for only $n_mech of $seeds seeds"
echo "     not reached (docs/reproductions.md): generic/legacy 0.57-0.59 and 44% idle (Molnar), the same" \
     "figures on the era's 8 CPUs (--cpus 8: generic/spinlock 0.36)"

finish
