#!/usr/bin/env bash
# bench.sh - the figures of `make bench`: each one the median of several
# runs (5 where a run is cheap, 3 where it is not), and the machine they
# ran on.  A benchmark, not a test: it never fails on a slow figure; it
# exits non-zero only if a driver could not run at all.
#
#   tests/bench.sh [BUILD/lockmuseum]
#
# The drivers are in BUILD/tests/bench (see the bench target of the
# Makefile).  BENCH_QUICK=1 makes every run small and single, to check
# that the script works; its figures mean little.
#
# Figures (issue 7): 1 core events/s with no Lua, 2 Lua lock operations/s,
# 3 scale (kmod.lua at 512 CPUs, 100,000 tasks on 1024 CPUs), 4 growth of
# time and memory with the number of events, 5 view frame time, 6
# instructions per event / per operation under callgrind, 7 start-up, 8
# (issue 17) merging 10,000 reports of a sweep with compare --from, 9
# (issue 14) the explorer's runs per second, 10 (issue 27) the same rounds
# as 2 in SimPy, where it is installed, 11 (issue 32) the explorer beside
# SPIN on the same models, where it is installed.
set -u

bin=${1:-build-bench/lockmuseum}
root=$(cd "$(dirname "$0")/.." && pwd)
drv=$(dirname "$bin")/tests/bench
sc=$root/tests/bench
export LOCKMUSEUM_DATA=$root
quick=${BENCH_QUICK:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

for d in bench_core bench_lua bench_view; do
	if [ ! -x "$drv/$d" ]; then
		echo "bench: $drv/$d is missing: run make bench" >&2
		exit 2
	fi
done

# ------------------------------------------------------------- helpers --

cheap=5
dear=3
if [ "$quick" = 1 ]; then
	cheap=1
	dear=1
fi

# median: the median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# runs N NAME CMD...: run CMD N times, keeping each run's key=value output
# in $tmp/NAME.I; a failed run is reported and leaves no file.
runs() {
	local n=$1 name=$2 i
	shift 2
	rm -f "$tmp/$name".*
	for ((i = 1; i <= n; i++)); do
		if ! "$@" >"$tmp/$name.$i" 2>"$tmp/$name.err"; then
			echo "  ($name: run failed: $(tail -1 "$tmp/$name.err"))"
			rm -f "$tmp/$name.$i"
			failed=1
		fi
	done
}

# med NAME KEY: the median of KEY over the runs kept under NAME
med() {
	cat "$tmp/$1".[0-9]* 2>/dev/null | sed -n "s/^$2=//p" | median
}

# timed N NAME CMD...: run CMD N times under a wall clock and, when
# /usr/bin/time is there, its peak RSS and CPU time (user + system);
# keys wall_s, peak_kib and cpu_s
timed() {
	local n=$1 name=$2 i t0 t1 rss
	shift 2
	rm -f "$tmp/$name".*
	for ((i = 1; i <= n; i++)); do
		t0=$(date +%s.%N)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f "%M %U %S" -o "$tmp/$name.rss" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
		else
			"$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
		fi
		local rc=$?
		t1=$(date +%s.%N)
		if [ $rc -gt 1 ]; then
			echo "  ($name: exit $rc: $(tail -1 "$tmp/$name.err"))"
			failed=1
			continue
		fi
		rss="nan nan nan"
		[ -f "$tmp/$name.rss" ] && rss=$(tail -1 "$tmp/$name.rss")
		awk -v a="$t0" -v b="$t1" -v r="$rss" 'BEGIN { split(r, f, " ")
			printf "wall_s=%.6f\npeak_kib=%s\ncpu_s=%s\n", b - a, f[1],
				f[2] == "nan" ? "nan" : f[2] + f[3] }' >"$tmp/$name.$i"
	done
}

# fmt: numbers in a readable unit
mega() { awk -v x="$1" 'BEGIN { if (x == "nan") print "n/a"; else printf "%.2f M", x / 1e6 }'; }
mib() { awk -v x="$1" 'BEGIN { if (x == "nan") print "n/a"; else printf "%.1f MiB", x / 1024 }'; }
num() { awk -v x="$1" -v f="$2" 'BEGIN { if (x == "nan") print "n/a"; else printf f, x }'; }

# -------------------------------------------------------------- machine --

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
echo "lockmuseum benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: ${cpu:-unknown CPU}; $(nproc) CPUs online; ${mem:-unknown} memory;" \
	"$(uname -sr); $(cc --version 2>/dev/null | head -1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "each figure: the median of $cheap runs ($dear for the long ones), per wall-clock second;"
echo "\"per CPU-s\": per second of the process's CPU time, which other load on the machine disturbs less"
echo

# ------------------------------------------------------ 1 core events/s --

iters=5000
[ "$quick" = 1 ] && iters=500
echo "1. core events per second, no Lua (C test host; 64 CPUs, 128 tasks, $iters loops each;"
echo "   4 spinlocks + 4 sleeping locks; target >= 20 M events/s on one core)"
printf '   %-28s %11s %11s %9s %11s %13s\n' workload "events/run" events/s ns/event rounds/s \
	"per CPU-s"
