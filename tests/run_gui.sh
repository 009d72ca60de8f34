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

# wait_title TEXT: up to 20 s for the window's title to say TEXT (a new
# era or mode is a new run; the title changes when it is on screen).
wait_title() {
	for _ in $(seq 200); do
		title=$(xdotool getwindowname "$win" 2>/dev/null)
		case $title in *"$1"*) return 0 ;; esac
		sleep 0.1
	done
	no "the title is '$title', it should say '$1'"
	return 1
}

# Switching era on the ribbon keeps the machine: the same CPU count in
# 2009 as in 2006 (2009's own machine has 16; 2007 and 2008 come between), and one CPU in 1994, which
# had no SMP (the window says so in its event line).
f=$fail
if open "an era switch keeps the CPU count" run "$root/scripts/inode.lua" --set loops=12 --gui; then
	title_has "era 2006, mode native, 8 CPUs" &&
		xdotool key --window "$win" bracketright && wait_title "era 2007, mode native, 8 CPUs" &&
		xdotool key --window "$win" bracketright && wait_title "era 2008, mode native, 8 CPUs" &&
		xdotool key --window "$win" bracketright && wait_title "era 2009, mode native, 8 CPUs" &&
		xdotool key --window "$win" bracketleft && wait_title "era 2008, mode native, 8 CPUs" &&
		xdotool key --window "$win" 6 && wait_title "era 2008, mode mutex, 8 CPUs"
	quit
fi
ok "$f"

f=$fail
if open "an era that ran on one CPU takes one" run "$root/scripts/inode.lua" --set loops=12 --gui; then
	for era in 2005 2003 2002 2001 1999 1997 1996; do
		xdotool key --window "$win" bracketleft && wait_title "era $era, mode native, 8 CPUs" ||
			break
	done
	xdotool key --window "$win" bracketleft && wait_title "era 1994, mode native, 1 CPU)"
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

# Clicks, as a visitor makes them.  LOCKMUSEUM_VIEW_DUMP makes the window
# print where its lanes and markers are ("place: lock NAME X Y") and the
# text of each explanation a click opens ("inspect: ..."), which is what
# the box on screen shows.
place() { # KIND [NAME]: "X Y" of the first such place, from the window's dump
	awk -v k="$1" -v n="${2:-}" '$1 == "place:" && $2 == k && (n == "" || $3 == n) \
		{ print $(NF - 1), $NF; exit }' "$tmp/out"
}
wait_for() { # PATTERN: wait until stdout has it
	for _ in $(seq 50); do
		grep -q "$1" "$tmp/out" && return 0
		sleep 0.1
	done
	return 1
}

f=$fail
if LOCKMUSEUM_VIEW_DUMP=1 open "a click on a violation marker explains it whole" run \
	"$root/tests/view/lost.lua" --mode cli --gui; then
	wait_for '^place: end' || no "the window printed no places"
	xy=$(place violation 1)
	if [ -z "$xy" ]; then
		no "no violation marker in view when the window opens (the key moment)"
	else
		xdotool mousemove --window "$win" $xy click 1
		wait_for '^inspect: end' || no "the click opened no explanation"
		grep -q "^inspect: Violation 1 of [0-9]*: lost-update" "$tmp/out" ||
			no "the explanation does not name violation 1, a lost update"
		grep -q "then 'adder/[12]' wrote [0-9]* over it\$" "$tmp/out" ||
			no "the core's message is not there whole"
		grep -q '^3\. adder/[12] writes [0-9]* at t=.*the write of step 2 is lost' "$tmp/out" ||
			no "the read, write and overwrite are not told"
		! grep -q '\.\.\.' "$tmp/out" || no "the explanation is cut"
		xdotool key --window "$win" s
		for _ in $(seq 50); do
			[ -s "$tmp/shots/lockmuseum-001.png" ] && break
			sleep 0.1
		done
		[ -s "$tmp/shots/lockmuseum-001.png" ] || no "S saved no screenshot of the explanation"
		# Escape closes the explanation, not the window
		xdotool key --window "$win" Escape
		sleep 0.3
		kill -0 "$app" 2>/dev/null || no "Escape closed the window, not the explanation"
	fi
	quit
