#!/usr/bin/env bash
# run_gui.sh BIN - the museum's window, for real, under a virtual display.
#
# Xvfb gives the window a screen; xdotool finds it by its title, sends the
# keys a visitor would press, and reads the title bar back.  The title says
# which run is on screen (scenario, era, mode, CPUs), so a window showing a
# different run from the one asked for fails here.  The window's own
# screenshot key (S) proves that it drew.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.

set -u

. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"

for tool in Xvfb xdotool; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "$0: $tool is missing (make deps installs it)" >&2
		exit 2
	fi
done

# A display of our own: Xvfb picks a free number and writes it to fd 3.
# -noreset: by default the server resets when its last client leaves, and
# a window opened during the reset finds no display ("x11 not available").
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp -noreset 3>"$tmp/display" 2>"$tmp/xvfb.err" &
xvfb=$!
for _ in $(seq 50); do
	[ -s "$tmp/display" ] && break
	sleep 0.1
done
if [ ! -s "$tmp/display" ]; then
	echo "$0: Xvfb did not start: $(head -1 "$tmp/xvfb.err")" >&2
	kill "$xvfb" 2>/dev/null
	exit 2
fi
export DISPLAY=":$(cat "$tmp/display")"
unset WAYLAND_DISPLAY
trap 'kill "$app" "$xvfb" 2>/dev/null; rm -rf "$tmp"' EXIT
export LOCKMUSEUM_DATA=$root

pass=0
fail=0
app=

no() {
	fail=$((fail + 1))
	echo "FAIL $current: $1"
	sed -n '1,3s/^/  stderr: /p' "$tmp/err"
}

# open NAME ARGS... : start BIN ARGS in $tmp/shots; wait for its window.
open() {
	current=$1
	shift
	mkdir -p "$tmp/shots"
	(cd "$tmp/shots" && exec timeout -k 5 120 "$BIN" "$@") >"$tmp/out" 2>"$tmp/err" </dev/null &
	app=$!
	win=
	for _ in $(seq 300); do
		win=$(xdotool search --name '^lockmuseum - ' 2>/dev/null | head -1)
		[ -n "$win" ] && break
		kill -0 "$app" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$win" ] || { no "no window appeared"; return 1; }
	title=$(xdotool getwindowname "$win")
}

# quit: press Q and require exit status 0.
quit() {
	xdotool key --window "$win" q
	wait "$app"
	local rc=$?
	app=
	[ "$rc" = 0 ] || no "exit status $rc after Q, expected 0"
}

title_has() {
	case $title in
	*"$1"*) return 0 ;;
	esac
	no "the title is '$title', it should say '$1'"
	return 1
}

ok() { [ "$fail" = "$1" ] && pass=$((pass + 1)); }

f=$fail
if open "run --gui opens the run --mode and --era ask for" run "$root/scripts/inode.lua" \
	--mode mutex --era 2009 --set loops=12 --gui; then
	title_has "era 2009, mode mutex"
	xdotool key --window "$win" End s
	for _ in $(seq 50); do
		[ -s "$tmp/shots/lockmuseum-001.png" ] && break
		sleep 0.1
	done
	[ "$(head -c 4 "$tmp/shots/lockmuseum-001.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] ||
		no "S saved no screenshot"
	quit
fi
ok "$f"

f=$fail
if open "run --gui honours --cpus and another mode" run "$root/scripts/inode.lua" \
	--mode semaphore --era 2006 --cpus 4 --set loops=12 --gui; then
	title_has "era 2006, mode semaphore, 4 CPUs"
	quit
fi
ok "$f"

f=$fail
if open "run --gui --mode cli shows the cli run" run "$root/tests/view/lost.lua" --mode cli --gui; then
	title_has "mode cli"
	quit
fi
ok "$f"

f=$fail
if open "run --gui without options: the scenario's own era and native mode" run \
	"$root/scripts/inode.lua" --set loops=12 --gui; then
	title_has "era 2006, mode native"
	quit
fi
ok "$f"

# run --schedule --gui: the window opens the replayed run (issue 14),
# the schedule explore saved for a deadlock no seed reaches.
f=$fail
current="run --schedule --gui: the schedule to open"
"$BIN" explore "$root/tests/explore/fixed_abba.lua" --strategy exhaustive:1 --goal deadlock \
	--jobs 1 --out "$tmp/abba.schedule" >/dev/null 2>&1 || no "explore saved no schedule"
if open "run --schedule --gui opens the replayed run" run "$root/tests/explore/fixed_abba.lua" \
	--schedule "$tmp/abba.schedule" --gui; then
	title_has "fixed_abba (era 2006, mode native, 2 CPUs, schedule abba.schedule)"
	quit
fi
ok "$f"

# The first SIGTERM or SIGINT ends the window, paused or not: exit 130,
# at once (the window looks at least every 100 ms).
for sig in TERM INT; do
	f=$fail
	if open "SIG$sig while the window is paused: exit 130" run "$root/scripts/inode.lua" \
		--set loops=12 --gui; then
		t0=$(date +%s%N)
		kill -"$sig" "$(pgrep -P "$app" -f lockmuseum || echo "$app")"
		wait "$app"
		rc=$?
		app=
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		[ "$rc" = 130 ] || no "exit status $rc, expected 130"
		[ "$ms" -lt 3000 ] || no "it took $ms ms to stop"
		grep -q 'interrupted' "$tmp/err" || no "no 'interrupted' on stderr"
	fi
	ok "$f"
done

# A display that cannot be reached: one line, exit 2, within seconds, not
# an invisible window running on SDL's offscreen driver.
current="run --gui with an unreachable DISPLAY: one line, exit 2"
f=$fail
t0=$(date +%s%N)
DISPLAY=:4242 timeout -k 5 30 "$BIN" run "$root/scripts/inode.lua" --set loops=12 --gui \
	>"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$rc" = 2 ] || no "exit status $rc, expected 2"
[ "$(wc -l <"$tmp/err")" = 1 ] || no "$(wc -l <"$tmp/err") lines on stderr, expected 1"
grep -q 'cannot reach the display :4242' "$tmp/err" || no "stderr does not say the display cannot be reached"
[ "$ms" -lt 10000 ] || no "it took $ms ms"
ok "$f"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
