#!/usr/bin/env bash
# run_hostile.sh BIN - run every hostile scenario: files written to break,
# hang, exhaust or escape the simulator.  Each must end, within seconds,
# with the exit status and the one-line message its header expects.
#
# tests/hostile/*.lua carry their expectations in their first comment
# lines, as tests/scenarios/*.lua do:
#   -- expect-exit: 2                        the exit status (default 0)
#   -- args: --max-instructions 1000000      extra arguments to the command
#   -- expect-stderr: budget                 an extended regex stderr must match
#   -- expect-stdout: "outcome": "time-limit"  an extended regex stdout must match
#   -- command: compare                      the command (default run)
#   -- max-seconds: 9                        fail if the run uses more CPU
#                                            time (user + system)
# (expect-stderr and expect-stdout may be repeated: every one must match).
# When the expected exit status is 2, stderr must be exactly one line: the
# message naming the file and line (or the option) and the budget or rule.
#
# Every run is guarded twice (runner_guard, tests/lib_runner.sh, which the
# other runners share), and either guard ending it counts as a failure (a
# hang): 20 s of CPU time (ulimit -t: SIGKILL), what a run spinning where
# the sandbox's hook cannot reach uses up; and `timeout`, 200 s of
# wall-clock time (SIGTERM, then SIGKILL 5 s later), for a run blocked
# without using the CPU.  CPU time, not wall time, is the bound on work,
# max-seconds included: a loaded machine (make test's suites side by
# side, under ASan) stretches a run's wall time, not its CPU time.
#
# tests/hostile/pending/ holds reproducers of engine bugs not fixed yet
# (hangs, crashes, messages without a position); they are skipped
# (`run_hostile.sh BIN --pending` runs only them, to see which are fixed).
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.

set -u

if [ $# -lt 1 ] || [ $# -gt 2 ] || { [ $# -eq 2 ] && [ "$2" != --pending ]; }; then
	echo "usage: $0 BIN [--pending]" >&2
	exit 2
fi
. "$(dirname "$0")/lib_runner.sh"
runner_bin "$1"
pending=false
[ $# -eq 2 ] && pending=true
if ! command -v timeout >/dev/null 2>&1; then
	echo "$0: timeout(1) is needed: a hostile scenario may hang" >&2
	exit 2
fi

runner_dirs

limit=${HOSTILE_TIMEOUT:-20}
wall=$((limit * 10))
runner_guard "$limit" -k 5
have_python=false
if command -v python3 >/dev/null 2>&1; then
	have_python=true
fi

pass=0
fail=0

. "$here/lib_expect.sh"

ok() {
	pass=$((pass + 1))
}

bad() {
	fail=$((fail + 1))
	echo "FAIL $1: $2"
	if [ -s "$tmp/err" ]; then
		sed -n '1,5s/^/  stderr: /p' "$tmp/err" | cut -c1-300
	fi
}


dir=$here/hostile
$pending && dir=$here/hostile/pending
for f in "$dir"/*.lua; do
	[ -e "$f" ] || continue
	name=${f#"$root"/}
	expect_exit=0
	command=run
	max_seconds=
	args=()
	stderr_res=()
	stdout_res=()
	# the header: the comment lines at the top of the file, read here
	# (not by a sed in a subshell, two processes a file)
	while IFS= read -r line; do
		case $line in
		--*) ;;
		*) break ;;
		esac
		case $line in
		"-- expect-exit:"*)
			expect_exit=${line#"-- expect-exit:"}
			expect_exit=${expect_exit// /}
			;;
		"-- command:"*)
			command=${line#"-- command:"}
			command=${command// /}
			;;
		"-- max-seconds:"*)
			max_seconds=${line#"-- max-seconds:"}
			max_seconds=${max_seconds// /}
			;;
		"-- args:"*)
			read -r -a more <<<"${line#"-- args:"}"
			args+=("${more[@]}")
			;;
		"-- expect-stderr:"*)
			re=${line#"-- expect-stderr:"}
			stderr_res+=("${re# }")
			;;
		"-- expect-stdout:"*)
			re=${line#"-- expect-stdout:"}
			stdout_res+=("${re# }")
			;;
		esac
	done <"$f"

	[ -n "$max_seconds" ] && runner_cpu cpu_before
	"${guard[@]}" "$BIN" "$command" "$f" "${args[@]}" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ -n "$max_seconds" ]; then
		runner_cpu cpu_after
		took=$(awk -v a="$cpu_before" -v b="$cpu_after" 'BEGIN { printf "%.1f", b - a }')
	fi
	if [ "$rc" = 124 ] || [ "$rc" = 137 ] || [ "$rc" = 152 ]; then
		bad "$name" "used ${limit} s of CPU time or ran ${wall} s (exit status $rc): a hang"
		continue
	fi
	if [ "$rc" -gt 128 ]; then
		bad "$name" "killed by signal $((rc - 128)) (exit status $rc): a crash"
		continue
	fi
	if [ "$rc" != "$expect_exit" ]; then
		bad "$name" "exit status $rc, expected $expect_exit"
		continue
	fi
	if [ -n "$max_seconds" ] && awk -v t="$took" -v m="$max_seconds" 'BEGIN { exit !(t > m) }'; then
		bad "$name" "took $took s of CPU time, more than $max_seconds s"
		continue
	fi
	if [ "$expect_exit" = 2 ]; then
		lines=$(wc -l <"$tmp/err")
		if [ "$lines" != 1 ]; then
			bad "$name" "stderr has $lines lines, expected one"
			continue
		fi
	fi
	check_outputs "$name" || continue
	ok
done

# docs/hardening.md gives the number of hostile scenarios in its summary:
# it must be the number there are.
if ! $pending; then
	have=$(find "$here/hostile" -maxdepth 1 -name '*.lua' | wc -l)
	said=$(sed -n 's/^| hostile scenarios (\([0-9][0-9]*\)[;)].*/\1/p' "$root/docs/hardening.md")
	if [ "$said" = "$have" ]; then
		ok
	else
		fail=$((fail + 1))
		echo "FAIL docs/hardening.md: its summary says ${said:-no number of} hostile" \
			"scenarios; tests/hostile/ has $have (correct the number there)"
	fi
fi

skipped=$(find "$here/hostile/pending" -name '*.lua' 2>/dev/null | wc -l)
if ! $pending && [ "$skipped" -gt 0 ]; then
	echo "($skipped pending test(s) of known engine bugs skipped: tests/hostile/pending/)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
