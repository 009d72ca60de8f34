#!/usr/bin/env bash
# run_explore.sh BIN - explore over schedules (issue 14): the strategies
# find what seeds cannot, the schedule they save replays byte for byte,
# the bounded search says when it covered its space, and a schedule file
# is read as hostile input.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.
set -u

. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"
export LOCKMUSEUM_DATA=$root
cd "$tmp" || exit 2

runner_guard 60

pass=0
fail=0
current=""

# t NAME EXPECTED_EXIT ARGS...: run BIN ARGS into $tmp/out and $tmp/err
t() {
	current=$1
	local want=$2
	shift 2
	"${guard[@]}" "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	failed=false
	[ "$rc" = "$want" ] || no "exit status $rc, expected $want"
}
no() {
	if ! $failed; then
		fail=$((fail + 1))
		echo "FAIL $current: $1"
		sed -n '1,3s/^/  stderr: /p' "$tmp/err"
	fi
	failed=true
}
done_() { $failed || pass=$((pass + 1)); }
one_line_err() {
	local n
	n=$(wc -l <"$tmp/err")
	[ "$n" -eq 1 ] || no "stderr has $n lines, expected one"
}
# hash_of ARGS...: the trace hash of `run ARGS --report json`
hash_of() {
	"$BIN" run "$@" --report json 2>/dev/null | sed -n 's/^  "trace_hash": "\([0-9a-f]*\)",*$/\1/p'
}
# replays_to STATUS SCENARIO SCHEDULE: two replays, both STATUS, one hash
replays_to() {
	local st1 st2 h1 h2
	"$BIN" run "$2" --schedule "$3" >/dev/null 2>&1
	st1=$?
	"$BIN" run "$2" --schedule "$3" >/dev/null 2>&1
	st2=$?
	[ "$st1" = "$1" ] && [ "$st2" = "$1" ] || no "the replays of $3 exit $st1 and $st2, expected $1"
	h1=$(hash_of "$2" --schedule "$3")
	h2=$(hash_of "$2" --schedule "$3")
	[ -n "$h1" ] && [ "$h1" = "$h2" ] || no "two replays of $3 gave trace hashes '$h1' and '$h2'"
}

abba=$root/tests/explore/fixed_abba.lua
three=$root/tests/explore/three_preemptions.lua

# ------------------------------------------------- what seeds cannot find --

t "seeds alone never deadlock a fixed-timing AB-BA" 1 explore "$abba" --seeds 1..50 --goal deadlock
out_has '^no seed in 1\.\.50 reaches the goal'
done_

t "pct finds the AB-BA deadlock, saves and shrinks the schedule" 0 \
	explore "$abba" --strategy pct:2 --seeds 1..50 --goal deadlock --out "$tmp/pct.schedule"
out_has '^pct:2 seed [0-9]+ reaches the goal \(deadlock\) after [0-9]+ runs?'
out_has '^shrunk from [0-9]+ to 1 preemption '
out_has '<- held here: ba goes first'
out_has "^replay: lockmuseum run .*fixed_abba.lua --schedule $tmp/pct.schedule\$"
[ -s "$tmp/pct.schedule" ] || no "no schedule saved"
replays_to 3 "$abba" "$tmp/pct.schedule"
done_

t "exhaustive:2 finds the AB-BA deadlock" 0 \
	explore "$abba" --strategy exhaustive:2 --goal deadlock --out "$tmp/ex.schedule"
out_has '^exhaustive:2 reaches the goal \(deadlock\)'
replays_to 3 "$abba" "$tmp/ex.schedule"
done_

t "random finds it too" 0 explore "$abba" --strategy random --seeds 1..100 --goal deadlock \
	--out "$tmp/random.schedule"
replays_to 3 "$abba" "$tmp/random.schedule"
done_

t "the default schedule name is the scenario's" 0 explore "$abba" --strategy exhaustive:1 --goal deadlock
[ -s "$tmp/fixed_abba.schedule" ] || no "no fixed_abba.schedule in the current directory"
out_has '^replay: lockmuseum run .* --schedule fixed_abba\.schedule$'
done_

