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

# A saved schedule keeps the parameters the game was played with: with the
# second rename started at 5 us the renames deadlock with no hold, and the
# file replays that without --set.
play "r\ns $tmp/set.schedule\nq\n" "$abba" --set start2=5000
if [ "$rc" = 3 ] && grep -qx 'set start2=5000' "$tmp/set.schedule" &&
   "${guard[@]}" "$BIN" run "$abba" --schedule "$tmp/set.schedule" >"$tmp/r" 2>/dev/null;
   [ $? = 3 ]; then ok; else no "play --set: the saved schedule does not keep start2=5000"; fi

# Letting every task go is real timing: the renames do not deadlock (exit
# 1: the lock validator still reports the inverted order).
play 'r\nq\n' "$abba"
if [ "$rc" = 1 ] && grep -q '^The run ended: completed' "$tmp/out" &&
   grep -q 'The goal was not reached' "$tmp/out"; then ok; else
	no "r: the default timing should complete without the goal (exit $rc)"; fi

# The first question names the task, its line and the one that may go first.
if grep -Eq '^\[0\] t=[0-9.]+ us  mv /a/x /b/x starts with line [0-9]+: ' "$tmp/out" &&
   grep -q 'hold it: mv /b/y /a/y goes first' "$tmp/out"; then ok; else
	no "the first question does not show the task, its line and the other"; fi

# Holding the first rename for the second, then letting all go: deadlock,
# the goal; the saved schedule replays to exit 3 with the same trace.
play '1\nr\ns solved.schedule\nq\n' "$abba"
if [ "$rc" = 3 ] && grep -Eq '(^|> )GOAL REACHED, you win: ' "$tmp/out" &&
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

# s alone saves where --save says, else out/<scenario>.schedule (the
# folder made), as the window's W; the goal's message names the file.
mkdir -p "$tmp/cwd"
( cd "$tmp/cwd" && printf '1\nr\ns\nq\n' | "${guard[@]}" "$BIN" play "$abba" >"$tmp/out" 2>&1 )
if [ -s "$tmp/cwd/out/challenge_rename_abba.schedule" ] &&
   grep -q 'saves this schedule as out/challenge_rename_abba.schedule' "$tmp/out"; then ok; else
	no "s alone: no out/challenge_rename_abba.schedule"; fi
play '1\nr\ns\nq\n' "$abba" --save "$tmp/named.schedule"
if [ "$rc" = 3 ] && [ -s "$tmp/named.schedule" ] &&
   grep -Eq "(^|> )saved $tmp/named.schedule: " "$tmp/out"; then ok; else
	no "play --save S, then s: nothing saved at S (exit $rc)"; fi

# A save onto a folder fails with a message and the game goes on.
mkdir -p adir
play '1\nr\ns adir\nq\n' "$abba"
if grep -Eq '(^|> )could not save: ' "$tmp/out" && [ "$rc" = 3 ]; then ok; else
	no "s onto a folder should say it could not save (exit $rc)"; fi

