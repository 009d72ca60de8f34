#!/usr/bin/env bash
# run_cli.sh BIN - the command line's behaviour: help and version, usage
# errors (exit 2, one line on stderr), the JSON and lock_stat reports,
# determinism, `check` and `list`.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.

set -u

. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"

runner_guard 30
have_python=false
if command -v python3 >/dev/null 2>&1; then
	have_python=true
fi

pass=0
fail=0
current=""

# t NAME EXPECTED_EXIT ARGS... : run BIN ARGS into $tmp/out and $tmp/err.
# Returns 0 if the exit status is the one expected (and counts a failure
# otherwise); further checks on the output follow with expect_* and done_.
t() {
	current=$1
	local want=$2
	shift 2
	"${guard[@]}" "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	failed=false
	if [ "$rc" != "$want" ]; then
		no "exit status $rc, expected $want"
	fi
}

no() {
	if ! $failed; then
		fail=$((fail + 1))
		echo "FAIL $current: $1"
		sed -n '1,3s/^/  stderr: /p' "$tmp/err"
	fi
	failed=true
}

done_() {
	if ! $failed; then
		pass=$((pass + 1))
	fi
}

one_line_err() {
	local n
	n=$(wc -l <"$tmp/err")
	[ "$n" -eq 1 ] || no "stderr has $n lines, expected one"
}
out_empty() { [ ! -s "$tmp/out" ] || no "stdout is not empty"; }
json_ok() {
	if $have_python; then
		python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out" 2>/dev/null ||
			no "stdout is not one JSON document"
	else
		head -c1 "$tmp/out" | grep -q '{' || no "stdout does not start with {"
	fi
}

# ------------------------------------------------------------- fixtures --

# Every section of the report gets something: a lock, a lost update, a
# var, an atomic, a counter, a measured op, a check.
cat >"$tmp/full.lua" <<'EOF'
scenario{ name = "full", era = "2008", cpus = 2, seed = 5 }
local l = lock{ name = "l", kind = "spinlock" }
local v = var{ name = "v" }
local a = atomic{ name = "a" }
local c = counter{ name = "c", unit = "things" }
for i = 1, 2 do
  task{ name = "t" .. i, cpu = i - 1, run = function()
    local x = read(v); compute(us(1)); write(v, x + 1)   -- both at once: lost
    for _ = 1, 5 do
      measure("op", function() down(l); compute(us(1)); up(l) end)
      atomic_inc(a)
      counter_add(c, 1)
    end
  end }
end
check(function(r) return true, "a check" end)
EOF

cat >"$tmp/bad.lua" <<'EOF'
scenario{ name = "bad" }
task{ name = "t", run = function() down(1) end }
EOF

cat >"$tmp/random.lua" <<'EOF'
scenario{ name = "random", era = "2009", cpus = 2 }
local v = var{ name = "v" }
irq{ name = "noise", every = us(50), jitter = us(40), handler = function() add(v, 1) end }
task{ name = "t", run = function()
  for _ = 1, 20 do compute(us(rand(1, 30))); sleep(us(math.random(1, 20))) end
end }
EOF

# ------------------------------------------------------------ help etc. --

t "--help" 0 --help
out_has '^usage: lockmuseum'
out_has '--report KIND'
done_

t "-h" 0 -h
out_has '^usage: lockmuseum'
done_

t "run --help prints the usage and exits 0" 0 run --help
out_has '^usage: lockmuseum'
done_

# ------------------------------------------- options a command ignores --

t "tour refuses --mode (its exhibits choose their modes)" 2 tour --mode mutex
one_line_err
err_has '^lockmuseum: tour: --mode does not apply to tour'
done_

t "compare refuses --png" 2 compare "$root/scripts/bkl.lua" --png "$tmp/x.png"
one_line_err
err_has 'compare: --png does not apply to compare'
[ ! -e "$tmp/x.png" ] || no "a PNG was written"
done_

t "run refuses explore's --goal" 2 run "$root/scripts/bkl.lua" --goal deadlock
err_has 'run: --goal does not apply to run'
done_

t "explore refuses --trace" 2 explore "$root/scripts/bkl.lua" --trace "$tmp/t.json"
err_has 'explore: --trace does not apply to explore'
done_

t "run --help" 0 run --help
out_has '^usage: lockmuseum'
done_

t "--version" 0 --version
out_has '^lockmuseum [0-9]+\.[0-9]+'
done_

# ---------------------------------------------------------- usage errors --

t "unknown command" 2 frobnicate
one_line_err
err_has "unknown command 'frobnicate'"
done_

t "unknown option" 2 run "$tmp/full.lua" --frobnicate
one_line_err
err_has "unknown option '--frobnicate'"
done_

t "option missing its value" 2 run "$tmp/full.lua" --era
one_line_err
err_has -- '--era'
done_

t "unknown mode" 2 run "$tmp/full.lua" --mode rwlock
one_line_err
err_has "--mode rwlock: unknown mode"
done_

t "unknown era lists the eras" 2 run "$tmp/full.lua" --era 1066
one_line_err
err_has "unknown era"
err_has "1991, 1992, 1994, 1996, 1997, 1999, 2001, 2002, 2003, 2005, 2006, 2007, 2008, 2009, 2011, 2012, 2015, 2016, 2017, 2022, 2023"
done_

t "an era between two: the nearest is named" 2 run "$tmp/full.lua" --era 2010
one_line_err
err_has "--era '2010': unknown era; the nearest is 2009"
done_

t "mode names are case-insensitive" 0 run "$root/scripts/inode.lua" --set loops=2 --mode MUTEX --report json
out_has '"mode": "mutex"'
done_

# compare's status is its worst run's, and its table says which checks
# failed: the cli row of kmod breaks a check (sleep-in-atomic).
t "compare: a failed check shows in the table and the exit status" 1 compare \
	"$root/scripts/kmod.lua" --set max=8 --cpus 64 --modes native,cli
out_has 'runs, era 2023$'		# one era: in the title, not a column
out_has '^mode +cpus .* checks +violations'
out_has '^native +64 +completed .* 4/4 +-$'
out_has '^cli +64 +completed .* 3/4 +sleep-in-atomic'
done_

t "compare --report csv has the checks" 1 compare "$root/scripts/kmod.lua" --set max=8 \
	--cpus 64 --modes cli --report csv
out_has '^mode,era,cpus,.*,violations,checks_ok,checks'
out_has '^cli,2023,64,completed,.*,3,4$'
done_

t "compare --set NAME=V1,V2 sweeps the parameter in one table" 0 compare \
	"$root/scripts/kmod.lua" --set max=8,50 --cpus 64 --modes semaphore
out_has '^mode +cpus +max +outcome'
out_has '^semaphore +64 +8 +completed'
out_has '^semaphore +64 +50 +completed'
done_

t "the JSON report says how many violations it left out" 1 run "$root/scripts/scsi_host.lua" \
	--era 2006 --cpus 1 --mode mutex --report json
out_has '"mutex-unlock-in-irq": 160'
out_has '"violations_dropped": 96'
done_

t "--cpus 0" 2 run "$tmp/full.lua" --cpus 0
one_line_err
err_has -- '--cpus 0'
done_

t "--cpus 2000" 2 run "$tmp/full.lua" --cpus 2000
one_line_err
err_has -- '--cpus 2000'
done_

t "--cpus 1024 is allowed" 0 run "$tmp/random.lua" --cpus 1024 --report json
json_ok
done_

t "--cpus not a number" 2 run "$tmp/full.lua" --cpus two
one_line_err
done_

t "--seed negative" 2 run "$tmp/full.lua" --seed -1
one_line_err
done_

t "--duration without a unit we know" 2 run "$tmp/full.lua" --duration 3fortnights
one_line_err
err_has -- '--duration'
done_

t "--set without =" 2 run "$tmp/full.lua" --set loops
one_line_err
err_has -- '--set'
done_

t "--report unknown" 2 run "$tmp/full.lua" --report xml
one_line_err
err_has -- '--report xml'
done_

t "--max-instructions too small" 2 run "$tmp/full.lua" --max-instructions 10
one_line_err
done_

t "--max-memory too small" 2 run "$tmp/full.lua" --max-memory 1K
one_line_err
done_

t "run without a file" 2 run
one_line_err
done_

t "run with two files" 2 run "$tmp/full.lua" "$tmp/bad.lua"
one_line_err
done_

t "missing file" 2 run "$tmp/no-such-file.lua"
one_line_err
err_has 'no-such-file\.lua'
done_

