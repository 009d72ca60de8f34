#!/usr/bin/env bash
# A subset of the suite under valgrind: memory errors and definite leaks
# fail the run.  Small scenarios, one per primitive plus the error paths
# (a budget, a bad argument, a refused combination), so that it stays
# within a minute or two.
set -u
bin=${1:?usage: run_valgrind.sh BIN}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
if ! command -v valgrind >/dev/null 2>&1; then
	echo "run_valgrind.sh: valgrind is not installed (make deps installs it)" >&2
	exit 1
fi
pass=0
fail=0
vg() {
	local name=$1
	shift
	if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$bin" "$@" >/dev/null 2>"$tmp/err"; then :; fi
	rc=$?
	# the program's own statuses (0-3) are fine; 99 is valgrind's
	if grep -q '^==[0-9]*==' "$tmp/err" || [ "$rc" = 99 ]; then
		fail=$((fail + 1))
		echo "FAIL $name"
		grep '^==' "$tmp/err" | head -20
	else
		pass=$((pass + 1))
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$root"/tests/scenarios/clean_*.lua; do
	vg "$(basename "$f")" run "$f" --report json
done
vg "inode (text, lock_stat)" run "$root/scripts/inode.lua" --set loops=8 --report lockstat
vg "trace + png" run "$root/scripts/spin_fairness.lua" --set loops=20 --trace "$tmp/t.json" --png "$tmp/p.png" --size 640x400
vg "lost update" run "$root/tests/scenarios/lost_update_cli_smp.lua" --era 2003 --cpus 2 --mode cli
vg "deadlock" run "$root/tests/scenarios/deadlock_abba.lua" --era 2009 --cpus 2
vg "instruction budget" run "$root/tests/scenarios/bad_loop_task.lua" --max-instructions 200000
vg "bad argument" run "$root/tests/scenarios/bad_type.lua"
vg "not applicable" run "$root/tests/scenarios/not_applicable.lua" --mode mutex --report json
vg "compare" compare "$root/scripts/inode.lua" --modes semaphore,mutex --set loops=8 --jobs 1
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