for w in mixed spin sem mutex; do
	runs $cheap core_$w "$drv/bench_core" --work $w --iters $iters
	case $w in
	mixed) what="spinlock + semaphore rounds" ;;
	spin) what="spinlock rounds" ;;
	sem) what="semaphore rounds" ;;
	mutex) what="mutex rounds" ;;
	esac
	printf '   %-28s %11s %11s %9s %11s %13s\n' "$what" "$(med core_$w events)" \
		"$(mega "$(med core_$w events_per_s)")/s" "$(num "$(med core_$w ns_per_event)" %.1f)" \
		"$(mega "$(med core_$w rounds_per_s)")/s" "$(mega "$(med core_$w events_per_cpu_s)") ev/s"
done
runs $cheap core_trace "$drv/bench_core" --work mixed --iters $iters --trace
printf '   %-28s %11s %11s %9s %11s %13s\n' "the same, trace stored" "$(med core_trace events)" \
	"$(mega "$(med core_trace events_per_s)")/s" "$(num "$(med core_trace ns_per_event)" %.1f)" \
	"$(mega "$(med core_trace rounds_per_s)")/s" "$(mega "$(med core_trace events_per_cpu_s)") ev/s"
# the coherence model's cost: the same rounds on a machine with caches
# (8 sockets x 8 cores, MOESI) against the flat machine above
runs $cheap core_caches "$drv/bench_core" --work mixed --iters $iters --caches
printf '   %-28s %11s %11s %9s %11s %13s\n' "the same, machine with caches" "$(med core_caches events)" \
	"$(mega "$(med core_caches events_per_s)")/s" "$(num "$(med core_caches ns_per_event)" %.1f)" \
	"$(mega "$(med core_caches rounds_per_s)")/s" "$(mega "$(med core_caches events_per_cpu_s)") ev/s"
echo "   coherence model: $(awk -v a="$(med core_mixed events_per_cpu_s)" -v b="$(med core_caches events_per_cpu_s)" \
	'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2fx the flat machine'"'"'s CPU time per event", a / b }')"
echo

# --------------------------------------------------- 2 Lua operations/s --

rounds=500000
[ "$quick" = 1 ] && rounds=20000
echo "2. Lua lock operations per second (tests/bench/lockops.lua: a round is down +"
echo "   compute(100 ns) + up on one lock, $rounds rounds shared by the tasks;"
echo "   run time only; target >= 2 M/s, aiming for 5 M/s; \"ahead\": the share of events a task"
echo "   ran ahead through without yielding)"
printf '   %-10s %6s %12s %12s %8s %8s %13s %13s %8s %8s\n' mode tasks "8 CPUs" "512 CPUs" "ev/op 8" "ev/op 512" \
	"8: per CPU-s" "512: per CPU-s" "ahead 8" "ahead 512"
for m in semaphore mutex spinlock; do
	for t in 1 64 4096; do
		for c in 8 512; do
			runs $cheap lua_${m}_${t}_$c "$drv/bench_lua" "$sc/lockops.lua" --mode $m \
				--cpus $c --set tasks=$t --set rounds=$rounds
		done
		ev8=$(awk -v e="$(med lua_${m}_${t}_8 events)" -v r=$rounds 'BEGIN { printf "%.2f", e / r }')
		ev512=$(awk -v e="$(med lua_${m}_${t}_512 events)" -v r=$rounds 'BEGIN { printf "%.2f", e / r }')
		ah8=$(awk -v a="$(med lua_${m}_${t}_8 events_ahead)" -v e="$(med lua_${m}_${t}_8 events)" \
			'BEGIN { if (e > 0) printf "%.0f%%", 100 * a / e; else print "n/a" }')
		ah512=$(awk -v a="$(med lua_${m}_${t}_512 events_ahead)" -v e="$(med lua_${m}_${t}_512 events)" \
			'BEGIN { if (e > 0) printf "%.0f%%", 100 * a / e; else print "n/a" }')
		printf '   %-10s %6s %12s %12s %8s %8s %13s %13s %8s %8s\n' $m $t \
			"$(mega "$(med lua_${m}_${t}_8 ops_per_s)")/s" \
			"$(mega "$(med lua_${m}_${t}_512 ops_per_s)")/s" "$ev8" "$ev512" \
			"$(mega "$(med lua_${m}_${t}_8 ops_per_cpu_s)")/s" \
			"$(mega "$(med lua_${m}_${t}_512 ops_per_cpu_s)")/s" "$ah8" "$ah512"
	done
done
echo

# ---------------------------------------------------------------- 3 scale --

