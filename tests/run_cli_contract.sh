#!/usr/bin/env bash
# run_cli_contract.sh BIN - what the command line promises about its
# output, whatever happens:
#   - lost output is never success: with stdout on /dev/full or closed,
#     every command that writes to it says so on stderr and exits 2;
#   - with --report json, stdout is one JSON object for every outcome
#     (option errors, check, explore, a failed --png or --trace), and its
#     "outcome" agrees with the exit status.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BIN" >&2; exit 2; }
. "$(dirname "$0")/lib_runner.sh"
runner_bin "$1"
runner_dirs
export LOCKMUSEUM_DATA=$root
guard=()
if command -v timeout >/dev/null 2>&1; then
	guard=(timeout -k 5 60)
fi
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL $1: $2"
	sed -n '1,3s/^/  stderr: /p' "$tmp/err"
}

scen=$root/tests/view/spin2.lua
failing=$tmp/failing.lua
cat >"$failing" <<'EOF'
scenario{ name = "failing_check", cpus = 1 }
task{ name = "t", run = function() compute(10) end }
check(function(r) return false, "never passes" end)
EOF

# ------------------------------------------------ lost output is an error --
#
# lost NAME ARGS...: ARGS with stdout on /dev/full, then closed: exit 2,
# and a message on stderr naming stdout.
lost() {
	local name=$1
	shift
	if [ -w /dev/full ]; then
		"${guard[@]}" "$BIN" "$@" >/dev/full 2>"$tmp/err" </dev/null
		rc=$?
		if [ "$rc" != 2 ]; then
			bad "$name > /dev/full" "exit status $rc, expected 2"
		elif ! grep -q 'stdout' "$tmp/err"; then
			bad "$name > /dev/full" "no message about stdout on stderr"
		else
			ok
		fi
	fi
	"${guard[@]}" "$BIN" "$@" >&- 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" != 2 ]; then
		bad "$name >&-" "exit status $rc, expected 2"
	elif ! grep -q 'stdout is closed' "$tmp/err"; then
		bad "$name >&-" "no message about stdout on stderr"
	else
		ok
	fi
}

lost "run (text)" run "$scen"
lost "run (lockstat)" run "$scen" --report lockstat
lost "run (json)" run "$scen" --report json
lost "run, a failed check (text)" run "$failing"
lost "check" check "$scen"
lost "list" list
lost "compare" compare "$scen" --cpus 1,2 --modes semaphore
lost "compare (csv)" compare "$scen" --cpus 1 --modes semaphore --report csv
lost "explore" explore "$scen" --seeds 1..2
lost "--help" --help
lost "--version" --version

# A closed stdout must not become the first file opened: the report would
# be written into the trace.
"${guard[@]}" "$BIN" run "$scen" --report json --trace "$tmp/t.json" >&- 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" != 2 ]; then
	bad "run --trace >&-" "exit status $rc, expected 2"
elif [ -e "$tmp/t.json" ] && grep -q '"trace_hash": ' "$tmp/t.json"; then
	bad "run --trace >&-" "the report went into the trace file"
else
	ok
fi

# Written output still succeeds: the guard does not turn success into failure.
"${guard[@]}" "$BIN" run "$scen" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" != 0 ] || [ ! -s "$tmp/out" ] || [ -s "$tmp/err" ]; then
	bad "run > file" "exit status $rc, stdout $(wc -c <"$tmp/out") bytes, stderr not empty?"
else
	ok
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
