#!/usr/bin/env bash
# run_startup.sh BIN - a headless invocation loads no SDL library.
#
# The program is linked without SDL; the view (lockmuseum-view.so, beside
# the program) is opened only when a window or a picture is drawn (see
# engine/cli/view_lib.c).  This checks it the hard way: every SDL library
# is replaced, through LD_LIBRARY_PATH, by an empty file that cannot be
# loaded.  Then every headless command must still work as usual, and
# --png must fail cleanly -- exit 2, one line naming the view, no file
# left -- because it is the one that needs SDL.  Without the stand-ins,
# --png draws.  And the program's own dependencies (ldd) name no SDL.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.
set -u
. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"
export LOCKMUSEUM_DATA=$root

pass=0
fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $1"; [ -s "$tmp/err" ] && sed -n '1,3s/^/  stderr: /p' "$tmp/err"; }

# Stand-ins for every SDL library the view links.
mkdir -p "$tmp/nosdl"
for lib in libSDL2-2.0.so.0 libSDL2_ttf-2.0.so.0 libSDL2_image-2.0.so.0; do
	: >"$tmp/nosdl/$lib"
done
nosdl() { LD_LIBRARY_PATH=$tmp/nosdl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$@"; }

one=$root/tests/bench/one_event.lua
kmod=$root/scripts/kmod.lua

# headless, expected exit status, arguments
headless() {
	local name=$1 want=$2
	shift 2
	nosdl "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	local rc=$?
	if [ $rc -ne "$want" ]; then
		no "$name without SDL: exit $rc, expected $want"
	else
		ok
	fi
}

headless "run" 0 run "$one"
headless "run --report json" 0 run "$one" --report json
headless "run --trace" 0 run "$one" --trace "$tmp/t.json"
headless "check" 0 check "$kmod"
headless "list" 0 list
headless "tour (text only)" 0 tour
headless "compare" 0 compare "$one" --modes spinlock,mutex --jobs 1
headless "explore (no seed reaches it: 1)" 1 explore "$one" --seeds 1..3 --goal violation --jobs 1

# The stand-ins do stand in: without them the same runs would pass
# anyway, so show that a drawing run does try to load them.
nosdl "$BIN" run "$one" --png "$tmp/x.png" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ $rc -ne 2 ]; then
	no "--png without SDL: exit $rc, expected 2"
elif ! grep -q "^lockmuseum: --png .*: the view (lockmuseum-view.so) cannot be loaded: " "$tmp/err" ||
     [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
	no "--png without SDL: not one line naming the view"
elif [ -e "$tmp/x.png" ] || ls "$tmp"/x.png.* >/dev/null 2>&1; then
	no "--png without SDL left a file"
else
	ok
fi

# With SDL, the view loads and draws.
"$BIN" run "$one" --png "$tmp/y.png" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ $rc -ne 0 ] || ! head -c 8 "$tmp/y.png" 2>/dev/null | grep -q PNG; then
	no "--png with SDL: exit $rc, no PNG"
else
	ok
fi

# The program itself depends on no SDL library.
if command -v ldd >/dev/null 2>&1; then
	if ldd "$BIN" | grep -qi sdl; then
		: >"$tmp/err"
		no "ldd $BIN names an SDL library: $(ldd "$BIN" | grep -i sdl | head -1)"
	else
		ok
	fi
fi

echo "start-up: $pass passed, $fail failed"
[ $fail -eq 0 ]