t "missing file, json" 2 run "$tmp/no-such-file.lua" --report json
json_ok
out_has '"outcome": "error"'
done_

# With no display, no arguments means the headless tour: the report on
# stdout, one PNG per exhibit under out/ (in the current folder).
current="no arguments and no display: the headless tour into out/"
failed=false
mkdir -p "$tmp/museum"
# The whole tour is many runs (kmod's load every module a storm asks
# for): under ASan on a busy machine it needs more than the usual guard.
(cd "$tmp/museum" && env -u DISPLAY -u WAYLAND_DISPLAY timeout -k 5 300 "$BIN" \
	>"$tmp/out" 2>"$tmp/err" </dev/null)
rc=$?
[ "$rc" = 0 ] || no "exit status $rc, expected 0"
err_has 'no display'
out_has '^== Exhibit 1 of [0-9]+: 1991'
# the exhibits that fail on purpose say so; no other run fails
out_has '^  cli +completed .* checks 3/5  \(fails on purpose: the lesson\)$'
grep -q 'NOT EXPECTED\|expected to fail, but passed' "$tmp/out" &&
	no "a tour run failed (or passed) against its exhibit's word: $(grep -m1 'EXPECTED\|but passed' "$tmp/out")"
[ -s "$tmp/museum/out/tour.txt" ] || no "no out/tour.txt"
npng=$(ls "$tmp/museum/out/"*.png 2>/dev/null | wc -l)
nex=$(grep -c '^== Exhibit' "$tmp/out")
[ "$npng" -gt 0 ] && [ "$npng" = "$nex" ] || no "$npng PNGs for $nex exhibits"
for f in "$tmp/museum/out/"*.png; do
	[ "$(head -c 8 "$f" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] || { no "$f is not a PNG"; break; }
done
done_

# --------------------------------------------------------------- reports --

t "json report: one object, every key of the contract" 1 run "$tmp/full.lua" --report json
json_ok
if $have_python; then
	python3 - "$tmp/out" <<'EOF' || no "the JSON report misses keys of section 4"
import json, sys
r = json.load(open(sys.argv[1]))
need = ["scenario", "era", "mode", "cpus", "seed", "outcome", "reason", "sim_time_ns",
        "events", "trace_hash", "locks", "cpus_util", "tasks", "vars", "atomics",
        "counters", "ops", "violations", "checks"]
miss = [k for k in need if k not in r]
def sub(items, keys, what):
    for it in items:
        for k in keys:
            if k not in it:
                miss.append(what + "." + k)
sub(r["locks"], ["name", "kind", "count", "acquisitions", "contentions", "max_waiters",
                 "wait_ns", "hold_ns"], "locks[]")
for l in r["locks"]:
    sub([l["wait_ns"], l["hold_ns"]], ["min", "max", "total", "avg"], "locks[].*_ns")
sub(r["cpus_util"], ["cpu", "busy_ns", "spin_ns", "irq_ns", "irqoff_ns", "idle_ns", "ctxsw"],
    "cpus_util[]")
sub(r["tasks"], ["name", "cpu", "cpu_ns", "spin_ns", "blocked_ns", "end_ns", "finished"],
    "tasks[]")
sub(r["counters"].values(), ["value", "peak", "unit"], "counters{}")
sub(r["ops"].values(), ["count", "min_ns", "p50_ns", "p99_ns", "max_ns"], "ops{}")
sub(r["violations"], ["kind", "message", "time_ns", "task", "lock"], "violations[]")
sub(r["checks"], ["ok", "message"], "checks[]")
ok = (not miss and len(r["locks"]) == 1 and len(r["cpus_util"]) == 2 and len(r["tasks"]) == 2
      and r["vars"] == {"v": r["vars"]["v"]} and r["atomics"] == {"a": 10}
      and r["counters"]["c"]["value"] == 10 and "op" in r["ops"] and r["violations"]
      and r["checks"] == [{"ok": True, "message": "a check"}]
      and isinstance(r["trace_hash"], str) and len(r["trace_hash"]) == 16
      and all(c in "0123456789abcdef" for c in r["trace_hash"])
      and r["outcome"] == "completed" and r["era"] == "2008" and r["cpus"] == 2
      and r["seed"] == 5 and r["mode"] == "native")
if not ok:
    print("missing or wrong:", miss, file=sys.stderr)
sys.exit(0 if ok else 1)
EOF
else
	for k in scenario era mode cpus seed outcome reason sim_time_ns events trace_hash locks \
		cpus_util tasks vars atomics counters ops violations checks acquisitions \
		contentions max_waiters wait_ns hold_ns busy_ns spin_ns irq_ns irqoff_ns idle_ns \
		ctxsw cpu_ns blocked_ns end_ns finished value peak unit count min_ns p50_ns \
		p99_ns max_ns kind message time_ns task lock ok; do
		grep -q "\"$k\":" "$tmp/out" || no "the JSON report has no \"$k\""
	done
fi
done_

t "json report: exit 1 on the lost update" 1 run "$tmp/full.lua" --report json
out_has '"kind": "lost-update"'
done_

t "json report on a bad scenario" 2 run "$tmp/bad.lua" --report json
json_ok
out_has '"outcome": "error"'
out_has '"reason": ".*bad\.lua:2: bad argument #1 to .down.'
one_line_err
done_

t "json report on an unknown era" 2 run "$tmp/full.lua" --era 1066 --report json
json_ok
out_has '"outcome": "error"'
done_

t "json report on a refused anachronism" 2 run "$tmp/full.lua" --era 1994 --report json
json_ok
out_has '"outcome": "(error|not-applicable)"'
err_has 'SMP|spinlock'
done_

t "lockstat report" 1 run "$tmp/full.lua" --report lockstat
head -n1 "$tmp/out" | grep -qx 'lock_stat version 0.4' || no "the first line is not 'lock_stat version 0.4'"
out_has '^ +l:'
done_

t "text report" 1 run "$tmp/full.lua"
out_has 'outcome: completed'
out_has 'lost-update'
out_has '^  tasks moved between CPUs: 0$'	# two tasks, each pinned
done_

t "text report: one CPU counts no moves" 0 run "$tmp/random.lua" --cpus 1
out_has '^  all  '
grep -q 'tasks moved' "$tmp/out" && no "a one-CPU report has the moves line"
done_

# ----------------------------------------------------------- determinism --

"${guard[@]}" "$BIN" run "$tmp/random.lua" --seed 11 --report json >"$tmp/a.json" 2>/dev/null
"${guard[@]}" "$BIN" run "$tmp/random.lua" --seed 11 --report json >"$tmp/b.json" 2>/dev/null
"${guard[@]}" "$BIN" run "$tmp/random.lua" --seed 12 --report json >"$tmp/c.json" 2>/dev/null
hash() { sed -n 's/.*"trace_hash": "\([0-9a-f]*\)".*/\1/p' "$1"; }

current="same seed: byte-identical JSON"
failed=false
[ -s "$tmp/a.json" ] || no "no output"
cmp -s "$tmp/a.json" "$tmp/b.json" || no "two runs with --seed 11 differ"
done_

current="another seed: another trace_hash"
failed=false
[ -n "$(hash "$tmp/a.json")" ] || no "no trace_hash"
[ "$(hash "$tmp/a.json")" != "$(hash "$tmp/c.json")" ] || no "--seed 11 and --seed 12 give the same trace_hash"
done_

current="same seed: the first exhibit is reproducible"
failed=false
"${guard[@]}" "$BIN" run "$root/scripts/uniproc_cli.lua" --report json >"$tmp/a.json" 2>/dev/null
"${guard[@]}" "$BIN" run "$root/scripts/uniproc_cli.lua" --report json >"$tmp/b.json" 2>/dev/null
"${guard[@]}" "$BIN" run "$root/scripts/uniproc_cli.lua" --report json --seed 2 >"$tmp/c.json" 2>/dev/null
cmp -s "$tmp/a.json" "$tmp/b.json" || no "two runs differ"
[ "$(hash "$tmp/a.json")" != "$(hash "$tmp/c.json")" ] || no "--seed 2 gives the same trace_hash"
done_

# ----------------------------------------------------------- check, list --

t "check prints ok" 0 check "$tmp/full.lua"
out_has 'ok'
out_has "scenario 'full'"
done_

t "check of a script lists its parameters" 0 check "$root/scripts/uniproc_cli.lua"
out_has 'ok'
out_has 'parameter chars = 200'
done_

t "check of a bad scenario" 2 check "$tmp/no-such-file.lua"
one_line_err
done_

t "list" 0 list
out_has '^eras \(21\):'
awk '/^eras/{on=1; next} on && NF==0 {exit} on {print $1}' "$tmp/out" >"$tmp/eras"
[ "$(tr '\n' ' ' <"$tmp/eras")" = "1991 1992 1994 1996 1997 1999 2001 2002 2003 2005 2006 2007 2008 2009 2011 2012 2015 2016 2017 2022 2023 " ] ||
	no "the eras are not the 21 in chronological order: $(tr '\n' ' ' <"$tmp/eras")"
sort -n -c "$tmp/eras" 2>/dev/null || no "the eras are not in chronological order"
out_has '^modes: native, cli, bkl, spinlock, semaphore, mutex'
out_has 'native keeps each lock the kind its scenario declares'
for f in "$root"/scripts/*.lua; do
	# only the scenarios (the tour's route is a script too, of exhibits)
	grep -Eq '^[[:space:]]*scenario[[:space:]]*[{(]' "$f" || continue
	b=$(basename "$f")
	grep -q "^  $b " "$tmp/out" || no "list does not show $b"
	grep -q "^  $b .*does not load" "$tmp/out" && no "$b does not load"
done
done_

# ------------------------------------------------------ eras by any name --

t "--era by version" 0 run "$tmp/random.lua" --era 2.6.16 --report json
out_has '"era": "2006"'
done_

t "--anachronism lets 1991 have two CPUs" 0 run "$tmp/random.lua" --era 1991 --cpus 2 --anachronism --report json
out_has '"cpus": 2'
done_


# ----------------------------------------------------- compare and explore --

t "compare: one row per combination, aligned" 0 compare "$root/scripts/inode.lua" --eras 2006 --modes semaphore,mutex --set loops=20 --jobs 2
out_has '^mode +cpus +outcome'
out_has '^semaphore +8 +completed'
out_has '^mutex +8 +completed'
done_

t "compare: not-applicable says why" 0 compare "$root/scripts/mlx5.lua" --modes native,mutex --set run_ms=5
out_has '^mutex +[0-9]+ +n/a$'
tr '\n' ' ' <"$tmp/out" | grep -q 'not applicable: .*counting semaphore cannot become *a mutex' ||
	no "the n/a row does not say why under it"
done_

t "compare --report json" 0 compare "$root/scripts/inode.lua" --eras 2006 --modes semaphore,mutex --cpus 2,8 --set loops=20 --report json
json_ok
out_has '"runs"'
[ "$(grep -c '"mode":' "$tmp/out")" = 4 ] || no "expected 4 runs (2 modes x 2 CPU counts)"
done_

t "compare --report csv" 0 compare "$root/scripts/inode.lua" --eras 2006 --modes semaphore,mutex --set loops=20 --report csv
out_has '^mode,era,cpus,outcome,reason,sim_time_ns'
[ "$(wc -l <"$tmp/out")" = 3 ] || no "expected a header and 2 rows"
done_

t "compare: the same table whatever --jobs" 0 compare "$root/scripts/inode.lua" --eras 2006 --modes semaphore,mutex,spinlock --set loops=20 --jobs 1 --report csv
cp "$tmp/out" "$tmp/jobs1"
"$BIN" compare "$root/scripts/inode.lua" --eras 2006 --modes semaphore,mutex,spinlock --set loops=20 --jobs 3 --report csv >"$tmp/jobs3" 2>/dev/null
cmp -s "$tmp/jobs1" "$tmp/jobs3" || no "--jobs 3 gave a different table than --jobs 1"
done_

t "compare --plot draws throughput and wait against CPUs" 0 compare "$root/scripts/bkl.lua" --modes native,spinlock --cpus 1,2,4 --set calls=20 --plot "$tmp/plot.png"
[ -s "$tmp/plot.png" ] || no "no plot written"
[ "$(head -c 4 "$tmp/plot.png" | od -An -c | tr -d ' ')" = '211PNG' ] || no "the plot is not a PNG"
done_

t "compare --markov prints the ticket lock's model under the table" 0 compare "$root/scripts/spin_collapse.lua" --modes spinlock --cpus 1,2 --set window_us=50 --markov 1000,100,50 --columns cpus,acq/s
# one core: 1/(a + s) = 909091/s; two, by hand: 2(a+s)/(a^2+2as+2s^2+sc) per ns
out_has '^ +1 +909091 +1\.00 '
out_has '^ +2 +1795918 +1\.98 '
done_

for bad in 1000,0,50 1000,100 1000,100,50,7 -1,100,50 1000,100,nan 1000,100,inf 1000,1e400,50 1e16,100,50 ,100,50; do
	t "compare --markov $bad is refused before any run" 2 compare "$root/scripts/spin_collapse.lua" --cpus 1 --markov "$bad"
	one_line_err
	err_has "^lockmuseum: --markov .*: must be A,S,C"
	out_empty
	done_
done

t "compare: unknown mode" 2 compare "$root/scripts/inode.lua" --modes semaphore,frob
one_line_err
err_has "unknown mode 'frob'"
done_

t "explore finds the seed of a flaky deadlock" 0 explore "$root/tests/explore/flaky_abba.lua" --seeds 1..300 --goal deadlock
out_has '^seed [0-9]+ reaches the goal \(deadlock\)'
out_has '^replay: lockmuseum run .*flaky_abba.lua --seed [0-9]+$'
seed=$(sed -n 's/^seed \([0-9]*\) reaches.*/\1/p' "$tmp/out")
"$BIN" run "$root/tests/explore/flaky_abba.lua" --seed "$seed" >/dev/null 2>&1
[ $? = 3 ] || no "the replay of seed $seed did not deadlock"
"$BIN" run "$root/tests/explore/flaky_abba.lua" --seed 1 >/dev/null 2>&1
[ $? = 3 ] && [ "$seed" != 1 ] && no "seed 1 deadlocks too: the scenario is not flaky"
done_

t "explore: no seed reaches the goal" 1 explore "$root/scripts/inode.lua" --seeds 1..3 --goal deadlock --set loops=8
out_has '^no seed in 1\.\.3 reaches the goal'
done_

t "explore: the worst seed for a measure" 0 explore "$root/tests/explore/flaky_abba.lua" --seeds 1..20 --goal max:ops.ab.p99
out_has '^worst seed [0-9]+ of 20: ops\.ab\.p99 = '
out_has '^replay: lockmuseum run .* --seed [0-9]+$'
done_

t "explore: a measure the scenario does not have" 2 explore "$root/tests/explore/flaky_abba.lua" --seeds 1..3 --goal max:ops.none.p99
one_line_err
err_has 'no such measure'
done_

# ------------------------------------------------------------------ png --

png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", ($1*16777216)+($2*65536)+($3*256)+$4, ($5*16777216)+($6*65536)+($7*256)+$8 }'; }

t "run --png draws the run at --size" 0 run "$root/scripts/inode.lua" --set loops=12 --png "$tmp/inode.png" --size 1280x800
[ -s "$tmp/inode.png" ] || no "no PNG written"
[ "$(png_size "$tmp/inode.png")" = 1280x800 ] || no "PNG is $(png_size "$tmp/inode.png"), expected 1280x800"
ls -A "$tmp" | grep -q '^\.lockmuseum-' && no "a temporary file was left behind"
done_

cp "$tmp/inode.png" "$tmp/keep.png"
t "--png into a folder that does not exist" 2 run "$root/scripts/inode.lua" --set loops=12 --png "$tmp/nowhere/x.png"
one_line_err
done_

t "a failed --png leaves the previous file intact" 2 run "$root/scripts/inode.lua" --set loops=12 --png "$tmp/keep.png" --size 100x100
cmp -s "$tmp/inode.png" "$tmp/keep.png" || no "keep.png changed"
done_

# ---------------------------------------------------------------- trace --

t "--trace writes a Chrome trace-event file" 0 run "$root/scripts/inode.lua" --set loops=12 --trace "$tmp/t.json"
[ -s "$tmp/t.json" ] || no "no trace written"
grep -q '"traceEvents"' "$tmp/t.json" || no "no traceEvents"
grep -q '"displayTimeUnit": *"ns"' "$tmp/t.json" || no "no displayTimeUnit"
if $have_python; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d["traceEvents"], list) and d["traceEvents"]' "$tmp/t.json" 2>/dev/null || no "not valid trace JSON"
fi
ls -A "$tmp" | grep -q '^\.lockmuseum-' && no "a temporary file was left behind"
done_