echo "3. scale (the program itself, whole command: wall time, peak RSS, and CPU time (user +"
echo "   system) in brackets; target < 1 s, < 1 GiB)"
for c in 512 1024; do
	timed $dear kmod_$c "$bin" run "$root/scripts/kmod.lua" --cpus $c --report json
	reqs=$(tr -d ' \n' <"$tmp/kmod_$c.out" | sed -n 's/.*"uevents":{"value":\([0-9]*\).*/\1/p')
	ev=$(tr -d ' \n' <"$tmp/kmod_$c.out" | sed -n 's/.*"events":\([0-9]*\).*/\1/p')
	printf '   kmod.lua --cpus %-5s %6s uevents  %9s events   %8s s (%s)   %s\n' $c "${reqs:-?}" \
		"${ev:-?}" "$(num "$(med kmod_$c wall_s)" %.3f)" "$(num "$(med kmod_$c cpu_s)" %.2f)" \
		"$(mib "$(med kmod_$c peak_kib)")"
done
echo "   (kmod.lua's uevents follow the CPU count, about 2.4 per CPU; storms=N repeats them N times;"
echo "    earlier runs in docs/performance.md call them requests)"
storms=17
[ "$quick" = 1 ] && storms=2
timed $dear kmod_storm "$bin" run "$root/scripts/kmod.lua" --cpus 512 --set storms=$storms --report json
reqs=$(tr -d ' \n' <"$tmp/kmod_storm.out" | sed -n 's/.*"uevents":{"value":\([0-9]*\).*/\1/p')
ev=$(tr -d ' \n' <"$tmp/kmod_storm.out" | sed -n 's/.*"events":\([0-9]*\).*/\1/p')
printf '   kmod.lua --cpus 512 --set storms=%-3s %6s uevents  %9s events   %8s s (%s)   %s\n' $storms \
	"${reqs:-?}" "${ev:-?}" "$(num "$(med kmod_storm wall_s)" %.3f)" \
	"$(num "$(med kmod_storm cpu_s)" %.2f)" "$(mib "$(med kmod_storm peak_kib)")"
# A long traced run: --trace spools the records to disk as the run makes
# them and the exporters read them back (docs/hardening.md), so its peak
# is the untraced run's, however long the run: 9 M records here, past the
# 8 M that the window and --png keep in memory.  The export's throughput
# is the records over the time the trace adds to the run.
trounds=1000000
[ "$quick" = 1 ] && trounds=30000
tsets=(--cpus 8 --set tasks=64 --set rounds=$trounds)
timed 1 long_untraced "$bin" run "$sc/lockops.lua" "${tsets[@]}" --report json
timed 1 long_trace "$bin" run "$sc/lockops.lua" "${tsets[@]}" --trace "$tmp/long_trace.json"
emitted=$(grep -o '"records_emitted":[0-9]*' "$tmp/long_trace.json" 2>/dev/null | head -1 | cut -d: -f2)
kept=$(grep -o '"records":[0-9]*' "$tmp/long_trace.json" 2>/dev/null | head -1 | cut -d: -f2)
tbytes=$(stat -c %s "$tmp/long_trace.json" 2>/dev/null || echo nan)
printf '   lockops.lua %s --trace FILE: %s of %s records written (%s), %8s s (%s)   %s\n' \
	"${tsets[*]}" "${kept:-?}" "${emitted:-?}" "$(mib "$(awk -v b="$tbytes" 'BEGIN { print b == "nan" ? b : b / 1024 }')")" \
	"$(num "$(med long_trace wall_s)" %.3f)" "$(num "$(med long_trace cpu_s)" %.2f)" \
	"$(mib "$(med long_trace peak_kib)")"
awk -v w1="$(med long_trace wall_s)" -v w0="$(med long_untraced wall_s)" -v n="${kept:-nan}" \
	-v b="$tbytes" -v p1="$(med long_trace peak_kib)" -v p0="$(med long_untraced peak_kib)" 'BEGIN {
	if (w1 == "nan" || w0 == "nan" || n == "nan" || w1 <= w0) { print "   trace export: n/a"; exit }
	printf "   trace export: %.2f M records/s, %.0f MiB/s of JSON (spool and both passes); " \
	       "peak %.1f MiB with --trace, %.1f MiB without\n", n / (w1 - w0) / 1e6,
	       b / 1048576 / (w1 - w0), p1 / 1024, p0 / 1024 }'
rm -f "$tmp/long_trace.json"
nreq=20000
[ "$quick" = 1 ] && nreq=2000
timed $dear kmod_req "$bin" run "$root/scripts/kmod.lua" --cpus 512 --set requests=$nreq --report json
ev=$(tr -d ' \n' <"$tmp/kmod_req.out" | sed -n 's/.*"events":\([0-9]*\).*/\1/p')
printf '   kmod.lua --cpus 512 --set requests=%-6s %6s request_module() calls %9s events   %8s s (%s)   %s\n' \
	$nreq $nreq "${ev:-?}" "$(num "$(med kmod_req wall_s)" %.3f)" \
	"$(num "$(med kmod_req cpu_s)" %.2f)" "$(mib "$(med kmod_req peak_kib)")"
big=(--cpus 1024 --set tasks=100000 --set rounds=100000 --set locks=1024)
[ "$quick" = 1 ] && big=(--cpus 1024 --set tasks=10000 --set rounds=10000 --set locks=1024)
timed $dear scale "$bin" run "$sc/lockops.lua" "${big[@]}" --report json
printf '   %-48s %8s s (%s)   %s\n' "lockops.lua ${big[*]}" \
	"$(num "$(med scale wall_s)" %.3f)" "$(num "$(med scale cpu_s)" %.2f)" \
	"$(mib "$(med scale peak_kib)")"