# A scenario's name is somebody else's text (issue 28): without --out the
# schedule is named after it, but only as a name in the current folder.
mkdir -p "$tmp/names/cwd" "$tmp/names/elsewhere"
for name in "../elsewhere/x" "$tmp/names/elsewhere/y" ".hidden"; do
	sed "s|name = \"fixed_abba\"|name = \"$name\"|" "$abba" >"$tmp/names/s.lua"
	grep -qF "name = \"$name\"" "$tmp/names/s.lua" || { echo "FAIL: cannot rename the scenario"; fail=$((fail + 1)); }
	current="explore without --out, a scenario named '$name': the schedule stays here"
	failed=false
	(cd "$tmp/names/cwd" && "${guard[@]}" "$BIN" explore ../s.lua --strategy exhaustive:1 \
		--goal deadlock >"$tmp/out" 2>"$tmp/err")
	[ $? = 0 ] || no "exit status $?, expected 0"
	[ -z "$(ls -A "$tmp/names/elsewhere")" ] || no "wrote into another folder: $(ls -A "$tmp/names/elsewhere")"
	[ "$(ls -A "$tmp/names/cwd" | wc -l)" = 1 ] || no "not one file here: $(ls -A "$tmp/names/cwd")"
	ls -A "$tmp/names/cwd" | grep -q '^_.*\.schedule$' || no "not a plain name: $(ls -A "$tmp/names/cwd")"
	rm -f "$tmp/names/cwd"/* "$tmp/names/cwd"/.[!.]*
	done_
done

t "explore --out that cannot be written names the path" 2 explore "$abba" --strategy exhaustive:1 \
	--goal deadlock --out "$tmp/no/such/dir/x.schedule"
one_line_err
err_has "^lockmuseum: --out $tmp/no/such/dir/x\.schedule: cannot write"
done_

t "a replay line keeps the run's options" 0 explore "$abba" --strategy exhaustive:1 --goal deadlock \
	--duration 10ms --out "$tmp/opt.schedule"
out_has "^replay: lockmuseum run .*fixed_abba.lua --duration 10ms --schedule $tmp/opt.schedule\$"
done_

# ----------------------------------------------------- bounded exhaustive --

t "exhaustive:1 covers its space and does not find a two-preemption deadlock" 1 \
	explore "$three" --strategy exhaustive:1 --goal deadlock
out_has '^exhaustive:1: no schedule in [0-9]+ runs reaches the goal \(deadlock\); [0-9]+ distinct interleavings'
out_has '^covered: yes \(every schedule with at most 1 preemption\)'
done_

t "exhaustive:2 finds it, with two preemptions" 0 \
	explore "$three" --strategy exhaustive:2 --goal deadlock --out "$tmp/three.schedule"
out_has '^shrunk from [0-9]+ to 2 preemptions '
[ "$(grep -c '<- held here' "$tmp/out")" = 2 ] || no "the table does not show two holds"
replays_to 3 "$three" "$tmp/three.schedule"
done_

# ------------------------------------------------ coverage claims hold --

# A hold waits until the task it let go first has stepped, however long
# that is (issue 32): an AB-BA whose second task starts late deadlocks with
# one preemption, so no search of one or two preemptions may say it
# covered its space without finding it -- for any gap.
late="$root/tests/explore/late_abba.lua"
for gap in 200000 2000000 5000000 50000000; do
	for s in exhaustive:1 exhaustive:2 pct:2; do
		t "$s finds the AB-BA $gap ns apart" 0 explore "$late" --set gap=$gap \
			--strategy "$s" --goal deadlock --out "$tmp/late.schedule"
		out_has "^$s( seed [0-9]+)? reaches the goal \\(deadlock\\)"
		grep -q '^covered: yes' "$tmp/out" && no "claims it covered its space"
		done_
	done
done
# ... and so are the cases of the first round, with default options,
# bound_sleep.lua's deadlock (one hold), which a textbook sleep set prunes
# under the bound: it says "covered: yes" at exhaustive:1 (docs/scenarios.md,
# "Sleep sets and the bound"), and shifted_abba.lua's, which only the
# later clock of a hold that orders no steps differently reaches (skipping
# such holds, exhaustive:1 said "covered: yes" over it)
for f in fixed_abba flaky_abba late_hold bound_sleep shifted_abba; do
	for s in exhaustive:1 exhaustive:2 pct:2; do
		t "$s finds $f's deadlock with default options" 0 explore "$root/tests/explore/$f.lua" \
			--strategy "$s" --goal deadlock --out "$tmp/case.schedule"
		out_has "^$s( seed [0-9]+)? reaches the goal \\(deadlock\\)"
		grep -q '^covered: yes' "$tmp/out" && no "claims it covered its space"
		done_
	done
done
# "covered: yes" is never printed over a space in which a deadlock exists
# within the preemption bound, with --por or without: each of these
# deadlocks with K holds, so exhaustive:K finds it or says "covered: no".
# --por skips a last hold that orders no shared steps differently, but
# that hold would also have made the held task step later, and a race the
# later clock decides can go the other way: shifted_abba.lua deadlocks
# only through such a hold, which --por skips at exhaustive:1.
for c in shifted_abba:1 bound_sleep:1 late_hold:1 fixed_abba:1 three_preemptions:2; do
	f=${c%:*} k=${c#*:}
	for por in "" --por; do
		current="exhaustive:$k $por never says covered over $f's deadlock"
		failed=false
		"${guard[@]}" "$BIN" explore "$root/tests/explore/$f.lua" --strategy exhaustive:$k \
			--goal deadlock $por --out "$tmp/case.schedule" >"$tmp/out" 2>"$tmp/err" </dev/null
		rc=$?
		[ "$rc" = 0 ] || [ "$rc" = 1 ] || no "exit status $rc, expected 0 or 1"
		grep -q '^covered: yes' "$tmp/out" && no "says covered: yes, found nothing"
		done_
	done
done
t "exhaustive:1 --por on shifted_abba.lua: holds skipped, not covered" 1 \
	explore "$root/tests/explore/shifted_abba.lua" --strategy exhaustive:1 --goal deadlock --por
out_has '^covered: no -- [1-9][0-9]* holds? skipped as reorderings of commuting steps; their later clock is not run \(without --por they are\)$'
done_
# late_hold.lua, two holds, --goal check (nothing fails: the whole space
# is searched): skipping the commuting holds reached 30 of the 39 traces
# and still said "covered: yes".  By default every hold is run: all 39,
# and the claim is true; with --por the claim is "no", with the count.
t "exhaustive:2 on late_hold.lua reaches all 39 traces and says so" 1 \
	explore "$root/tests/explore/late_hold.lua" --strategy exhaustive:2 --goal check \
	--duration 2ms --report json
out_has '"traces": 39,'
out_has '"covered": true,'
out_has '"pruned": 0,'
done_
t "exhaustive:2 on late_hold.lua says covered: yes" 1 \
	explore "$root/tests/explore/late_hold.lua" --strategy exhaustive:2 --goal check --duration 2ms
out_has '^covered: yes \(every schedule with at most 2 preemptions\)$'
out_has '^reduction: none '
done_
t "exhaustive:2 --por on late_hold.lua says covered: no, and how many holds it skipped" 1 \
	explore "$root/tests/explore/late_hold.lua" --strategy exhaustive:2 --goal check \
	--duration 2ms --por
out_has '^covered: no -- [1-9][0-9]* holds skipped as reorderings of commuting steps; their later clock is not run \(without --por they are\)$'
out_has '^reduction: [1-9][0-9]* holds skipped as reorderings of commuting steps$'
done_
t "exhaustive:2 --por on late_hold.lua, JSON: covered false, the count and the reason" 1 \
	explore "$root/tests/explore/late_hold.lua" --strategy exhaustive:2 --goal check \
	--duration 2ms --por --report json
out_has '"covered": false,'
out_has '"coverage": "no -- [1-9][0-9]* holds skipped as reorderings of commuting steps; their later clock is not run \(without --por they are\)",'
out_has '"pruned": [1-9][0-9]*,'
done_
t "a search that stops at its hit says so in the JSON's coverage" 0 \
	explore "$root/tests/explore/bound_sleep.lua" --strategy exhaustive:2 --goal deadlock \
	--report json
out_has '"covered": false,'
out_has '"coverage": "no -- the search stopped at its first hit",'
done_
t "the late AB-BA schedule says its holds are unbounded and replays" 0 \
	explore "$late" --strategy exhaustive:1 --goal deadlock --out "$tmp/late.schedule"
grep -qx 'hold-max none' "$tmp/late.schedule" || no "no 'hold-max none' line in the schedule"
replays_to 3 "$late" "$tmp/late.schedule"
done_

# With --hold-max, a hold that the bound ends before its other went is a
# branch cut: the search says so and how many, never "covered: yes".
for s in exhaustive:1 exhaustive:2; do
	t "$s --hold-max 1ms on the 5 ms AB-BA: not covered, holds cut" 1 \
		explore "$late" --strategy "$s" --goal deadlock --hold-max 1ms
	out_has '^covered: no -- [0-9]+ holds? cut at 1\.00 ms by --hold-max'
	grep -q '^covered: yes' "$tmp/out" && no "claims it covered its space"
	done_
done
t "a bound long enough cuts nothing" 0 \
	explore "$late" --strategy exhaustive:1 --goal deadlock --hold-max 10ms --out "$tmp/l10.schedule"
grep -qx 'hold-max 10000000' "$tmp/l10.schedule" || no "no 'hold-max 10000000' line"
replays_to 3 "$late" "$tmp/l10.schedule"
done_
t "--report json says how many holds were cut" 1 \
	explore "$late" --strategy exhaustive:1 --goal deadlock --hold-max 1ms --report json
out_has '"covered": false'
out_has '"holds_cut": [1-9]'
done_

# The run bound is one for all the workers, not one each.
export LOCKMUSEUM_EXPLORE_MAX_RUNS=10
t "the run bound is global over --jobs 2" 1 \
	explore "$root/tests/explore/independent.lua" --set abba=false \
	--strategy exhaustive:2 --goal deadlock --jobs 2
unset LOCKMUSEUM_EXPLORE_MAX_RUNS
out_has '^exhaustive:2: no schedule in 10 runs reaches the goal'
out_has '^covered: no -- stopped at the bound of 10 runs'
done_

# The search's own memory obeys --max-memory: 128 tasks, whose space no
# search finishes, stop at the bound with the runs made and "covered: no"
# (issue 28, item 11: the pending subtrees were kept whole, 1.4 GB).
t "exhaustive stops at --max-memory, says what it did" 2 \
	explore "$root/tests/explore/many_tasks.lua" --strategy exhaustive:2 --goal deadlock \
	--max-memory 1M --jobs 1
out_has '^exhaustive:2: no schedule in [1-9][0-9]* runs? reaches the goal'
out_has '^covered: no -- stopped at --max-memory \(1048576 bytes\)'
one_line_err
err_has 'reached --max-memory \(1048576 bytes\) after [0-9]+ runs'
done_

# ---------------------------------------------- partial-order reduction --

# The reduction (--por) keeps the traces of these small models: every
# Mazurkiewicz trace (the order of each object's conflicting accesses;
# "traces" in the JSON) that the default search of every decision
# sequence reaches within K holds, the reduced search reaches too -- and
# it makes no more runs.  Not of every model (late_hold.lua above: a
# skipped hold's later clock), so a reduced search that skipped a hold
# never says it covered its space.  The
# ratio of runs to traces says how far from optimal (one run a trace) it
# is.  A hold keeps its CPU: before that was counted, holding a task at its
# end (it touches nothing) was skipped though it let another task have
# the CPU first -- 7 traces of 8 for 3 tasks, one hold.
json_num() { sed -n "s/^  \"$1\": \([0-9]*\),*\$/\1/p" "$2"; }
por_sound() { # LABEL K ARGS...
	local label=$1 k=$2 rp tp rb tb
	shift 2
	"$BIN" explore "$@" --strategy exhaustive:$k --goal deadlock --jobs 1 --por --report json \
		>"$tmp/por.json" 2>/dev/null
	"$BIN" explore "$@" --strategy exhaustive:$k --goal deadlock --jobs 1 \
		--report json >"$tmp/brute.json" 2>/dev/null
	rp=$(json_num runs "$tmp/por.json")
	tp=$(json_num traces "$tmp/por.json")
	rb=$(json_num runs "$tmp/brute.json")
	tb=$(json_num traces "$tmp/brute.json")
	current="the reduction keeps every trace: $label, exhaustive:$k"
	failed=false
	if [ -z "$tp" ] || [ -z "$tb" ] || [ "$tp" != "$tb" ]; then
		no "the reduced search reaches ${tp:-?} traces, the brute force ${tb:-?}"
	elif [ "$(json_num pruned "$tmp/por.json")" != 0 ] &&
	     ! grep -q '^  "covered": false,$' "$tmp/por.json"; then
		no "the reduced search skipped holds and still says it covered its space"
	elif [ "$rp" -gt "$rb" ]; then
		no "the reduced search made $rp runs, the brute force $rb"
	elif [ -n "${max_ratio:-}" ] && awk -v r="$rp" -v t="$tb" -v m="$max_ratio" \
		'BEGIN { exit !(r > m * t) }'; then
		no "the reduced search made $rp runs for $tb traces, more than $max_ratio a trace"
	else
		echo "  $label, exhaustive:$k: $tb traces; $rp runs reduced (ratio $(awk -v r="$rp" -v t="$tb" 'BEGIN { printf "%.1f", r / t }')), $rb brute force"
	fi
	done_
}
so=$root/tests/bench/same_order.lua
for n in 2 3 4; do
	for k in 1 2; do
		por_sound "$n tasks, one lock order" $k "$so" --set n=$n
	done
done
# A block or a wake-up is ordered against what it sleeps on and the
# scheduler, not against every step: a hold of a task whose steps are on
# lock b, until another task has blocked on lock a, is a reordering of
# commuting steps and is skipped (3.9 runs a trace when a block or a
# wake-up conflicted with every step and holds were skipped at every
# level: 74 runs; 63 with this dependency; 76 since holds are skipped at
# the last level only -- the ceiling guards against the reduction fading).
max_ratio=4.0 por_sound "3 tasks, one lock order, blocks ordered by their lock" 2 "$so" --set n=3
# A hold is skipped only at the last level: the held run differs in time
# (the held task steps later and keeps its CPU meanwhile), which a child
# of it can see, so its subtree is not the one it branches from.  Skipped
# at every level, this search reached 26 of its 27 traces.
por_sound "3 tasks, one lock order, three holds" 3 "$so" --set n=3
por_sound "independent.lua" 2 "$root/tests/explore/independent.lua" --set abba=false
por_sound "three_preemptions.lua" 2 "$three"
por_sound "late_abba.lua 20 us apart" 1 "$late" --set gap=20000
# A hold of task A at step j for B is not a repeat of A's hold at an
# earlier step i for B even when A's steps between commute with all that
# moves: held at i, A does them after B's step and its later steps come
# that much later, which can flip a race after it -- here a woken task
# and a newcomer for lock a (docs/scenarios.md, "Sleep sets and the
# bound").  A sleep set over the order of steps loses one of 24 traces.
por_sound "5 tasks, one lock order (holds at consecutive steps differ in time)" 1 "$so" --set n=5


# ------------------------------------------------- runs share their prefix --

# A run resumes a snapshot of an earlier one taken at their last common
# choice point (engine/cli/snapshot.h) instead of simulating the prefix
# again.  That changes the time and nothing else: the output, the JSON
# (runs, interleavings, traces, coverage, holds skipped and cut) and the
# schedule saved, byte for byte, as with every run made from its start
# (LOCKMUSEUM_EXPLORE_NO_SHARE=1) -- and the runs did resume ("resumed").
share_same() { # LABEL ARGS...
	local label=$1 n0 n1
	shift
	current="prefix sharing changes nothing but the time: $label"
	failed=false
	for v in 1 0; do
		rm -f "$tmp/share.schedule"
		LOCKMUSEUM_EXPLORE_NO_SHARE=$v "${guard[@]}" "$BIN" explore "$@" \
			--out "$tmp/share.schedule" >"$tmp/share$v.txt" 2>&1 </dev/null
		echo "exit $?" >>"$tmp/share$v.txt"
		[ -f "$tmp/share.schedule" ] && cp "$tmp/share.schedule" "$tmp/share$v.txt.schedule"
		LOCKMUSEUM_EXPLORE_NO_SHARE=$v "${guard[@]}" "$BIN" explore "$@" \
			--out "$tmp/share.schedule" --report json >"$tmp/share$v.json" 2>/dev/null </dev/null
	done
	cmp -s "$tmp/share1.txt" "$tmp/share0.txt" ||
		no "the output differs: $(diff "$tmp/share1.txt" "$tmp/share0.txt" | head -3 | tr '\n' ' ')"
	if [ -f "$tmp/share1.txt.schedule" ] || [ -f "$tmp/share0.txt.schedule" ]; then
		cmp -s "$tmp/share1.txt.schedule" "$tmp/share0.txt.schedule" || no "the schedules differ"
	fi
	grep -v '"resumed"\|"sharing"' "$tmp/share1.json" >"$tmp/share1.rest"
	grep -v '"resumed"\|"sharing"' "$tmp/share0.json" >"$tmp/share0.rest"
	cmp -s "$tmp/share1.rest" "$tmp/share0.rest" ||
		no "the JSON differs: $(diff "$tmp/share1.rest" "$tmp/share0.rest" | head -3 | tr '\n' ' ')"
	n1=$(json_num resumed "$tmp/share0.json")
	n0=$(json_num resumed "$tmp/share1.json")
	[ "$n0" = 0 ] || no "runs resumed with sharing off: '$n0'"
	# a sanitizer's build has no snapshots (engine/cli/snapshot.h): it says so
	if grep -q '"sharing": true' "$tmp/share0.json"; then
		[ -n "$n1" ] && [ "$n1" -gt 0 ] || no "no run resumed with sharing on: '$n1'"
	else
		grep -q '"sharing": false' "$tmp/share0.json" || no "no \"sharing\" in the JSON"
		[ "$n1" = 0 ] || no "runs resumed without snapshots: '$n1'"
	fi
	rm -f "$tmp"/share*.schedule
	done_
}
share_same "same order, 4 tasks, exhaustive:2" "$so" --set n=4 --strategy exhaustive:2 --jobs 1
share_same "same order, 4 tasks, exhaustive:2 --jobs 2" "$so" --set n=4 --strategy exhaustive:2 --jobs 2
share_same "three_preemptions.lua, exhaustive:2, found" "$three" --strategy exhaustive:2 --goal deadlock
share_same "independent.lua, exhaustive:3, found" "$root/tests/explore/independent.lua" \
	--strategy exhaustive:3 --goal deadlock --jobs 1
share_same "late_abba.lua, --hold-max 1ms: holds cut" "$late" --strategy exhaustive:2 \
	--goal deadlock --hold-max 1ms --jobs 1
share_same "flaky_abba.lua, pct:2, found" "$root/tests/explore/flaky_abba.lua" --strategy pct:2 \
	--seeds 1..60 --goal deadlock --jobs 1
share_same "fixed_abba.lua, random, found" "$abba" --strategy random --seeds 1..100 --goal deadlock \
	--jobs 1
share_same "interrupts among the others, exhaustive:2" \
	"$root/tests/scenarios/printk_console_sem_irq.lua" --strategy exhaustive:2 --goal deadlock --jobs 1

# independent.lua: two tasks on their own lock and var beside an AB-BA
# pair.  Holding a task only for an independent one reorders steps that
# commute: the reduction (--por) skips those holds and runs fewer
# schedules than the default, which runs every hold and says it covered
# the space; both clean without the inversion (the reduced search says
# "covered: no", for its skipped holds), the deadlock found (after one
# hold, at any K) with it.
indep=$root/tests/explore/independent.lua
runs_of() {
	sed -n -e 's/^exhaustive:[0-9]*: no schedule in \([0-9]*\) runs\{0,1\} .*/\1/p' \
		-e 's/^exhaustive:[0-9]* reaches the goal ([a-z]*) after \([0-9]*\) runs\{0,1\} .*/\1/p' "$tmp/out"
}
for k in 1 2; do
	t "exhaustive:$k --por, no inversion: clean, holds skipped, not covered" 1 \
		explore "$indep" --set abba=false --strategy exhaustive:$k --goal deadlock --por
	out_has '^covered: no -- [1-9][0-9]* holds skipped as reorderings of commuting steps;'
	out_has '^reduction: [1-9][0-9]* holds skipped as reorderings of commuting steps$'
	with=$(runs_of)
	done_
	for def in "" --no-por; do
		t "exhaustive:$k $def, no inversion: clean, every hold run, covered" 1 \
			explore "$indep" --set abba=false --strategy exhaustive:$k --goal deadlock $def
		out_has '^covered: yes'
		out_has '^reduction: none \(--no-por, the default: every hold is run\)$'
		without=$(runs_of)
		[ -n "$with" ] && [ -n "$without" ] && [ "$with" -lt "$without" ] ||
			no "$with runs with --por, $without without: not fewer"
		done_
	done
	for por in "" --por; do
		t "exhaustive:$k $por finds the inversion's deadlock" 0 \
			explore "$indep" --strategy exhaustive:$k --goal deadlock $por --out "$tmp/indep.schedule"
		out_has '^shrunk from [0-9]+ to 1 preemption '
		replays_to 3 "$indep" "$tmp/indep.schedule"
		done_
	done
