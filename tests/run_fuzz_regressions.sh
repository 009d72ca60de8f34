#!/usr/bin/env bash
# Replay the scenario inputs the fuzzers found (tests/fuzz/regressions/
# scenario/, not pending/) through the binary, as the fuzz harness does:
# small budgets, and any exit status but a crash is fine.  Run against
# the ASan/UBSan build by make test, this keeps every crash found fixed
# without needing clang; `make fuzz-regress` replays all harnesses.
set -u
bin=${1:?usage: run_fuzz_regressions.sh BIN}
here=$(cd "$(dirname "$0")" && pwd)
pass=0
fail=0
for f in "$here"/fuzz/regressions/scenario/*; do
	[ -f "$f" ] || continue
	timeout 60 "$bin" run "$f" --max-instructions 200000 --max-memory 8M --max-wall 10 \
		--max-events 100000 --duration 10ms --report json >/dev/null 2>"$here/../.fuzz-regress.err"
	rc=$?
	if [ "$rc" -gt 3 ] || grep -q 'ERROR: AddressSanitizer\|runtime error:' "$here/../.fuzz-regress.err"; then
		fail=$((fail + 1))
		echo "FAIL $(basename "$f"): exit $rc"
		head -5 "$here/../.fuzz-regress.err"
	else
		pass=$((pass + 1))
	fi
done
rm -f "$here/../.fuzz-regress.err"
echo "fuzz regressions: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
