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

header_args() {
	sed -n '/^--/!q; s/^-- args://p' "$1" | tr '\n' ' '
}
header_command() {
	sed -n '/^--/!q; s/^-- command:[[:space:]]*//p' "$1" | head -1
}

jobs=$tmp/jobs
: >"$jobs"
i=0
for f in "$root"/scripts/*.lua "$root"/scripts/challenges/*.lua "$root"/docs/examples/*.lua "$root"/tests/scenarios/*.lua \
	 "$root"/tests/view/*.lua "$root"/tests/hostile/*.lua; do
	[ -e "$f" ] || continue
	grep -Eq '^[[:space:]]*scenario[[:space:]]*[{(]' "$f" || continue
	cmd=$(header_command "$f")
	[ -z "$cmd" ] || [ "$cmd" = run ] || continue
	sed -n '/^--/!q; p' "$f" | grep -qE 'expect-stderr:.*(budget|exceeded)' && continue
	printf '%s\t%s\t%s\n' "$i" "$f" "$(header_args "$f")" >>"$jobs"
	i=$((i + 1))
done

# run_one KEY FILE ARGS: DET_RUNS runs with the run-ahead, one without,
# one line each in $tmp/KEY: the hash, or "wall" when the wall clock
# stopped the run.
run_one() {
	local key=$1 f=$2 args r out
	read -r -a args <<<"$3"
	: >"$tmp/$key"
	for ((r = 0; r <= runs; r++)); do
		if [ "$r" -lt "$runs" ]; then
			"${guard[@]}" "$BIN" run "$f" "${args[@]}" --seed 7 --report json \
				>"$tmp/$key.out" 2>"$tmp/$key.err" </dev/null
		else
			LOCKMUSEUM_NO_RUN_AHEAD=1 "${guard[@]}" "$BIN" run "$f" "${args[@]}" \
				--seed 7 --report json >"$tmp/$key.out" 2>"$tmp/$key.err" </dev/null
		fi
		if grep -q 'wall-clock budget' "$tmp/$key.err" "$tmp/$key.out"; then
			echo wall >>"$tmp/$key"
			continue
		fi
		out=$(sed -n 's/.*"trace_hash": *"\([0-9a-f]*\)".*/\1/p' "$tmp/$key.out" | head -1)
		echo "${out:-none}" >>"$tmp/$key"
	done
}
export -f run_one runner_guard
export BIN tmp runs

while IFS=$'\t' read -r key f args; do
	printf '%s\0%s\0%s\0' "$key" "$f" "$args"
done <"$jobs" | xargs -0 -n 3 -P 2 bash -c 'runner_guard 30 -k 5; run_one "$@"' _

pass=0
fail=0
while IFS=$'\t' read -r key f args; do
	name=${f#"$root"/}
	hashes=$(grep -v '^wall$' "$tmp/$key" | sort -u)
	n=$(printf '%s' "$hashes" | grep -c .)
	if [ "$n" -gt 1 ]; then
		fail=$((fail + 1))
		echo "FAIL $name $args --seed 7: $n trace hashes in $((runs + 1)) runs:" $hashes
		continue
	fi
	pass=$((pass + 1))
done <"$jobs"
echo "determinism: $pass passed, $fail failed ($((runs + 1)) runs each, one without run-ahead)"
[ "$fail" -eq 0 ]
