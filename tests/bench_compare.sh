#!/usr/bin/env bash
# bench_compare.sh - this tree against another commit, figure by figure,
# as ratios of pairs: the gate that `make bench` alone is not.
#
#   tests/bench_compare.sh BASE        (make bench-compare BASE=REV)
#
# Absolute figures drift on a shared machine by more than the changes
# they are meant to catch; a ratio of two runs made back to back does not
# drift with it.  So BASE is unpacked (git archive, no checkout of ours
# touched) into build-bench-compare/<commit>/, built there with its own
# `make bench-build` (or, for a commit older than that target, its own
# `make bench` with the figures' script stubbed out), and every figure is
# run alternately -- base, tree, base, tree -- PAIRS times.  Each pair
# gives a ratio of CPU time (tree / base: above 1 is slower); the line
# prints the median ratio, its spread (lowest and highest pair), and the
# medians of the absolute figures beside it.  CPU time (user + system of
# the process, or of the run alone where a driver reports it) is what
# other load on the machine disturbs least.
#
# The figures: the core without Lua (bench_core), Lua lock rounds at 1, 64
# and 4,096 tasks (bench_lua, tests/bench/lockops.lua), and two whole
# runs of the program: kmod.lua's boot storm (512 CPUs, storms=17: some
# 20,000 uevents, each a task, behind one counting semaphore) and 64
# tasks x 20,000 rounds.  The copy of BASE is kept, so a second comparison with
# the same base builds nothing.
#
# BENCH_QUICK=1: small runs and 3 pairs, to check that the script works
# (tests/run_bench_compare.sh); its ratios mean little.
# BENCH_PAIRS=N: N pairs (default 7).
# BENCH_COMPARE_SEED=DIR: a build-bench/ folder of BASE itself, built with
# the flags the copy's build will use, put in the copy before its make,
# which then compiles only what is out of date (tests/run_bench_compare.sh
# compares a clone with its own HEAD: the clone's build is the base's).
set -u

die() { echo "bench-compare: $*" >&2; exit 2; }

[ $# -eq 1 ] || die "usage: tests/bench_compare.sh BASE (a commit, branch or tag)"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || die "cannot enter $root"
base=$(git rev-parse --verify --quiet "$1^{commit}") || die "'$1' is not a commit of this repository"
short=$(git rev-parse --short "$base")
quick=${BENCH_QUICK:-0}
pairs=${BENCH_PAIRS:-7}
[ "$quick" = 1 ] && pairs=${BENCH_PAIRS:-3}
case $pairs in '' | *[!0-9]* | 0) die "BENCH_PAIRS must be a whole number above 0" ;; esac

tree_bin=$root/build-bench/lockmuseum
tree_drv=$root/build-bench/tests/bench
[ -x "$tree_bin" ] && [ -x "$tree_drv/bench_core" ] || die "this tree is not built: run make bench-build"

# ------------------------------------------------------- the base's copy --

scratch=${BENCH_COMPARE_DIR:-$root/build-bench-compare}
copy=$scratch/$base
if [ ! -x "$copy/build-bench/lockmuseum" ] || [ ! -x "$copy/build-bench/tests/bench/bench_core" ]; then
	echo "bench-compare: building $short in $copy"
	rm -rf "$copy.tmp"
	mkdir -p "$copy.tmp" || die "cannot create $copy.tmp"
	git archive "$base" | tar -x -C "$copy.tmp" || die "cannot unpack $short"
	# copied with their times: the objects are newer than the unpacked
	# sources (which carry the commit's time), so make counts them as
	# built; and among themselves they keep their order, or a generated
	# header copied before its generator would be made, and what includes
	# it compiled, again
	if [ -n "${BENCH_COMPARE_SEED:-}" ]; then
		cp -Rp "$BENCH_COMPARE_SEED" "$copy.tmp/build-bench" ||
			die "cannot copy $BENCH_COMPARE_SEED into $copy.tmp"
	fi
	if grep -q '^bench-build:' "$copy.tmp/Makefile"; then
		target=bench-build
	else
		# older than bench-build: its bench target builds, then runs
		# the figures' script, which is not wanted here
		printf '#!/bin/sh\nexit 0\n' >"$copy.tmp/tests/bench.sh"
		target=bench
	fi
	(cd "$copy.tmp" && make --no-print-directory "$target") >"$scratch/$base.log" 2>&1 ||
		die "building $short failed (see $scratch/$base.log)"
	rm -rf "$copy"
	mv "$copy.tmp" "$copy" || die "cannot move the copy of $short into place"