done
for por in --por --no-por; do
	t "$por is for exhaustive only" 2 explore "$indep" --strategy pct:2 $por
	one_line_err
	err_has "^lockmuseum: $por: applies to --strategy exhaustive:K only"
	done_
done
t "--por and --no-por: one of them" 2 explore "$indep" --strategy exhaustive:1 --por --no-por
one_line_err
err_has 'give one'
done_

t "exhaustive:2 --por --report json counts the holds skipped" 1 \
	explore "$indep" --set abba=false --strategy exhaustive:2 --goal deadlock --por --report json
out_has '"por": true'
out_has '"pruned": [1-9][0-9]*'
done_

# ----------------------------------------------------------- shrinking --

# late_hold.lua deadlocks if "ab" is held at any of its choice points; pct
# holds it wherever its change point falls, often in a late round.  One
# hold cannot be dropped: only moving it earlier gives the shortest run,
# the hold at ab's first choice point (6 steps).
late=$root/tests/explore/late_hold.lua
for seed in 1 4 5 6 7 8; do
	t "shrinking moves pct seed $seed's hold to the first choice point" 0 \
		explore "$late" --strategy pct:2 --seeds $seed..$seed --goal deadlock \
		--out "$tmp/late.schedule"
	out_has '^shrunk from [0-9]+ to 1 preemption and from [0-9]+ to 6 steps in [0-9]+ runs:$'
	[ "$(grep -v '^#' "$tmp/late.schedule" | tail -1 | cut -d' ' -f1-3)" = "0 0 1" ] ||
		no "the hold is not at choice point 0: $(tail -1 "$tmp/late.schedule")"
	replays_to 3 "$late" "$tmp/late.schedule"
	done_
