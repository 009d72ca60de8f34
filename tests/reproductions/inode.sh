#!/usr/bin/env bash
# The inode exhibit against Ingo Molnar's 2005 test-mutex figures (8-way:
# semaphores 34,713 loops/s at 63% CPU, mutexes 84,153 loops/s at 22%):
# on the 2006 era with 8 CPUs the mutex must be clearly ahead in
# throughput and use less CPU per operation, and the semaphore must switch
# far more often per operation (its spurious wake-ups); on one CPU in 1994
# cli and the semaphore are both correct; on two CPUs in 2003 cli loses
# updates.  The total CPU share is printed beside the published one but
# not asserted: the model does not reproduce it (docs/reproductions.md).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
repro_setup "${1:-}" inode.lua

[ "$(run sem.json --era 2006 --mode semaphore)" = 0 ] && ok "2006 semaphore run is clean" || bad "2006 semaphore run"
[ "$(run mutex.json --era 2006 --mode mutex)" = 0 ] && ok "2006 mutex run is clean" || bad "2006 mutex run"

ops_s=$(counter "$tmp/sem.json" operations); t_s=$(json_int "$tmp/sem.json" sim_time_ns)
ops_m=$(counter "$tmp/mutex.json" operations); t_m=$(json_int "$tmp/mutex.json" sim_time_ns)
thr_s=$(awk -v o="$ops_s" -v t="$t_s" 'BEGIN { print o / t * 1e9 }')
thr_m=$(awk -v o="$ops_m" -v t="$t_m" 'BEGIN { print o / t * 1e9 }')
echo "     throughput: semaphore $thr_s ops/s, mutex $thr_m ops/s (x$(ratio "$thr_m" "$thr_s"); published x2.42)"
# published 2.42; the model gives about 2: demand at least 1.6
ge "$thr_m" "$thr_s" 1.6 && ok "mutex throughput at least 1.6x the semaphore's" || bad "mutex throughput ratio $(ratio "$thr_m" "$thr_s") < 1.6"

# CPU used: every CPU's time but its idle time (busy, spinning, switching)
ncpu_s=$(flat "$tmp/sem.json" | grep -o '"idle_ns":' | wc -l)
ncpu_m=$(flat "$tmp/mutex.json" | grep -o '"idle_ns":' | wc -l)
cpu_s=$(( ncpu_s * t_s - $(json_sum "$tmp/sem.json" idle_ns) ))
cpu_m=$(( ncpu_m * t_m - $(json_sum "$tmp/mutex.json" idle_ns) ))
per_s=$(awk -v c="$cpu_s" -v o="$ops_s" 'BEGIN { print c / o }')
per_m=$(awk -v c="$cpu_m" -v o="$ops_m" 'BEGIN { print c / o }')
echo "     CPU per operation: semaphore $per_s ns, mutex $per_m ns (x$(ratio "$per_s" "$per_m"); published x6.9)"
ge "$per_s" "$per_m" 1.3 && ok "the mutex needs at least 1.3x less CPU per operation" || bad "CPU per op ratio $(ratio "$per_s" "$per_m") < 1.3"
share_s=$(awk -v c="$cpu_s" -v n="$ncpu_s" -v t="$t_s" 'BEGIN { printf "%.1f", 100 * c / (n * t) }')
share_m=$(awk -v c="$cpu_m" -v n="$ncpu_m" -v t="$t_m" 'BEGIN { printf "%.1f", 100 * c / (n * t) }')
echo "     CPU used: semaphore $share_s%, mutex $share_m% (published 63% and 22%; not reproduced)"
# The spurious wake-ups of the legacy __down(): a sleeper that gets the
# semaphore wakes the next, which fails and sleeps again.  The model gives
# about 3.7x the mutex's switches per operation; demand 2.5x.
sw_s=$(json_sum "$tmp/sem.json" ctxsw); sw_m=$(json_sum "$tmp/mutex.json" ctxsw)
echo "     context switches: semaphore $sw_s, mutex $sw_m for the same operations"
ge "$(( sw_s * ops_m ))" "$(( sw_m * ops_s ))" 2.5 && ok "the semaphore switches at least 2.5x as often per operation" || bad "switches per op ratio $(ratio "$(( sw_s * ops_m ))" "$(( sw_m * ops_s ))") < 2.5"

# What does reproduce of the CPU column is the mutex's own share, on both of
# Molnar's machines: 22% of the 8-way, 34% of the 2-way P4 with HT (four
# logical CPUs here).  Demand it within a factor of 1.5 either way.
mutex_share() {	# FILE -> CPU share in percent
  local t n c; t=$(json_int "$1" sim_time_ns); n=$(flat "$1" | grep -o '"idle_ns":' | wc -l)
  c=$(( n * t - $(json_sum "$1" idle_ns) ))
  awk -v c="$c" -v n="$n" -v t="$t" 'BEGIN { printf "%.1f", 100 * c / (n * t) }'
}
[ "$(run mutex4.json --era 2006 --cpus 4 --mode mutex)" = 0 ] && ok "2006 mutex run on 4 CPUs is clean" || bad "2006 mutex run on 4 CPUs"
share_m4=$(mutex_share "$tmp/mutex4.json")
echo "     mutex CPU used: $share_m% of 8 CPUs (published 22%), $share_m4% of 4 (published 34%)"
ge "$share_m" 14.7 1 && ge 33 "$share_m" 1 && ok "mutex CPU share on 8 CPUs within 1.5x of the published 22%" || bad "mutex CPU share on 8 CPUs $share_m%"
ge "$share_m4" 22.7 1 && ge 51 "$share_m4" 1 && ok "mutex CPU share on 4 CPUs within 1.5x of the published 34%" || bad "mutex CPU share on 4 CPUs $share_m4%"

[ "$(run cli94.json --era 1994 --mode cli)" = 0 ] && ok "1994, one CPU: cli mode is correct" || bad "1994 cli"
[ "$(run sem94.json --era 1994 --mode semaphore)" = 0 ] && ok "1994, one CPU: semaphore mode is correct" || bad "1994 semaphore"
st=$(run cli03.json --era 2003 --cpus 2 --mode cli --anachronism)
lost=$(flat "$tmp/cli03.json" | grep -o '"lost-update":[0-9]*' | cut -d: -f2)
[ "$st" = 1 ] && [ "${lost:-0}" -gt 0 ] && ok "2003, two CPUs: cli mode loses updates ($lost)" || bad "2003 cli: exit $st, lost ${lost:-0}"

finish
