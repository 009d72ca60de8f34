#!/usr/bin/env bash
# The kmod exhibit against the 2022 report, the 2023 fixes, and the
# request_module() limiter's three shapes.
#   David Hildenbrand, Oct 2022: on ~448 CPUs udev's duplicate
#   finit_module() calls fill the ~1 GiB of module space ("vmap allocation
#   for size 2498560 failed"); with SMT off (half the CPUs) the machine
#   boots.  No limiter gated that path.
#   Commit 064f4536d139 (6.4): checking for the module before allocating
#   avoids it; the memory thrown away grows linearly with the CPU count,
#   and the check roughly halves its slope (~463 -> ~230 MiB per CPU in
#   the commit message, ~56 -> ~30 MB per CPU read off its own graph).
#   Commit 9b9879fc0327 (6.5): concurrent loads of one file share the first
#   one's result (255 vCPUs: 1.8 GiB wasted before, 0 after, in the patch
#   that became it).
# And the request_module() limiter, on the kmod selftest's load (test 0008,
# 58 callers for 50 slots): before 4.13 the 8 over the limit fail; 4.13's
# wait queue wakes every waiter for each slot, 6.4's semaphore one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
repro_setup "${1:-}" kmod.lua

# peak FILE NAME: the peak of counter NAME
peak() { flat "$1" | grep -o "\"$2\":{\"value\":-\?[0-9]*,\"peak\":-\?[0-9]*" | head -n 1 | sed 's/.*://'; }
mib() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1048576 }'; }
# within A B LO HI: LO <= A / B <= HI
within() { awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" 'BEGIN { r = a / b; exit !(r >= lo && r <= hi) }'; }
boot2022="--era 2022 --set dedup=false --set busy=false --set limiter=waitqueue"

# 1. The default: 6.4 as shipped on 448 CPUs.
st=$(run default.json)
[ "$st" = 0 ] && [ "$(counter "$tmp/default.json" failed_vmap)" = 0 ] &&
	[ "$(counter "$tmp/default.json" request_ok)" = 58 ] &&
	ok "6.4 defaults, 448 CPUs: checks pass, no vmap failure, 58 of 58 request_module() calls" ||
	bad "6.4 defaults: exit $st, $(counter "$tmp/default.json" failed_vmap) vmap failures"

# 2. The 2022 boot: udev's own loads, no early check, 5.19's retry.
# shellcheck disable=SC2086
st=$(run boot448.json $boot2022)
fail448=$(counter "$tmp/boot448.json" failed_vmap)
echo "     448 CPUs, 2022 kernel: $fail448 vmap failures, module space peak" \
	"$(mib "$(peak "$tmp/boot448.json" module_space)") MiB of 1024"
[ "$st" = 1 ] && [ "${fail448:-0}" -gt 0 ] &&
	ok "448 CPUs without the early check: module space runs out ($fail448 loads fail)" ||
	bad "448 CPUs without the early check: exit $st, ${fail448:-?} vmap failures"
grep -q "[0-9] x 2498560" "$tmp/boot448.json" &&
	ok "  ... and a failing allocation is 2498560 bytes, as in the report" ||
	bad "no 2498560-byte allocation among the failures"

# 3. SMT off: half the CPUs boot.
# shellcheck disable=SC2086
st=$(run boot224.json $boot2022 --cpus 224)
[ "$(counter "$tmp/boot224.json" failed_vmap)" = 0 ] &&
	ok "224 CPUs (SMT off), 2022 kernel: no vmap failure (peak $(mib "$(peak "$tmp/boot224.json" module_space)") MiB)" ||
	bad "224 CPUs: $(counter "$tmp/boot224.json" failed_vmap) vmap failures"

# 4. The limiter never saw the storm: 6.4's semaphore on the 2022 boot
#    changes nothing on udev's path.
st=$(run sem2022.json --era 2022 --set dedup=false --set busy=false)
[ "${st}" = 1 ] && [ "$(counter "$tmp/sem2022.json" failed_vmap)" -gt 0 ] &&
	ok "the semaphore alone, no early check: still $(counter "$tmp/sem2022.json" failed_vmap) loads fail (udev's path has no limiter)" ||
	bad "semaphore, no early check: exit $st, $(counter "$tmp/sem2022.json" failed_vmap) vmap failures"

# 5. 6.4's early check alone (without 6.2's -EBUSY) avoids the failures.
st=$(run dedup448.json --set busy=false)
[ "$st" = 0 ] && [ "$(counter "$tmp/dedup448.json" failed_vmap)" = 0 ] &&
	ok "448 CPUs with the early check: no vmap failure (peak $(mib "$(peak "$tmp/dedup448.json" module_space)") MiB)" ||
	bad "448 CPUs with the early check: exit $st, $(counter "$tmp/dedup448.json" failed_vmap) vmap failures"

# 6. Waste grows linearly with the CPUs; the early check cuts the slope.
#    Module space is made large enough (4 GiB) that no load fails, so every
#    duplicate is counted; busy=false keeps acpi_cpufreq's genuine loads.
declare -A w
for d in false true; do
	for n in 64 128 256 448; do
		run "w$d$n.json" --cpus "$n" --set dedup="$d" --set busy=false --set space=4294967296 >/dev/null
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

# 7. 6.5: concurrent loads of one file wait for the first and read nothing.
st=$(run idem.json --set idempotent=true)
wi=$(counter "$tmp/idem.json" wasted_bytes); wd=$(counter "$tmp/default.json" wasted_bytes)
echo "     wasted: 6.4 $(mib "$wd") MiB, 6.5 $(mib "$wi") MiB (255 vCPUs, published: 1.8 GiB -> 0)"
[ "$st" = 0 ] && ! ge "$wi" "$wd" 0.05 &&
	ok "6.5's idempotent loads: waste x$(ratio "$wi" "$wd") of 6.4's (under 5%)" ||
	bad "6.5: exit $st, waste $wi against 6.4's $wd"

# 8. request_module(): 4.13's wait queue wakes every waiter per slot; 6.4's
#    semaphore one.  The selftest's 58 callers mostly find their slot on the
#    first wake-up (the 50 modprobes end together); 1000 show the herd.
run wq.json --set limiter=waitqueue --set requests=1000 >/dev/null
run sem.json --set requests=1000 >/dev/null
wq_s=$(counter "$tmp/wq.json" slot_sleepers); wq_w=$(counter "$tmp/wq.json" slot_wakeups)
se_s=$(counter "$tmp/sem.json" slot_sleepers); se_w=$(counter "$tmp/sem.json" slot_wakeups)
echo "     1000 request_module() calls, wake-ups per sleeper: waitqueue $(ratio "$wq_w" "$wq_s"), semaphore $(ratio "$se_w" "$se_s")"
[ "${se_s:-0}" -gt 0 ] && [ "$se_w" = "$se_s" ] && ge "$wq_w" "$wq_s" 10 &&
	ok "waitqueue: $(ratio "$wq_w" "$wq_s") wake-ups per sleeper; semaphore: exactly 1" ||
	bad "wake-ups: waitqueue $wq_w for $wq_s, semaphore $se_w for $se_s"
[ "$(counter "$tmp/wq.json" request_ok)" = 1000 ] && [ "$(peak "$tmp/wq.json" modprobe_running)" -le 50 ] &&
	ok "waitqueue: same limit, every call succeeds" || bad "waitqueue run"

# 9. Before 4.13: over the limit, -ENOMEM at once: the selftest fails.
st=$(run enomem.json --set limiter=enomem)
en=$(counter "$tmp/enomem.json" failed_enomem)
[ "$st" = 1 ] && [ "${en:-0}" = 8 ] &&
	ok "enomem: $en of 58 request_module() calls fail at once" ||
	bad "enomem: exit $st, ${en:-?} -ENOMEM"

finish