# ---------------------------------------------------------- output files --
# An output path may be a device, a FIFO or a planted symbolic link: devices
# and FIFOs are written in place and never replaced, a link is replaced and
# its target never written, a directory or a FIFO nobody reads is refused.
# The device is a private node made here (as /dev/null is, 1:3), so a
# regression can never replace the machine's own /dev/null.
out_dir="$tmp/outputs"
mkdir -p "$out_dir"
if mknod "$out_dir/null" c 1 3 2>/dev/null; then
	for opt in --trace --png; do
		t "$opt onto a character device writes it in place" 0 run "$root/scripts/inode.lua" \
			--set loops=12 "$opt" "$out_dir/null"
		[ -c "$out_dir/null" ] || no "the device node was replaced by a regular file"
		ls -A "$out_dir" | grep -q '^\.lockmuseum-' && no "a temporary file was left behind"
		done_
	done
else
	echo "note: cannot make a device node here (not root?): the device cases are not run"
fi

mkfifo "$out_dir/fifo"
# The shell holds the FIFO open (read-write, which does not block) until
# the run is over, so that a reader exists before the run opens it: cat,
# started in the background, may not have got to its open() yet when a
# run that starts in a few milliseconds does.
# The reader must not inherit that descriptor (7>&-): holding the FIFO's
# write end itself, it would never see the end of the file and would wait
# for its guard's wall-clock limit.
exec 7<>"$out_dir/fifo"
"${guard[@]}" cat "$out_dir/fifo" >"$out_dir/from_fifo" 7>&- &
reader=$!
t "--trace onto a FIFO with a reader writes into the FIFO" 0 run "$root/scripts/inode.lua" \
	--set loops=12 --trace "$out_dir/fifo"
