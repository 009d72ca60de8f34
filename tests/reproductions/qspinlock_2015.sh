#!/usr/bin/env bash
# The 2015 exhibit against Waiman Long's queued spinlock (a33fda35e3a7,
# 2c83e8e9492d, merged for 4.2): on a 4-socket Westmere-EX the queued lock is
# "much faster in high contention" -- the AIM7 disk workload on ext4, 3000
# users, 1,114,551 -> 2,184,466 jobs per minute, 1.96x -- and "potentially a
# bit slower" when one to three CPUs wait.  The bands the source gives, stated
# before any run: heavy contention, queued/ticket between 1.5x and 2.5x
# (around the published 1.96x); light contention, 0.9 to 1.05 ("a bit
# slower", or level).
#
# The model reaches the light band at one and three waiters and comes near
# it at two; it does not reach the heavy one (docs/reproductions.md,
# "qspinlock_2015", names what is missing), so what is asserted is what it
# reaches, over 20 seeds, at least 90% of them passing, on the machine
# with its socket's shared L3 and its store buffers
# (eras/machines/2015-2016.lua):
#  - heavy (scripts/qspinlock_2015.lua as it is: 40 CPUs, a 188 ns section,
#    2% of each CPU's loop): queued ahead, by 1.1x to 1.5x (1.05x to 1.35x
#    until the lines' homes served requests in arrival order, December
#    2026: both locks got faster, the queued one a little more);
#  - light (--cpus 2, 3, 4, no work outside the lock: 1-3 waiters always):
#    queued level or a bit behind, 0.8x to 1.02x, at every one of the
#    three, and level (0.95x or more) with one waiter, which the pending
#    bit serves without a queue node;
#  - the lock embedded in its data (--set embedded=true: the section's
#    variable on the lock's own line), Long's "especially when the spinlock
#    is embedded": the queued lock further ahead than with the data apart,
#    seed by seed;
#  - Long's microbenchmark loop on all 40 CPUs (--set work_ns=0: each CPU
#    back at the lock as it leaves it), twice: with every CPU starting
#    together (nothing drawn, one run) they queue in CPU order and keep
#    it, so a hand-off is mostly between cores of one socket, and the
#    queued lock is ahead by 1.5x to 2.5x; with a drawn start
#    (--set start_ns=1000, 20 seeds) the queue is in a random order and
#    the lead is smaller than in CPU order, 1.1x to 1.6x.  So part of what
#    the queued lock gains here is the successor's distance
#    (docs/reproductions.md, "The tight loop's order");
#  - Long's own 5M-loop table for the queued lock (2c83e8e9492d: the bare
#    lock-unlock loop, read as N x 5M acquisitions), run as he ran it
#    (--set work_ns=0 --set cs_ns=0 --set data_lines=0): 3 to 8 tasks on
#    one socket and 4 tasks one a socket (--set spread=true), each within
#    0.75x to 1.35x of his time an acquisition (150, 141, 141, 139, 139,
#    139 and 525 ns): the machine floor priced against a measurement of
#    the machine itself, not a ratio;
# and, printed beside and not asserted, how many seeds land in the
# published bands.  Each run prints its absolute figures (operations per
# second, ns per acquisition).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
repro_setup "${1:-}" qspinlock_2015.lua

# rate FILE: operations per second of a run's JSON report
rate() { report_figs "$1" ops_per_s; }
# ns FILE: ns per acquisition
ns() { awk -v r="$(rate "$1")" 'BEGIN { if (r > 0) printf "%.0f", 1e9 / r; else print 0 }'; }
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

