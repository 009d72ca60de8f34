#!/usr/bin/env bash
# run_challenges.sh BIN - every challenge of scripts/challenges/ is
# unsolved by its own timing and solved by its solution.
#
# A challenge is a scenario with a goal (docs/challenges.md): a check
# whose message starts with "goal" and that FAILS when the goal is
# reached.  Each one states its solution in its header, on one line:
#
#   -- Solution:  --set NAME=VALUE ...  (an optional remark)
#
# For every challenge this runs the scenario twice:
#   default   the goal check passes ("ok   goal not reached"), the run
#             reaches the exit status and outcome of the table below;
#   solution  the header's --set options: the goal check fails ("FAIL
#             goal reached"), with the exit status, outcome and violation
#             of the table below.
# Then the lessons each challenge claims: the solution timing on the
# box's own kernel, or with the fix, does not reach the goal.  Every
# challenge must have its placard, and be in docs/challenges.md.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.

set -u
. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"

runner_guard 30

pass=0
fail=0
bad() {
	echo "FAIL $1: $2"
	fail=$((fail + 1))
}

# run NAME EXPECT_EXIT ARGS... : run, keep the report in $tmp/out
run() {
	local name=$1 want=$2
	shift 2
	"${guard[@]}" "$BIN" run "$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" != "$want" ]; then
		bad "$name" "exit status $got, expected $want ($(head -c 300 "$tmp/err"))"
		return 1
	fi
	return 0
}

# has NAME REGEX : the last report matches
has() {
	if ! grep -Eq -e "$2" "$tmp/out"; then
		bad "$1" "the report does not match /$2/"
		return 1
	fi
	return 0
}

# challenge FILE DEFAULT_EXIT DEFAULT_RE SOLVED_EXIT SOLVED_RE
challenge() {
	local f=$root/scripts/challenges/$1.lua name=$1
	local sol
	if [ ! -f "$f" ]; then
		bad "$name" "no $f"
		return
	fi
	sol=$(grep -m1 '^-- Solution:' "$f" | sed 's/^-- Solution: *//; s/ *(.*//')
	if [ -z "$sol" ]; then
		bad "$name" "no '-- Solution:' line in its header"
		return
	fi
	# shellcheck disable=SC2086  # the solution is a list of options
	if run "$name (default)" "$2" "$f" &&
	   has "$name (default)" '^  ok   goal not reached' &&
	   has "$name (default)" "$3"; then
		pass=$((pass + 1))
	fi
	# shellcheck disable=SC2086
	if run "$name ($sol)" "$4" "$f" $sol &&
	   has "$name ($sol)" '^  FAIL goal reached' &&
	   has "$name ($sol)" "$5"; then
		pass=$((pass + 1))
	fi
	if [ -f "$root/docs/challenges/$name.md" ] &&
	   grep -q "challenges/$name.lua" "$root/docs/challenges.md"; then
		pass=$((pass + 1))
	else
		bad "$name" "no placard docs/challenges/$name.md, or not in docs/challenges.md"
	fi
}

# lesson NAME EXPECT_EXIT REGEX ARGS... : a run that must NOT reach the goal
lesson() {
	local name=$1 want=$2 re=$3
	shift 3
	if run "$name" "$want" "$@" &&
	   has "$name" '^  ok   goal not reached' &&
	   has "$name" "$re"; then
		pass=$((pass + 1))
	fi
}

ch=$root/scripts/challenges

#         file          default: exit, report        solution: exit, report
challenge cli_smp       0 'rx_packets = 2'           1 'lost-update +1$'
challenge rename_abba   1 'outcome: completed'       3 'outcome: deadlock'
challenge spin_sleep    0 'outcome: completed'       1 'sleep-in-atomic +1$'
challenge console_mutex 0 'outcome: completed'       1 'mutex-unlock-in-irq +1$'
challenge sleep_on      0 'bread got its block'      3 'outcome: deadlock'
challenge kmod_timeout  0 'all 5 requests got a slot' 1 'failed with -ETIME'

# What each challenge teaches, with its solution's timing.
lesson "cli_smp: 2.0's global cli() keeps the handler out" 0 'rx_packets = 2' \
	"$ch/cli_smp.lua" --set irq_at=12000 --era 1996
lesson "rename_abba: s_vfs_rename_sem and one order" 0 'outcome: completed' \
	"$ch/rename_abba.lua" --set start2=5000 --set fixed=true
lesson "spin_sleep: GFP_ATOMIC fails instead of sleeping" 0 '1 allocation\(s\) failed' \
	"$ch/spin_sleep.lua" --set hog_at=5000 --set gfp=atomic
lesson "console_mutex: a semaphore may be released by an interrupt" 0 'release\(s\) by the interrupt' \
	"$ch/console_mutex.lua" --set irq_at=30000 --set converted=false
lesson "sleep_on: wait_event() cannot lose the wake-up" 0 'outcome: completed' \
	"$ch/sleep_on.lua" --set irq_at=9800 --set fixed=true

