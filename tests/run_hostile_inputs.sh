#!/usr/bin/env bash
# run_hostile_inputs.sh BIN - files others wrote, read back: hostile
# reports through `compare --from`, FIFOs and pipes where a report, a
# schedule or a scenario is expected, and an era whose costs contradict
# each other (issue 28, classes 7, 8, 9, 12, 13 and 18).  Each case is
# made here from a real report or schedule, edited (python3).
#
# What every case wants: an exit status of the contract (never a signal),
# within 20 s (a FIFO must never hang the program), and, for a refusal,
# exit 2 and one line on stderr that names the file.  Run by
# `make check-hostile`, so under ASan and UBSan too (check-sanitized):
# there a sanitizer's report on stderr fails the case.
#
# The last line is "N passed, M failed".

set -u

. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"
runner_guard 20 -k 5
if ! command -v python3 >/dev/null 2>&1; then
	echo "$0: python3 is needed to make the hostile reports" >&2
	exit 2
fi

runner_cases "$tmp/err"

# a case ends failed, too, on a sanitizer's report (check-sanitized)
done_() {
	grep -q 'runtime error:\|ERROR: AddressSanitizer\|ERROR: LeakSanitizer' "$tmp/err" 2>/dev/null &&
		no "a sanitizer's report"
	case_done
}