exec 7>&-
wait "$reader"
[ -p "$out_dir/fifo" ] || no "the FIFO was replaced"
grep -q '"traceEvents"' "$out_dir/from_fifo" || no "the reader got no trace"
done_

t "--trace onto a FIFO nobody reads: refused, no hang" 2 run "$root/scripts/inode.lua" \
	--set loops=12 --trace "$out_dir/fifo"
err_has 'a FIFO with no reader'
one_line_err
[ -p "$out_dir/fifo" ] || no "the FIFO was replaced"
done_

printf 'precious\n' >"$out_dir/target"
ln -s target "$out_dir/link"
t "--trace onto a planted symlink replaces the link, never its target" 0 run \
	"$root/scripts/inode.lua" --set loops=12 --trace "$out_dir/link"
[ "$(cat "$out_dir/target")" = precious ] || no "the link's target was overwritten"
[ -L "$out_dir/link" ] && no "the link is still there"
grep -q '"traceEvents"' "$out_dir/link" || no "no trace in the new file"
done_

ln -s target "$out_dir/plink"
t "--png onto a planted symlink replaces the link, never its target" 0 run \
	"$root/scripts/inode.lua" --set loops=12 --png "$out_dir/plink" --size 320x240
[ "$(cat "$out_dir/target")" = precious ] || no "the link's target was overwritten"
[ "$(head -c 4 "$out_dir/plink" | od -An -c | tr -d ' ')" = '211PNG' ] || no "no PNG in the new file"
done_

printf 'old\n' >"$out_dir/kept.json"
chmod 640 "$out_dir/kept.json"
t "--trace over a file keeps its mode" 0 run "$root/scripts/inode.lua" --set loops=12 \
	--trace "$out_dir/kept.json"
[ "$(stat -c %a "$out_dir/kept.json")" = 640 ] || no "mode $(stat -c %a "$out_dir/kept.json"), expected 640"
done_

for opt in --trace --png; do
	t "$opt onto a directory: refused" 2 run "$root/scripts/inode.lua" --set loops=12 "$opt" "$out_dir"
	err_has 'is a directory'
	one_line_err
	done_
done

# A Ctrl-C while a big trace (250 MB) is written: exit 130 at once, the temporary
# removed, the previous file as it was, nothing or one whole JSON object on
# stdout.  The signal is sent when the temporary appears, so it lands in
# the export itself; then again with two signals, the second of which
# exits from the signal handler.  The wait for the temporary (several
# seconds under ASan, longer on a loaded machine) polls with builtins: a
# glob, and a timed read on a FIFO that nothing writes for the pause.  An
# `ls | grep` and a `sleep` each turn cost some 20 ms of CPU time in the
# processes they start, which over hundreds of turns took seconds from the
# run it waits for (docs/performance.md, section 12).
printf 'previous\n' >"$out_dir/big.json"
mkfifo "$tmp/nap" && exec {nap}<>"$tmp/nap"
for nsig in 1 2; do
	current="Ctrl-C ($nsig) during a big --trace export: 130, no temporary, old file kept"
	failed=false
	rm -f "$out_dir"/.lockmuseum-*
	"$BIN" run "$root/scripts/kmod.lua" --cpus 512 --set storms=17 --report json \
		--trace "$out_dir/big.json" >"$tmp/out" 2>"$tmp/err" </dev/null {nap}>&- &
	pid=$!
	for _ in $(seq 1200); do
		compgen -G "$out_dir/.lockmuseum-*" >/dev/null && break
		kill -0 "$pid" 2>/dev/null || break
		read -rt 0.05 -u "$nap"
	done
	t0=$(date +%s%N)
	for _ in $(seq "$nsig"); do kill -INT "$pid" 2>/dev/null; sleep 0.05; done
	wait "$pid"
	rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$rc" = 130 ] || no "exit status $rc, expected 130"
	[ "$ms" -lt 3000 ] || no "it took $ms ms to stop"
	ls -A "$out_dir" | grep -q '^\.lockmuseum-' && no "a temporary was left behind"
	[ "$(cat "$out_dir/big.json")" = previous ] || no "the previous file changed"
	# (issue 28) one Ctrl-C, one "interrupted": it said it twice, or not at all
	[ "$nsig" = 2 ] || [ "$(cat "$tmp/err")" = "lockmuseum: interrupted" ] ||
		no "stderr is not one 'interrupted' line: $(tr '\n' '|' <"$tmp/err")"
	if [ -s "$tmp/out" ] && $have_python; then
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>/dev/null ||
			no "stdout is neither empty nor one JSON object"
	fi
	done_
done
exec {nap}>&-

# An era file whose string runs on past a backslash-newline: Lua quotes
# the source near the error, newline included; the error must stay one
# line (found by fuzz_era).
bad_era="$tmp/bad_era"
mkdir -p "$bad_era"
for d in scripts assets docs; do ln -s "$root/$d" "$bad_era/$d"; done
cp -r "$root/eras" "$bad_era/eras"
printf 'era{ id = "x", version = "1", title = "two\\\nlines\n' >"$bad_era/eras/2099.lua"
LOCKMUSEUM_DATA=$bad_era t "an era file's syntax error is one line" 2 list
one_line_err
err_has '2099\.lua:[0-9]+: unfinished string'
done_

printf 'era{ id = "x", year = 2000, version = "", costs = {} }\n' >"$bad_era/eras/2099.lua"
LOCKMUSEUM_DATA=$bad_era t "an era with an empty version is refused (found by fuzz_era)" 2 list
one_line_err
err_has "2099\\.lua:1: era\\{\\}: 'version' must not be empty"
done_

# An era names its machine, a file of eras/machines/ that gives its costs:
# a missing, misnamed or broken machine is one line naming what to fix,
# and the era runs on the costs of the machine it names.
t "list says which machine each era runs on" 0 list
out_has '^  2006 .* CPUs, preemptible, machine 2005-2006$'
out_has '^  2005 .*, 483 semaphores, machine 2005-2006$'
done_

era_line='era{ id = "2099", year = 2099, version = "9", %s }\n'
printf "$era_line" 'machine = "nope"' >"$bad_era/eras/2099.lua"
LOCKMUSEUM_DATA=$bad_era t "an era naming a machine that does not exist is refused" 2 list
one_line_err
err_has "2099\\.lua: era\\{\\}: machine 'nope': there is no .*eras/machines/nope\\.lua"
done_

printf "$era_line" 'machine = "../2003"' >"$bad_era/eras/2099.lua"
LOCKMUSEUM_DATA=$bad_era t "an era's machine is a name in machines/, not a path" 2 list
one_line_err
err_has "2099\\.lua:1: era\\{\\}: 'machine' must name a file of machines/"
done_

printf "$era_line" 'machine = "2003", costs = { cli = 1 }' >"$bad_era/eras/2099.lua"
LOCKMUSEUM_DATA=$bad_era t "an era with both costs and a machine is refused" 2 list
one_line_err
err_has "2099\\.lua:1: era\\{\\}: 'costs' and 'machine' both give the costs: keep one"
done_

