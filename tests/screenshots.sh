#!/usr/bin/env bash
# screenshots.sh [--check] BIN [DIR] - the documentation's screenshots,
# taken from the real window under a virtual display.
#
#   tests/screenshots.sh BIN docs/screenshots     (make screenshots)
#       opens each shot's window on its own Xvfb screen of the shot's
#       size, sends the keys a visitor would press, saves the window's
#       own screenshot (the S key: what the renderer drew, read back)
#       and moves it to DIR/NAME.png;
#   tests/screenshots.sh --check BIN              (make test)
#       takes the same shots into a scratch folder and compares each,
#       decoded, with the one in docs/screenshots/.
#
# Why decoded pixels, with a tolerance, and not the inputs: what the
# README promises is a picture, and only the picture shows that it is
# current -- a manifest of inputs (sources, fonts, the run's trace hash)
# would miss a change in SDL or FreeType and flag a change in a comment.
# The window renders with SDL's software renderer here
# (SDL_RENDER_DRIVER=software), which is deterministic: the same inputs
# give the same pixels whatever else the machine is doing, so a fuzzer on
# the other core cannot make this flaky.  Nothing waits for a time: each
# step waits for the window's title (which names the run on screen) or
# for the saved file.  The tolerance (a pixel counts as different past 24
# levels in a channel; at most 0.01% of them may differ: about a hundred
# in 1280x800) absorbs stray anti-aliasing, not a changed word: changing
# the units of two panel lines moved 0.1% of the pixels, ten times that.
# A new FreeType that redraws every glyph differently fails it too; the
# answer then is make screenshots, as for any change the pictures show.
#
# A shot is one line of SHOTS below: name, screen size, the program's
# arguments (@ROOT@: the source tree), then the keys, where "=TEXT" waits until the title says
# TEXT.  With no key after the title, the shot is the window as it
# opens: on the run's key moment.
#
# The last line is "N passed, M failed" (--check) or the files written.

set -u

check=false
if [ "${1:-}" = --check ]; then
	check=true
	shift
fi
. "$(dirname "$0")/lib_runner.sh"
runner_bin "${1:?usage: $0 [--check] BIN [DIR]}"
runner_dirs
if $check; then
	out=$tmp/new
	ref=$root/docs/screenshots
