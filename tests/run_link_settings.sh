#!/usr/bin/env bash
# run_link_settings.sh - a build directory relinks when the link's
# settings change, not only when an object does.
#
# The program is linked statically or not (PROG_STATIC), with Lua's
# archive or its shared library (LUA_STATIC), with whichever archives are
# installed: settings that no object's time reflects.  Before the
# Makefile kept them in $(BUILD)/link-settings, a build directory linked
# one way stayed linked that way after `make PROG_STATIC=0`, and a
# test run against it tested the program it did not name.  This checks
# the settings file is rewritten when, and only when, a setting changes,
# and that every linked artefact depends on it (make's own database).
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $1"; }

# A make of its own, on a scratch build directory: nothing is compiled.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s -C "$root" \
		BUILD="$tmp/b" "$@" 2>"$tmp/err"
}
stamp=$tmp/b/link-settings

mk "$stamp" PROG_STATIC=1 || no "making the settings file (status $?: $(head -1 "$tmp/err"))"
first=$(cat "$stamp" 2>/dev/null)
[ -n "$first" ] && ok || no "the settings file is empty or missing"

# Unchanged settings leave the file as it was: nothing relinks.
touch -d '2001-01-01' "$stamp"
mk "$stamp" PROG_STATIC=1
[ "$(stat -c %Y "$stamp")" = "$(date -d '2001-01-01' +%s)" ] && ok ||
	no "the settings file was rewritten with the same settings"

# A changed setting rewrites it (static -> dynamic, and back).
mk "$stamp" PROG_STATIC=0
[ "$(stat -c %Y "$stamp")" != "$(date -d '2001-01-01' +%s)" ] && ok ||
	no "PROG_STATIC=0 left the settings file as it was"
grep -q 'static= ' "$stamp" && ok || no "PROG_STATIC=0 not in the settings: $(cat "$stamp")"
mk "$stamp" PROG_STATIC=1
[ "$(cat "$stamp")" = "$first" ] && ok || no "back to PROG_STATIC=1, the settings differ from the first"
mk "$stamp" LUA_STATIC=0
grep -q 'lua= ' "$stamp" && ok || no "LUA_STATIC=0 not in the settings: $(cat "$stamp")"

# Every linked artefact has the settings file among its prerequisites.
mk -p -q build >"$tmp/db" 2>/dev/null
for t in lockmuseum lockmuseum-view.so; do
	grep -Eq "^$tmp/b/$t:.* $tmp/b/link-settings( |$)" "$tmp/db" && ok ||
		no "$t does not depend on the link's settings"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
