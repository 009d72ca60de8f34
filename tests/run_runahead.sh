#!/usr/bin/env bash
# run_runahead.sh BIN [--save DIR | --against DIR] - the run-ahead must
# not change a single byte of any run.
#
# An operation of scenario code that ends before anything else can happen
# (an uncontended down(), an up() that wakes nobody, a short compute())
# completes inside the task's coroutine instead of yielding to the event
# loop (see engine/sched.c, km_ctx_run_ahead).  That is an optimisation
# only: every trace hash, report, message and exit status must be what the
# plain path -- yield after every operation, resume from the loop -- gives.
# LOCKMUSEUM_NO_RUN_AHEAD=1 forces the plain path, so this test runs every
# combination below both ways and compares stdout, stderr and the exit
# status byte for byte.
#
# The matrix: every tests/scenarios/*.lua and every scripts/*.lua scenario
# (and each challenge of scripts/challenges/, with its solution too),
# with the arguments of its header (as run_scenarios.sh does), then under
# other modes, eras and seeds: one more combination per scenario test, in
# turn (the bad_* ones stop before the run: their own arguments only), and
# all of them for the museum scripts.  About 350 short runs.
#
# RUNAHEAD_TESTS_ONLY=1 leaves the museum scripts' matrix out (scripts/*.lua
# in ten modes and eras each): what make test does under ASan and UBSan
# (check-sanitized).  Those are the long runs (test_mutex.lua's take tens
# of seconds of CPU each under ASan); run_scenarios.sh runs every script
# with the sanitizers, and the -O2 suite compares every combination both
# ways.  tests/scenarios/ (each with a mode and era of its own in turn: a
# semaphore, a spinlock, a mutex) and the challenges still run both ways
# with the sanitizers.
#
#   --save DIR     also keep each run's output (the run-ahead one) in DIR
#   --against DIR  also compare with the outputs kept in DIR by --save
#                  (a binary built before a change: the change kept every
#                  byte of every run)
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.

set -u

usage() {
	echo "usage: $0 BIN [--save DIR | --against DIR]" >&2
	exit 2
}
[ $# -eq 1 ] || [ $# -eq 3 ] || usage
. "$(dirname "$0")/lib_runner.sh"
runner_bin "$1"
save=
against=
if [ $# -eq 3 ]; then
	case $2 in
	--save) save=$3 ;;
	--against) against=$3 ;;
	*) usage ;;
	esac
fi

runner_dirs
export LOCKMUSEUM_DATA=$root
[ -n "$save" ] && mkdir -p "$save"
if [ -n "$against" ] && [ ! -d "$against" ]; then
	echo "$0: $against is not a directory" >&2
	exit 2
fi

# Combinations, after the header's arguments (so they win).
more=(
	"--era 2023 --mode semaphore"
	"--era 2008 --mode spinlock"
	"--era 2009 --mode mutex --seed 5"
)
# The museum scripts, longer and richer, get these as well.
wide=(
	"--seed 3"
	"--era 2023 --mode mutex"
	"--era 1999 --mode bkl"
	"--era 2005 --mode semaphore"
	"--era 2001 --mode cli"
	"--era 2016 --mode mutex --cpus 16"
)

# The header's "-- args:" lines, as run_scenarios.sh reads them.
header_args() {
	sed -n '/^--/!q; s/^-- args://p' "$1" | tr '\n' ' '
}

is_scenario() {
	grep -Eq '^[[:space:]]*scenario[[:space:]]*[{(]' "$1"
}

# One line per run: a key (file, combination) and the arguments.
jobs=$tmp/jobs
: >"$jobs"
add() {
	local f=$1 base=$2 i=0 extra name=${1##*/}
	name=${name%.lua}	# basename "$f" .lua, without a process a job
	shift 2
	for extra in "$@"; do
		printf '%s\t%s\t%s\n' "$name.$i" "$f" "$base $extra" >>"$jobs"
		i=$((i + 1))
	done
}
n=0
for f in "$here"/scenarios/*.lua; do
	case $(basename "$f") in
	bad_*) add "$f" "$(header_args "$f")" "" ;;
	*)
		add "$f" "$(header_args "$f")" "" "${more[n % ${#more[@]}]}"
		n=$((n + 1))
		;;
	esac
done
museum=("$root"/scripts/*.lua)
[ "${RUNAHEAD_TESTS_ONLY:-0}" = 1 ] && museum=()
for f in "${museum[@]}"; do
	is_scenario "$f" || continue
	add "$f" "" "" "${more[@]}" "${wide[@]}"
done
# The challenges: their own timing, and the solution that breaks them.
for f in "$root"/scripts/challenges/*.lua; do
	add "$f" "" "" "$(sed -n 's/^-- Solution: *//; s/ *(.*//p' "$f" | head -1)"
done

# run_one KEY FILE ARGS: both ways, into $tmp/KEY.{on,off}
run_one() {
	local key=$1 f=$2 args
	read -r -a args <<<"$3"
	"${guard[@]}" "$BIN" run "$f" "${args[@]}" --report json >"$tmp/$key.on" 2>&1 </dev/null
	echo "exit $?" >>"$tmp/$key.on"
	LOCKMUSEUM_NO_RUN_AHEAD=1 "${guard[@]}" "$BIN" run "$f" "${args[@]}" --report json \
		>"$tmp/$key.off" 2>&1 </dev/null
	echo "exit $?" >>"$tmp/$key.off"
}
export -f run_one runner_guard runner_bounded
export BIN tmp

# Two at a time: the runs are short and mostly start-up.
while IFS=$'\t' read -r key f args; do
	printf '%s\0%s\0%s\0' "$key" "$f" "$args"
done <"$jobs" | xargs -0 -n 3 -P 2 bash -c 'runner_guard 30; run_one "$@"' _

pass=0
fail=0
walled=0
while IFS=$'\t' read -r key f args; do
	name="${f#"$root"/} $args"
	if [ ! -s "$tmp/$key.on" ] || [ ! -s "$tmp/$key.off" ]; then
		fail=$((fail + 1))
		echo "FAIL $name: no output"
		continue
	fi
	# a run the wall-clock budget stopped stopped where the machine's
	# load put it, in each of the two at another point: not compared,
	# and said (as run_determinism.sh does)
	if grep -q 'wall-clock budget' "$tmp/$key.on" "$tmp/$key.off"; then
		walled=$((walled + 1))
		echo "not compared: $name: stopped by the wall-clock budget (a loaded machine)"
		continue
	fi
	if ! cmp -s "$tmp/$key.on" "$tmp/$key.off"; then
		fail=$((fail + 1))
		echo "FAIL $name: the run-ahead changed the run"
		diff "$tmp/$key.off" "$tmp/$key.on" | sed -n '1,8s/^/  /p'
		continue
	fi
	if [ -n "$against" ] && ! cmp -s "$against/$key" "$tmp/$key.on"; then
		fail=$((fail + 1))
		echo "FAIL $name: differs from $against/$key"
		diff "$against/$key" "$tmp/$key.on" | sed -n '1,8s/^/  /p'
		continue
	fi
	[ -n "$save" ] && cp "$tmp/$key.on" "$save/$key"
	pass=$((pass + 1))
done <"$jobs"
more_note=
[ "$walled" -gt 0 ] && more_note="; $walled not compared"
echo "run-ahead: $pass passed, $fail failed (each run with and without run-ahead)$more_note"
[ "$fail" -eq 0 ]