done

current="the schedule found does not depend on --jobs"
failed=false
for j in 1 3; do
	for st in exhaustive:2 pct:3; do
		"$BIN" explore "$three" --strategy $st --seeds 1..200 --goal deadlock --jobs $j \
			--out "$tmp/jobs-$st-$j.schedule" >/dev/null 2>&1 || no "$st --jobs $j: exit $?"
	done
done
for st in exhaustive:2 pct:3; do
	cmp -s "$tmp/jobs-$st-1.schedule" "$tmp/jobs-$st-3.schedule" ||
		no "$st: --jobs 3 saved another schedule than --jobs 1"
done
done_

# the first run (exhaustive's root, pct's first) is made once, before the
# workers fork, and each first-level subtree by one worker: the same count
# of runs and traces whatever --jobs
current="a search without a hit makes the same runs whatever --jobs"
failed=false
for st in exhaustive:0 exhaustive:1 exhaustive:2 pct:2 random; do
	for j in 1 2 3; do
		"$BIN" explore "$so" --set n=4 --strategy $st --seeds 1..40 --goal deadlock --jobs $j \
			>"$tmp/cover-$st-$j.txt" 2>&1
		[ $? = 1 ] || no "$st --jobs $j: exit status not 1"
	done
	for j in 2 3; do
		cmp -s "$tmp/cover-$st-1.txt" "$tmp/cover-$st-$j.txt" ||
			no "$st --jobs $j: $(head -1 "$tmp/cover-$st-$j.txt"), --jobs 1: $(head -1 "$tmp/cover-$st-1.txt")"
	done