# By hand, with interrupts: the challenges whose solutions let an
# interrupt come first (irq:N decisions) are played to their goal.  The
# moves come from the shipped solution schedule: before each decision the
# player presses Enter until the question at its choice point, then the
# number of the option that names what the decision lets go first (for
# irq:N, the "irq NAME" row).  Every answer is found by playing again
# with the answers so far, as a player reads the screen before answering.
# The saved schedule must say what the explorer's says, and replay to the
# challenge's goal with the trace of the shipped solution.
last_question() {	# the index of the last question in $tmp/out, or -1
	local q
	q=$(grep -E '^\[[0-9]+\] ' "$tmp/out" | tail -n 1 | sed -E 's/^\[([0-9]+)\].*/\1/')
	echo "${q:--1}"
}
by_hand() {
	local name=$1 want=$2
	local f=$root/scripts/challenges/$name.lua sol=$root/scripts/challenges/solutions/$name.schedule
	local answers='' point who q k steps=0 irqs=0
	while read -r point who; do
		while :; do
			steps=$((steps + 1))
			[ "$steps" -le 200 ] || { no "$name: no question at choice point $point"; return; }
			play "${answers}q\n" "$f"
			q=$(last_question)
			if [ "$q" -lt "$point" ] && [ "$q" -ge 0 ]; then
				answers="${answers}\n"
				continue
			fi
			[ "$q" = "$point" ] || { no "$name: the game skipped choice point $point (at $q)"; return; }
			k=$(awk -v q="[$point]" -v who="hold it: $who " '
				index($0, q " ") == 1 { on = 1; next }
				on && index($0, who) { print $1; exit }' "$tmp/out")
			[ -n "$k" ] || { no "$name: '$who' is no option at choice point $point"; return; }
			case $who in irq\ *) irqs=$((irqs + 1)) ;; esac
			answers="${answers}${k}\n"
			break
		done
	done < <(awk '/^decisions /{ d = 1; next } d && !/^#/' "$sol" |
		 sed -E 's/^([0-9]+) [0-9]+ [^ ]+ -- .* lets (.*) go first.*/\1 \2/')
	[ "$irqs" -gt 0 ] || { no "$name: the solution lets no interrupt come first"; return; }
	play "${answers}r\ns $name.schedule\nq\n" "$f"
	if [ "$rc" = "$want" ] && grep -Eq '(^|> )GOAL REACHED, you win: ' "$tmp/out" &&
	   grep -Eq "(^|> )saved $name.schedule: " "$tmp/out"; then ok; else
		no "$name by hand: expected the goal, exit $want and a save (exit $rc)"; return; fi
	# the decisions, comments included, are the explorer's
	if diff <(sed '1,/^decisions /d' "$sol") <(sed '1,/^decisions /d' "$name.schedule") >/dev/null &&
	   grep -q '^strategy play$' "$name.schedule"; then ok; else
		no "$name: the saved decisions differ from the solution's:
$(diff <(sed '1,/^decisions /d' "$sol") <(sed '1,/^decisions /d' "$name.schedule"))"; fi
	local h1 h2 r1
	"$BIN" run "$f" --schedule "$name.schedule" >"$tmp/r1" 2>/dev/null
	r1=$?
	"$BIN" run "$f" --schedule "$sol" >"$tmp/r2" 2>/dev/null
	h1=$(grep -o 'trace [0-9a-f]*' "$tmp/r1")
	h2=$(grep -o 'trace [0-9a-f]*' "$tmp/r2")
	if [ "$r1" = "$want" ] && grep -q '^  FAIL goal reached' "$tmp/r1" && [ -n "$h1" ] &&
	   [ "$h1" = "$h2" ]; then ok; else
		no "$name: the played schedule replays to exit $r1 ($h1), the solution's to $h2"; fi
}
by_hand cli_smp 1
by_hand console_mutex 1
by_hand sleep_on 3

# The interrupt's option says it is one, on which CPU, and its handler's
# first line that runs (line 53, the body's first statement; it once
# showed line 52, the irq{ declaration); a number past the options is
# refused with the range.
play '\n\n\nq\n' "$root/scripts/challenges/cli_smp.lua"
if grep -Eq '^   1      hold it: irq eth0 -> cpu1 goes first, due at [0-9.]+ us \(handler starts with line 53: if served then return end\)' "$tmp/out"; then
	ok; else no "cli_smp: the interrupt's option does not say what it is: $(grep -m1 'irq' "$tmp/out")"; fi
