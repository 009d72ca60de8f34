#!/usr/bin/env bash
# The kmod exhibit against the 2022 report and the 2023 fix.
#   David Hildenbrand, Oct 2022: on ~448 CPUs duplicate module loads fill
#   the ~1 GiB of module space ("vmap allocation for size 2498560 failed");
#   with SMT off (half the CPUs) the machine boots.
#   Commit 064f4536d139 (6.4): checking for the module before allocating
#   avoids it; the memory thrown away grows linearly with the CPU count,
#   and the check roughly halves its slope (~463 -> ~230 MiB per CPU in
#   the commit message, ~56 -> ~30 MB per CPU read off its own graph).
# Plus the limiters: a limiter bounds concurrency, not waste; 4.13's wait
# queue wakes every waiter for each slot, 6.4's semaphore one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
repro_setup "${1:-}" kmod.lua

# peak FILE NAME: the peak of counter NAME
peak() { flat "$1" | grep -o "\"$2\":{\"value\":-\?[0-9]*,\"peak\":-\?[0-9]*" | head -n 1 | sed 's/.*://'; }
mib() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1048576 }'; }
# within A B LO HI: LO <= A / B <= HI
within() { awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" 'BEGIN { r = a / b; exit !(r >= lo && r <= hi) }'; }

# 1. The default: 6.4 as shipped (semaphore, early check) on 448 CPUs.
st=$(run default.json)
[ "$st" = 0 ] && [ "$(counter "$tmp/default.json" failed_vmap)" = 0 ] &&
	[ "$(counter "$tmp/default.json" loaded)" = 78 ] &&
	ok "6.4 defaults, 448 CPUs: checks pass, 78 modules, no vmap failure" ||
	bad "6.4 defaults: exit $st, $(counter "$tmp/default.json" failed_vmap) vmap failures"

# 2. The 2022 boot: udev's own loads (no limiter), no early check.
st=$(run boot448.json --set limiter=none --set dedup=false)
fail448=$(counter "$tmp/boot448.json" failed_vmap)
echo "     448 CPUs, no early check: $fail448 vmap failures, module space peak" \
	"$(mib "$(peak "$tmp/boot448.json" module_space)") MiB of 1024"
[ "$st" = 1 ] && [ "${fail448:-0}" -gt 0 ] &&
	ok "448 CPUs without the early check: module space runs out ($fail448 loads fail)" ||
	bad "448 CPUs without the early check: exit $st, ${fail448:-?} vmap failures"
grep -q "[0-9] x 2498560" "$tmp/boot448.json" &&
	ok "  ... and a failing allocation is 2498560 bytes, as in the report" ||
	bad "no 2498560-byte allocation among the failures"

# 3. SMT off: half the CPUs boot.
st=$(run boot224.json --cpus 224 --set limiter=none --set dedup=false)
[ "$(counter "$tmp/boot224.json" failed_vmap)" = 0 ] &&
	ok "224 CPUs (SMT off) without the early check: no vmap failure (peak $(mib "$(peak "$tmp/boot224.json" module_space)") MiB)" ||
	bad "224 CPUs: $(counter "$tmp/boot224.json" failed_vmap) vmap failures"

# 4. 6.4's early check alone avoids the failures.
st=$(run dedup448.json --set limiter=none)
[ "$st" = 0 ] && [ "$(counter "$tmp/dedup448.json" failed_vmap)" = 0 ] &&
	ok "448 CPUs with the early check: no vmap failure (peak $(mib "$(peak "$tmp/dedup448.json" module_space)") MiB)" ||
	bad "448 CPUs with the early check: exit $st, $(counter "$tmp/dedup448.json" failed_vmap) vmap failures"

# 5. Waste grows linearly with the CPUs; the early check cuts the slope.
#    (Default limiter, where no load fails, so every duplicate is counted.)
declare -A w
for d in false true; do
	for n in 64 128 256 448; do
		run "w$d$n.json" --cpus "$n" --set dedup="$d" >/dev/null
		w[$d$n]=$(counter "$tmp/w$d$n.json" wasted_bytes)
	done
	echo "     dedup=$d: wasted MiB at 64/128/256/448 CPUs:" \
		"$(mib "${w[${d}64]}") $(mib "${w[${d}128]}") $(mib "${w[${d}256]}") $(mib "${w[${d}448]}")"
	s1=$(( (w[${d}128] - w[${d}64]) / 64 )); s2=$(( (w[${d}256] - w[${d}128]) / 128 ))
	s3=$(( (w[${d}448] - w[${d}256]) / 192 ))
	# linear: the slope of each segment within 10% of the first one's
	within "$s2" "$s1" 0.9 1.1 && within "$s3" "$s1" 0.9 1.1 &&
		ok "dedup=$d: linear in the CPUs, $(mib "$s1")/$(mib "$s2")/$(mib "$s3") MiB per CPU by segment" ||
		bad "dedup=$d: segment slopes $s1 $s2 $s3 bytes per CPU are not within 10%"
	# and proportional to them, but for the few non-CPU modules: x7 CPUs
	within "${w[${d}448]}" "${w[${d}64]}" 6.3 7.0 &&
		ok "dedup=$d: 7x the CPUs, x$(ratio "${w[${d}448]}" "${w[${d}64]}") the waste" ||
		bad "dedup=$d: 7x the CPUs gives x$(ratio "${w[${d}448]}" "${w[${d}64]}") the waste"
	eval "slope_$d=$(( (w[${d}448] - w[${d}64]) / 384 ))"
done
# published: 463 -> 230 MiB per CPU (x0.50); ~56 -> ~30 MB per CPU on the graph (~x0.54)
echo "     slope: $(mib "$slope_false") -> $(mib "$slope_true") MiB per CPU (x$(ratio "$slope_true" "$slope_false"); published x0.50, graph ~x0.54)"
within "$slope_true" "$slope_false" 0.45 0.70 &&
	ok "the early check cuts the waste per CPU to x$(ratio "$slope_true" "$slope_false") (0.45-0.70)" ||
	bad "waste slope ratio x$(ratio "$slope_true" "$slope_false") outside 0.45-0.70"

# 6. A limiter bounds concurrency, not waste: the semaphore without the
#    early check has no failure, and throws away as much as no limiter.
#    (No limiter throws away a little less: its failed loads never made
#    their last copy.)
pk=$(peak "$tmp/wfalse448.json" modprobe_running)
w_none=$(counter "$tmp/boot448.json" wasted_bytes)
[ "$(counter "$tmp/wfalse448.json" failed_vmap)" = 0 ] && [ "$pk" -le 50 ] &&
	within "${w[false448]}" "$w_none" 0.95 1.10 &&
	ok "semaphore, no early check: <= 50 at once, no failure, waste x$(ratio "${w[false448]}" "$w_none") of no limiter's" ||
	bad "semaphore, no early check: peak $pk, $(counter "$tmp/wfalse448.json" failed_vmap) failures, waste x$(ratio "${w[false448]}" "$w_none")"

# 7. 4.13's wait queue wakes every waiter per slot; 6.4's semaphore one.
run wq.json --set limiter=waitqueue >/dev/null
wq_s=$(counter "$tmp/wq.json" slot_sleepers); wq_w=$(counter "$tmp/wq.json" slot_wakeups)
se_s=$(counter "$tmp/default.json" slot_sleepers); se_w=$(counter "$tmp/default.json" slot_wakeups)
echo "     wake-ups per sleeper: waitqueue $(ratio "$wq_w" "$wq_s"), semaphore $(ratio "$se_w" "$se_s")"
[ "$se_w" = "$se_s" ] && ge "$wq_w" "$wq_s" 50 &&
	ok "waitqueue: $(ratio "$wq_w" "$wq_s") wake-ups per sleeper; semaphore: exactly 1" ||
	bad "wake-ups: waitqueue $wq_w for $wq_s, semaphore $se_w for $se_s"
[ "$(counter "$tmp/wq.json" failed_vmap)" = 0 ] && [ "$(peak "$tmp/wq.json" modprobe_running)" -le 50 ] &&
	ok "waitqueue: same limit, no failure" || bad "waitqueue run"

# 8. Before 4.13: over the limit, -ENOMEM at once, and drivers go missing.
st=$(run enomem.json --set limiter=enomem)
en=$(counter "$tmp/enomem.json" failed_enomem); ld=$(counter "$tmp/enomem.json" loaded)
[ "$st" = 1 ] && [ "${en:-0}" -gt 0 ] && [ "${ld:-78}" -lt 78 ] &&
	ok "enomem: $en requests fail at once, only $ld of 78 modules load" ||
	bad "enomem: exit $st, $en -ENOMEM, $ld loaded"

finish