printf "$era_line" 'machine = "m2099"' >"$bad_era/eras/2099.lua"
printf 'machine{ name = "other", costs = {} }\n' >"$bad_era/eras/machines/m2099.lua"
LOCKMUSEUM_DATA=$bad_era t "a machine file gives its own name" 2 list
one_line_err
err_has "machines/m2099\\.lua:1: machine\\{\\}: name 'other' must be the file's name, 'm2099'"
done_

printf '\nmachine{ name = "m2099", costs = { cli = -5 } }\n' >"$bad_era/eras/machines/m2099.lua"
LOCKMUSEUM_DATA=$bad_era t "a machine's costs are checked as an era's are" 2 list
one_line_err
err_has "machines/m2099\\.lua:2: .*cli"
done_

# A machine's shape is hostile input too: a board's links listed pair by
# pair, a front-side bus, a machine of one CPU.  Each malformed form is one
# line naming the file, its line and the rule; huge costs are refused
# above the engine's bound and saturate below it.
mcost='costs = { cli = 1, atomic = 1, cacheline = 100, ctxsw = 1000, wakeup = 2000, irq_entry = 1000, hit = 1, same_die = 10, hop1 = 100, invalidate = 50'
shape_refused() {
	printf '\nmachine{ name = "m2099", topology = { %s }, %s } }\n' "$1" "$mcost$2" \
		>"$bad_era/eras/machines/m2099.lua"
	LOCKMUSEUM_DATA=$bad_era t "a machine's shape: $3" 2 list
	one_line_err
	err_has "machines/m2099\\.lua:2: (machine|costs|topology)\\{\\}: .*$4"
	done_
}
four='sockets = 4, protocol = "MOESI", links ='
shape_refused "$four { {0, 1}, {1, 9} }" "" "a link to a socket it does not have" \
	"topology\\.links\\[2\\]\\[2\\] is socket 9: the machine's sockets are 0 to 3"
shape_refused "$four { {0, 1e300} }" "" "a socket number that is no integer" \
	"topology\\.links\\[1\\]\\[2\\] must be a socket number \\(an integer\\), got 1e\\+300"
shape_refused "$four { {2, 2} }" "" "a socket linked to itself" "links\\[1\\] joins socket 2 to itself"
shape_refused "$four { {0, 1}, {1, 0} }" "" "a link listed twice" "links\\[2\\] joins sockets 1 and 0 again"
shape_refused "$four { {0, 1}, {2, 3} }" "" "sockets no link reaches" \
	"topology\\.links reach no socket 2 from socket 0: every socket must be linked"
shape_refused "$four { {0, 1, 2} }" "" "a link of three sockets" "links\\[1\\] must be a pair \\{a, b\\}"
shape_refused "$four { {0, 1}, x = 1 }" "" "a list with a stray key" \
	"topology\\.links must be a list of 1 to 6 \\{a, b\\} socket pairs"
shape_refused "$four { }" "" "an empty list" "topology\\.links must be a list of 1 to 6"
shape_refused 'sockets = 17, protocol = "MOESI", links = { {0, 1} }' "" "a list past 16 sockets" \
	"topology\\.links lists links between 17 sockets; a list wires at most 16"
shape_refused 'sockets = 3, protocol = "MOESI", links = { {0, 1}, {1, 2} }' "" \
	"two links apart with no costs.hop2" "its sockets are up to 2 links apart: it gives costs\\.hop2" 
shape_refused 'sockets = 2, protocol = "MESI", links = "bus"' "" "a bus with no costs.bus" \
	"a machine on a front-side bus \\(links = \"bus\"\\) gives costs\\.bus"
shape_refused 'sockets = 2, protocol = "MESI", links = "bus"' ", bus = 0" "a bus that costs nothing" \
	"gives costs\\.bus, how long one transaction holds the bus \\(ns, > 0\\)"
shape_refused 'sockets = 2, protocol = "MESI", links = "bus"' ", bus = 1e300" "a bus cost past the bound" \
	"'bus' must be a whole number of nanoseconds"
shape_refused 'sockets = 2, protocol = "MESI", links = "star"' "" "links of no known form" \
	"topology\\.links must be \"full\", \"ring\", \"bus\" or a list of \\{a, b\\} socket pairs"
shape_refused 'sockets = 2, protocol = "none"' "" "\"none\" on two CPUs" \
	"topology\\.protocol \"none\" is for a machine of one CPU; this one has 2"
shape_refused 'protocol = "none", links = "bus"' "" "one CPU with links" "a machine of one CPU has no topology\\.links"
shape_refused 'sockets = 2, protocol = "MESI", llc = "die"' "" "a shared cache of no known kind" \
	"topology\\.llc must be \"socket\" \\(an inclusive cache shared by a socket's cores\\) or \"none\", got \"die\""
shape_refused 'sockets = 2, protocol = "MESI", llc = "socket"' "" "a socket's cache with no costs.llc" \
	"a machine with topology\\.llc = \"socket\" gives costs\\.llc"
shape_refused 'sockets = 2, protocol = "MESI", links = "bus", llc = "socket"' ", bus = 10, llc = 5" \
	"a socket's cache on a front-side bus" "a machine on a front-side bus \\(links = \"bus\"\\) has none"
shape_refused 'sockets = 2, protocol = "MESI", store_buffer = "yes"' "" "a store buffer that is no boolean" \
	"'store_buffer' must be true or false, got string"

shape_refused 'sockets = 2, protocol = "MOESI", links = "full"' ", hop2 = 4611686018427387904" \
	"a hop of 2^62 ns, past one step's bound" \
	"costs\\.hop2 \\(4611686018427387904 ns\\) is more than 2\\^40 ns"
shape_refused 'sockets = 2, protocol = "MESI", links = "bus"' ", bus = 1099511627777" \
	"a bus transaction of 2^40 + 1 ns" "costs\\.bus \\(1099511627777 ns\\) is more than 2\\^40 ns"

# far below the bound, a 16-socket line whose far
# end is 15 links away, two hops costing 2^40 ns, runs 64 CPUs to its end
lnk='{0,1},{1,2},{2,3},{3,4},{4,5},{5,6},{6,7},{7,8},{8,9},{9,10},{10,11},{11,12},{12,13},{13,14},{14,15}'
printf 'machine{ name = "m2099", topology = { sockets = 16, protocol = "MOESI", links = { %s } }, %s } }\n' \
	"$lnk" "$mcost, hop2 = 1099511627776" \
	>"$bad_era/eras/machines/m2099.lua"
printf 'era{ id = "2099", year = 2099, version = "9", machine = "m2099", cpus = 8, smp = true, spinlock = "ticket" }\n' \
	>"$bad_era/eras/2099.lua"
LOCKMUSEUM_DATA=$bad_era t "a 15-hop board of 2^40 ns hops runs to its time limit" 1 run \
	"$root/scripts/spin_fairness.lua" --era 2099 --cpus 64 --duration 1ms
out_has 'outcome: time-limit at 1\.00 ms simulated'
done_
# ... and its sleeping locks' hand-offs, each several such transfers, add
# them without overflow (the sanitized build runs this suite too)
LOCKMUSEUM_DATA=$bad_era t "the 2^40 ns board's semaphores run to their time limit (its checks fail: exit 1)" 1 \
	run "$root/scripts/test_mutex.lua" --era 2099 --cpus 64 --mode semaphore --anachronism --duration 5ms
out_has 'outcome: time-limit at 5\.00 ms simulated'
done_
printf "$era_line" 'machine = "m2099"' >"$bad_era/eras/2099.lua"

printf 'x = 1\n' >"$bad_era/eras/machines/m2099.lua"
LOCKMUSEUM_DATA=$bad_era t "a machine file that never calls machine{} is refused" 2 list
one_line_err
err_has "machines/m2099\\.lua: the file never calls machine\\{ ... \\}"
done_

# 2099 is 2003 on 2003's machine, then on one whose switches cost 10x
sed 's/id = "2003", year = 2003/id = "2099", year = 2099/' "$root/eras/2003.lua" >"$bad_era/eras/2099.lua"
rm -f "$bad_era/eras/machines/m2099.lua"
sim_end() { sed -n 's/.*outcome: completed at \([^,]*\),.*/\1/p' "$tmp/out"; }
LOCKMUSEUM_DATA=$bad_era t "an era runs on its machine's costs" 0 run "$root/scripts/inode.lua" \
	--era 2099 --set loops=12