done
done_

# Every figure explore prints -- the runs before the hit, the distinct
# interleavings and traces, the holds cut and skipped, the runs resumed
# -- is the one-job search's, whatever --jobs: the text, the JSON and the
# schedule file, byte for byte, on searches with a hit (the challenges,
# random, pct, --por, an interrupt hold) and without (--por, --hold-max,
# random's runs resumed).
chal=$root/scripts/challenges
same_jobs() {
	local name=$1 want=$2 j k rc
	shift 2
	current="the same output whatever --jobs: $name"
	failed=false
	for j in 1 2 3; do
		mkdir -p "$tmp/sj$j" && rm -f "$tmp/sj$j"/*
		for k in text json; do
			(cd "$tmp/sj$j" && "$BIN" explore "$@" --jobs $j --report $k >"$k" 2>"$k.err")
			rc=$?
			[ $rc = "$want" ] || no "--jobs $j --report $k: exit status $rc, expected $want"
		done
	done
	for j in 2 3; do
		for k in text json; do
			cmp -s "$tmp/sj1/$k" "$tmp/sj$j/$k" ||
				no "--jobs $j --report $k: $(diff "$tmp/sj1/$k" "$tmp/sj$j/$k" | grep '^[<>]' | head -2 | tr '\n' ' ')"
		done
		if grep -q '^schedule: ' "$tmp/sj1/text"; then
			ls "$tmp/sj1"/*.schedule >/dev/null 2>&1 || no "no schedule saved"
			for f in "$tmp/sj1"/*.schedule; do
				cmp -s "$f" "$tmp/sj$j/${f##*/}" || no "--jobs $j saved another ${f##*/}"
			done
		fi
	done
	done_
}
same_jobs "cli_smp exhaustive:2 check" 0 "$chal/cli_smp.lua" --strategy exhaustive:2 --goal check
same_jobs "rename_abba exhaustive:2 deadlock" 0 "$chal/rename_abba.lua" --strategy exhaustive:2 --goal deadlock
same_jobs "spin_sleep exhaustive:2 violation" 0 "$chal/spin_sleep.lua" --strategy exhaustive:2 --goal violation
same_jobs "console_mutex exhaustive:2 check" 0 "$chal/console_mutex.lua" --strategy exhaustive:2 --goal check
same_jobs "sleep_on exhaustive:2 check" 0 "$chal/sleep_on.lua" --strategy exhaustive:2 --goal check
same_jobs "three_preemptions exhaustive:2" 0 "$three" --strategy exhaustive:2 --goal deadlock
same_jobs "three_preemptions exhaustive:3 --por" 0 "$three" --strategy exhaustive:3 --goal deadlock --por
same_jobs "three_preemptions pct:3" 0 "$three" --strategy pct:3 --seeds 1..200 --goal deadlock
same_jobs "fixed_abba random" 0 "$root/tests/explore/fixed_abba.lua" --strategy random --seeds 1..200 --goal deadlock
same_jobs "independent exhaustive:2 --por" 0 "$root/tests/explore/independent.lua" --strategy exhaustive:2 --goal deadlock --por
same_jobs "same order n=4 exhaustive:2 --por, no hit" 1 "$so" --set n=4 --strategy exhaustive:2 --goal deadlock --por
same_jobs "same order n=4 random, no hit" 1 "$so" --set n=4 --strategy random --seeds 1..40 --goal deadlock
same_jobs "same order n=3 pct:2, no hit" 1 "$so" --set n=3 --strategy pct:2 --seeds 1..30 --goal deadlock
same_jobs "late_abba --hold-max 1ms, no hit" 1 "$root/tests/explore/late_abba.lua" --strategy exhaustive:2 --goal deadlock --hold-max 1ms
same_jobs "flaky_abba seeds" 0 "$root/tests/explore/flaky_abba.lua" --seeds 1..300 --goal deadlock
# the seeds' JSON counts the runs as the text does, the hit included
current="explore --seeds: the JSON's runs are the text's"
failed=false
[ "$(sed -n 's/^seed [0-9]* reaches the goal .* after \([0-9]*\) runs.*/\1/p' "$tmp/sj1/text")" = \
	"$(sed -n 's/^  "runs": \([0-9]*\),$/\1/p' "$tmp/sj1/json")" ] ||
	no "text: $(head -1 "$tmp/sj1/text"), JSON: $(grep '"runs"' "$tmp/sj1/json")"
