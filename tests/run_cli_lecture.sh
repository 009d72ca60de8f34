#!/usr/bin/env bash
# run_cli_lecture.sh BIN - the command line in a lecture hall and on a
# homework sheet: `--report interleaving` and its --answers, and times in
# one unit per message.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.

set -u

. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"
export LOCKMUSEUM_DATA=$root

pass=0
fail=0
current=""

# t NAME EXPECTED_EXIT ARGS... : run BIN ARGS into $tmp/out and $tmp/err.
t() {
	current=$1
	local want=$2
	shift 2
	timeout 60 "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
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

lost=$root/tests/view/lost.lua	# two adders, 20 unlocked increments each

# ---------------------------------------------------- --report interleaving

# The homework: one line per operation, every value and the outcome hidden.
t "interleaving: the homework sheet hides the outcome" 1 run "$lost" --mode cli --report interleaving
out_has '^ +time +cpu +who +operation'
out_has 'times in us'
[ "$(grep -c 'read shared -> ?$' "$tmp/out")" = 40 ] || no "not 40 reads of 'shared', each with ?"
[ "$(grep -c 'write shared = ?$' "$tmp/out")" = 40 ] || no "not 40 writes of 'shared', each with ?"
out_lacks '(->|=) [0-9-]+$'		# no value read or written
out_lacks '!!|lost-update|lost update|^answers'
out_has '^questions:'
done_
cp "$tmp/out" "$tmp/sheet1"

t "interleaving: the same run, the same sheet, byte for byte" 1 run "$lost" --mode cli \
	--report interleaving
cmp -s "$tmp/out" "$tmp/sheet1" || no "two sheets of one run differ"
done_

# The answers: the same lines with their values, the violations among
# them, and the end; they agree with the JSON report of the same run.
t "interleaving --answers: values, violations and the end" 1 run "$lost" --mode cli \
	--report interleaving --answers
grep -v '!!' "$tmp/out" | sed -n '/^ *time /,/^$/p' >"$tmp/ans_ops"
sed -n '/^ *time /,/^$/p' "$tmp/sheet1" >"$tmp/sheet_ops"
[ "$(wc -l <"$tmp/ans_ops")" = "$(wc -l <"$tmp/sheet_ops")" ] ||
	no "the answers have other operations than the sheet"
[ "$(grep -c 'read shared -> [0-9]\+$' "$tmp/out")" = 40 ] || no "not 40 reads with their value"
out_has '^answers$'
"$BIN" run "$lost" --mode cli --report json >"$tmp/json" 2>/dev/null
if command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/json" "$tmp/out" <<'PY' || no "the answers disagree with the JSON report"
import json, re, sys
rep = json.load(open(sys.argv[1]))
sheet = open(sys.argv[2]).read()
final = rep["vars"]["shared"]
final = final["value"] if isinstance(final, dict) else final
m = re.search(r"^  shared = (-?\d+) at the end", sheet, re.M)
assert m and int(m.group(1)) == final, (m, final)
n = sum(rep["violation_counts"].values()) if "violation_counts" in rep else len(rep["violations"])
m = re.search(r"^  violations: (\d+)$", sheet, re.M)
assert m and int(m.group(1)) == n, (m, n)
assert sheet.count("!! lost-update") == n, sheet.count("!! lost-update")
PY
fi
out_has '^  finished, first to last: adder/[12] \([0-9.]+ us\), adder/[12]'
out_has '^  outcome: completed at 6.964 us \(exit status 1\)$'
done_

# Lock state after each operation: AB-BA, each task holds one and waits.
t "interleaving: the locks' state after each operation" 3 run \
	"$root/tests/scenarios/deadlock_abba.lua" --era 2009 --cpus 2 --report interleaving
out_has 'mutex_lock\(A\) +A:ab  B:free$'
out_has 'mutex_lock\(B\): waits +A:ab  B:ba\+1w$'
out_lacks '!! deadlock'
done_

t "--answers without --report interleaving: a usage error" 2 run "$lost" --answers
one_line_err
err_has '--answers'
done_

t "compare has no interleaving report" 2 compare "$lost" --report interleaving
one_line_err
done_

t "interleaving to a full disk: exit 2, one line" 2 run "$lost" --report interleaving \
	--out /dev/full
one_line_err
done_

mkdir -p "$tmp/d"
t "interleaving --out a directory: exit 2, one line, nothing written" 2 run "$lost" \
	--report interleaving --out "$tmp/d"
one_line_err
[ -z "$(ls -A "$tmp/d")" ] || no "something was written into the directory"
done_

t "interleaving --out FILE: the sheet, whole" 1 run "$lost" --mode cli --report interleaving \
	--out "$tmp/sheet.txt"
cmp -s "$tmp/sheet.txt" "$tmp/sheet1" || no "the file is not the sheet stdout prints"
done_

# The window a teacher prints: --from lost shows the first lost update
# and what led to it, on a page; --from/--to/--steps choose any other.
tty=$root/scripts/uniproc_cli.lua
sheet_args=(run "$tty" --era 2003 --cpus 2 --mode cli --anachronism --report interleaving)
t "interleaving --from lost: the README's sheet fits two printed pages" 1 "${sheet_args[@]}" \
	--from lost
[ "$(wc -l <"$tmp/out")" -le 120 ] || no "$(wc -l <"$tmp/out") lines, more than 120"
out_has '^ +\.\.\.  \([0-9]+ operations before\)$'
out_has 'read buffer_count -> \?'
out_has '^40 of the run.s [0-9]+ operations shown'
out_lacks 'lost update'		# the sheet does not give the answer away
done_
t "interleaving --from lost --answers: the lost update is in the window" 1 "${sheet_args[@]}" \
	--from lost --answers
[ "$(wc -l <"$tmp/out")" -le 120 ] || no "$(wc -l <"$tmp/out") lines, more than 120"
# the overwrite's line, marked, and its read, both among the lines shown
out_has '!! lost-update'
out_has '^  violations: [0-9]+ in the whole run$'
out_has "^    3\.061 ms  lost update on 'buffer_count'"
out_has 'outside the lines shown'
done_
t "interleaving --from/--to/--steps: the window asked for" 1 "${sheet_args[@]}" \
	--from 3ms --to 4ms --steps 10
ops=$(sed -n '/^ *time /,/^$/p' "$tmp/out" | grep -cE '^ +[0-9]+\.[0-9]{3} ')
[ "$ops" = 10 ] || no "$ops operation lines, expected 10"
sed -n '/^ *time /,/^$/p' "$tmp/out" | grep -E '^ +[0-9]+\.[0-9]+ ' |
	awk '$1 < 3 || $1 > 4 { bad = 1 } END { exit bad }' || no "a line outside 3 ms .. 4 ms"
done_
t "interleaving: one style down the time column" 1 "${sheet_args[@]}" --steps 20
sed -n '/^ *time /,/^$/p' "$tmp/out" | grep -E '^ +[0-9]' | awk '{print $1}' |
	grep -vqE '^[0-9]+\.[0-9]{3}$' && no "a time not to three decimals: $(sed -n '/^ *time /,/^$/p' "$tmp/out" | awk '{print $1}' | grep -vE '^(time|[0-9]+\.[0-9]{3})$' | head -1)"
done_
t "--from without --report interleaving: a usage error" 2 run "$tty" --from lost
one_line_err
err_has 'add --report interleaving'
done_
t "--to before --from: a usage error" 2 "${sheet_args[@]}" --from 3ms --to 1ms
one_line_err
done_
t "--from a word that is not lost: a usage error" 2 "${sheet_args[@]}" --from soon
one_line_err
err_has '--from'
done_
t "--from lost on a run that lost nothing says so" 0 run "$tty" --report interleaving --from lost
out_has 'no update was lost in this run'
done_

# ----------------------------------------------- times in one unit a message

# units LINE: the distinct time units of the times in LINE, one a line.
units() { grep -oE '[0-9](\.[0-9]+)? (ns|us|ms|s)\b' <<<"$1" | awk '{print $2}' | sort -u; }

t "a violation's line gives its instants in one unit" 1 run "$lost" --mode cli
n=0
while IFS= read -r line; do
	n=$((n + 1))
	[ "$(units "$line" | wc -l)" = 1 ] || no "mixed units: $line"
done < <(grep '\[lost-update\]' "$tmp/out")
[ "$n" -ge 5 ] || no "only $n violation lines"
out_has 'read it at t=3\.500 us, .adder/1. wrote it at t=3\.505 us'
done_

t "a lock's wait avg and max in one unit, and its hold avg and max" 0 run \
	"$root/scripts/inode.lua" --mode mutex --set loops=40
row=$(grep -E '^  dir->i_sem +mutex' "$tmp/out")
set -- $row
[ "$7" = "$9" ] || no "wait avg and max in $7 and $9: $row"
[ "${11}" = "${13}" ] || no "hold avg and max in ${11} and ${13}: $row"
done_

t "a measure()'s p50, p99 and max in one unit" 0 run "$root/scripts/kmod.lua" --cpus 64
sed -n '/^latency (measure)/,/^$/p' "$tmp/out" | tail -n +2 | grep . >"$tmp/lat"
[ -s "$tmp/lat" ] || no "no latency table"
while IFS= read -r line; do
	[ "$(units "$line" | wc -l)" = 1 ] || no "mixed units: $line"
done <"$tmp/lat"
done_

# More lost updates than the JSON keeps: the text, the JSON and the man
# page say the same thing about the ones left out.
cat >"$tmp/many.lua" <<'LUA'
scenario{ name = "many", era = "2009", cpus = 2, seed = 3 }
local v = var{ name = "n" }
for i = 1, 2 do
  task{ name = "adder/" .. i, cpu = i - 1, run = function()
    for _ = 1, 100 do add(v, 1); compute(ns(100)) end
  end }
end
LUA
t "violations beyond the 64 kept: counted, and said so" 1 run "$tmp/many.lua" --mode cli
out_has '^  \.\.\. 54 more in the JSON report, and [0-9]+ counted but not kept \(its violations_dropped'
dropped=$(sed -n 's/.* and \([0-9]*\) counted but not kept.*/\1/p' "$tmp/out")
"$BIN" run "$tmp/many.lua" --mode cli --report json >"$tmp/many.json" 2>/dev/null
if command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/many.json" "$dropped" <<'PY' || no "the JSON disagrees"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["violations"]) == 64, len(r["violations"])
assert r["violations_dropped"] == int(sys.argv[2]), (r["violations_dropped"], sys.argv[2])
assert len(r["violations"]) + r["violations_dropped"] == sum(r["violation_counts"].values())
PY
fi
grep -q 'plus' "$root/docs/lockmuseum.1" && grep -q 'violations_dropped' "$root/docs/lockmuseum.1" ||
	no "the man page does not describe violations_dropped"
done_

# ------------------------------------------------------------- --scale

t "--scale 2 --png: a larger picture in projector mode" 1 run "$lost" --mode cli --scale 2 \
	--png "$tmp/big.png" --size 800x500
[ "$(head -c 4 "$tmp/big.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] || no "no PNG"
"$BIN" run "$lost" --mode cli --png "$tmp/small.png" --size 800x500 >/dev/null 2>&1
cmp -s "$tmp/big.png" "$tmp/small.png" && no "--scale 2 drew the same picture as no --scale"
done_

for bad in 0.4 4.5 two nan -1; do
	t "--scale $bad: a usage error" 2 run "$lost" --scale "$bad" --png "$tmp/x.png"
	one_line_err
	err_has "scale"
	[ ! -e "$tmp/x.png" ] || no "a picture was written"
	done_
done

t "--scale without a window or a picture: a usage error" 2 run "$lost" --scale 2
one_line_err
err_has 'add --gui or --png'
done_

t "compare does not take --scale" 2 compare "$lost" --scale 2
one_line_err
done_

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