seeds=20
heavy_ok=0 light_ok=0 emb_ok=0 emb_pub=0 emb_all="" heavy_pub=0 light_pub=0 heavy_all="" light_all=""
for s in $(seq 1 $seeds); do
	[ "$(run "ht$s.json" --set lock=ticket --seed "$s")" = 0 ] || { bad "heavy ticket run, seed $s"; continue; }
	[ "$(run "hq$s.json" --set lock=queued --seed "$s")" = 0 ] || { bad "heavy queued run, seed $s"; continue; }
	hr=$(ratio "$(rate "$tmp/hq$s.json")" "$(rate "$tmp/ht$s.json")")
	heavy_all="$heavy_all $hr"
	if [ "$(run "et$s.json" --set lock=ticket --set embedded=true --seed "$s")" = 0 ] &&
	   [ "$(run "eq$s.json" --set lock=queued --set embedded=true --seed "$s")" = 0 ]; then
		er=$(ratio "$(rate "$tmp/eq$s.json")" "$(rate "$tmp/et$s.json")")
		emb_all="$emb_all $er"
		awk -v e="$er" -v h="$hr" 'BEGIN { exit !(e > h) }' && emb_ok=$((emb_ok + 1))
		within "$er" 1.5 2.5 && emb_pub=$((emb_pub + 1))
	else
		bad "embedded runs, seed $s"
	fi
	within "$hr" 1.1 1.5 && heavy_ok=$((heavy_ok + 1))
	within "$hr" 1.5 2.5 && heavy_pub=$((heavy_pub + 1))
	lok=1 lpub=1 lr=""
	for c in 2 3 4; do
		[ "$(run "lt$s-$c.json" --set lock=ticket --set work_ns=0 --cpus $c --seed "$s")" = 0 ] &&
		[ "$(run "lq$s-$c.json" --set lock=queued --set work_ns=0 --cpus $c --seed "$s")" = 0 ] ||
			{ bad "light runs on $c CPUs, seed $s"; lok=0; lpub=0; continue; }
		r=$(ratio "$(rate "$tmp/lq$s-$c.json")" "$(rate "$tmp/lt$s-$c.json")")
		lr="$lr/$r"
		within "$r" 0.8 1.02 || lok=0
		[ "$c" = 2 ] && ! ge "$r" 0.95 && lok=0
		within "$r" 0.9 1.05 || lpub=0
	done
	light_all="$light_all ${lr#/}"
	light_ok=$((light_ok + lok))
	light_pub=$((light_pub + lpub))
	if [ "$s" = 1 ]; then
		echo "     seed 1, heavy (40 CPUs): ticket $(rate "$tmp/ht1.json")/s, $(ns "$tmp/ht1.json") ns an acquisition;" \
			"queued $(rate "$tmp/hq1.json")/s, $(ns "$tmp/hq1.json") ns: ${hr}x"
		for c in 2 3 4; do
			echo "     seed 1, light ($c CPUs, $((c - 1)) waiting): ticket $(rate "$tmp/lt1-$c.json")/s," \
				"$(ns "$tmp/lt1-$c.json") ns; queued $(rate "$tmp/lq1-$c.json")/s, $(ns "$tmp/lq1-$c.json") ns:" \
				"$(ratio "$(rate "$tmp/lq1-$c.json")" "$(rate "$tmp/lt1-$c.json")")x"
		done
	fi
done
echo "     heavy queued/ticket over $seeds seeds:$heavy_all (published 1.96x)"
echo "     heavy, the lock embedded in its data, over $seeds seeds:$emb_all"
echo "     light queued/ticket at 2/3/4 CPUs over $seeds seeds:$light_all (published: \"a bit slower\")"
echo "     in the published bands (not asserted): heavy 1.5-2.5x in $heavy_pub of $seeds seeds," \
	"the lock in its data 1.5-2.5x in $emb_pub of $seeds, light 0.9-1.05x in $light_pub of $seeds"
need=$(( (seeds * 9 + 9) / 10 ))
[ "$heavy_ok" -ge "$need" ] && ok "heavy contention: queued ahead by 1.1x-1.5x in $heavy_ok of $seeds seeds" ||
	bad "heavy contention: queued ahead by 1.1x-1.5x in only $heavy_ok of $seeds seeds"
[ "$emb_ok" -ge "$need" ] && ok "the lock in its data: queued further ahead than with the data apart in $emb_ok of $seeds seeds" ||
	bad "the lock in its data: queued further ahead in only $emb_ok of $seeds seeds"
