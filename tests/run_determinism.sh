#!/usr/bin/env bash
# run_determinism.sh BIN - one seed, one trace: every shipped, example,
# test and hostile scenario run several times, with and without the
# run-ahead, must give one trace hash.
#
# Lua walks a table in an order that depends on a per-process seed and on
# addresses, and names tables by address; the sandbox defines the first
# and hides the second (engine/lua/sandbox_order.c).  Each process here
# gets a new seed and new addresses (ASLR), so a scenario whose run
# depended on either shows two hashes.  Every file is run DET_RUNS times
# (default 3) with the run-ahead and once without, with `--seed 7` after
# the header's own arguments, and the "trace_hash" of the JSON report is
# compared.  Runs stopped by the wall-clock budget are skipped (where the
# wall clock stops a run is not the run's to decide), as are hostile files
# run with another command than `run` and those that exist to exhaust a
# budget (their header expects "budget" or "exceeded" on stderr): they are
# the slow half of the folder, and where a budget stops a run is tested by
# run_hostile.sh.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BIN" >&2; exit 2; }
. "$(dirname "$0")/lib_runner.sh"
runner_bin "$1"
runner_dirs
export LOCKMUSEUM_DATA=$root
runs=${DET_RUNS:-3}

# The jobs, "KEY<TAB>FILE<TAB>ARGS" a line, read by one awk from every
# file (not a grep, and a sed or two, each a process, a file): a file is
# a job if it is a scenario (a line "scenario{" or "scenario("), its
# header (the comment lines at its top) names no command but `run`
# ("-- command:", the first one) and does not expect "budget" or
# "exceeded" on stderr; ARGS are its header's "-- args:", each followed
# by a space.
jobs=$tmp/jobs
files=()
for f in "$root"/scripts/*.lua "$root"/scripts/challenges/*.lua "$root"/docs/examples/*.lua "$root"/tests/scenarios/*.lua \
	 "$root"/tests/view/*.lua "$root"/tests/hostile/*.lua; do
	[ -e "$f" ] && files+=("$f")
done
awk '
	function emit() {
		if (scen && (cmd == "" || cmd == "run") && !budget)
			printf "%d\t%s\t%s\n", i++, f, args
	}
	FNR == 1 {
		if (NR > 1) emit()
		f = FILENAME; head = 1; scen = 0; cmd = ""; got = 0; budget = 0; args = ""
	}
	head && !/^--/ { head = 0 }
	head {
		if (!got && /^-- command:/) { cmd = $0; sub(/^-- command:[[:space:]]*/, "", cmd); got = 1 }
		if (/expect-stderr:.*(budget|exceeded)/) budget = 1
		if (/^-- args:/) { a = $0; sub(/^-- args:/, "", a); args = args a " " }
	}
	/^[[:space:]]*scenario[[:space:]]*[{(]/ { scen = 1 }
	END { if (NR > 0) emit() }' "${files[@]}" >"$jobs"

# run_one KEY FILE ARGS: DET_RUNS runs with the run-ahead, one without,
# each one's stdout and stderr kept as $tmp/KEY.R.out and .err, read once
# all have run (one awk for every file, not a grep and a sed a run).  The
# CPU bound (ulimit -t, runner_guard's) is set once in the shell that runs
# the job: each process it starts inherits it and is timed on its own.
run_one() {
	local key=$1 f=$2 args r
	read -r -a args <<<"$3"
	for ((r = 0; r <= runs; r++)); do
		if [ "$r" -lt "$runs" ]; then
			"${wall[@]}" "$BIN" run "$f" "${args[@]}" --seed 7 --report json \
				>"$tmp/$key.$r.out" 2>"$tmp/$key.$r.err" </dev/null
		else
			LOCKMUSEUM_NO_RUN_AHEAD=1 "${wall[@]}" "$BIN" run "$f" "${args[@]}" \
				--seed 7 --report json >"$tmp/$key.$r.out" 2>"$tmp/$key.$r.err" </dev/null
		fi
	done
}
export -f run_one
export BIN tmp runs

# runner_guard 30 -k 5, split: its CPU bound for the job's shell, its
# wall-clock bound (blocked runs) before each command.
cpu_limit=30
runner_guard "$cpu_limit" -k 5
wall=("${guard_wall[@]}")
export cpu_limit
while IFS=$'\t' read -r key f args; do
	printf '%s\0%s\0%s\0' "$key" "$f" "$args"
done <"$jobs" | xargs -0 -n 3 -P 2 bash -c "$(declare -p wall)"'; ulimit -t "$cpu_limit" || exit 1; run_one "$@"' _

# One awk reads every run's output: a run's hash is the first
# "trace_hash" of its stdout ("none" if it has none), and a run stopped by
# the wall clock ("wall-clock budget" on stdout or stderr) is left out.
awk -F '\t' -v tmp="$tmp" -v runs="$runs" -v root="$root/" '
	function hash_of(key, r,   f, line, h, wall) {
		h = ""; wall = 0
		f = tmp "/" key "." r ".out"
		while ((getline line <f) > 0) {
			if (line ~ /wall-clock budget/) wall = 1
			if (h == "" && match(line, /"trace_hash": *"[0-9a-f]*"/)) {
				h = substr(line, RSTART, RLENGTH); sub(/.*: *"/, "", h); sub(/"$/, "", h)
			}
		}
		close(f)
		f = tmp "/" key "." r ".err"
		while ((getline line <f) > 0)
			if (line ~ /wall-clock budget/) wall = 1
		close(f)
		return wall ? "" : (h == "" ? "none" : h)
	}
	{
		n = 0; list = ""; split("", seen)
		for (r = 0; r <= runs; r++) {
			h = hash_of($1, r)
			if (h == "" || h in seen) continue
			seen[h] = 1; n++; list = list " " h
		}
		name = $2; if (index(name, root) == 1) name = substr(name, length(root) + 1)
		if (n > 1) {
			fail++
			printf "FAIL %s %s --seed 7: %d trace hashes in %d runs:%s\n", name, $3, n, runs + 1, list
		} else pass++
	}
	END {
		printf "determinism: %d passed, %d failed (%d runs each, one without run-ahead)\n", pass, fail, runs + 1
		exit fail > 0
	}' "$jobs"