runs $dear scale_phases "$drv/bench_lua" "$sc/lockops.lua" "${big[@]}"
printf '   of which: load (top level) %s s, build %s s, run %s s (%s events, %s ns/event), report + checks %s s\n' \
	"$(num "$(med scale_phases load_s)" %.3f)" "$(num "$(med scale_phases inst_s)" %.3f)" \
	"$(num "$(med scale_phases run_s)" %.3f)" "$(med scale_phases events)" \
	"$(num "$(med scale_phases ns_per_event)" %.0f)" "$(num "$(med scale_phases check_s)" %.3f)"
echo

# --------------------------------------------------------------- 4 growth --

echo "4. growth: one scenario (lockops.lua, 64 CPUs, 256 tasks, 16 locks, think 1 us:"
echo "   6 events a round), run time only; trace stored or not"
printf '   %-9s %5s %10s %12s %10s %12s %10s\n' events runs "ns/event" "with trace" \
	"records" "peak RSS" "B/record"
growth=(--cpus 64 --set tasks=256 --set locks=16 --set think_ns=1000)
sizes="10000 100000 1000000 10000000"
[ "$quick" = 1 ] && sizes="10000 100000"
for e in $sizes; do
	r=$(((e - 800) / 6))
	n=$cheap
	[ "$e" -ge 10000000 ] && n=$dear
	runs $n grow_$e "$drv/bench_lua" "$sc/lockops.lua" "${growth[@]}" --set rounds=$r
	runs $n growt_$e "$drv/bench_lua" "$sc/lockops.lua" "${growth[@]}" --set rounds=$r --trace
	recs=$(med growt_$e trace_stored)
	pk=$(med growt_$e peak_kib)
	pk0=$(med grow_$e peak_kib)
	per=$(awk -v a="$pk" -v b="$pk0" -v n="$recs" 'BEGIN { printf "%.1f", (a - b) * 1024 / n }')
	printf '   %-9s %5s %10s %12s %10s %12s %10s\n' "$(med grow_$e events)" "$n" \
		"$(num "$(med grow_$e ns_per_event)" %.1f)" "$(num "$(med growt_$e ns_per_event)" %.1f)" \
		"$recs" "$(mib "$pk")" "$per"
done
echo "   sizeof(struct km_trace_rec) = $(med growt_10000 trace_rec_bytes) bytes;" \
	"B/record = (peak RSS with the trace - without) / records stored"