done_

t "exhaustive --report json" 1 explore "$three" --strategy exhaustive:1 --goal deadlock --report json
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["strategy"] == "exhaustive:1" and j["covered"] is True and j["found"] is False, j
assert j["runs"] > 1 and j["interleavings"] > 1, j
' "$tmp/out" 2>"$tmp/py" || no "bad JSON: $(tail -1 "$tmp/py")"
done_

# ------------------------------------------------------ the default stays --

# A schedule of no decision: the run passes every choice point and holds
# nothing, so it must be the run without one, byte for byte.
cat >"$tmp/none.schedule" <<EOF
lockmuseum-schedule 1
scenario fixed_abba
scenario-hash $(sed -n 's/^scenario-hash //p' "$tmp/ex.schedule")
era 2006
mode native
cpus 2
seed 1
strategy none
decisions 0
EOF
current="a schedule of no decision is the run's own timing"
failed=false
h0=$(hash_of "$abba" --seed 1)
h1=$(hash_of "$abba" --schedule "$tmp/none.schedule")
[ -n "$h0" ] && [ "$h0" = "$h1" ] || no "trace hash '$h1' with the empty schedule, '$h0' without"
done_

# ------------------------------------------------------------ bad input --

t "an unknown strategy" 2 explore "$abba" --strategy dfs
one_line_err
err_has 'must be random, pct:D'
done_

