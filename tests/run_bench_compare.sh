#!/usr/bin/env bash
# run_bench_compare.sh - `make bench-compare` works from a fresh clone:
# the committed tree is cloned, and the clone compares itself with its own
# HEAD in quick mode (BENCH_QUICK=1: small runs, 3 pairs).  What is
# checked is that the gate runs, not what it measures: every figure gets a
# ratio line, nothing fails, and a base that is not a commit is refused
# with one line and exit 2 before anything is built.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

git clone -q "$root" "$tmp/clone" || { echo "run_bench_compare: cannot clone"; echo "0 passed, 1 failed"; exit 1; }
cd "$tmp/clone" || exit 1

# a base that is not a commit: one line, exit 2, nothing built
tests/bench_compare.sh no-such-revision >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "'no-such-revision' is not a commit" "$tmp/err" &&
   [ ! -e build-bench-compare ]; then ok; else bad "a bad base: exit $rc, $(cat "$tmp/err")"; fi

# the gate itself, as the README says to run it; built without
# optimisation (BENCH_OPT reaches the base's build through MAKEFLAGS),
# which halves the build's time and does not change what is checked.  The
# base is the clone's own HEAD, which the clone has just built with the
# same flags: its copy starts from the clone's objects (BENCH_COMPARE_SEED)
# and its make compiles nothing, where it would compile every file again.
# The copy is still unpacked and made as for any base, and that each
# file compiles is what the clone's own build shows.
BENCH_QUICK=1 BENCH_COMPARE_DIR="$tmp/bases" BENCH_COMPARE_SEED="$tmp/clone/build-bench" \
	make --no-print-directory bench-compare BASE=HEAD BENCH_OPT="-O0 -DNDEBUG" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || { bad "make bench-compare exited $rc"; tail -20 "$tmp/out"; }
# the base's copy was made (its make ran) without compiling a file again
log=$(ls "$tmp"/bases/*.log 2>/dev/null | head -1)
if [ -n "$log" ] && grep -q 'building the benchmark drivers' "$log" && ! grep -qE -- ' -c -o build-bench/' "$log"; then
	ok
else
	bad "the base's build did not run, or compiled again what the clone had built: $(grep -cE -- ' -c -o ' "${log:-/dev/null}") compilations"
fi
n=$(grep -cE '^   (core|Lua|scale): .* [0-9]+\.[0-9]{3}x  \[[0-9.]+ \.\. [0-9.]+\]' "$tmp/out")
[ "$n" -eq 6 ] && ok || { bad "expected 6 figure lines with a ratio, got $n"; cat "$tmp/out"; }
grep -q 'failed' "$tmp/out" && bad "a run failed: $(grep failed "$tmp/out")" || ok
# the base's copy is kept for the next comparison: a second run builds nothing
BENCH_QUICK=1 BENCH_PAIRS=1 BENCH_COMPARE_DIR="$tmp/bases" tests/bench_compare.sh HEAD >"$tmp/out2" 2>&1
grep -q 'building' "$tmp/out2" && bad "the second comparison built the base again" || ok

echo "bench-compare: $pass passed, $fail failed"
[ $fail -eq 0 ]
