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
runner_guard 60 -k 5
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
		elif [ "$(wc -l <"$tmp/err")" != 1 ]; then
			bad "$name > /dev/full" "$(wc -l <"$tmp/err") lines on stderr, expected one"
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
	elif [ "$(wc -l <"$tmp/err")" != 1 ]; then
		bad "$name >&-" "$(wc -l <"$tmp/err") lines on stderr, expected one"
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
lost "compare --print-jobs" compare "$scen" --cpus 1,2 --modes semaphore --print-jobs
lost "compare --slurm-array" compare "$scen" --cpus 1,2 --modes semaphore --slurm-array
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

# ------------------------------------------------------ the JSON contract --
#
# js NAME RC OUTCOME ARGS...: with ARGS, the exit status is RC and stdout
# is exactly one JSON object whose "outcome" is OUTCOME.
js() {
	local name=$1 want=$2 outcome=$3
	shift 3
	"${guard[@]}" "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" != "$want" ]; then
		bad "$name" "exit status $rc, expected $want"
		return
	fi
	if ! command -v python3 >/dev/null 2>&1; then
		ok
		return
	fi
	got=$(python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("not one JSON document: %s" % e); sys.exit()
print(d.get("outcome") if isinstance(d, dict) else "not an object")' "$tmp/out")
	if [ "$got" != "$outcome" ]; then
		bad "$name" "stdout: $got, expected one JSON object with outcome $outcome"
	else
		ok
	fi
}
S=$scen
js "option error: --cpus 0" 2 error run "$S" --report json --cpus 0
js "option error: --seed 2^64" 2 error run "$S" --report json --seed 18446744073709551616
js "option error: --set =a" 2 error run "$S" --report json --set =a
js "option error: unknown option" 2 error run "$S" --report=json --no-such-option
js "option error: --report abbreviated" 2 error run "$S" --rep json --cpus x
js "option error: no scenario" 2 error run --report json
js "option error: two scenarios" 2 error run "$S" "$S" --report json
js "option error: option of another command" 2 error run "$S" --report json --modes mutex
js "compare: option error" 2 error compare "$S" --report json --modes nope
js "explore: option error" 2 error explore "$S" --report json --goal nope
js "run: a scenario error" 2 error run "$root/tests/hostile/names_empty.lua" --report json
js "run: completed" 0 completed run "$S" --report json
js "run: a failed check" 1 completed run "$failing" --report json
js "check" 0 completed check "$S" --report json
js "check: a bad scenario" 2 error check "$root/tests/hostile/names_empty.lua" --report json
js "explore: found" 0 completed explore "$root/tests/explore/flaky_abba.lua" --report json \
	--seeds 1..200
js "explore: not found" 1 completed explore "$S" --report json --seeds 1..2
js "compare" 0 completed compare "$S" --report json --cpus 2,4 --modes semaphore
js "run: --png fails" 2 error run "$S" --report json --png "$tmp/no/such/dir/x.png"
js "run: --trace fails" 2 error run "$S" --report json --trace "$tmp/no/such/dir/x.json"
js "compare: --plot fails" 2 error compare "$S" --report json --cpus 1 --modes mutex \
	--plot "$tmp/no/such/dir/p.png"

# Numbers parse strictly: no blanks, no sign, no "inf" (' -1' was 2^64-1).
strict() {
	local name=$1
	shift
	"${guard[@]}" "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" != 2 ] || [ "$(wc -l <"$tmp/err")" != 1 ]; then
		bad "strict numbers: $name" "exit status $rc (expected 2 and one line on stderr)"
	else
		ok
	fi
}
strict "--seed ' -1'" run "$S" --seed " -1"
strict "--seed ' 5'" run "$S" --seed " 5"
strict "--seed +5" run "$S" --seed +5
strict "--cpus ' 2'" run "$S" --cpus " 2"
strict "--max-instructions ' 5000'" run "$S" --max-instructions " 5000"
strict "--max-memory ' 1M'" run "$S" --max-memory " 1M"
strict "--max-wall ' 5'" run "$S" --max-wall " 5"
strict "--max-wall 0x10" run "$S" --max-wall 0x10
strict "--duration ' 5ms'" run "$S" --duration " 5ms"
strict "--duration +5ms" run "$S" --duration +5ms
strict "--size ' 640x480'" run "$S" --png "$tmp/s.png" --size " 640x480"
strict "--size '640x -480'" run "$S" --png "$tmp/s.png" --size "640x -480"
strict "--seeds ' 1..2'" explore "$S" --seeds " 1..2"
strict "--trace-limit ' 10'" run "$S" --trace "$tmp/t2.json" --trace-limit " 10"
strict "list --max-wall ' 5'" list --max-wall " 5"
strict "list --max-wall 0" list --max-wall 0
strict "list --max-wall 1e999" list --max-wall 1e999
strict "list --max-wall nan" list --max-wall nan

