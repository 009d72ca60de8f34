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

# A program linked statically (the Makefile's PROG_STATIC) cannot open the
# view: a command that draws is handed, before it does anything, to
# lockmuseum-draw beside it, with the same arguments and the data folder
# in LOCKMUSEUM_DATA; a headless command never is.  Shown with a stand-in
# that says what it was given, beside a copy of the program.
if command -v ldd >/dev/null 2>&1 && ldd "$BIN" 2>&1 | grep -q 'statically linked\|not a dynamic'; then
	solo=$tmp/solo
	mkdir -p "$solo"
	cp "$BIN" "$solo/lockmuseum"
	printf '#!/bin/sh\nprintf "%%s\\n" "$LOCKMUSEUM_DATA" "$@" >"%s/handed"\nexit 7\n' "$solo" \
		>"$solo/lockmuseum-draw"
	chmod +x "$solo/lockmuseum-draw"
	# handed NAME ARGS...: exit 7, and the stand-in got ARGS (in any order)
	handed() {
		local name=$1
		shift
		rm -f "$solo/handed"
		"$solo/lockmuseum" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
		local rc=$?
		if [ $rc -ne 7 ]; then
			no "$name is not handed to lockmuseum-draw: exit $rc"
		elif [ "$(sed -n 1p "$solo/handed")" != "$root" ]; then
			: >"$tmp/err"
			no "$name: lockmuseum-draw is not given the data folder"
		elif [ "$(sed 1d "$solo/handed" | sort)" != "$(printf '%s\n' "$@" | sort)" ]; then
			: >"$tmp/err"
			no "$name: lockmuseum-draw is not given the arguments"
		elif [ -s "$tmp/out" ] || [ -s "$tmp/err" ]; then
			no "$name printed something before it was handed on"
		else
			ok
		fi
	}
	handed "run --png" run "$one" --png "$tmp/h.png"
	handed "run --gui" run "$one" --gui
	handed "play --gui" play "$one" --gui
	handed "compare --plot" compare "$one" --modes spinlock,mutex --plot "$tmp/h.png" --jobs 1
	handed "tour --out" tour --out "$tmp/h"
	handed "tour --gui" tour --gui
	handed "the museum (no arguments)"
	for args in "run $one" "check $kmod" "list" "tour" "--version"; do
		rm -f "$solo/handed"
		# shellcheck disable=SC2086
		"$solo/lockmuseum" $args >"$tmp/out" 2>"$tmp/err" </dev/null
		rc=$?
		if [ $rc -ne 0 ] || [ -e "$solo/handed" ]; then
			no "headless '$args' (exit $rc) was handed to lockmuseum-draw"
		else
			ok
		fi
	done
	# without it: exit 2, one line naming it, no picture
	rm "$solo/lockmuseum-draw"
	"$solo/lockmuseum" run "$one" --png "$tmp/h.png" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "lockmuseum-draw" "$tmp/err" ||
	   [ -e "$tmp/h.png" ]; then
		no "a drawing command without lockmuseum-draw: exit $rc, not one line naming it"
	else
		ok
	fi
fi

# A run compiles the one era it runs in (the era shelf, engine/lua/eras.h).
# Shown the hard way: a data folder where every other era file is broken
# still runs; the commands that read every era name the broken file.
lazy=$tmp/lazy
mkdir -p "$lazy/eras"
for d in scripts assets docs; do ln -s "$root/$d" "$lazy/$d"; done
cp "$root/eras/2006.lua" "$root/eras/2023.lua" "$lazy/eras/"
cp -r "$root/eras/machines" "$lazy/eras/"
for y in 1991 1999 2009; do printf 'era{ id = "%s", year = %s, \n' $y $y >"$lazy/eras/$y.lua"; done
# expect NAME STATUS STDERR-PATTERN ARGS...: exit status and one line on stderr
expect() {
	local name=$1 want=$2 pat=$3
	shift 3
	LOCKMUSEUM_DATA=$lazy "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	local rc=$?
	if [ $rc -ne "$want" ]; then
		no "$name: exit $rc, expected $want"
	elif [ -n "$pat" ] && { ! grep -Eq "$pat" "$tmp/err" || [ "$(wc -l <"$tmp/err")" -ne 1 ]; }; then
		no "$name: stderr is not one line matching /$pat/"
	else
		ok
	fi
}
expect "a run loads its era alone (--era)" 0 "" run "$one" --era 2006
expect "a run loads its era alone (scenario{ era })" 0 "" run "$one"
printf 'scenario{ name = "no_era" }\ntask{ name = "t", run = function() end }\n' >"$tmp/no_era.lua"
expect "a run loads the newest alone (no era named)" 0 "" run "$tmp/no_era.lua"
grep -q 'era 2023' "$tmp/out" || no "the run without an era is not in the newest (2023)"
expect "a run in a broken era names its file:line" 2 '1999\.lua:[0-9]+: ' run "$one" --era 1999
expect "an era by version reads every era" 2 '1991\.lua:[0-9]+: ' run "$one" --era 2.6.16
expect "list names a broken era" 2 '1991\.lua:[0-9]+: ' list
expect "check names a broken era" 2 '1991\.lua:[0-9]+: ' check "$one"
expect "an unknown era names a broken one" 2 '1991\.lua:[0-9]+: ' run "$one" --era 1066
expect "a refusal that names other eras reads them" 2 '1991\.lua:[0-9]+: ' run "$root/scripts/inode.lua" --era 2023 --mode bkl
expect "... and its JSON outcome is an error, not a refusal" 2 '1991\.lua:[0-9]+: ' run "$root/scripts/inode.lua" --era 2023 --mode bkl --report json
grep -q '"outcome": "error"' "$tmp/out" || no "a broken era file behind a refusal: the JSON outcome is not error"
# the index is the file names: an era file is named after its id
rm "$lazy"/eras/1991.lua "$lazy"/eras/1999.lua "$lazy"/eras/2009.lua
sed 's/id = "2006"/id = "x2006"/' "$root/eras/2006.lua" >"$lazy/eras/2006.lua"
expect "an era whose id is not its file's name" 2 "2006\.lua:[0-9]+: era\{\}: id 'x2006' must be the file's name" run "$one" --era 2006
sed 's/year = 2006/year = 2007/' "$root/eras/2006.lua" >"$lazy/eras/2006.lua"
expect "an era whose id is a number not its year" 2 "2006\.lua:[0-9]+: era\{\}: id '2006' is a number, so it must be the year" list

echo "start-up: $pass passed, $fail failed"
[ $fail -eq 0 ]