fi
ok "$f"

f=$fail
rm -rf "$tmp/shots"
# The 2016 mutex, which hands itself to a waiter that has waited: under the
# inode convoy it is owned nearly all the time.  The 2006 locks are free much of the
# time, their woken waiters on their way, so which moment the window opens
# on would decide whether there is a holder to show.
if LOCKMUSEUM_VIEW_DUMP=1 open "a click on a lock lane shows holder and waiters" run \
	"$root/scripts/inode.lua" --era 2016 --mode mutex --gui; then
	wait_for '^place: end' || no "the window printed no places"
	xy=$(place lock 'dir->i_sem')
	grep -q '^place: task dirop/' "$tmp/out" || no "no task lanes"
	if [ -z "$xy" ]; then
		no "no lock lane for dir->i_sem"
	else
		xdotool mousemove --window "$win" $xy click 1
		wait_for '^inspect: end' || no "the click opened nothing"
		grep -q '^inspect: dir->i_sem (mutex) at t=' "$tmp/out" || no "not the lock clicked"
		grep -q '^held by dirop/[0-9]* since ' "$tmp/out" || no "no holder"
		n=$(sed -n 's/^\([0-9]*\) waiting, longest first:$/\1/p' "$tmp/out")
		[ "${n:-0}" -ge 2 ] || no "'$n' waiting: the inode convoy has more"
		shown=$(grep -cE '^dirop/[0-9]*: (asleep|spinning) since ' "$tmp/out")
		[ "$shown" -ge 2 ] || no "the waiters are not named ($shown lines)"
	fi
	# an event on a CPU lane: told whole, with the scenario line it ran
	xy=$(place cpu CPU0)
	n=$(grep -c '^inspect: end' "$tmp/out")
	xdotool mousemove --window "$win" $xy click 1
	for _ in $(seq 50); do
		[ "$(grep -c '^inspect: end' "$tmp/out")" -gt "$n" ] && break
		sleep 0.1
	done
	grep -q '^dirop/[0-9]* was running .*scripts/inode.lua:[0-9]*$' "$tmp/out" ||
		no "a click on a CPU lane's event does not say which line of inode.lua ran"
	quit
fi
ok "$f"