else
	out=${2:?usage: $0 BIN DIR}
	case $out in /*) ;; *) out=$PWD/$out ;; esac
fi
mkdir -p "$out"

for tool in Xvfb xdotool; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "$0: $tool is missing (make deps installs it)" >&2
		exit 2
	fi
done

export LOCKMUSEUM_DATA=$root
export SDL_RENDER_DRIVER=software
unset WAYLAND_DISPLAY

# NAME | WxH | arguments | keys ("=TEXT": wait for the title to say TEXT)
SHOTS=(
	"1991-cli-window-1280x800|1280x800|tour --gui|=era 1991 End"
	"2003-lost-update-window-1280x800|1280x800|tour --gui|=era 1991 n =era 1992 n =era 1994 n =era 1999 n =era 2003 End"
	"2006-compare-window-1920x1080|1920x1080|tour --gui|=era 1991 n =era 1992 n =era 1994 n =era 1999 n =era 2003 n =era 2005 n =era 2006, mode semaphore Tab End"
	"2003-lost-update-projector-1920x1080|1920x1080|tour --gui --scale 1.25|=era 1991 n =era 1992 n =era 1994 n =era 1999 n =era 2003 End"
	"2006-task-lanes-window-1280x800|1280x800|run @ROOT@/scripts/inode.lua --gui --mode semaphore --cpus 4 --set tasks=6|=mode semaphore"
	"play-question-window-1280x800|1280x800|play @ROOT@/scripts/challenges/rename_abba.lua --gui|=play"
	"play-goal-window-1280x800|1280x800|play @ROOT@/scripts/challenges/rename_abba.lua --gui|=play 1 r =goal reached"
	"play-question-projector-1280x800|1280x800|play @ROOT@/scripts/challenges/rename_abba.lua --gui --scale 2|=play"
	"play-goal-projector-1280x800|1280x800|play @ROOT@/scripts/challenges/rename_abba.lua --gui --scale 2|=play 1 r =goal reached"
	"play-irq-question-window-1280x800|1280x800|play @ROOT@/scripts/challenges/cli_smp.lua --gui|=play Return Return Return"
	"2023-kmod-projector-figures-1280x800|1280x800|run @ROOT@/scripts/kmod.lua --gui --scale 2|=mode native v"
	"2022-mlx5-idle-cpus-window-1280x800|1280x800|run @ROOT@/scripts/mlx5.lua --era 2022 --set throttle=false --gui|=mode native End"
	"play-many-options-window-1280x800|1280x800|play @ROOT@/scripts/inode.lua --gui|=play Page_Down"
)

pass=0
fail=0
xvfb=
app=
trap 'kill $app $xvfb 2>/dev/null; rm -rf "$tmp"' EXIT

no() {
	fail=$((fail + 1))
	echo "FAIL $name: $1"
	[ -s "$tmp/err" ] && sed -n '1,3s/^/  stderr: /p' "$tmp/err"
}

# shot LINE: one screenshot; 0 if DIR/NAME.png was written.
shot() {
	IFS='|' read -r name size args keys <<<"$1"
	args=${args//@ROOT@/$root}	# a scenario of the source tree
	local w=${size%x*} h=${size#*x}
	rm -f "$tmp/display"
	Xvfb -displayfd 3 -screen 0 "${w}x${h}x24" -nolisten tcp -noreset 3>"$tmp/display" \
		2>"$tmp/xvfb.err" &
	xvfb=$!
	for _ in $(seq 100); do
		[ -s "$tmp/display" ] && break
		sleep 0.1
	done
	[ -s "$tmp/display" ] || { no "Xvfb did not start"; return 1; }
	export DISPLAY=":$(cat "$tmp/display")"
	rm -rf "$tmp/run"
	mkdir -p "$tmp/run"
	# shellcheck disable=SC2086
	(cd "$tmp/run" && exec timeout -k 5 300 "$BIN" $args) >"$tmp/out" 2>"$tmp/err" </dev/null &
	app=$!
	local win= rc=0
	for _ in $(seq 600); do
		win=$(xdotool search --name '^lockmuseum - ' 2>/dev/null | head -1)
		[ -n "$win" ] && break
		kill -0 "$app" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$win" ]; then
		no "no window appeared"
		rc=1
	else
		# the whole screen, and the pointer off the lanes (no hover)
		xdotool windowmove --sync "$win" 0 0 windowsize --sync "$win" "$w" "$h" 2>/dev/null
		xdotool mousemove 1 1
		local k wait_for=
		# "=era 2006, mode native" is one word list: gather until a key
		for k in $keys; do
			if [ -n "$wait_for" ] && [ "${k#=}" = "$k" ] && ! key_name "$k"; then
				wait_for="$wait_for $k"
				continue
			fi
			if [ -n "$wait_for" ]; then
				wait_title "$win" "$wait_for" || { rc=1; break; }
				wait_for=
			fi
			case $k in
			=*) wait_for=${k#=} ;;
			*) xdotool key --window "$win" "$k" ;;
			esac
		done
		if [ "$rc" = 0 ] && [ -n "$wait_for" ]; then
			wait_title "$win" "$wait_for" || rc=1
		fi
		if [ "$rc" = 0 ]; then
			xdotool key --window "$win" s
			for _ in $(seq 300); do
				[ -s "$tmp/run/lockmuseum-001.png" ] && break
				sleep 0.1
			done
			# the file is renamed into place whole: present means written
			if [ -s "$tmp/run/lockmuseum-001.png" ]; then
				mv "$tmp/run/lockmuseum-001.png" "$out/$name.png"
			else
				no "S saved no screenshot"
				rc=1
			fi
		fi
		xdotool key --window "$win" q 2>/dev/null
	fi
	wait "$app" 2>/dev/null
	app=
	kill "$xvfb" 2>/dev/null
	wait "$xvfb" 2>/dev/null
	xvfb=
	return $rc
}

# A key xdotool knows (a word of a title is not one).
key_name() {
	case $1 in
	End | Home | Tab | Page_Up | Page_Down | Right | Left | space | [a-z0-9] | bracketleft | bracketright | Return)
		return 0 ;;
	esac
	return 1
}

wait_title() {
	local t
	for _ in $(seq 600); do
		t=$(xdotool getwindowname "$1" 2>/dev/null)
		case $t in *"$2"*) return 0 ;; esac
		sleep 0.1
	done
	no "the title is '$t', it never said '$2'"
	return 1
}

# same A B: the decoded pixels of two PNGs agree within the tolerance.
same() {
	python3 - "$1" "$2" <<'PY'
import struct, sys, zlib

def decode(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and lace == 0, "unexpected PNG format"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows

wa, ha, ba, ra = decode(sys.argv[1])
wb, hb, bb, rb = decode(sys.argv[2])
if (wa, ha) != (wb, hb):
    sys.exit("sizes differ: %dx%d and %dx%d" % (wa, ha, wb, hb))
differ = 0
for y in range(ha):
    if ra[y] == rb[y]:
        continue
    for x in range(wa):
        pa, pb = ra[y][x * ba:x * ba + 3], rb[y][x * bb:x * bb + 3]
        if max(abs(pa[k] - pb[k]) for k in range(3)) > 24:
            differ += 1
share = differ / float(wa * ha)
if share > 0.0001:
    sys.exit("%.3f%% of the pixels differ (at most 0.01%%)" % (100 * share))
PY
}

for line in "${SHOTS[@]}"; do
	shot "$line" || continue
	if $check; then
		if [ ! -f "$ref/$name.png" ]; then
			no "docs/screenshots/$name.png is missing (make screenshots)"
		elif cmp -s "$out/$name.png" "$ref/$name.png"; then
			pass=$((pass + 1))	# the same bytes: no need to decode
		elif ! command -v python3 >/dev/null 2>&1; then
			cmp -s "$out/$name.png" "$ref/$name.png" && pass=$((pass + 1)) ||
				no "differs from docs/screenshots/$name.png (make screenshots; no python3 to compare pixels)"
		elif why=$(same "$out/$name.png" "$ref/$name.png" 2>&1); then
			pass=$((pass + 1))
		else
			no "docs/screenshots/$name.png is not what the window draws now: ${why##*$'\n'} (make screenshots)"
		fi
	else
		echo "$out/$name.png"
		pass=$((pass + 1))
	fi
done
if $check; then
	echo "screenshots: $pass passed, $fail failed"
fi
[ "$fail" = 0 ]