t "pct:0 is no strategy" 2 explore "$abba" --strategy pct:0
one_line_err
done_

t "--out without a strategy" 2 explore "$abba" --seeds 1..3 --out "$tmp/x"
one_line_err
done_

t "a max: goal is for seeds" 2 explore "$abba" --strategy random --goal max:ops.a.p99
one_line_err
done_

t "--schedule is not an option of compare" 2 compare "$abba" --schedule "$tmp/ex.schedule"
one_line_err
done_

# bad_schedule NAME LINE CONTENT: the reader refuses it as FILE:LINE, exit 2
bad_schedule() {
	printf '%b' "$3" >"$tmp/bad.schedule"
	t "schedule file: $1" 2 run "$abba" --schedule "$tmp/bad.schedule"
	one_line_err
	err_has "bad\.schedule:$2: "
	done_
}
hdr="lockmuseum-schedule 1\nscenario fixed_abba\nscenario-hash 0123456789abcdef\nera 2006\nmode native\ncpus 2\nseed 1\nstrategy x\n"
bad_schedule "empty" 1 ""
bad_schedule "not a schedule" 1 "hello\n"
bad_schedule "a later version" 1 "lockmuseum-schedule 9\n"
bad_schedule "an unknown key" 2 "lockmuseum-schedule 1\nfrob 1\n"
bad_schedule "a key twice" 3 "lockmuseum-schedule 1\nera 2006\nera 2006\n"
bad_schedule "decisions before the header" 3 "lockmuseum-schedule 1\nera 2006\ndecisions 0\n"
bad_schedule "a bad hash" 3 "lockmuseum-schedule 1\nscenario x\nscenario-hash 12zz\n"
bad_schedule "cpus 0" 2 "lockmuseum-schedule 1\ncpus 0\n"
bad_schedule "a huge number" 10 "${hdr}decisions 1\n99999999999999999999999 0 1\n"
bad_schedule "a decision with two numbers" 10 "${hdr}decisions 1\n3 0\n"
bad_schedule "decisions out of order" 11 "${hdr}decisions 2\n5 0 1\n4 1 0\n"
bad_schedule "more decisions than announced" 10 "${hdr}decisions 0\n1 0 1\n"
bad_schedule "fewer decisions than announced" 11 "${hdr}decisions 2\n1 0 1\n"
bad_schedule "a task before itself" 10 "${hdr}decisions 1\n1 1 1\n"
bad_schedule "an interrupt source that is no number" 10 "${hdr}decisions 1\n1 0 irq:x\n"
bad_schedule "an interrupt source past the id range" 10 "${hdr}decisions 1\n1 0 irq:2147483648\n"
bad_schedule "hold-max 0" 9 "${hdr}hold-max 0\ndecisions 0\n"
bad_schedule "hold-max of words" 9 "${hdr}hold-max nothing\ndecisions 0\n"
bad_schedule "hold-max over 60 s" 9 "${hdr}hold-max 60000000001\ndecisions 0\n"
bad_schedule "a NUL byte" 2 "lockmuseum-schedule 1\nera 20\x0006\n"
err_has 'a NUL byte'
done_
# (issue 28) the NUL check compared strlen with itself: a NUL mid-file was
# "line too long", one in the last line, without its newline, was read
# past and the schedule replayed
cp "$tmp/ex.schedule" "$tmp/nul.schedule"
printf '\000' >>"$tmp/nul.schedule"
t "schedule file: a NUL in the last line, without a newline" 2 run "$abba" --schedule "$tmp/nul.schedule"
one_line_err
err_has "nul\.schedule:$(($(wc -l <"$tmp/ex.schedule") + 1)): a NUL byte"
done_
# (issue 28) a schedule's own values were blamed on options never given
bad_schedule "an unknown era, named at its line" 4 "${hdr/era 2006/era nonexist}decisions 0\n"
err_has "bad\.schedule:4: era 'nonexist': unknown era"
grep -q -e '--era' "$tmp/err" && no "blames --era, which was not given"
done_
bad_schedule "two CPUs in a one-CPU era, named at its line" 6 "${hdr/era 2006/era 1991}decisions 0\n"
err_has "bad\.schedule:6: cpus 2: Linux 0\.01"
grep -q -e '--cpus' "$tmp/err" && no "blames --cpus, which was not given"
done_
bad_schedule "a seed past the one seed range" 7 "${hdr/seed 1/seed 9223372036854775808}decisions 0\n"
bad_schedule "a set line without =" 9 "${hdr}set start2\ndecisions 0\n"
bad_schedule "a set line with a blank" 9 "${hdr}set start2=1 2\ndecisions 0\n"
bad_schedule "a set name that is no identifier" 9 "${hdr}set 2x=1\ndecisions 0\n"
bad_schedule "a parameter set twice" 10 "${hdr}set a=1\nset a=2\ndecisions 0\n"
head -c 5000 /dev/zero | tr '\0' 'x' >"$tmp/long"
bad_schedule "a line too long" 2 "lockmuseum-schedule 1\n$(cat "$tmp/long")\n"