# The solutions the explorer found, as schedule files: each replays to
# the goal (twice, one trace hash), and the explorer still finds one.
# cli_smp, console_mutex and sleep_on hold their task until the
# interrupt's handler has run (an interrupt is a choice); kmod_timeout
# holds two tasks for seconds: a hold lasts as long as it takes.
solution() {
	local name=$1 want=$2 re=$3 goal=$4
	shift 4
	local f=$ch/$name.lua sch=$ch/solutions/$name.schedule h1 h2
	if run "$name --schedule" "$want" "$f" --schedule "$sch" &&
	   has "$name --schedule" '^  FAIL goal reached' && has "$name --schedule" "$re"; then
		h1=$(grep -o 'trace [0-9a-f]*' "$tmp/out")
		run "$name --schedule, again" "$want" "$f" --schedule "$sch"
		h2=$(grep -o 'trace [0-9a-f]*' "$tmp/out")
		if [ -n "$h1" ] && [ "$h1" = "$h2" ]; then
			pass=$((pass + 1))
		else
			bad "$name --schedule" "two replays, two traces ('$h1', '$h2')"
		fi
	fi
	if "${guard[@]}" "$BIN" explore "$f" --strategy exhaustive:2 --goal "$goal" "$@" \
		--out "$tmp/found.schedule" >"$tmp/out" 2>"$tmp/err"; then
		pass=$((pass + 1))
	else
		bad "$name: explore --strategy exhaustive:2 --goal $goal $*" "found nothing: $(tail -c 300 "$tmp/out")"
	fi
}
solution rename_abba   3 'outcome: deadlock'           deadlock
solution spin_sleep    1 'sleep-in-atomic +1$'         violation
solution cli_smp       1 'lost-update +1$'             check
solution console_mutex 1 'mutex-unlock-in-irq +1$'     check
solution sleep_on      3 'outcome: deadlock'           deadlock
solution kmod_timeout  1 'failed with -ETIME'          check

# With default options (holds as long as they take), exhaustive:1 and
# pct:2 find every challenge too (issue 32) -- but kmod_timeout, which
# takes two holds: exhaustive:1 covers its space without it.
for c in "rename_abba deadlock" "spin_sleep violation" "cli_smp check" "console_mutex check" \
	 "sleep_on deadlock" "kmod_timeout check"; do
	set -- $c
	for s in exhaustive:1 pct:2; do
		want=0
		[ "$1 $s" = "kmod_timeout exhaustive:1" ] && want=1
		"${guard[@]}" "$BIN" explore "$ch/$1.lua" --strategy $s --goal $2 \
			--out "$tmp/found.schedule" >"$tmp/out" 2>"$tmp/err"
		got=$?
		if [ "$got" != "$want" ]; then
			bad "$1: explore --strategy $s --goal $2" "exit $got, expected $want: $(tail -c 300 "$tmp/out")"
		elif [ "$want" = 1 ] && ! grep -q '^covered: yes' "$tmp/out"; then
			bad "$1: explore --strategy $s --goal $2" "did not cover its space: $(tail -c 300 "$tmp/out")"
		else
			pass=$((pass + 1))
		fi
	done
done

# With a 1 ms bound on holds, the explorer cannot keep a task waiting the
# seconds kmod_timeout needs: it finds nothing, and must not claim it
# covered its space -- it says how many holds the bound cut.
if "${guard[@]}" "$BIN" explore "$ch/kmod_timeout.lua" --strategy exhaustive:2 --goal check \
	--hold-max 1ms >"$tmp/out" 2>"$tmp/err"; then
	bad "kmod_timeout --hold-max 1ms" "found a schedule with 1 ms holds"
elif grep -Eq '^covered: no -- [0-9]+ holds? cut at 1\.00 ms by --hold-max' "$tmp/out" &&
     ! grep -q '^covered: yes' "$tmp/out"; then
	pass=$((pass + 1))
else
	bad "kmod_timeout --hold-max 1ms" "does not say the bound cut holds: $(tail -c 300 "$tmp/out")"
fi

# A timing no interrupt can have is refused with the file and line.
for n in cli_smp console_mutex sleep_on; do
	if run "$n: irq_at=50 is refused" 2 "$ch/$n.lua" --set irq_at=50; then
		if grep -Eq "^lockmuseum: .*challenges/$n\.lua:[0-9]+: irq_at must be at least 100" "$tmp/err" &&
		   [ "$(wc -l <"$tmp/err")" = 1 ]; then
			pass=$((pass + 1))
		else
			bad "$n: irq_at=50 is refused" "stderr is not one file:line message: $(head -c 200 "$tmp/err")"
		fi
	fi
done

# Every file of the folder is a challenge of the table above.
for f in "$ch"/*.lua; do
	n=$(basename "$f" .lua)
	if ! grep -q "^challenge $n " "$0"; then
		bad "$n" "scripts/challenges/$n.lua is not tested here"
	fi
done

echo "challenges: $pass passed, $fail failed"
[ "$fail" = 0 ]
