#!/usr/bin/env bash
# run_layers_check.sh - tests/check_layers.sh passes on engine/ as it is,
# and fails, naming the line, when an include it must refuse is put back
# into a copy of engine/: a report file including ctx.h (struct km_ctx
# whole, the core's own), a view file including core.h (which includes
# ctx.h), a Lua binding file including lock.h (likewise, one header
# deeper), and the core including a report header (an include up).
set -u
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }

if tests/check_layers.sh engine >"$tmp/out" 2>&1; then ok; else bad "engine/ as it is: $(cat "$tmp/out")"; fi

# expect_fail NAME FILE INCLUDE PATTERN: a copy of engine/ with INCLUDE
# added at the top of FILE fails the check, saying PATTERN
expect_fail() {
	rm -rf "$tmp/engine"
	cp -R engine "$tmp/engine" || exit 2
	[ -f "$tmp/engine/$2" ] || { bad "$1: no engine/$2"; return; }
	{ printf '%s\n' "$3"; cat "engine/$2"; } >"$tmp/engine/$2"
	if tests/check_layers.sh "$tmp/engine" >"$tmp/out" 2>&1; then
		bad "$1: the check passed"
	elif grep -qF "$4" "$tmp/out"; then
		ok
	else
		bad "$1: expected '$4' in: $(cat "$tmp/out")"
	fi
}
expect_fail report-ctx report/report_text.c '#include "../ctx.h"' \
	"report/report_text.c:1: report includes ../ctx.h, the core's own"
expect_fail view-core view/view_model.c '#include "../core.h"' \
	"view/view_model.c:1: view includes ../core.h, the core's own"
expect_fail lua-lock lua/api.c '#include "../lock.h"' \
	"lua/api.c:1: lua includes ../lock.h, the core's own"
expect_fail cli-ctx cli/run.c '#include "../ctx.h"' \
	"cli/run.c:1: cli includes ../ctx.h, the core's own"
expect_fail core-up sim.c '#include "report/report.h"' \
	"sim.c:1: core includes report (report/report.h)"

echo "layers check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