last=${sizes##* }
lim=$((last / 10))
runs $dear growl "$drv/bench_lua" "$sc/lockops.lua" "${growth[@]}" \
	--set rounds=$(((last - 800) / 6)) --trace --trace-limit $lim
printf '   with a trace limit of %s records at %s events: %s ns/event, %s records kept, peak %s\n' \
	"$lim" "$(med growl events)" "$(num "$(med growl ns_per_event)" %.1f)" \
	"$(med growl trace_stored)" "$(mib "$(med growl peak_kib)")"
h1=$(sed -n 's/^trace_hash=//p' "$tmp"/growl.[0-9]* | sort -u)
h2=$(sed -n 's/^trace_hash=//p' "$tmp"/growt_$last.[0-9]* | sort -u)
if [ -n "$h1" ] && [ "$h1" = "$h2" ]; then
	echo "   (the same trace hash as the unbounded run: the run itself is unchanged)"
else
	echo "   (trace hash differs from the unbounded run: '$h1' against '$h2')"
fi
echo

# ----------------------------------------------------------------- 5 view --

vr=${BENCH_VIEW_ROUNDS:-1666667}
[ "$quick" = 1 ] && vr=20000
echo "5. view: one frame of the timeline at 1920x1080, software renderer, 1024 CPUs"
echo "   (lockops.lua, 2048 tasks, 256 locks, $vr rounds; target < 8 ms; median of 20 frames a run)"
runs $dear view "$drv/bench_view" "$sc/lockops.lua" --cpus 1024 --set tasks=2048 \
	--set locks=256 --set think_ns=1000 --set rounds=$vr --frames 20
if [ -s "$tmp/view.1" ]; then
	printf '   %s events, %s records: run %s s, index (km_vm_build) %s s, peak %s\n' \
		"$(med view events)" "$(med view trace_stored)" "$(num "$(med view run_s)" %.2f)" \
		"$(num "$(med view model_s)" %.2f)" "$(mib "$(med view peak_kib)")"
	printf '   frame: whole run recomputed %s ms; unchanged %s ms; panning a 1/20 window %s ms; first %s ms\n' \
		"$(num "$(med view frame_full_ms)" %.1f)" "$(num "$(med view frame_cached_ms)" %.1f)" \
		"$(num "$(med view frame_pan_ms)" %.1f)" "$(num "$(med view frame_first_ms)" %.1f)"
	printf '   projector mode (larger type, wrapped text): whole run %s ms\n' \
		"$(num "$(med view frame_projector_ms)" %.1f)"
else
	echo "   skipped: the view driver could not run"
fi
echo

# ------------------------------------------------------------ 6 callgrind --

echo "6. instructions (Ir) under valgrind --tool=callgrind: machine-independent"
if ! command -v valgrind >/dev/null 2>&1; then
	echo "   skipped: valgrind is not installed (apt-get install valgrind)"
else
	# cg NAME FN CMD...: Ir inside FN (and what it calls) for CMD
	cg() {
		local name=$1 fn=$2
		shift 2
		valgrind --tool=callgrind --callgrind-out-file="$tmp/$name.cg" \
			--toggle-collect="$fn" "$@" >"$tmp/$name.1" 2>"$tmp/$name.err" || failed=1
		sed -n 's/^totals: *//p' "$tmp/$name.cg" | awk '{ print $1 }'
	}
	# Two sizes, so that what a run costs once (starting tasks, the first
	# heap growth) cancels: Ir per unit = (Ir(2n) - Ir(n)) / (units(2n) - units(n)).
	a=$(cg cga km_sim_run "$drv/bench_core" --iters 200)
	ea=$(sed -n 's/^events=//p' "$tmp/cga.1")
	ra=$(sed -n 's/^rounds=//p' "$tmp/cga.1")
	b=$(cg cgb km_sim_run "$drv/bench_core" --iters 400)
	eb=$(sed -n 's/^events=//p' "$tmp/cgb.1")
	rb=$(sed -n 's/^rounds=//p' "$tmp/cgb.1")
	awk -v a="$a" -v b="$b" -v ea="$ea" -v eb="$eb" -v ra="$ra" -v rb="$rb" 'BEGIN {
		printf "   core (bench_core, mixed): %.0f Ir per event, %.0f Ir per round\n",
			(b - a) / (eb - ea), (b - a) / (rb - ra) }'
	for cfg in "1 8" "64 8" "4096 512"; do
		set -- $cfg
		a=$(cg cgla km_scenario_run "$drv/bench_lua" "$sc/lockops.lua" --mode semaphore \
			--cpus $2 --set tasks=$1 --set rounds=20000)
		ea=$(sed -n 's/^events=//p' "$tmp/cgla.1")
		b=$(cg cglb km_scenario_run "$drv/bench_lua" "$sc/lockops.lua" --mode semaphore \
			--cpus $2 --set tasks=$1 --set rounds=40000)
		eb=$(sed -n 's/^events=//p' "$tmp/cglb.1")
		awk -v a="$a" -v b="$b" -v ea="$ea" -v eb="$eb" -v t=$1 -v c=$2 'BEGIN {
			printf "   Lua round (lockops.lua, semaphore, %d tasks, %d CPUs): %.0f Ir per round, %.0f Ir per event\n",
				t, c, (b - a) / 20000, (b - a) / (eb - ea) }'
	done
	# the scale command of section 3, whole: what no wall clock can say on a busy machine
	a=$(cg cgs main "$bin" run "$sc/lockops.lua" "${big[@]}" --report json)
	b=$(cg cgr km_report_print_json "$bin" run "$sc/lockops.lua" "${big[@]}" --report json)
	awk -v a="$a" -v b="$b" -v w="lockops.lua ${big[*]}" 'BEGIN {
		printf "   %s --report json: %.2f G Ir in all, %.2f G printing the report\n",
			w, a / 1e9, b / 1e9 }'
	echo "   (one run each: callgrind counts are deterministic)"
fi

echo
# ------------------------------------------------------------- 7 start-up --

# startup N CMD...: the median wall time of N runs of CMD, in ms, spawned
# as a program starts another (bench_spawn.c: bash's own fork costs more
# than the process measured); bash's clock where the driver is missing;
# nan (printed n/a) when CMD does not exit 0.
spawner=$(dirname "$bin")/tests/bench/bench_spawn
startup() {
	if [ -x "$spawner" ]; then
		"$spawner" "$@" || echo nan
		return
	fi
	local n=$1 i t0 t1 us=()
	shift
	for ((i = 1; i <= n; i++)); do
		t0=${EPOCHREALTIME/./}
		"$@" >/dev/null 2>&1
		t1=${EPOCHREALTIME/./}
		us+=($((t1 - t0)))
	done
	printf '%s\n' "${us[@]}" | median | awk '{ printf "%.3f\n", $1 / 1000 }'
}

echo "7. start-up: wall time of a whole process, spawned, median of 20 (target: a one-event run < 5 ms)"
one=$sc/one_event.lua
printf '   %-44s %8s ms\n' "an empty process (/bin/true), for scale" \
	"$(num "$(startup 20 /bin/true)" %.2f)"
printf '   %-44s %8s ms\n' "lockmuseum --version" "$(num "$(startup 20 "$bin" --version)" %.2f)"
printf '   %-44s %8s ms\n' "lockmuseum list" "$(num "$(startup 20 "$bin" list)" %.2f)"
printf '   %-44s %8s ms\n' "lockmuseum run one_event.lua (one task)" \
	"$(num "$(startup 20 "$bin" run "$one")" %.2f)"