# lm ARGS...: the binary under the guard, stdout and stderr kept; rc set.
lm() {
	"${guard[@]}" "$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

status() { [ "$rc" = "$1" ] || no "exit status $rc, expected $1"; }
no_signal() { [ "$rc" -le 3 ] || no "exit status $rc (a signal, or the guard's timeout)"; }
one_line() { [ "$(wc -l <"$tmp/err")" = 1 ] || no "$(wc -l <"$tmp/err") lines on stderr, expected 1"; }
err_has() { grep -Eq -e "$1" "$tmp/err" || no "stderr does not match /$1/: $(head -c 300 "$tmp/err")"; }
out_has() { grep -Eq -e "$1" "$tmp/out" || no "stdout does not match /$1/"; }
json_ok() {
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>/dev/null ||
		no "stdout is not one JSON value: $(head -c 200 "$tmp/out")"
}

cd "$tmp" || exit 2
"$BIN" run "$root/scripts/printk.lua" --mode mutex --cpus 2 --seed 1 --set msgs=4 \
	--report json --out base.json 2>/dev/null
[ -s base.json ] || { echo "$0: cannot make a report to start from" >&2; exit 2; }

# edit OUT PYTHON: base.json loaded as r, the statement run, r saved as OUT
# (the edited report of seed 2 unless the statement says otherwise).
edit() {
	local out=$1
	shift
	python3 - "$out" "$1" <<'EOF'
import json, sys
r = json.load(open("base.json"))
r["seed"] = 2
exec(sys.argv[2])
with open(sys.argv[1], "w") as f:
	json.dump(r, f, indent=2)
EOF
}
I64MAX=9223372036854775807
I64MIN=-9223372036854775808

# ------------------------------------------------- class 7: a division --
mkdir fpe
edit fpe/r.json "r['locks'][0]['waits'] = -1; r['locks'][0]['wait_ns']['total'] = $I64MIN"
begin "a wait total of INT64_MIN over -1 waits: no SIGFPE, the table printed"
lm compare --from fpe/r.json
no_signal
out_has '^mutex +(2006 +)?2 +completed'
done_

# -------------------------------------------- class 8: a real parser --
begin "params nested 100,000 deep: refused (jansson's depth), no stack overflow"
python3 - <<'EOF'
s = open("base.json").read()
s = s.replace('"params": {', '"params": ' + "[" * 100000 + "]" * 100000 + ', "p": {', 1)
open("deep.json", "w").write(s)
EOF
lm compare --from deep.json
status 2
one_line
err_has '^lockmuseum: deep\.json:[0-9]+: not a lockmuseum report: not JSON \(maximum parsing depth'
done_

# refuse NAME PYTHON-ON-TEXT: the report's text @s edited; compare --from
# must refuse it as not JSON, naming it, in one line.
refuse_text() {
	begin "$1"
	python3 -c "
s = open('base.json').read()
$2
open('bad.json', 'w').write(s)"
	lm compare --from bad.json
	status 2
	one_line
	err_has '^lockmuseum: bad\.json:[0-9]+: not a lockmuseum report: not JSON'
	done_
}
refuse_text "a raw control byte in a member the table does not read" \
	"s = s.replace('\"kind\": \"mutex\"', '\"kind\": \"mu\x01tex\"', 1)"
refuse_text "brackets that do not match in a member the table does not read" \
	"s = s.replace('\"events\": ', '\"x\": [1, 2}, \"events\": ', 1)"
refuse_text "NaN in a member the table does not read" \
	"s = s.replace('\"events\": ', '\"events\": NaN, \"x\": ', 1)"
refuse_text "a key given twice" \
	"s = s.replace('\"seed\": 1,', '\"seed\": 1, \"seed\": 3,', 1)"

# ------------------------------------------------ class 12: UTF-8 keys --
begin "--report json with a key that is not UTF-8: one JSON object, exit 2"
python3 - <<'EOF'
s = open("base.json", "rb").read()
s = s.replace(b'"params": {', b'"params": {"k\xff": "1", ', 1)
open("utf8.json", "wb").write(s)
EOF
lm compare --from utf8.json --report json
status 2
json_ok
out_has '"outcome": "error"'
err_has 'utf8\.json:[0-9]+: not a lockmuseum report: not JSON \(unable to decode byte 0xff'
done_

# ---------------------------------------- class 13: sums and means wrap --
mkdir sums
edit sums/a.json "r['seed'] = 1; r['sim_time_ns'] = $I64MAX; r['violation_counts'] = {'lost-update': $I64MAX}"
edit sums/b.json "r['seed'] = 2; r['sim_time_ns'] = $I64MAX; r['violation_counts'] = {'lost-update': $I64MAX}"
begin "two seeds of sim_time_ns INT64_MAX: the mean is INT64_MAX, the counts saturate"
lm compare --from sums --report json
no_signal
python3 - "$tmp/out" <<'EOF' || no "the merged row: $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; print(r["sim_time_ns"], r["violations"])' "$tmp/out" 2>&1)"
import json, sys
row = json.load(open(sys.argv[1]))["runs"][0]
assert row["sim_time_ns"] == 9223372036854775807, row["sim_time_ns"]
assert row["violations"]["lost-update"] == 9223372036854775807, row["violations"]
assert row["spread"]["sim_time_ns"]["max"] == 9223372036854775807
EOF
done_

begin "the same in text and CSV: no negative time"
lm compare --from sums --report csv
no_signal
grep -q -- ',-9223372036854775808,' "$tmp/out" && no "INT64_MIN in the CSV"
out_has ',9223372036854775807,'
lm compare --from sums
no_signal
done_

mkdir waits
edit waits/a.json "r['seed'] = 1; r['locks'][0]['wait_ns']['total'] = $I64MAX; r['locks'][0]['waits'] = 1; r['locks'][0]['wait_ns']['max'] = $I64MAX"
edit waits/b.json "r['seed'] = 2; r['locks'][0]['wait_ns']['total'] = $I64MAX; r['locks'][0]['waits'] = 1; r['locks'][0]['wait_ns']['max'] = $I64MAX"
begin "--plot of waits of INT64_MAX: drawn, nothing out of range"
lm compare --from waits --plot plot.png
no_signal
[ -s plot.png ] || no "no plot"
done_

edit cpus.json "r['cpus'] = 4294967298"
begin "cpus 4294967298 is refused, not read as 2"
lm compare --from cpus.json
status 2
one_line
err_has 'cpus\.json: not a lockmuseum report \("cpus": 4294967298, not 1 to 1024\)'
done_

# ------------------------------------------------------- class 9: FIFOs --
mkdir fifodir
cp base.json fifodir/a.json
mkfifo fifodir/b.json
begin "a FIFO named *.json in a --from folder: refused at once, no hang"
lm compare --from fifodir
status 2
one_line
err_has 'fifodir/b\.json: a FIFO, not a regular file'
done_

mkfifo lone.fifo
begin "--from a FIFO no one writes: an empty file, no hang"
lm compare --from lone.fifo
status 2
one_line
err_has 'lone\.fifo:[0-9]+: not a lockmuseum report: not JSON'
done_

begin "--from a pipe named on the command line: read to its end"
"$BIN" compare --from base.json --report csv >want.csv 2>/dev/null
want=$?
"${guard[@]}" "$BIN" compare --from <(cat base.json) --report csv >"$tmp/out" 2>"$tmp/err"
rc=$?
status $want
[ -s want.csv ] || no "no table from the file"
cmp -s want.csv "$tmp/out" || no "not the table of the same report read as a file"
done_

begin "a scenario that is a FIFO: refused at once, no hang"
lm run lone.fifo
status 2
one_line
err_has 'lone\.fifo: a FIFO, not a regular file'
done_

sched=$root/scripts/challenges/solutions/cli_smp.schedule
scen=$root/scripts/challenges/cli_smp.lua
begin "--schedule a FIFO no one writes: an empty schedule, no hang"
lm run "$scen" --schedule lone.fifo
status 2
one_line
err_has 'lone\.fifo:[0-9]+: empty: not a schedule file'
done_

begin "--schedule a pipe: read to its end, the same replay"
"$BIN" run "$scen" --schedule "$sched" --report json >want.json 2>/dev/null
want=$?
"${guard[@]}" "$BIN" run "$scen" --schedule <(cat "$sched") --report json >"$tmp/out" 2>"$tmp/err"
rc=$?
status $want
cmp -s want.json "$tmp/out" || no "not the replay of the same schedule read as a file"
done_

fifodata=$tmp/fifodata
mkdir -p "$fifodata"
for d in scripts assets docs; do ln -s "$root/$d" "$fifodata/$d"; done
cp -r "$root/eras" "$fifodata/eras"
mkfifo "$fifodata/eras/2099.lua"
begin "an era file that is a FIFO: refused at once, no hang"
LOCKMUSEUM_DATA=$fifodata lm list
status 2
one_line
err_has '2099\.lua: a FIFO, not a regular file'
done_

# ------------------------------------------- class 18: an era's costs --
data=$tmp/data
mkdir -p "$data"
for d in scripts assets docs; do ln -s "$root/$d" "$data/$d"; done
cp -r "$root/eras" "$data/eras"
sed -i 's/ipi *= *[0-9_]*/ipi = 999999/' "$data/eras/machines/2005-2006.lua"
grep -q 'ipi = 999999' "$data/eras/machines/2005-2006.lua" ||
	{ echo "$0: the 2005-2006 machine has no ipi cost" >&2; exit 2; }
begin "a machine whose ipi is more than its wakeup: refused when it loads, naming the file"
LOCKMUSEUM_DATA=$data lm run "$root/scripts/inode.lua" --era 2006
status 2
one_line
err_has '2005-2006\.lua:[0-9]+: machine\{\}: costs\.ipi \(999999 ns\) is more than costs\.wakeup'
done_

printf 'era{ id = "2099", year = 2099, version = "9",\n  costs = { wakeup = 2000, ipi = 2500 } }\n' \
	>"$data/eras/2099.lua"
begin "an era whose own ipi is more than its wakeup: the same, naming the era's file"
LOCKMUSEUM_DATA=$data lm run "$root/scripts/inode.lua" --era 2099
status 2
one_line
err_has '2099\.lua:[0-9]+: era\{\}: costs\.ipi \(2500 ns\) is more than costs\.wakeup \(2000 ns\)'
done_

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
