#!/usr/bin/env bash
# run_play.sh BIN - `lockmuseum play`, driven as a player at a terminal
# would: the answers come on stdin.  A challenge is solved by holding one
# task at the first question; the saved schedule replays to the same end;
# undo goes back; a scenario that is not there is a one-line error.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.
set -u

. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"
export LOCKMUSEUM_DATA=$root
cd "$tmp" || exit 2

runner_guard 60

pass=0
fail=0
ok() { pass=$((pass + 1)); }
no() {
	echo "FAIL $1"
	fail=$((fail + 1))
}

# play ANSWERS ARGS...: the answers (one a line) on stdin; exit in $rc
play() {
	local answers=$1
	shift
	printf '%b' "$answers" | "${guard[@]}" "$BIN" play "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

abba=$root/scripts/challenges/rename_abba.lua

# Letting every task go is real timing: the renames do not deadlock (exit
# 1: the lock validator still reports the inverted order).
play 'r\nq\n' "$abba"
if [ "$rc" = 1 ] && grep -q '^The run ended: completed' "$tmp/out" &&
   grep -q 'The goal was not reached' "$tmp/out"; then ok; else
	no "r: the default timing should complete without the goal (exit $rc)"; fi

# The first question names the task, its line and the one that may go first.
if grep -Eq '^\[0\] t=[0-9.]+ us  mv /a/x /b/x is about to run line [0-9]+: ' "$tmp/out" &&
   grep -q 'hold it: mv /b/y /a/y goes first' "$tmp/out"; then ok; else
	no "the first question does not show the task, its line and the other"; fi

# Holding the first rename for the second, then letting all go: deadlock,
# the goal; the saved schedule replays to exit 3 with the same trace.
play '1\nr\ns solved.schedule\nq\n' "$abba"
if [ "$rc" = 3 ] && grep -Eq '(^|> )GOAL REACHED \(a check failed: goal reached' "$tmp/out" &&
   grep -Eq '(^|> )saved solved.schedule: lockmuseum run ' "$tmp/out"; then ok; else
	no "1 then r: expected the goal, exit 3 and a saved schedule (exit $rc)"; fi
"$BIN" run "$abba" --schedule solved.schedule >"$tmp/r1" 2>/dev/null
r1=$?
"$BIN" run "$abba" --schedule solved.schedule >"$tmp/r2" 2>/dev/null
if [ "$r1" = 3 ] && [ "$(grep -o 'trace [0-9a-f]*' "$tmp/r1")" = "$(grep -o 'trace [0-9a-f]*' "$tmp/r2")" ]; then
	ok; else no "the saved schedule should replay to exit 3, one trace (exit $r1)"; fi

# Undo: after holding, u goes back to the first question, and r from
# there is the default run again.
play '1\nu\nr\nq\n' "$abba"
if [ "$rc" = 1 ] && [ "$(grep -c '^\[0\] ' "$tmp/out")" = 2 ] &&
   grep -q '^The run ended: completed' "$tmp/out"; then ok; else
	no "1, u, r: expected the first question twice and the default end (exit $rc)"; fi

# A number that is not offered is refused, and the question stays.
play '7\nq\n' "$abba"
if grep -Eq '(^|> )no option 7 here' "$tmp/out" && [ "$rc" = 0 ]; then ok; else
	no "7: should say there is no task 7 (exit $rc)"; fi

# End of input ends the game quietly.
play '' "$abba"
if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ]; then ok; else no "EOF: exit $rc, $(head -c 200 "$tmp/err")"; fi

# Bad input: one line, exit 2.
play 'q\n' "$tmp/none.lua"
if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ]; then ok; else
	no "a missing scenario: exit $rc, stderr $(head -c 200 "$tmp/err")"; fi

# A save onto a folder fails with a message and the game goes on.
mkdir -p adir
play '1\nr\ns adir\nq\n' "$abba"
if grep -Eq '(^|> )could not save: ' "$tmp/out" && [ "$rc" = 3 ]; then ok; else
	no "s onto a folder should say it could not save (exit $rc)"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