# ------------------------------------------------------- no phase hangs --
#
# One SIGTERM ends any phase within a second, even one library call that
# never comes back to Lua (a backtracking pattern), which used to ignore
# it; and era files, `list` and the tour's route run under the watchdog.
backtrack='string.find(("a"):rep(40), ("a*"):rep(40) .. "b")'
printf 'scenario{ name = "bt" }\n%s\n' "$backtrack" >"$tmp/bt.lua"
# busy PID: wait until PID has used 0.3 s of CPU time (utime + stime,
# /proc/PID/stat), or 1 s of wall time where there is no /proc.  Every
# command below reaches its pattern match in some 0.1 s of CPU time under
# ASan (20 ms at -O2), so it is then inside the match; waiting on the CPU
# time, not the clock, holds on a loaded machine too, and the case's
# process spins 0.3 s before the signal, not 1 s.
tick=$(getconf CLK_TCK 2>/dev/null || echo 100)
busy() {
	local pid=$1 line f
	if [ ! -r "/proc/$pid/stat" ]; then
		sleep 1
		return
	fi
	for _ in $(seq 1 400); do
		read -r line <"/proc/$pid/stat" 2>/dev/null || return
		# the fields after "PID (COMM) ": utime is the 12th, stime the 13th
		read -r -a f <<<"${line##*) }"
		[ $(((f[11] + f[12]) * 10)) -ge $((tick * 3)) ] && return
		sleep 0.05
	done
}
# term NAME SECONDS CMD...: CMD in the background, one SIGTERM once it is
# busy (inside its pattern match), then exit 130 within SECONDS more.
term() {
	local name=$1 limit=$2 start took rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null &
	local pid=$!
	busy "$pid"
	kill -TERM "$pid"
	start=$(date +%s.%N)
	for _ in $(seq 1 $((limit * 10 + 30))); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	if [ "$rc" != 130 ]; then
		bad "$name: one SIGTERM" "exit status $rc, expected 130"
	elif awk -v t="$took" -v m="$limit" 'BEGIN { exit !(t > m) }'; then
		bad "$name: one SIGTERM" "took $took s to end, more than $limit s"
	else
		ok
	fi
}
term "run, inside one pattern match" 2 "$BIN" run "$tmp/bt.lua"
term "run --report json, inside one pattern match" 2 "$BIN" run "$tmp/bt.lua" --report json
if command -v python3 >/dev/null 2>&1 &&
	! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>/dev/null; then
	bad "run --report json, SIGTERM" "stdout is not one JSON object"
fi

# A data folder whose one era file backtracks for hours.
mkdir -p "$tmp/data/eras" "$tmp/data/scripts"
cp "$root"/eras/*.lua "$tmp/data/eras/"
cp -r "$root/eras/machines" "$tmp/data/eras/"
cp -r "$root/docs" "$tmp/data/docs" 2>/dev/null
printf '%s\nera{ id = "x" }\n' "$backtrack" >"$tmp/data/eras/zz_backtrack.lua"
term "list, inside an era file" 2 env LOCKMUSEUM_DATA="$tmp/data" "$BIN" list
# The watchdog ends it, naming the budget: list's 10 s by default, here
# --max-wall's 1 s (the watchdog's grace, 3 s, added), so that the case
# waits 4 s, not 13.  The file comes first of the folder, so that the
# others' loading cannot use up the second; the message must be the
# watchdog's (one library call), not the budget's hook between
# instructions.
mv "$tmp/data/eras/zz_backtrack.lua" "$tmp/data/eras/00_backtrack.lua"
start=$(date +%s)
LOCKMUSEUM_DATA="$tmp/data" "${guard[@]}" "$BIN" list --max-wall 1 >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
took=$(($(date +%s) - start))
if [ "$rc" != 2 ] || [ "$(wc -l <"$tmp/err")" != 1 ] ||
	! grep -q 'wall-clock budget of 1 s exceeded inside one library call.*--max-wall' "$tmp/err" ||
	[ "$took" -gt 10 ]; then
	bad "list --max-wall 1, an era file that backtracks" "exit status $rc after $took s (expected 2 within 10 s, one line naming the budget)"
else
	ok
fi
# ... and one script of the data folder that backtracks, for `list`
rm "$tmp/data/eras/00_backtrack.lua"
printf 'scenario{ name = "bt" }\n%s\n' "$backtrack" >"$tmp/data/scripts/bt.lua"
term "list, inside a script" 2 env LOCKMUSEUM_DATA="$tmp/data" "$BIN" list
# --max-wall is each script's budget too: one whose top level makes
# short library calls for ever is stopped between them after a second
# (the instruction budget, 50,000,000, is some 100 s away), and listed
# as not loading, naming the budget.
rm "$tmp/data/scripts/bt.lua"
printf 'scenario{ name = "slow" }\nfor _ = 1, 1e9 do local _ = ("a"):rep(100000) end\n' \
	>"$tmp/data/scripts/slow.lua"
LOCKMUSEUM_DATA="$tmp/data" "${guard[@]}" "$BIN" list --max-wall 1 >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" != 0 ] ||
	! grep -q 'slow\.lua .*does not load: .*slow\.lua:2: wall-clock budget of 1 s exceeded' "$tmp/out"; then
	bad "list --max-wall 1, a script that outlasts it" "exit status $rc, or the script not listed as stopped by the budget"
else
	ok
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
