#!/usr/bin/env bash
# run_deps_check.sh - `make deps-check` installs what is missing.
#
# `make run` and `make test` begin with deps-check, which must notice a
# missing command or library and then install the packages, on a fresh
# machine, before anything is built.  Until December 2026 a missing
# command ended the recipe's shell with a failure before the install ran,
# so `make test` failed on exactly the machine it was meant to set up.
# This runs the real recipe with a command and a library that do not
# exist, and with the install step (DEPS_INSTALL) replaced by a stand-in,
# so nothing is installed here.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $1"; sed -n '1,3s/^/  output: /p' "$tmp/out"; }

# The recipe runs in a make of its own: not in the jobserver of the make
# that runs this suite, and with none of its flags.
deps_check() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s -C "$root" deps-check "$@" >"$tmp/out" 2>&1
}

# A missing command: named, and the install runs; the check succeeds.
deps_check TEST_CMDS="sh lm-no-such-command" DEPS_INSTALL="echo installer-ran"
rc=$?
if [ $rc -eq 0 ] && grep -q 'missing:.*lm-no-such-command' "$tmp/out" &&
   grep -qx 'installer-ran' "$tmp/out"; then ok; else no "missing command (rc $rc)"; fi

# A missing library (pkg-config module): named, and the install runs.
deps_check TEST_CMDS="sh" PC_TEST="lm-no-such-module" DEPS_INSTALL="echo installer-ran"
rc=$?
if [ $rc -eq 0 ] && grep -q 'missing:.*lm-no-such-module' "$tmp/out" &&
   grep -qx 'installer-ran' "$tmp/out"; then ok; else no "missing library (rc $rc)"; fi

# An install that fails makes the check fail, so make stops there.
deps_check TEST_CMDS="sh lm-no-such-command" DEPS_INSTALL="false"
rc=$?
if [ $rc -ne 0 ]; then ok; else no "failed install passed (rc $rc)"; fi

# Nothing missing (this suite runs after make test's own deps-check has
# installed everything): nothing is installed, nothing is printed.
deps_check TEST_CMDS="sh" DEPS_INSTALL="echo installer-ran"
rc=$?
if [ $rc -eq 0 ] && ! [ -s "$tmp/out" ]; then ok; else no "nothing missing (rc $rc)"; fi

echo "deps-check: $pass passed, $fail failed"
[ $fail -eq 0 ]