on_2003=$(sim_end)
LOCKMUSEUM_DATA=$bad_era t "(the same scenario in 2003)" 0 run "$root/scripts/inode.lua" \
	--era 2003 --set loops=12
[ -n "$on_2003" ] && [ "$on_2003" = "$(sim_end)" ] ||
	no "2099 on 2003's machine ends at '$on_2003', 2003 at '$(sim_end)'"
sed 's/name = "2003"/name = "m2099"/; s/ctxsw     = \([0-9]*\)/ctxsw     = \10/' \
	"$root/eras/machines/2003.lua" >"$bad_era/eras/machines/m2099.lua"
grep -q 'ctxsw     = 40000,' "$bad_era/eras/machines/m2099.lua" || no "the test's machine is not 10x"
sed -i 's/machine = "2003"/machine = "m2099"/' "$bad_era/eras/2099.lua"
LOCKMUSEUM_DATA=$bad_era t "(on a machine whose switches cost 10x)" 0 run "$root/scripts/inode.lua" \
	--era 2099 --set loops=12
[ "$on_2003" != "$(sim_end)" ] || no "the machine's costs were not used: same end, $on_2003"
done_
rm -f "$bad_era/eras/2099.lua" "$bad_era/eras/machines/m2099.lua"

# An era's placard names a file inside the data folder and nothing else: a
# placard that is a FIFO (or outside the folder) is no placard, never a hang.
data="$tmp/data"
mkdir -p "$data"
for d in scripts assets docs; do ln -s "$root/$d" "$data/$d"; done
cp -r "$root/eras" "$data/eras"
mkfifo "$data/placard.fifo"
sed -i 's|placard = "[^"]*"|placard = "placard.fifo"|' "$data/eras/2006.lua"
LOCKMUSEUM_DATA=$data t "--png with an era placard that is a FIFO: drawn, no hang" 0 run \
	"$root/scripts/inode.lua" --set loops=12 --png "$out_dir/fifo_placard.png" --size 320x240
[ -s "$out_dir/fifo_placard.png" ] || no "no PNG written"
done_

t "--trace-format ftrace writes ftrace text" 0 run "$root/scripts/inode.lua" --set loops=12 --trace "$tmp/t.txt" --trace-format ftrace
head -1 "$tmp/t.txt" | grep -q '^# tracer: nop' || no "no ftrace header"
grep -q 'sched_switch: prev_comm=' "$tmp/t.txt" || no "no sched_switch line"
grep -q 'tracing_mark_write: B|' "$tmp/t.txt" || no "no B marks"
done_

t "--trace-format: unknown" 2 run "$root/scripts/inode.lua" --trace "$tmp/x" --trace-format svg
one_line_err
done_

# --trace-limit bounds what is kept, never what is run: the report of a
# bounded run (statistics, checks, events, trace hash, trace_records) is
# byte for byte the unbounded run's, while the file holds N records.
"$BIN" run "$root/scripts/inode.lua" --set loops=12 --report json >"$tmp/unbounded.json" 2>/dev/null
t "--trace-limit 50: the report is exact, the trace holds 50 records" 0 run \
	"$root/scripts/inode.lua" --set loops=12 --report json --trace "$tmp/lim.json" --trace-limit 50
cmp -s "$tmp/out" "$tmp/unbounded.json" || no "the report differs from the unbounded run's"
emitted=$(sed -n 's/.*"trace_records": \([0-9]*\).*/\1/p' "$tmp/unbounded.json")
[ "${emitted:-0}" -gt 50 ] || no "the run emits only ${emitted:-no} records: no bound to test"
grep -q "\"records\":50,\"records_emitted\":$emitted,\"truncated\":true" "$tmp/lim.json" ||
	no "the trace does not say 50 of $emitted records kept"
if $have_python; then
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/lim.json" 2>/dev/null ||
		no "the bounded trace is not valid JSON"
fi
done_

t "--trace-limit above the run's records keeps them all" 0 run "$root/scripts/inode.lua" \
	--set loops=12 --report json --trace "$tmp/lim.json" --trace-limit 1000000
cmp -s "$tmp/out" "$tmp/unbounded.json" || no "the report differs from the unbounded run's"
grep -q "\"records\":$emitted,\"records_emitted\":$emitted,\"truncated\":false" "$tmp/lim.json" ||
	no "the trace does not keep all $emitted records"
done_

t "--trace-limit with ftrace marks the file truncated" 0 run "$root/scripts/inode.lua" \
	--set loops=12 --trace "$tmp/lim.txt" --trace-format ftrace --trace-limit 50
grep -q "^# TRUNCATED: the trace keeps only the first 50 of $emitted records" "$tmp/lim.txt" ||
	no "no TRUNCATED line for 50 of $emitted"
done_

for v in -1 abc 99999999999999999999999 0 1e3 12x 1000000000001 ""; do
	t "--trace-limit '$v': refused" 2 run "$root/scripts/inode.lua" --trace-limit "$v"
	one_line_err
	err_has "^lockmuseum: --trace-limit .*must be a whole number of records from 1 to"
	out_empty
	done_
done
t "tour --trace-limit: refused the same way" 2 tour --trace-limit -5
one_line_err
done_

# An output that is the input (issue 28): by device and inode, whatever
# the name (./S, a hard link), every writer refuses, exit 2, one line,
# the scenario as it was.  Before, each of these replaced it.
cp "$root/tests/explore/flaky_abba.lua" "$out_dir/S.lua"
cp "$out_dir/S.lua" "$out_dir/S.orig"
ln "$out_dir/S.lua" "$out_dir/S.hard"
for args in "run S.lua --trace S.lua" "run S.lua --out ./S.lua" "run S.lua --png S.lua" \
	"run S.lua --report json --out S.hard" "run S.lua --trace ../outputs/S.lua --trace-format ftrace" \
	"explore S.lua --strategy exhaustive:2 --goal deadlock --out S.lua" \
	"explore S.lua --strategy exhaustive:2 --goal deadlock --out S.hard"; do
	current="an output naming the input is refused: $args"
	failed=false
	(cd "$out_dir" && "${guard[@]}" "$BIN" $args >"$tmp/out" 2>"$tmp/err" </dev/null)
	rc=$?
	[ "$rc" = 2 ] || no "exit status $rc, expected 2"
	one_line_err
	err_has 'is the scenario, an input of this command; refusing to replace it'
	cmp -s "$out_dir/S.lua" "$out_dir/S.orig" || no "the scenario was replaced"
	done_
done
cp "$root/tests/explore/flaky_abba.lua" "$out_dir/S2.lua"
(cd "$out_dir" && "$BIN" explore S2.lua --strategy exhaustive:2 --goal deadlock --out S2.schedule >/dev/null 2>&1)
cp "$out_dir/S2.schedule" "$out_dir/S2.sorig"
current="an output naming the --schedule file is refused"
failed=false
(cd "$out_dir" && "${guard[@]}" "$BIN" run S2.lua --schedule S2.schedule --trace S2.schedule >/dev/null 2>"$tmp/err")
[ $? = 2 ] || no "exit status $?, expected 2"
err_has 'is the schedule file, an input'
cmp -s "$out_dir/S2.schedule" "$out_dir/S2.sorig" || no "the schedule was replaced"
done_

t "run missing.lua --out f: exit 2 and no file" 2 run "$tmp/missing.lua" --out "$out_dir/f.txt"
[ ! -e "$out_dir/f.txt" ] || no "left a file of $(wc -c <"$out_dir/f.txt") bytes"
done_

# ------------------------------------------------------ streamed trace --
# --trace keeps no record in memory: the run hands each one to a spool on
# disk as it makes it (engine/report/trace_spool.c), so a trace longer than
# the memory the process may map is written whole.  Under an address-space
# limit of 24 MiB, a run of 900,015 records (29 MB as records in memory,
# which the exporters once held: "out of memory storing the trace") ends
# with every record in the file.  Not under ASan, whose shadow memory maps
# terabytes: a sanitized build is known by ASan's entry point, which the
# program names whether its run-time is linked in (the Makefile's
# -static-libasan) or loaded as libasan.so.
if grep -qa '__asan_init' "$BIN"; then
	echo "note: a sanitized build: the address-space limit case is not run"