# The same as pairs (issue 27's target: the one-task run at most 1.5x
# /bin/true): each command and /bin/true started in turn, CPU time (user +
# system, from wait4) rather than wall time, and the median of the rounds'
# ratios with their quartiles -- what a machine shared with other work can
# still measure (bench_spawn.c says why).
npair=200
[ "$quick" = 1 ] && npair=20
if [ -x "$spawner" ]; then
	echo "   as pairs with /bin/true, $npair rounds each: CPU time, medians; the ratio is the median of the" \
		"rounds' (target: the one-task run <= 1.5x)"
	pair() {
		local name=$1 out
		shift
		if out=$("$spawner" --pair "$npair" /bin/true -- "$@"); then
			echo "$out" | awk -v n="$name" '{
				printf "   %-44s %6.2f ms  /bin/true %5.2f ms  %5.2fx  [%.2f .. %.2f]\n",
					n, $2, $1, $3, $4, $5 }'
		else
			failed=1
			printf '   %-44s n/a\n' "$name"
		fi
	}
	pair "lockmuseum --version" "$bin" --version
	pair "lockmuseum list" "$bin" list
	pair "lockmuseum run one_event.lua (one task)" "$bin" run "$one"
	# the program linked statically hands drawing to the same objects
	# linked dynamically (the Makefile's PROG_STATIC): that one, for scale
	[ -x "$bin-draw" ] &&
		pair "the same, linked dynamically (-draw)" "$bin-draw" run "$one"
fi
if ldd "$bin" 2>&1 | grep -q 'statically linked'; then
	echo "   shared libraries the one-task run initialises: none (linked statically; a command" \
		"that draws is handed to $(basename "$bin")-draw, which opens the view)"
else
	nlibs=$(LD_DEBUG=files "$bin" run "$one" 2>&1 >/dev/null | grep -c 'calling init: .*\.so')
	sdl=$(LD_DEBUG=files "$bin" run "$one" 2>&1 >/dev/null | grep -c 'file=libSDL')
	echo "   shared libraries the one-task run initialises: $nlibs, of them SDL: $sdl" \
		"(the view, $(basename "$bin")-view.so, is opened only to draw)"
fi
if command -v valgrind >/dev/null 2>&1; then
	valgrind --tool=callgrind --callgrind-out-file="$tmp/one.cg" "$bin" run "$one" \
		>/dev/null 2>&1 || failed=1
	echo "   the one-task run executes $(mega "$(sed -n 's/^totals: *//p' "$tmp/one.cg" |
		awk '{ print $1 }')") instructions in all (callgrind: the same on any machine)"
fi
echo

# ---------------------------------------------------------- 8 sweep merge --

# 10,000 reports made cheaply: four real runs of printk.lua (the two modes
# on 2 and 4 CPUs), each copied under 2,500 seeds -- the merge reads, checks
# and groups them as it would a real sweep's.
nrep=${BENCH_MERGE_REPORTS:-10000}
[ "$quick" = 1 ] && nrep=400
echo "8. compare --from: merging $nrep reports of a sweep into compare's table (target < 2 s)"
mkdir -p "$tmp/reports" "$tmp/merge"
merge_ok=1
for m in semaphore mutex; do
	for c in 2 4; do
		"$bin" run "$root/scripts/printk.lua" --mode $m --cpus $c --seed 1 --report json \
			--out "$tmp/reports/printk-$m-$c.json" 2>/dev/null
		[ -s "$tmp/reports/printk-$m-$c.json" ] || merge_ok=0
	done