# Play mode (issue 14): the visitor is the scheduler.  The window prints
# each question with where its options are ("play: option K TASK X Y")
# and how the run ended; keys and clicks answer, as a player's would.
wait_count() { # PATTERN N: wait until stdout has N lines matching it
	for _ in $(seq 100); do
		[ "$(grep -c "$1" "$tmp/out")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# Projector mode in a lecture hall's window, 1280x800 at --scale 2: text
# wraps rather than being cut.  With LOCKMUSEUM_VIEW_DUMP the window
# prints every run of text of a frame after each new set of places
# ("text: RUN" ... "text: end"); a run cut with an ellipsis ends with one.
# Every word of the scenario's title (the window's title bar names it)
# must be on screen, whole, and no run may be cut -- on the placard and,
# after V, on the figures.
texts() { # SIZE: the text runs of the last frame told after "place: size SIZE"
	awk -v sz="place: size $1" 'index($0, sz) == 1 { grab = 1; n = 0; delete t; next }
		grab && $0 == "text: end" { grab = 0; done = n; for (i = 1; i <= n; i++) keep[i] = t[i] }
		grab && /^text: / { t[++n] = substr($0, 7) }
		END { for (i = 1; i <= done; i++) print keep[i] }' "$tmp/out"
}
wait_texts() { # SIZE: wait until a frame at SIZE has told its text
	for _ in $(seq 100); do
		[ -n "$(texts "$1")" ] && return 0
		sleep 0.1
	done
	return 1
}
option_xy() { # K: "X Y" of option K of the last question
	awk -v k="$1" '$1 == "play:" && $2 == "question" { delete xy }
		$1 == "play:" && $2 == "option" && $3 == k { xy[k] = $(NF - 1) " " $NF }
		END { if (k in xy) print xy[k] }' "$tmp/out"
}
abba=$root/scripts/challenges/rename_abba.lua

f=$fail
if LOCKMUSEUM_VIEW_DUMP=1 open "play --gui: solved by keys, undo, saved, replayed" play "$abba" \
	--gui --save "$tmp/keys.schedule"; then
	title_has ", play)"
	wait_count '^play: question 0 task mv /a/x /b/x line [0-9]' 1 ||
		no "the first question is not the first rename's"
	grep -q '^play: option 1 mv /b/y /a/y ' "$tmp/out" || no "option 1 is not the other rename"
	# Enter lets the task go: the next question; U and Backspace undo it
	xdotool key --window "$win" Return
	wait_count '^play: question [1-9]' 1 || no "Enter did not lead to the next question"
	xdotool key --window "$win" u
	wait_count '^play: question 0 ' 2 || no "U did not go back to the first question"
	xdotool key --window "$win" Return
	wait_count '^play: question [1-9]' 2 || no "Enter, again, did not go on"
	xdotool key --window "$win" BackSpace
	wait_count '^play: question 0 ' 3 || no "Backspace did not go back to the first question"
	# R from here is real timing: no deadlock, the goal not reached
	xdotool key --window "$win" r
	wait_count '^play: ended completed holds 0 goal not-reached' 1 ||
		no "R at the first question should end the run as real timing does"
	xdotool key --window "$win" u
	wait_count '^play: question 0 ' 4 || no "U after the end did not go back"
	# 1 holds the first rename for the second; R runs to the end: deadlock
	xdotool key --window "$win" 1
	wait_count '^play: question [1-9]' 3 || no "1 did not lead to the next question"
	xdotool key --window "$win" r
	wait_count '^play: ended deadlock holds 1 goal reached' 1 || no "1 then R: no deadlock"
	xdotool key --window "$win" w
	wait_count "^play: saved $tmp/keys.schedule" 1 || no "W did not save at --save"
	wait_title ", play, saved)"
	quit
	"$BIN" run "$abba" --schedule "$tmp/keys.schedule" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 3 ] || no "the saved schedule replays to exit $rc, not 3 (deadlock)"
fi
ok "$f"

f=$fail
rm -rf "$tmp/shots"
if LOCKMUSEUM_VIEW_DUMP=1 open "G in the window, then clicks: the goal, saved, replayed" run \
	"$abba" --gui; then
	xdotool key --window "$win" g
	wait_title ", play)"
	wait_count '^play: question 0 ' 1 || no "G did not start play mode at the first question"
	xy=$(option_xy 1)
	[ -n "$xy" ] || no "no option 1 on screen"
	xdotool mousemove --window "$win" $xy click 1
	wait_count '^play: question [1-9]' 1 || no "a click on option 1 did not answer"
	# then let every task go, one click on "Enter" (option 0) at a time
	for i in $(seq 40); do
		grep -q '^play: ended' "$tmp/out" && break
		n=$(grep -c '^play: end$' "$tmp/out")
		xy=$(option_xy 0)
		[ -n "$xy" ] || break
		xdotool mousemove --window "$win" $xy click 1
		wait_count '^play: end$' $((n + 1)) || break
	done
	wait_count '^play: ended deadlock holds 1 goal reached' 1 || no "the clicks did not deadlock"
	xdotool key --window "$win" w
	wait_count '^play: saved out/challenge_rename_abba.schedule' 1 ||
		no "W did not save at the default name"
	xdotool key --window "$win" g
	for _ in $(seq 100); do
		title=$(xdotool getwindowname "$win" 2>/dev/null)
		case $title in *", play"*) sleep 0.1 ;; *) break ;; esac
	done
	case $title in *", play"*) no "G did not leave play mode" ;; esac
	quit
	"$BIN" run "$abba" --schedule "$tmp/shots/out/challenge_rename_abba.schedule" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 3 ] || no "the schedule saved by clicks replays to exit $rc, not 3"
fi
ok "$f"