[ "$light_ok" -ge "$need" ] && ok "light contention: queued level or a bit behind, 0.8x-1.02x at 2, 3 and 4 CPUs, 0.95x or more with one waiter, in $light_ok of $seeds seeds" ||
	bad "light contention: 0.8x-1.02x at 2, 3 and 4 CPUs, 0.95x or more with one waiter, in only $light_ok of $seeds seeds"
# The tight loop on 40 CPUs, twice.  All starting together, the CPUs queue
# in CPU order and keep it (each comes straight back, and both locks are
# FIFO): nine hand-offs in ten go to a core of the same socket, which the
# queued lock's hand-off pays on the die while the ticket lock's release is
# still re-read in every socket.  With a drawn start (start_ns) the queue
# is in a random order and the queued lock's lead is the heavy exhibit's.
if [ "$(run "tt.json" --set lock=ticket --set work_ns=0)" = 0 ] &&
   [ "$(run "tq.json" --set lock=queued --set work_ns=0)" = 0 ]; then
	tr=$(ratio "$(rate "$tmp/tq.json")" "$(rate "$tmp/tt.json")")
	echo "     tight loop, 40 CPUs queued in CPU order: ticket $(ns "$tmp/tt.json") ns an acquisition, queued $(ns "$tmp/tq.json") ns: ${tr}x"
	within "$tr" 1.5 2.5 && ok "tight loop, the queue in CPU order (neighbours hand on to neighbours): queued ahead by ${tr}x, 1.5x-2.5x" ||
		bad "tight loop, the queue in CPU order: queued/ticket ${tr}x, outside 1.5x-2.5x"
else
	bad "tight-loop runs on 40 CPUs"
fi
# Long's table: one run each (nothing is drawn in a bare loop)
long_ok=0 long_n=0 long_all=""
for spec in 3:150 4:141 5:141 6:139 7:139 8:139 spread:525; do
	c=${spec%%:*} pub=${spec#*:}
	if [ "$c" = spread ]; then set -- --set spread=true; else set -- --cpus "$c"; fi
	[ "$(run "long$c.json" --set lock=queued --set work_ns=0 --set cs_ns=0 --set data_lines=0 "$@")" = 0 ] ||
		{ bad "Long's loop, $c"; continue; }
	m=$(ns "$tmp/long$c.json")
	long_n=$((long_n + 1))
	long_all="$long_all $c: $m ns (Long $pub);"
	awk -v m="$m" -v p="$pub" 'BEGIN { exit !(m >= 0.75 * p && m <= 1.35 * p) }' && long_ok=$((long_ok + 1))
done
echo "     Long's bare loop, queued, ns an acquisition (tasks on one socket; spread: four, one a socket):$long_all"
[ "$long_ok" = 7 ] && ok "Long's 5M-loop table: all $long_ok figures within 0.75x-1.35x of his" ||
	bad "Long's 5M-loop table: only $long_ok of 7 figures within 0.75x-1.35x of his"
shuf_ok=0 shuf_all=""
for s in $(seq 1 $seeds); do
	[ "$(run "st$s.json" --set lock=ticket --set work_ns=0 --set start_ns=1000 --seed "$s")" = 0 ] &&
	[ "$(run "sq$s.json" --set lock=queued --set work_ns=0 --set start_ns=1000 --seed "$s")" = 0 ] ||
		{ bad "tight loop with a drawn start, seed $s"; continue; }
	r=$(ratio "$(rate "$tmp/sq$s.json")" "$(rate "$tmp/st$s.json")")
	shuf_all="$shuf_all $r"
	within "$r" 1.1 1.6 && awk -v r="$r" -v t="${tr:-0}" 'BEGIN { exit !(r < t) }' &&
		shuf_ok=$((shuf_ok + 1))
done
echo "     tight loop, 40 CPUs queued in a drawn order (start_ns=1000), over $seeds seeds:$shuf_all"
[ "$shuf_ok" -ge "$need" ] && ok "tight loop, the queue in a drawn order: queued ahead by 1.1x-1.6x, less than in CPU order, in $shuf_ok of $seeds seeds" ||
	bad "tight loop, the queue in a drawn order: 1.1x-1.6x and below the CPU order's ${tr:-?}x in only $shuf_ok of $seeds seeds"
finish