done
if [ $merge_ok = 1 ]; then
	for f in "$tmp"/reports/*.json; do
		awk -v n=$((nrep / 4)) -v dir="$tmp/merge" -v tag="$(basename "$f" .json)" '
			{ lines[NR] = $0 }
			END { for (i = 1; i <= n; i++) {
				f = dir "/" tag "-s" i ".json"
				for (k = 1; k <= NR; k++) {
					l = lines[k]
					if (l ~ /^  "seed": /) l = "  \"seed\": " i ","
					print l > f
				}
				close(f) } }' "$f"
	done
	timed $dear merge "$bin" compare --from "$tmp/merge" --report csv
	rows=$(grep -c . "$tmp/merge.out" 2>/dev/null)
	printf '   %s reports (%s) into %s rows: %s s (%s s CPU), peak %s\n' \
		"$(ls "$tmp/merge" | wc -l)" "$(du -sh "$tmp/merge" | cut -f1)" "$((rows - 1))" \
		"$(num "$(med merge wall_s)" %.2f)" "$(num "$(med merge cpu_s)" %.2f)" \
		"$(mib "$(med merge peak_kib)")"
else
	echo "   skipped: the runs that make the reports failed"
	failed=1
fi
rm -rf "$tmp/merge" "$tmp/reports"
echo
# ------------------------------------------------------------- 9 explore --

# explore --strategy runs its runs in one process per worker: tests/bench/
# explore_pair.lua (two tasks, two mutexes in one order) never deadlocks,
# so every one of the seeds is a run.
nexp=${BENCH_EXPLORE_RUNS:-20000}
[ "$quick" = 1 ] && nexp=500
echo "9. explore --strategy random: runs per second of explore_pair.lua (two tasks, two locks;"
echo "   $nexp runs, less a search of one run (the program's start, the scenario and its"
echo "   era's files loaded, one run: the first line below);"
echo "   target >= 5,000 runs/s on one core, near-linear with --jobs)"
timed $dear explore0 "$bin" explore "$sc/explore_pair.lua" --strategy random --seeds 1..1 \
	--goal deadlock --jobs 1
w0=$(med explore0 wall_s)
c0=$(med explore0 cpu_s)
printf '   start-up and one run: %s s\n' "$(num "$w0" %.3f)"
for j in 1 2; do
	[ "$j" -gt "$(nproc)" ] && continue
	timed $dear explore$j "$bin" explore "$sc/explore_pair.lua" --strategy random \
		--seeds 1..$nexp --goal deadlock --jobs $j
	w=$(med explore$j wall_s)
	c=$(med explore$j cpu_s)
	printf '   --jobs %d: %s runs/s (%s runs per CPU-s)\n' "$j" \
		"$(awk -v n="$nexp" -v t="$w" -v t0="$w0" 'BEGIN { if (t == "nan" || t0 == "nan" || t <= t0) print "n/a"; else printf "%.0f", (n - 1) / (t - t0) }')" \
		"$(awk -v n="$nexp" -v t="$c" -v t0="$c0" 'BEGIN { if (t == "nan" || t0 == "nan" || t <= t0) print "n/a"; else printf "%.0f", (n - 1) / (t - t0) }')"
done
echo
# -------------------------------------------------------------- 10 SimPy --

# The yardstick (issue 27): the rounds of figure 2 in SimPy, a well-kept
# Python discrete-event simulator (tests/bench/simpy_lockops.py), where
# Debian's python3-simpy3 is installed.  Both sides: run time only, per
# CPU-second, the same rounds; the lockmuseum side also models CPUs, run
# queues, wake-ups and the trace hash, which SimPy does not.
spy=
for p in /usr/bin/python3 python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import simpy' 2>/dev/null; then
		spy=$p
		break
	fi
done
srounds=500000
[ "$quick" = 1 ] && srounds=20000
echo "10. against SimPy: the rounds of figure 2 (semaphore, 8 CPUs), $srounds rounds, run time only,"
echo "    rounds per CPU-second; target: lockmuseum >= 20x SimPy at every task count"
if [ -z "$spy" ]; then
	echo "   skipped: SimPy is not installed (apt-get install python3-simpy3)"
else
	# As pairs (issue 27): each lockmuseum run is followed by a SimPy run
	# of the same task count, and the ratio is the median of the pairs'
	# ratios, so that the machine's drift between the two cancels.
	printf '   %6s %16s %16s %8s  %s\n' tasks lockmuseum SimPy ratio "spread (pairs)"
	for t in 1 64 4096; do
		rm -f "$tmp"/simlm_$t.* "$tmp"/simpy_$t.* "$tmp/simratio_$t"
		: >"$tmp/simratio_$t"
		for ((i = 1; i <= cheap; i++)); do
			if ! "$drv/bench_lua" "$sc/lockops.lua" --mode semaphore --cpus 8 \
				--set tasks=$t --set rounds=$srounds >"$tmp/simlm_$t.$i" 2>"$tmp/simlm.err"; then
				echo "  (simlm_$t: run failed: $(tail -1 "$tmp/simlm.err"))"
				rm -f "$tmp/simlm_$t.$i"
				failed=1
				continue
			fi
			if ! "$spy" "$sc/simpy_lockops.py" $t $srounds >"$tmp/simpy_$t.$i" 2>"$tmp/simpy.err"; then
				echo "  (simpy_$t: run failed: $(tail -1 "$tmp/simpy.err"))"
				rm -f "$tmp/simpy_$t.$i"
				failed=1
				continue
			fi
			awk -v a="$(sed -n 's/^ops_per_cpu_s=//p' "$tmp/simlm_$t.$i")" \
			    -v b="$(sed -n 's/^rounds_per_cpu_s=//p' "$tmp/simpy_$t.$i")" \
			    'BEGIN { if (a != "" && b != "" && b > 0) printf "%.4f\n", a / b }' \
			    >>"$tmp/simratio_$t"
		done
		a=$(med simlm_$t ops_per_cpu_s)
		b=$(med simpy_$t rounds_per_cpu_s)
		r=$(median <"$tmp/simratio_$t")
		printf '   %6s %16s %16s %8s  %s\n' $t "$(mega "$a")/s" "$(mega "$b")/s" \
			"$(awk -v r="$r" 'BEGIN { if (r == "nan") print "n/a"; else printf "%.1fx", r }')" \
			"$(sort -g "$tmp/simratio_$t" | awk 'NR == 1 { lo = $1 } { hi = $1 }
				END { if (NR) printf "%.1f - %.1f", lo, hi; else print "n/a" }')"
	done
	echo "   (SimPy $(sed -n 's/^simpy=//p' "$tmp"/simpy_1.[0-9]* 2>/dev/null | head -1), $("$spy" --version 2>&1))"
fi
echo
# ---------------------------------------------------------- 11 vs SPIN --

# The same models through SPIN, when it is installed (Debian: spin), side
# by side with exhaustive:2: N processes taking two locks in one order
# (tests/bench/same_order.pml and .lua: no deadlock, the whole space), and
# the AB-BA (tests/bench/abba.pml, tests/explore/fixed_abba.lua: found).
# pan is compiled once per model (not timed) and run with -w16; each wall
# time is the median of several runs.  SPIN searches every interleaving
# (its own partial-order reduction on); the explorer every schedule of at
# most 2 preemptions (the default: every hold run, no --por).
echo "11. beside SPIN: exhaustive:2 --jobs 1 and SPIN's pan -w16 on the same models"
if ! command -v spin >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
	echo "   skipped: spin is not installed (Debian package spin)"
else
	mkdir -p "$tmp/spin"
	# The wall clock around a command (two date(1)s, /usr/bin/time)
	# costs about as much as pan's whole search on a small model: timed
	# around /bin/true, its median is taken off every wall below, so the
	# ratio compares the two commands, not the harness with itself.
	timed $cheap spin_harness /bin/true
	hw=$(med spin_harness wall_s)
	net_wall() { awk -v t="$(med "$1" wall_s)" -v h="$hw" 'BEGIN { printf "%.6f", t - h }'; }
	printf '   %-16s %11s %10s %13s %14s %14s %10s %16s\n' model "SPIN states" "pan wall" \
		"explorer runs" interleavings "explorer wall" "ratio" "unshared wall"
	spin_row() { # KEY LABEL PML DEFINES LUA ARGS...
		local key=$1 label=$2 pml=$3 defs=$4 lua=$5 states runs inter pw ew nw
		shift 5
		if ! (cd "$tmp/spin" && spin $defs -a "$pml" >/dev/null 2>&1 &&
		      cc -O2 -w -o pan pan.c 2>/dev/null); then
			echo "   $label: spin or cc failed"
			failed=1
			return
		fi
		(cd "$tmp/spin" && ./pan -w16 >"$tmp/spin/out" 2>&1)
		states=$(sed -n 's/^ *\([0-9]*\) states, stored.*/\1/p' "$tmp/spin/out" | head -1)
		# from its folder: pan writes its trail (abba.pml.trail) where it runs
		timed $cheap pan_$key env -C "$tmp/spin" ./pan -w16
		pw=$(net_wall pan_$key)
		timed $cheap exp_$key "$bin" explore "$lua" --strategy exhaustive:2 --jobs 1 "$@"
		ew=$(net_wall exp_$key)
		# every run from its start, as before runs shared their prefix
		timed $cheap expns_$key env LOCKMUSEUM_EXPLORE_NO_SHARE=1 "$bin" explore "$lua" \
			--strategy exhaustive:2 --jobs 1 "$@"
		nw=$(net_wall expns_$key)
		runs=$(sed -n 's/.* in \([0-9]*\) runs\{0,1\} reaches.*/\1/p; s/.* after \([0-9]*\) runs\{0,1\} .*/\1/p' \
			"$tmp/exp_$key.out" | head -1)
		inter=$(sed -n 's/.*; \([0-9]*\) distinct interleavings\{0,1\}$/\1/p; s/.*(\([0-9]*\) distinct interleavings\{0,1\})$/\1/p' \
			"$tmp/exp_$key.out" | head -1)
		printf '   %-16s %11s %7s ms %13s %14s %11s ms %9sx %13s ms\n' "$label" "${states:-?}" \
			"$(awk -v t="$pw" 'BEGIN { printf "%.1f", t * 1000 }')" "${runs:-?}" "${inter:-?}" \
			"$(awk -v t="$ew" 'BEGIN { printf "%.1f", t * 1000 }')" \
			"$(awk -v a="$ew" -v b="$pw" 'BEGIN { if (b > 0 && a == a + 0) printf "%.1f", a / b; else print "n/a" }')" \
			"$(awk -v t="$nw" 'BEGIN { printf "%.1f", t * 1000 }')"
	}
	for n in 2 5 6; do
		spin_row same$n "same order N=$n" "$sc/same_order.pml" "-DN=$n" "$sc/same_order.lua" \
			--set n=$n --goal deadlock
	done
	# pan stops at the deadlock (an invalid end state) and saves a trail
	spin_row abba "AB-BA" "$sc/abba.pml" "" "$root/tests/explore/fixed_abba.lua" --goal deadlock \
		--out "$tmp/spin/abba.schedule"
	echo "   (explorer wall: the whole command, with its start-up; pan wall: pan's whole run;"
	echo "   both less the timing harness's own $(awk -v t="$hw" 'BEGIN { printf "%.1f", t * 1000 }') ms, timed around /bin/true;"
	echo "   unshared: LOCKMUSEUM_EXPLORE_NO_SHARE=1, every run from its start)"
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
if [ $failed -ne 0 ]; then
	echo "bench: some runs failed (see above)"
	exit 2
fi
exit 0