# A choice point comes before the task's code runs on: the question says
# which operation it has run (line 43, the compute), not that it will
# run that line again; before its first step, its body's first line
# that runs (41, not the task{ of line 40).
if grep -Eq '^\[3\] t=[0-9.]+ us  netif_rx has run line 43: compute' "$tmp/out" &&
   grep -Eq '^\[0\] t=[0-9.]+ us  netif_rx starts with line 41: ' "$tmp/out"; then
	ok; else no "cli_smp: the question misplaces the task: $(grep -m1 '^\[3\]' "$tmp/out")"; fi
# Undo across an interrupt's answer: back to its question, and from there
# Enter then r is the default run (no goal, exit 0); the interrupt again
# reaches the goal, and the schedule saved holds only that decision.
play '\n\n\n1\nu\n\nr\nq\n' "$root/scripts/challenges/cli_smp.lua"
if [ "$rc" = 0 ] && [ "$(grep -c '^\[3\] ' "$tmp/out")" = 2 ] &&
   grep -q 'The goal was not reached' "$tmp/out"; then ok; else
	no "cli_smp 1, u, Enter, r: expected question 3 twice and no goal (exit $rc)"; fi
play '\n\n\n1\nu\n1\nr\ns undone.schedule\nq\n' "$root/scripts/challenges/cli_smp.lua"
if [ "$rc" = 1 ] && [ "$(sed '1,/^decisions /d' undone.schedule)" = \
	"$(sed '1,/^decisions /d' "$root/scripts/challenges/solutions/cli_smp.schedule")" ]; then ok; else
	no "cli_smp 1, u, 1, r: expected the goal and the solution's one decision (exit $rc)"; fi
play '\n\n\n12\nq\n' "$root/scripts/challenges/cli_smp.lua"
if grep -Eq '(^|> )no option 12 here: Enter, or 1 to 1' "$tmp/out"; then ok; else
	no "12 at a question of two options: not refused"; fi


# Answers are whole lines (issue 28): a line longer than the old 1,100-byte
# buffer had its tail taken as the next answer ("r" here ran the game to
# its end, so the "1" after it held nothing).  Now it is one bad answer,
# then 1 holds and r reaches the goal.
long=$(printf 'x%.0s' $(seq 1099))
play "${long}r\n1\nr\nq\n" "$abba"
if [ "$rc" = 3 ]; then ok; else no "a 1,100-byte line then 1, r: expected the goal, exit 3 (exit $rc)"; fi
# past what any answer can be (s and a PATH_MAX name): said, and ignored
play "$(printf 's%.0s' $(seq 5000))q\nq\n" "$abba"
if grep -Eq '(^|> )that line is 5001 bytes long, more than an answer can be' "$tmp/out" &&
   [ "$rc" = 0 ]; then ok; else no "a 5,001-byte line: not said (exit $rc)"; fi
# s onto the scenario itself: refused, the game goes on, the file stays
cp "$abba" "$tmp/mine.lua"
cp "$abba" "$tmp/mine.orig"
play "s $tmp/mine.lua\n1\nr\ns ./mine.lua\nq\n" "$tmp/mine.lua"
if [ "$(grep -c 'could not save: is the scenario, an input of this command' "$tmp/out")" = 2 ] &&
   cmp -s "$tmp/mine.lua" "$tmp/mine.orig" && [ "$rc" = 3 ]; then ok; else
	no "s SCENARIO: not refused, or the scenario changed (exit $rc)"; fi
# A question offers 64 tasks; the others are said, not silently dropped.
cat >"$tmp/many.lua" <<'EOF'
scenario{ name = "many", cpus = 2 }
local l = lock{ name = "l" }
for i = 1, 70 do
	task{ name = "t" .. i, cpu = i % 2, run = function() down(l); compute(us(1)); up(l) end }
end
EOF
play 'q\n' "$tmp/many.lua"
if grep -q '(and 5 more tasks, 0 more interrupts, that could go first: play offers the first 64' "$tmp/out" &&
   [ "$(grep -c 'hold it' "$tmp/out")" = 64 ]; then ok; else
	no "a question of 69 tasks: the 5 not offered are not said"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