else
	current="--trace under a 24 MiB address-space limit: 900,015 records, all written"
	failed=false
	( ulimit -v 24576; "${guard[@]}" "$BIN" run "$root/tests/bench/lockops.lua" --cpus 2 \
		--set tasks=4 --set rounds=100000 --report json --trace "$tmp/long.json" \
		>"$tmp/out" 2>"$tmp/err" </dev/null )
	rc=$?
	[ "$rc" = 0 ] || no "exit status $rc, expected 0"
	n=$(sed -n 's/.*"trace_records": \([0-9]*\).*/\1/p' "$tmp/out")
	[ "${n:-0}" -ge 900000 ] || no "the run made ${n:-no} records"
	grep -q "\"records\":$n,\"records_emitted\":$n,\"truncated\":false" "$tmp/long.json" ||
		no "the trace does not hold all ${n:-the} records"
	[ -s "$tmp/err" ] && no "something on stderr"
	rm -f "$tmp/long.json"
	done_
fi

# A Ctrl-C during a run that spools its trace: exit 130, and neither the
# spool (unlinked when it is made) nor a trace is left in the folder.
cat >"$tmp/spin.lua" <<'LUA'
scenario{ name = "spin", duration = sec(100000) }
local l = lock{ name = "l", kind = "spinlock" }
for i = 1, 2 do
  task{ name = "t" .. i, run = function() while true do down(l) compute(us(1)) up(l) end end }
end
LUA
mkdir -p "$tmp/spooled"
current="Ctrl-C during a run spooling its --trace: 130, nothing left in the folder"
failed=false
"$BIN" run "$tmp/spin.lua" --max-instructions 100000000000 --max-events 100000000000 \
	--max-wall 600 --trace "$tmp/spooled/t.json" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || no "exit status $rc, expected 130"
[ -z "$(ls -A "$tmp/spooled")" ] || no "left behind: $(ls -A "$tmp/spooled" | tr '\n' ' ')"
done_

# ------------------------------------------------------------ full disk --

# A full disk, on a 256 KiB tmpfs (root only, else not run).  The spool
# is beside the destination: a run of 17,865 records (572 KB spooled)
# fills the disk during the run, one of 5,344 (171 KB spooled, a 450 KB
# file) while the file is written.  Either way: exit 2, one line naming
# ENOSPC, the previous file as it was, nothing else left; with --report
# json, one object whose outcome is "error".
mnt="$tmp/small_fs"
mkdir -p "$mnt"
if mount -t tmpfs -o size=256k tmpfs "$mnt" 2>/dev/null; then
	trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
	for loops in 40 12; do
		echo previous >"$mnt/full.json"
		t "--trace on a full disk (loops=$loops): exit 2, the old file stays" 2 run \
			"$root/scripts/inode.lua" --set loops=$loops --trace "$mnt/full.json"
		one_line_err
		err_has "^lockmuseum: --trace $mnt/full.json: .*No space left on device"
		[ "$(cat "$mnt/full.json")" = previous ] || no "the previous file changed"
		[ "$(ls -A "$mnt")" = full.json ] || no "left behind: $(ls -A "$mnt" | tr '\n' ' ')"
		done_
		t "--trace on a full disk (loops=$loops), --report json: outcome error" 2 run \
			"$root/scripts/inode.lua" --set loops=$loops --trace "$mnt/full.json" --report json
		out_has '"outcome": "error"'
		out_has 'No space left on device'
		[ "$(cat "$mnt/full.json")" = previous ] || no "the previous file changed"
		done_
	done
		# the tour stops at the first file the disk cannot hold,
		# and says so once, naming ENOSPC (issue 28)
		t "tour --out on a full disk: one line naming ENOSPC, no tour.txt" 2 tour --out "$mnt/tour"
		one_line_err
		err_has 'No space left on device'
		grep -q 'cannot write: cannot write' "$tmp/err" && no "the prefix is doubled"
		[ ! -e "$mnt/tour/tour.txt" ] || no "a tour.txt was written"
		ls -A "$mnt/tour" | grep -q '^\.lockmuseum-' && no "a temporary was left"
		done_
	umount "$mnt"
else
	echo "note: cannot mount a small tmpfs here (not root?): the full-disk cases are not run"
fi


current="a file-size limit: --trace fails cleanly, the old file stays"
failed=false
echo "previous" >"$tmp/limited.json"
( ulimit -f 8; "$BIN" run "$root/scripts/inode.lua" --set loops=40 --trace "$tmp/limited.json" >/dev/null 2>"$tmp/err" )
rc=$?
[ "$rc" = 2 ] || no "exit status $rc, expected 2"
one_line_err
[ "$(cat "$tmp/limited.json")" = previous ] || no "the previous file was changed"
ls "$tmp" | grep -q 'limited.json.tmp' && no "a temporary file was left behind"
done_

current="a file-size limit: --png fails cleanly, the old file stays"
failed=false
echo "previous" >"$tmp/limited.png"
( ulimit -f 8; "$BIN" run "$root/scripts/inode.lua" --set loops=40 --png "$tmp/limited.png" >/dev/null 2>"$tmp/err" )
rc=$?
[ "$rc" = 2 ] || no "exit status $rc, expected 2"
[ "$(cat "$tmp/limited.png")" = previous ] || no "the previous file was changed"
ls "$tmp" | grep -q 'limited.png.tmp' && no "a temporary file was left behind"
done_

# tour --out under a file-size limit (issue 28): it drew all 15 exhibits
# with an error line each, then "tour.txt: cannot write: cannot write:
# Input/output error".  Now the first file that fails stops the tour, in
# one line naming EFBIG: a picture (8 KiB), or tour.txt (40 KiB: the
# small pictures fit, the text does not).
for lim in 8 40; do
	current="tour --out under ulimit -f $lim: one line naming EFBIG, no tour.txt"
	failed=false
	rm -rf "$tmp/tour_lim"
	( ulimit -f $lim; "$BIN" tour --out "$tmp/tour_lim" --size 320x240 >/dev/null 2>"$tmp/err" )
	rc=$?
	[ "$rc" = 2 ] || no "exit status $rc, expected 2"
	one_line_err
	err_has 'cannot write: File too large'
	grep -q 'cannot write: cannot write' "$tmp/err" && no "the prefix is doubled"
	[ ! -e "$tmp/tour_lim/tour.txt" ] || no "a tour.txt was written"
	ls -A "$tmp/tour_lim" | grep -q '^\.lockmuseum-' && no "a temporary was left"
	done_
done
[ "$(sed -n 's/.*\(tour\.txt\|png\): cannot.*/\1/p' "$tmp/err")" = tour.txt ] ||
	echo "note: under ulimit -f 40 a picture failed first: the tour.txt case was not reached"

# tour --out with both streams in one file (make run > log 2>&1): the
# report first, then the line saying what was written -- it once came in
# the middle of the last exhibit's line, stdout's buffer not yet flushed.
# Not under ASan (the order is stdio's, and the tour takes seconds there).
if ! grep -qa '__asan_init' "$BIN"; then
	current="tour --out, both streams in one file: the report, then the line saying what was written"
	failed=false
	rm -rf "$tmp/tour_both"
	"${guard[@]}" "$BIN" tour --out "$tmp/tour_both" --size 320x240 >"$tmp/both" 2>&1 </dev/null
	rc=$?
	[ "$rc" = 0 ] || no "exit status $rc"
	grep -q '^lockmuseum: wrote .*/tour_both/tour.txt and [0-9]* PNGs under ' "$tmp/both" ||
		no "the closing line is not a line of its own"
	[ "$(grep -c 'lockmuseum: wrote' "$tmp/both")" = 1 ] &&
		tail -n 1 "$tmp/both" | grep -q '^lockmuseum: wrote ' || no "the closing line is not the last"
	done_
fi

# ------------------------------------------------------------- signals --

cat >"$tmp/forever.lua" <<'LUA'
scenario{ name = "forever", duration = sec(100000) }
task{ name = "t", run = function() while true do compute(us(1)) end end }
LUA
current="Ctrl-C stops a long run with exit 130"
failed=false
"$BIN" run "$tmp/forever.lua" --max-instructions 100000000000 --max-events 100000000000 --max-wall 600 >/dev/null 2>"$tmp/err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || no "exit status $rc, expected 130"
err_has 'interrupted'
done_