t "a schedule for another scenario is refused" 2 run "$three" --schedule "$tmp/ex.schedule"
one_line_err
err_has 'made for another version of the scenario'
done_

t "a schedule's era against --era" 2 run "$abba" --schedule "$tmp/ex.schedule" --era 2008
one_line_err
err_has '^lockmuseum: --era: the schedule .* was made with era 2006'
done_

# A schedule keeps the parameters it was found with: rename_abba with the
# second rename started at 5 us deadlocks with no hold at all, and only
# with that start.  The file says so; a replay without --set gets it from
# the file, and a --set that contradicts it is refused.
ren="$root/scripts/challenges/rename_abba.lua"
t "explore with --set saves the parameter" 0 explore "$ren" --strategy exhaustive:1 --set start2=5000 --out "$tmp/set.schedule"
grep -qx 'set start2=5000' "$tmp/set.schedule" || no "no 'set start2=5000' line in the schedule"
done_
t "the schedule replays with its parameter, without --set" 3 run "$ren" --schedule "$tmp/set.schedule"
out_has 'outcome: deadlock'
done_
t "the scenario alone, without the parameter, does not deadlock" 1 run "$ren"
out_has 'outcome: completed'
done_
t "a --set that contradicts the schedule" 2 run "$ren" --schedule "$tmp/set.schedule" --set start2=6000
one_line_err
err_has 'was made with start2=5000'
done_
t "a --set the schedule was made without" 2 run "$ren" --schedule "$tmp/set.schedule" --set fixed=true
one_line_err
err_has 'was made with the default fixed'
done_
t "a --set that repeats the schedule" 3 run "$ren" --schedule "$tmp/set.schedule" --set start2=5000
done_

t "a missing schedule file" 2 run "$abba" --schedule "$tmp/nope.schedule"
one_line_err
err_has 'nope\.schedule: No such file'
done_

# A decision for a task that is not the one stepping there.
sed 's/^\([0-9]*\) 0 1\( .*\)\{0,1\}$/\1 1 0/' "$tmp/ex.schedule" >"$tmp/wrong.schedule"
t "a decision that does not fit the run" 2 run "$abba" --schedule "$tmp/wrong.schedule"
one_line_err
err_has 'does not fit this run'
done_

# A decision for an interrupt source the scenario does not have.
sed 's/^\([0-9]*\) 0 1\( .*\)\{0,1\}$/\1 0 irq:0/' "$tmp/ex.schedule" >"$tmp/wrong.schedule"
t "an interrupt decision that does not fit the run" 2 run "$abba" --schedule "$tmp/wrong.schedule"
one_line_err
err_has 'interrupt source 0 \(no such source\) cannot come before .*does not fit this run'
done_

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
