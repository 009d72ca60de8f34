#!/usr/bin/env bash
# run_scenarios.sh BIN - run every scenario test and every museum script.
#
# tests/scenarios/*.lua carry their expectations in their first comment
# lines:
#   -- expect-exit: 1                       the exit status (default 0)
#   -- args: --era 2003 --cpus 2 --mode cli  extra arguments to `run`
#   -- expect-stderr: lost update           an extended regex stderr must match
#   -- expect-stdout: "outcome": "deadlock"  an extended regex stdout must match
# (expect-stderr and expect-stdout may be repeated: every one must match).
# tests/scenarios/pending/ holds tests of known engine bugs; they are skipped
# (`run_scenarios.sh BIN --pending` runs only them, to see which are fixed).
#
# scripts/*.lua that declare a scenario{} are run with no arguments but
# `--report json`: they must exit 0, and their output must be one JSON
# document whose checks all passed (checked with python3 when installed).
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

runner_dirs

# A wall-clock guard per run, if timeout(1) exists.
runner_guard 30
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
		sed -n '1,5s/^/  stderr: /p' "$tmp/err"
	fi
}

# A scenario declares itself with scenario{ ... } at the top level.
is_scenario() {
	grep -Eq '^[[:space:]]*scenario[[:space:]]*[{(]' "$1"
}


scenario_dir=$here/scenarios
$pending && scenario_dir=$here/scenarios/pending
for f in "$scenario_dir"/*.lua; do
	[ -e "$f" ] || continue
	name=${f#"$root"/}
	expect_exit=0
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

	"${guard[@]}" "$BIN" run "$f" "${args[@]}" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" != "$expect_exit" ]; then
		bad "$name" "exit status $rc, expected $expect_exit"
		continue
	fi
	check_outputs "$name" || continue
	ok
done

script_dir=$root/scripts
$pending && script_dir=/nonexistent
for f in "$script_dir"/*.lua; do
	[ -e "$f" ] || continue
	name=${f#"$root"/}
	# Not every script is a scenario (the tour's route is a list of exhibits).
	is_scenario "$f" || continue
	"${guard[@]}" "$BIN" run "$f" --report json >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" != 0 ]; then
		bad "$name" "exit status $rc, expected 0"
		continue
	fi
	if $have_python; then
		if ! python3 -c '
import json, sys
r = json.load(sys.stdin)
assert isinstance(r, dict) and r["outcome"] in ("completed", "time-limit")
assert all(c["ok"] for c in r["checks"])
' <"$tmp/out" 2>"$tmp/err"; then
			bad "$name" "the JSON report does not parse, or shows a failed check"
			continue
		fi
	fi
	ok
done

skipped=$(find "$here/scenarios/pending" -name '*.lua' 2>/dev/null | wc -l)
if ! $pending && [ "$skipped" -gt 0 ]; then
	echo "($skipped pending test(s) of known engine bugs skipped: tests/scenarios/pending/)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