# Workers die with their parent (issue 28): a SIGINT or SIGTERM sent to
# the main process alone (kill, timeout: not a terminal's Ctrl-C, which
# reaches the whole group) ended it with 130 and left its --jobs workers
# running for minutes.  Stopping them, it claims nothing of the search:
# one "interrupted" line, nothing on stdout.
# claims_nothing: an interrupted search claims nothing -- one
# "interrupted" line on stderr, nothing on stdout; then its workers
# ($kids) are killed if any is left
claims_nothing() {
	[ "$(cat "$tmp/err")" = "lockmuseum: interrupted" ] ||
		no "stderr is not one 'interrupted' line: $(tr '\n' '|' <"$tmp/err")"
	[ ! -s "$tmp/out" ] || no "printed: $(head -1 "$tmp/out")"
	for k in $kids; do kill -KILL "$k" 2>/dev/null; done
}
for cmd in "compare --seeds 1..6" "explore --seeds 1..6 --goal deadlock" \
	"explore --strategy random --seeds 1..6 --goal deadlock"; do
	for sig in INT TERM; do
		current="SIG$sig to $cmd --jobs 2: the workers end with it"
		failed=false
		"$BIN" $cmd "$tmp/forever.lua" --jobs 2 --max-instructions 100000000000 \
			--max-events 100000000000 --max-wall 600 >"$tmp/out" 2>"$tmp/err" &
		pid=$!
		kids=""
		for _ in $(seq 50); do
			kids=$(pgrep -P $pid | tr '\n' ' ')
			[ "$(echo $kids | wc -w)" -ge 2 ] && break
			sleep 0.1
		done
		[ -n "$kids" ] || no "no workers seen"
		kill -$sig $pid
		wait $pid
		rc=$?
		[ "$rc" = 130 ] || no "exit status $rc, expected 130"
		left=""
		for _ in $(seq 30); do
			left=""
			for k in $kids; do
				kill -0 "$k" 2>/dev/null && left="$left $k"
			done
			[ -z "$left" ] && break
			sleep 0.1
		done
		[ -z "$left" ] || no "workers still running 3 s after: $left"
		claims_nothing
		done_
	done
done

# exhaustive and pct make their first run before the workers fork: a
# signal during it (the run never ends) stops the search there, with no
# worker started and nothing claimed
for st in exhaustive:2 pct:2; do
	current="SIGINT to explore --strategy $st --jobs 2 during its first run"
	failed=false
	"$BIN" explore "$tmp/forever.lua" --strategy $st --jobs 2 --max-instructions 100000000000 \
		--max-events 100000000000 --max-wall 600 >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	kids=$(pgrep -P $pid | tr '\n' ' ')
	[ -z "$kids" ] || no "workers started before the first run ended: $kids"
	kill -INT $pid
	wait $pid
	rc=$?
	[ "$rc" = 130 ] || no "exit status $rc, expected 130"
	claims_nothing
	done_
done

# Ctrl-C at a terminal reaches the whole group, workers included: compare
# --report json then printed the table of interrupted runs ("some runs
# ended in an error") instead of the interrupted object (issue 28).
if command -v setsid >/dev/null 2>&1; then
	current="Ctrl-C (to the group) during compare --jobs 2 --report json: the interrupted object"
	failed=false
	setsid "$BIN" compare "$tmp/forever.lua" --seeds 1..4 --jobs 2 --report json \
		--max-instructions 100000000000 --max-events 100000000000 --max-wall 600 \
		>"$tmp/out" 2>"$tmp/err" </dev/null &
	pid=$!
	for _ in $(seq 50); do
		[ "$(pgrep -P $pid | wc -l)" -ge 2 ] && break
		sleep 0.1
	done
	kill -INT -- -$pid
	wait $pid
	rc=$?
	[ "$rc" = 130 ] || no "exit status $rc, expected 130"
	$have_python && { python3 -c 'import json,sys; o = json.load(open(sys.argv[1]));
assert o["outcome"] == "error" and o["reason"] == "interrupted", o' "$tmp/out" 2>/dev/null ||
		no "stdout is not the interrupted object: $(head -c 120 "$tmp/out")"; }
	[ "$(cat "$tmp/err")" = "lockmuseum: interrupted" ] ||
		no "stderr is not one 'interrupted' line: $(tr '\n' '|' <"$tmp/err")"
	kill -KILL -- -$pid 2>/dev/null
	done_
fi

current="Ctrl-C during tour --out leaves no half-written file"
failed=false
mkdir -p "$tmp/tour"
"$BIN" tour --out "$tmp/tour" >/dev/null 2>&1 &
pid=$!
sleep 0.2
kill -INT $pid
wait $pid
rc=$?
if [ "$rc" = 130 ]; then
	# finished exhibits may stay; nothing half-written may
	left=$(ls -A "$tmp/tour" | grep -E '\.tmp\.' || true)
	[ -z "$left" ] || no "temporary files left behind: $left"
	[ ! -e "$tmp/tour/tour.txt" ] || no "an interrupted tour wrote tour.txt"
else
	[ "$rc" = 0 ] || no "exit status $rc, expected 130 (or 0 if it finished first)"
fi
done_

# A teacher hands out `lockmuseum run NAME.lua` with the name as `list`
# prints it, or `run scripts/NAME.lua`: both work from any directory,
# for every scenario list prints (resolved through the data folder).
mkdir -p "$tmp/elsewhere"
names=$("$BIN" list 2>/dev/null | sed -n '/^scenarios (/,$s/^  \([A-Za-z0-9_]*\.lua\) .*/\1/p')
current="list prints scenarios"
failed=false
[ -n "$names" ] || no "no scenario names in list"
done_
for name in $names; do
	for arg in "$name" "scripts/$name"; do
		current="check $arg from another directory"
		failed=false
		(cd "$tmp/elsewhere" && "${guard[@]}" "$BIN" check "$arg" >"$tmp/out" 2>"$tmp/err" </dev/null)
		rc=$?
		[ "$rc" = 0 ] || no "exit status $rc, expected 0"
		done_
	done
done
current="run NAME.lua from another directory runs the scenario"
failed=false
(cd "$tmp/elsewhere" && "${guard[@]}" "$BIN" run uniproc_cli.lua >"$tmp/out" 2>"$tmp/err" </dev/null)
rc=$?
[ "$rc" = 0 ] || no "exit status $rc, expected 0"
out_has 'uniproc_cli'
done_
current="a name found nowhere is still a one-line error naming it"
failed=false
(cd "$tmp/elsewhere" && "${guard[@]}" "$BIN" run no_such_scenario.lua >"$tmp/out" 2>"$tmp/err" </dev/null)
rc=$?
[ "$rc" = 2 ] || no "exit status $rc, expected 2"
err_has 'no_such_scenario.lua'
one_line_err
done_

# Tables fit the terminal: $COLUMNS, else 100; a header is never cut
# (it goes on two lines, or its column is left out and a note says so);
# --columns chooses and orders them.
kmod_cmp=(compare "$root/scripts/kmod.lua" --set max=8 --cpus 64 --modes native,cli,mutex)
saved_columns=${COLUMNS-}
unset COLUMNS
t "compare fits 100 columns when COLUMNS is not set" 1 "${kmod_cmp[@]}"
wide=$(awk 'length > 100' "$tmp/out" | head -1)
[ -z "$wide" ] || no "a line wider than 100: $wide"
out_has '^\(left out to fit 100 columns: '
done_
export COLUMNS=200
t "compare with COLUMNS=200 shows every column, headers whole" 1 "${kmod_cmp[@]}"
out_lacks 'left out'
out_has 'request_module'		# the measure's whole name, once cut to request_mod
out_has ' wait +wait '		# two-line headers: wait / avg ms, wait / max ms
out_has ' avg ms max ms '
done_
unset COLUMNS
[ -z "$saved_columns" ] || export COLUMNS=$saved_columns
t "compare --columns chooses and orders" 1 compare "$root/scripts/kmod.lua" --set max=8 \
	--cpus 64 --modes native,cli --columns outcome,mode,uevent,checks
out_has '^ +uevent$'			# a header on two lines, never cut
out_has '^outcome +mode +p99 ms checks$'
out_has '^completed +native +[0-9.]+ +4/4$'
grep -Eq 'busy|acq/s|left out' "$tmp/out" && no "a column not asked for"
done_
t "compare --columns with an unknown column: one line naming the columns" 2 compare \
	"$root/scripts/kmod.lua" --set max=8 --cpus 64 --modes native --columns mode,speed
one_line_err
err_has "no column 'speed'.*mode,era,cpus,outcome,time"
done_
t "compare --sets with a parameter the scenario lacks: one line, exit 2" 2 compare \
	"$root/scripts/kmod.lua" --sets cpus=2
one_line_err
err_has "has no parameter 'cpus'"
out_empty
done_
t "compare --seeds says when the seed changes nothing" 0 compare "$root/scripts/bkl.lua" \
	--modes native --cpus 2 --seeds 1..3
out_has '^native +2 +3= +completed'
out_has 'the seed changes nothing here'
done_

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