fi
base_bin=$copy/build-bench/lockmuseum
base_drv=$copy/build-bench/tests/bench

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ------------------------------------------------------------- measuring --

# cpu_of SIDE CMD...: run CMD, print the CPU seconds it took (the run's
# own run_cpu_s/cpu_s key where the driver prints one, else user +
# system of the whole process), or nothing if it failed.
cpu_of() {
	local out=$tmp/out err=$tmp/err
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >"$out" 2>"$err"
	local rc=$?
	if [ $rc -gt 1 ]; then
		echo "  (failed, exit $rc: $(tail -1 "$err"))" >&2
		return 1
	fi
	local own
	own=$(sed -n 's/^run_cpu_s=//p; s/^cpu_s=//p' "$out" | head -1)
	if [ -n "$own" ]; then
		echo "$own"
	else
		awk '{ print $1 + $2 }' "$tmp/time"
	fi
}

median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# figure NAME -- ARGS...: ARGS with @BIN@ and @DRV@ standing for each
# side's program and drivers' folder, run alternately.  Both sides run
# this tree's scenario files (the same input, given by path), each with
# its own eras (LOCKMUSEUM_DATA: an era field the base does not know
# would stop it).
figure() {
	local name=$1 i a b
	shift 2
	: >"$tmp/ratios"
	: >"$tmp/a"
	: >"$tmp/b"
	for ((i = 1; i <= pairs; i++)); do
		a=$(cpu_of $(subst "$copy" "$base_bin" "$base_drv" "$@")) ||
			{ echo "   $name: the base's run failed"; return; }
		b=$(cpu_of $(subst "$root" "$tree_bin" "$tree_drv" "$@")) ||
			{ echo "   $name: this tree's run failed"; return; }
		echo "$a" >>"$tmp/a"
		echo "$b" >>"$tmp/b"
		# CPU time is counted in clock ticks: a run too short to take
		# one has no ratio
		awk -v a="$a" -v b="$b" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.6f\n", b / a }' >>"$tmp/ratios"
	done
	local r lo hi ma mb
	if [ ! -s "$tmp/ratios" ]; then
		echo "   $name: too short to time (raise the sizes)"
		return
	fi
	r=$(median <"$tmp/ratios")
	lo=$(sort -g "$tmp/ratios" | head -1)
	hi=$(sort -g "$tmp/ratios" | tail -1)
	ma=$(median <"$tmp/a")
	mb=$(median <"$tmp/b")
	printf '   %-44s %7.3fx  [%.3f .. %.3f]  %9.4f s  %9.4f s\n' "$name" "$r" "$lo" "$hi" "$ma" "$mb"
}

# subst TOP BIN DRV ARGS...: the command of one side, a word a line:
# ARGS with the placeholders replaced, run with that side's data folder
subst() {
	local top=$1 bin=$2 drv=$3 w
	shift 3
	printf '%s\n' env "LOCKMUSEUM_DATA=$top"
	for w in "$@"; do
		w=${w//@BIN@/$bin}
		printf '%s\n' "${w//@DRV@/$drv}"
	done
}

# ---------------------------------------------------------------- figures --

iters=5000 rounds=500000 storms=17 r64=1280000
if [ "$quick" = 1 ]; then
	iters=300 rounds=20000 storms=1 r64=64000
fi
IFS=$'\n'	# subst prints one word a line: split on lines only

echo "lockmuseum bench-compare: this tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- engine tests/bench 2>/dev/null || echo ', with changes')) against $short"
echo "machine: $(nproc) CPUs online; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "each figure: $pairs pairs, run alternately; ratio = this tree's CPU time / the base's"
echo "(above 1.000x: this tree is slower); spread = lowest and highest pair; then the medians"
printf '   %-44s %8s  %-18s  %11s  %11s\n' figure ratio spread base "this tree"
figure "core: bench_core mixed, $iters loops" -- @DRV@/bench_core --work mixed --iters $iters
for t in 1 64 4096; do
	figure "Lua: lockops semaphore, $t tasks, 8 CPUs" -- @DRV@/bench_lua $root/tests/bench/lockops.lua \
		--mode semaphore --cpus 8 --set tasks=$t --set rounds=$rounds
done
figure "scale: kmod.lua 512 CPUs, storms=$storms" -- @BIN@ run $root/scripts/kmod.lua \
	--cpus 512 --set storms=$storms --report json
figure "scale: lockops 64 tasks x $((r64 / 64)) rounds" -- @BIN@ run $root/tests/bench/lockops.lua \
	--set tasks=64 --set rounds=$r64 --report json
unset IFS
echo "(docs/performance.md keeps the ratio of each landed change to the one before)"
