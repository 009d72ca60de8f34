#!/usr/bin/env bash
# run_floors_check.sh [BUILD] - tests/check_floors.sh passes on the core
# as built, and fails -- naming the call -- when a call it must refuse is
# put back into the same symbols: the scheduler calling into lock_cli.c
# (which the global irq lock's hooks replaced), a cycle between two files
# of one floor, a file on no floor.  Each case is the real objects' `nm -A`
# listing with one line added, fed to the real check.
set -u
cd "$(dirname "$0")/.." || exit 2
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }

if tests/check_floors.sh "$build" >"$tmp/out" 2>&1; then ok; else bad "the core as built: $(cat "$tmp/out")"; fi
nm -A "$build"/engine/*.o >"$tmp/nm" || exit 2
grep -q ' T km_gil_irq_may_enter$' "$tmp/nm" || { echo "FAIL: lock_cli.o defines no km_gil_irq_may_enter" >&2; exit 1; }

# expect_fail NAME LINE PATTERN: the listing plus LINE fails, saying PATTERN
expect_fail() {
	{ cat "$tmp/nm"; printf '%s\n' "$2"; } >"$tmp/nm.$1"
	if KM_FLOORS_NM="$tmp/nm.$1" tests/check_floors.sh >"$tmp/out" 2>&1; then
		bad "$1: the check passed"
	elif grep -qF "$3" "$tmp/out"; then
		ok
	else
		bad "$1: expected '$3' in: $(cat "$tmp/out")"
	fi
}
expect_fail sched-calls-cli "$build/engine/sched.o:                 U km_gil_irq_may_enter" \
	"sched (sched) calls up into lock_cli (locks): km_gil_irq_may_enter"
expect_fail cycle-in-locks "$build/engine/lock.o:                 U km_raw_spin_take" \
	"cycle: "
expect_fail no-floor "$build/engine/stray.o:0000000000000000 T km_stray" \
	"engine/stray.c is on no floor"

echo "floors check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