# Interrupts in play: the irq challenges are played to their goal in the
# window, from the moves of their shipped solution files (run_play.sh
# does the same at the terminal): Enter (or a click on option 0) until
# the question at the decision's choice point, then the option that
# names what it lets go first -- "irq NAME", an interrupt's row -- by its
# number key or by a click on the row.  The saved schedule must hold the
# solution's decisions and replay to the goal with the solution's trace.
last_question() { # the index of the last question told, or -1
	local q
	q=$(awk '$1 == "play:" && $2 == "question" { q = $3 } END { print q }' "$tmp/out")
	echo "${q:--1}"
}
option_named() { # NAME: the number of the option of the last question named NAME
	awk -v who="$1" '$1 == "play:" && $2 == "question" { delete k }
		$1 == "play:" && $2 == "option" {
			name = $4; for (i = 5; i <= NF - 2; i++) name = name " " $i
			k[name] = $3 }
		END { if (who in k) print k[who] }' "$tmp/out"
}
answer() { # HOW K: answer option K of the last question by "keys" or "clicks"
	local n
	n=$(grep -c '^play: end$' "$tmp/out")
	if [ "$1" = keys ]; then
		if [ "$2" = 0 ]; then xdotool key --window "$win" Return
		else
			# a number longer than one digit is typed whole, then Enter
			xdotool type --window "$win" "$2"
			[ "$2" -lt 10 ] || xdotool key --window "$win" Return
		fi
	else
		local xy
		xy=$(option_xy "$2")
		[ -n "$xy" ] || { no "option $2 is not on screen"; return 1; }
		xdotool mousemove --window "$win" $xy click 1
	fi
	wait_count '^play: end$' $((n + 1)) || { no "option $2 ($1) drew nothing new"; return 1; }
}
irq_by_hand() { # HOW NAME WANT
	local how=$1 name=$2 want=$3
	local f=$root/scripts/challenges/$name.lua sol=$root/scripts/challenges/solutions/$name.schedule
	local point who q k irqs=0
	wait_count '^play: question ' 1 || { no "no first question"; return; }
	while read -r point who; do
		for _ in $(seq 200); do
			q=$(last_question)
			[ "$q" -lt "$point" ] || break
			answer "$how" 0 || return
		done
		[ "$q" = "$point" ] || { no "the game skipped choice point $point (at $q)"; return; }
		k=$(option_named "$who")
		[ -n "$k" ] || { no "'$who' is no option at choice point $point"; return; }
		case $who in irq\ *) irqs=$((irqs + 1)) ;; esac
		answer "$how" "$k" || return
		if [ "$how" = keys ]; then
			# U takes the answer back: the same question again
			local n
			n=$(grep -c "^play: question $point " "$tmp/out")
			xdotool key --window "$win" u
			wait_count "^play: question $point " $((n + 1)) ||
				{ no "U did not go back to question $point"; return; }
			answer "$how" "$k" || return
		fi
	done < <(awk '/^decisions /{ d = 1; next } d && !/^#/' "$sol" |
		 sed -E 's/^([0-9]+) [0-9]+ [^ ]+ -- .* lets (.*) go first.*/\1 \2/')
	[ "$irqs" -gt 0 ] || no "the solution of $name lets no interrupt come first"
	xdotool key --window "$win" r
	wait_count '^play: ended .* goal reached' 1 || { no "$how: the goal was not reached"; return; }
	xdotool key --window "$win" w
	wait_count "^play: saved $tmp/$name.schedule" 1 || { no "W did not save"; return; }
	quit
	diff <(sed '1,/^decisions /d' "$sol") <(sed '1,/^decisions /d' "$tmp/$name.schedule") >/dev/null ||
		no "the saved decisions are not the solution's: $(tail -n 1 "$tmp/$name.schedule")"
	local h1 h2 r1
	"$BIN" run "$f" --schedule "$tmp/$name.schedule" >"$tmp/r1" 2>/dev/null
	r1=$?
	h1=$(grep -o 'trace [0-9a-f]*' "$tmp/r1")
	h2=$("$BIN" run "$f" --schedule "$sol" 2>/dev/null | grep -o 'trace [0-9a-f]*')
	[ "$r1" = "$want" ] && [ -n "$h1" ] && [ "$h1" = "$h2" ] ||
		no "the schedule saved by $how replays to exit $r1 ($h1), the solution to $h2"
}

