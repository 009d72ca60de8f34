#!/usr/bin/env bash
# Replay the scenario inputs the fuzzers found (tests/fuzz/regressions/
# scenario/, not pending/) through the binary, as the fuzz harness does:
# small budgets, and any exit status but a crash is fine.  The report
# inputs (report/: one report, or two split at a NUL byte, as fuzz_report
# reads them) go through `compare --from` in each format, and the
# schedule inputs (schedule/) through `run --schedule`.  Run against
# the ASan/UBSan build by make test, this keeps every crash found fixed
# without needing clang; `make fuzz-regress` replays all harnesses.
set -u
bin=${1:?usage: run_fuzz_regressions.sh BIN}
here=$(cd "$(dirname "$0")" && pwd)
# a scratch directory for the split reports and the last stderr, removed
# on exit: nothing is written into the source tree
scratch=$(mktemp -d) || exit 2
trap 'rm -rf "$scratch"' EXIT
err=$scratch/err
pass=0
fail=0
for f in "$here"/fuzz/regressions/scenario/*; do
	[ -f "$f" ] || continue
	timeout 60 "$bin" run "$f" --max-instructions 200000 --max-memory 8M --max-wall 10 \
		--max-events 100000 --duration 10ms --report json >/dev/null 2>"$err"
	rc=$?
	if [ "$rc" -gt 3 ] || grep -q 'ERROR: AddressSanitizer\|runtime error:' "$err"; then
		fail=$((fail + 1))
		echo "FAIL $(basename "$f"): exit $rc"
		head -5 "$err"
	else
		pass=$((pass + 1))
	fi
done
# check NAME COMMAND...: the command must end with a status of the
# contract (0..3) and no sanitizer report.
check() {
	local name=$1
	shift
	timeout 60 "$@" >/dev/null 2>"$err"
	local rc=$?
	if [ "$rc" -gt 3 ] || grep -q 'ERROR: AddressSanitizer\|runtime error:' "$err"; then
		fail=$((fail + 1))
		echo "FAIL $name: exit $rc"
		head -5 "$err"
	else
		pass=$((pass + 1))
	fi
}
for f in "$here"/fuzz/regressions/report/*; do
	[ -f "$f" ] || continue
	rm -f "$scratch"/*.json
	# the part before the first NUL, and the part after it if any
	"${KM_PYTHON3:-python3}" - "$f" "$scratch" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
a, nul, b = data.partition(b"\0")
open(sys.argv[2] + "/a.json", "wb").write(a)
if nul:
	open(sys.argv[2] + "/b.json", "wb").write(b)
EOF
	for fmt in json csv text; do
		check "$(basename "$f") ($fmt)" "$bin" compare --from "$scratch" --report "$fmt"
	done
done
for f in "$here"/fuzz/regressions/schedule/*; do
	[ -f "$f" ] || continue
	check "$(basename "$f")" "$bin" run "$here/../scripts/challenges/cli_smp.lua" --schedule "$f"
done
echo "fuzz regressions: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