# irq_case HOW NAME WANT WHAT: play challenge NAME in the window to its
# goal by HOW (keys or clicks), its interrupt's answer included
irq_case() {
	local f=$fail
	if LOCKMUSEUM_VIEW_DUMP=1 open "play --gui $2: $4 reaches the goal" \
		play "$root/scripts/challenges/$2.lua" --gui --save "$tmp/$2.schedule"; then
		irq_by_hand "$1" "$2" "$3"
		[ -z "$app" ] || quit
	fi
	ok "$f"
}
irq_case keys cli_smp 1 "an interrupt's number key"
irq_case clicks sleep_on 3 "a click on an interrupt's row"

nothing_cut() { # SIZE WHAT
	local cut
	cut=$(texts "$1" | grep -m 3 $'\xe2\x80\xa6')
	[ -z "$cut" ] || no "$2: text cut with an ellipsis: $(echo "$cut" | tr '\n' '|')"
}
for scen in inode kmod; do
	f=$fail
	if LOCKMUSEUM_VIEW_DUMP=1 open "projector mode at 1280x800 --scale 2 wraps $scen.lua's text" run \
		"$root/scripts/$scen.lua" --scale 2 --gui; then
		xdotool windowsize --sync "$win" 1280 800
		if ! wait_texts "1280 800 projector"; then
			no "no text told at 1280x800 in projector mode"
		else
			nothing_cut "1280 800 projector" "the placard"
			# the title bar: "lockmuseum - TITLE (era ...)"
			words=${title#lockmuseum - }
			words=${words% (era *}
			shown=$(texts "1280 800 projector" | tr -d ' \n')
			for word in $words; do
				case $shown in
				*"$word"*) ;;
				*) no "the title's word '$word' is not on screen whole" ;;
				esac
			done
			xdotool key --window "$win" v
			if wait_texts "1280 800 projector figures"; then
				nothing_cut "1280 800 projector figures" "the figures (V)"
				texts "1280 800 projector figures" | grep -q '^CPU time, ' ||
					no "V did not show the figures"
			else
				no "V told no new frame"
			fi
		fi
		quit
	fi
	ok "$f"
done

# Idle CPUs fold into one lane (the mlx5 exhibit: CPU0 takes the interrupts,
# the other CPUs are all but idle), and I unfolds them into a lane each, then
# folds them again; the window's dump says how many rows and how many folded:
# the folded CPUs are one row, and the rows with them make the 64 CPUs.
f=$fail
if LOCKMUSEUM_VIEW_DUMP=1 open "idle CPUs fold into one lane, I unfolds them" run \
	"$root/scripts/mlx5.lua" --era 2022 --set throttle=false --gui; then
	wait_for '^place: cpus ' || no "the window printed no CPU rows"
	folded=$(grep -m1 '^place: cpus ' "$tmp/out")
	read -r rows nfold <<<"$(sed -n 's/^place: cpus \([0-9]*\) rows \([0-9]*\) folded$/\1 \2/p' <<<"$folded")"
	[ -n "$nfold" ] && [ "$nfold" -ge 60 ] && [ $((rows - 1 + nfold)) -eq 64 ] ||
		no "the idle CPUs are not one lane: $folded"
	xdotool key --window "$win" i
	wait_for '^place: cpus 64 rows 0 folded$' || no "I did not give every CPU its lane"
	xdotool key --window "$win" i
	for _ in $(seq 50); do
		[ "$(grep -c "^$folded\$" "$tmp/out")" -ge 2 ] && break
		sleep 0.1
	done
	[ "$(grep -c "^$folded\$" "$tmp/out")" -ge 2 ] ||
		no "I again did not fold them"
	quit
fi
ok "$f"

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
