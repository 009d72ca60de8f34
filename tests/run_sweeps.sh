#!/usr/bin/env bash
# run_sweeps.sh BIN - sweeps beyond one machine, as docs/scaling.md gives
# them: a sweep of 48 runs through GNU parallel on this machine (an
# sshloginfile naming only ":", the local host), half of it, then the
# rest with --skip-done; the reports merged with `compare --from` must
# print the table, CSV, JSON and plot of a local compare byte for byte.
# The Slurm script is checked for syntax and for the run each task id
# picks (no Slurm needed: a stand-in lockmuseum prints its arguments).
# Then the refusals of --from, each one line naming the file(s).
#
# Every command of the recipe is checked to be in docs/scaling.md as it
# is run here.  The last line is "N passed, M failed".

set -u

. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"

# (moreutils has a parallel of its own, which reads no job list)
if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	echo "$0: GNU parallel is missing (make deps installs the Debian package parallel)" >&2
	exit 1
fi

# The sweep runs where the recipe says: a folder with scripts/ in it, the
# binary under test first on PATH as `lockmuseum`.
work=$tmp/work
runner_cases "$work/err"
mkdir -p "$work"
ln -s "$root/scripts" "$work/scripts"
ln -s "$root/tests" "$work/tests"
cd "$work" || exit 2
export PATH="$(dirname "$BIN"):$PATH"
[ "$(command -v lockmuseum)" = "$BIN" ] || { echo "$0: lockmuseum is not $BIN on PATH" >&2; exit 2; }
printf '2/:\n' >hosts.txt

# The recipe of docs/scaling.md, line for line.
recipe_sweep='sweep="scripts/printk.lua --modes semaphore,mutex --cpus 2,4 --sets msgs=10,20 --seeds 1..6"'
recipe_jobs='lockmuseum compare $sweep --print-jobs --out sweep > jobs.txt'
recipe_parallel='parallel --sshloginfile hosts.txt --joblog sweep.log < jobs.txt'
recipe_merge='lockmuseum compare $sweep --from sweep'
recipe_resume='lockmuseum compare $sweep --print-jobs --skip-done sweep > jobs.txt'
recipe_slurm='lockmuseum compare $sweep --slurm-array --out sweep > sweep.sh'
recipe_slurm_resume='lockmuseum compare $sweep --slurm-array --skip-done sweep > sweep.sh'

begin "docs/scaling.md gives the recipe this test runs"
for line in "$recipe_sweep" "$recipe_jobs" "$recipe_parallel" "$recipe_merge" \
	"$recipe_resume" "$recipe_slurm" "$recipe_slurm_resume"; do
	grep -Fxq -e "$line" "$root/docs/scaling.md" || no "not in docs/scaling.md: $line"
done
done_

eval "$recipe_sweep"

begin "--print-jobs: one command a run"
eval "$recipe_jobs" 2>"$work/err" || no "exit status $?"
[ "$(wc -l <jobs.txt)" = 48 ] || no "$(wc -l <jobs.txt) jobs, expected 48"
[ "$(sort -u jobs.txt | wc -l)" = 48 ] || no "two jobs are the same"
[ "$(sed 's/.*--out //' jobs.txt | sort -u | wc -l)" = 48 ] || no "two jobs write one file"
grep -q -e '^lockmuseum run scripts/printk.lua --mode semaphore --cpus 2 --set msgs=10 --seed 1 --report json --out sweep/printk-semaphore-2cpus-msgs=10-s1.json$' jobs.txt ||
	no "the first job is not as expected: $(head -1 jobs.txt)"
done_
cp jobs.txt all-jobs.txt

# Half of the sweep, as if it had been interrupted; a run killed while
# writing leaves only a temporary file, which is not a report.
begin "half of the sweep through GNU parallel, then --skip-done lists the rest"
head -n 20 all-jobs.txt >jobs.txt
eval "$recipe_parallel" >/dev/null 2>"$work/err"
[ "$(ls sweep | grep -c '\.json$')" = 20 ] || no "$(ls sweep | wc -l) reports after 20 jobs"
echo '{"scenario": "printk", "half' >"sweep/$(sed -n '21s/.*sweep\///p' all-jobs.txt).tmp.4242"
eval "$recipe_resume" 2>"$work/err" || no "exit status $?"
tail -n 28 all-jobs.txt | cmp -s - jobs.txt || no "--skip-done did not list exactly the 28 runs left"
done_

begin "a merge of an unfinished sweep says what is missing"
"$BIN" compare $sweep --from sweep >"$work/out" 2>"$work/err"
rc=$?
[ "$rc" = 2 ] || no "exit status $rc, expected 2"
[ ! -s "$work/out" ] || no "printed a table"
[ "$(wc -l <"$work/err")" = 1 ] || no "not one line on stderr"
grep -q -e "--from: 28 of the sweep's 48 runs have no report" "$work/err" ||
	no "does not count the missing runs"
done_

begin "the rest of the sweep through GNU parallel"
eval "$recipe_parallel" >/dev/null 2>"$work/err"
[ "$(ls sweep | grep -c '\.json$')" = 48 ] || no "$(ls sweep | grep -c '\.json$') reports, expected 48"
# exit statuses keep their meaning: mutex up() in an irq is a violation (1)
awk -F'\t' 'NR > 1 && $7 != 0 && $7 != 1 { bad = 1 } END { exit bad }' sweep.log ||
	no "a job ended with a status other than 0 or 1 (see the joblog)"
eval "$recipe_resume" 2>"$work/err"
[ ! -s jobs.txt ] || no "--skip-done still lists $(wc -l <jobs.txt) jobs"
done_

# compare exits with its worst run's status: printk's mutex rows find a
# violation (an up() in an irq), so 1 here; and --from the same.
worst=1
status_is() { [ "$1" = "$2" ] || no "exit status $1, expected $2 (the worst run's)"; }

begin "compare --from prints the local compare's table, byte for byte"
"$BIN" compare $sweep --jobs 2 >local.txt 2>"$work/err"
status_is $? $worst
eval "$recipe_merge" >merged.txt 2>"$work/err"
status_is $? $worst
cmp -s local.txt merged.txt || no "the tables differ: $(diff local.txt merged.txt | head -3)"
grep -q '^printk (scripts/printk.lua): 48 runs, era 2006$' merged.txt || no "no header of 48 runs"
grep -Eq '^mutex +4 +20 +6=? +completed' merged.txt || no "no row of 6 seeds of mutex, 4 CPUs, msgs=20"
done_

for fmt in csv json; do
	begin "compare --from --report $fmt equals the local one"
	"$BIN" compare $sweep --jobs 2 --report $fmt >"local.$fmt" 2>"$work/err"
	"$BIN" compare $sweep --from sweep --report $fmt >"merged.$fmt" 2>"$work/err"
	status_is $? $worst
	[ -s "merged.$fmt" ] || no "no output"
	cmp -s "local.$fmt" "merged.$fmt" || no "they differ: $(diff "local.$fmt" "merged.$fmt" | head -3)"
	done_
done

begin "the seeds of one combination are grouped: mean, min, max"
python3 - merged.json <<'EOF' 2>"$work/err" || no "the JSON table is not what it should be"
import json, sys
t = json.load(open(sys.argv[1]))
runs = t["runs"]
assert len(runs) == 8, len(runs)
for r in runs:
    assert r["seeds"] == 6 and sum(r["outcomes"].values()) == 6, r
    s = r["spread"]["acquisitions_per_s"]
    assert s["min"] <= r["acquisitions_per_s"] <= s["max"], r
    assert r["params"]["msgs"] in ("10", "20"), r
# printk's irqs are random: the seeds must not all be alike
assert any(r["spread"]["sim_time_ns"]["min"] < r["spread"]["sim_time_ns"]["max"] for r in runs)
EOF
done_

begin "compare --from a folder, with no options: every report, in the natural order"
"$BIN" compare --from sweep >"$work/out" 2>"$work/err"
status_is $? $worst
cmp -s local.txt "$work/out" || no "differs from the local table: $(diff local.txt "$work/out" | head -3)"
done_

begin "compare --from files and --plot draw the local compare's plot"
"$BIN" compare $sweep --jobs 2 --plot local.png >/dev/null 2>"$work/err"
status_is $? $worst
"$BIN" compare --from sweep/*.json --plot merged.png >/dev/null 2>"$work/err"
status_is $? $worst
[ -s merged.png ] || no "no plot"
cmp -s local.png merged.png || no "the plots differ"
done_

# Rows that are not plain: seeds with different outcomes (seed 31 of
# flaky_abba deadlocks, the others do not), a combination that is not
# applicable (a counting semaphore as a mutex).
for extra in "tests/explore/flaky_abba.lua --modes mutex --seeds 25..40" \
	"scripts/mlx5.lua --modes native,mutex --set run_ms=5"; do
	begin "compare --from equals compare: $extra"
	rm -rf extra
	"$BIN" compare $extra --print-jobs --out extra 2>"$work/err" | parallel --jobs 2 >/dev/null 2>&1
	for fmt in text json; do
		"$BIN" compare $extra --report $fmt >"local.$fmt" 2>"$work/err"
		local_rc=$?
		"$BIN" compare $extra --report $fmt --from extra >"merged.$fmt" 2>"$work/err"
		status_is $? $local_rc
		[ "$local_rc" != 2 ] || no "the local compare failed"
		cmp -s "local.$fmt" "merged.$fmt" || no "$fmt differs: $(diff "local.$fmt" "merged.$fmt" | head -3)"
	done
	done_
done
begin "seeds with different outcomes make a mixed row; a not-applicable row says why"
grep -Eq "^mutex +64 .*n/a$" merged.text && grep -Eq "^    not applicable: lock 'cmd->sem' counts to 31" merged.text ||
	no "no not-applicable row: $(tail -2 merged.text)"
"$BIN" compare tests/explore/flaky_abba.lua --modes mutex --seeds 25..40 --report csv >"$work/out" 2>"$work/err"
grep -q '^mutex,2006,2,mixed,.*,16,"completed=15 deadlock=1",' "$work/out" || no "no mixed row: $(tail -1 "$work/out")"
done_

# ------------------------------------------------------------- Slurm --
begin "--slurm-array: a job array of 48 tasks, valid sh"
eval "$recipe_slurm" 2>"$work/err" || no "exit status $?"
sh -n sweep.sh 2>"$work/err" || no "sh -n: not valid sh"
grep -qx '#SBATCH --array=0-47' sweep.sh || no "no '#SBATCH --array=0-47'"
[ "$(head -1 sweep.sh)" = '#!/bin/sh' ] || no "no #!/bin/sh"
done_

# A stand-in lockmuseum prints its arguments, one a line: task id k must
# run exactly line k+1 of --print-jobs.
mkdir -p fake
printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done\n' >fake/lockmuseum
chmod +x fake/lockmuseum
begin "task id k of the Slurm script runs job k+1 of --print-jobs"
for k in $(seq 0 47); do
	want=$(PATH="$work/fake:$PATH" sh -c "$(sed -n "$((k + 1))p" all-jobs.txt)")
	got=$(PATH="$work/fake:$PATH" SLURM_ARRAY_TASK_ID=$k sh sweep.sh)
	[ "$want" = "$got" ] || { no "task $k runs '$(echo $got)', not '$(echo $want)'"; break; }
done
PATH="$work/fake:$PATH" SLURM_ARRAY_TASK_ID=48 sh sweep.sh >/dev/null 2>&1
[ $? = 2 ] || no "task 48 (out of the array) does not exit 2"
PATH="$work/fake:$PATH" sh sweep.sh >/dev/null 2>&1 && no "runs without SLURM_ARRAY_TASK_ID"
done_

begin "--slurm-array --skip-done: the same tasks, an array of what is missing"
mkdir -p part
cp sweep/printk-semaphore-2cpus-msgs=10-s*.json sweep/printk-mutex-4cpus-msgs=20-s6.json part/
"$BIN" compare $sweep --slurm-array --out sweep --skip-done part >part.sh 2>"$work/err" ||
	no "exit status $?"
grep -qx '#SBATCH --array=6-46' part.sh || no "$(grep -e '--array' part.sh), expected 6-46"
grep -q '41 runs of 48' part.sh || no "does not say 41 runs of 48"
diff <(grep -v -e '--array' -e 'runs* of' part.sh) <(grep -v -e '--array' -e 'runs* of' sweep.sh) \
	>/dev/null || no "the tasks are not the same"
eval "$recipe_slurm_resume" 2>"$work/err"
[ ! -s sweep.sh ] || no "a finished sweep still has a script"
grep -q 'every run of the sweep has its report' "$work/err" || no "does not say the sweep is done"
done_

# ------------------------------------------------- hostile values (28) --
# A value that reaches a job or the Slurm script is never run: a newline
# is refused (no quoting makes it one line), everything else is quoted.
cat >msgs.lua <<'EOF'
scenario{ name = "msgs", duration = us(50) }
local msg = param("msg", "hello")
local l = lock{ name = "l" }
task{ name = "t", run = function() down(l); log("%s", msg); compute(us(1)); up(l) end }
EOF
jobs_refused() {	# NAME ARGS...: exit 2, one line, nothing printed, nothing run
	begin "$1"
	shift
	rm -f PWNED
	"$BIN" compare msgs.lua --modes mutex "$@" >"$work/out" 2>"$work/err"
	local rc=$?
	[ "$rc" = 2 ] || no "exit status $rc, expected 2"
	[ ! -s "$work/out" ] || no "printed: $(head -2 "$work/out")"
	[ "$(wc -l <"$work/err")" = 1 ] || no "$(wc -l <"$work/err") lines on stderr, expected 1"
	grep -q 'control character' "$work/err" || no "does not say why: $(cat "$work/err")"
	# what was printed, run as parallel and sbatch would: nothing may run
	parallel <"$work/out" >/dev/null 2>&1
	SLURM_ARRAY_TASK_ID=0 PATH="$work/fake:$PATH" sh "$work/out" >/dev/null 2>&1
	[ ! -e PWNED ] || no "a value ran as a command"
	done_
}
nl='
'
jobs_refused "--print-jobs: a --set value with a newline is refused" \
	--set "msg=a${nl}touch PWNED" --print-jobs --out hostile
jobs_refused "--print-jobs: a swept value with a newline is refused" \
	--sets "msg=a,b${nl}touch PWNED" --print-jobs --out hostile
jobs_refused "--slurm-array: an --out folder with a newline is refused (it reached a comment)" \
	--slurm-array --out "s${nl}touch PWNED${nl}"
mkdir -p "nl${nl}touch PWNED${nl}"
cp msgs.lua "nl${nl}touch PWNED${nl}/msgs.lua"
begin "--slurm-array: a scenario path with a newline is refused"
"$BIN" compare "nl${nl}touch PWNED${nl}/msgs.lua" --modes mutex --slurm-array >"$work/out" 2>"$work/err"
[ $? = 2 ] || no "exit status $?, expected 2"
[ ! -s "$work/out" ] || no "printed a script"
[ "$(wc -l <"$work/err")" = 1 ] || no "not one line on stderr"
done_

begin "--slurm-array: quotes in the --out folder reach the job as they are"
rm -f PWNED
"$BIN" compare msgs.lua --modes mutex --slurm-array --out "it's \$(touch PWNED) here" >q.sh 2>"$work/err" ||
	no "exit status $?"
sh -n q.sh || no "not valid sh"
got=$(SLURM_ARRAY_TASK_ID=0 PATH="$work/fake:$PATH" sh q.sh | tail -1)
[ "$got" = "it's \$(touch PWNED) here/msgs-mutex.json" ] || no "the job writes to '$got'"
[ ! -e PWNED ] || no "the folder's name ran"
grep '^# ' q.sh | grep -qF "'it'\\''s" || no "the comments do not quote the folder"
done_

begin "--slurm-array: the job name is made of plain bytes (sbatch reads #SBATCH itself)"
cp msgs.lua "a b'c\$(x).lua"
"$BIN" compare "a b'c\$(x).lua" --modes mutex --slurm-array >q.sh 2>"$work/err" || no "exit status $?"
grep -qx '#SBATCH --job-name=lockmuseum-a_b_c__x_' q.sh || no "$(grep job-name q.sh)"
sh -n q.sh || no "not valid sh"
done_

# Report names: "a/b", "a_b" and "a?b" were all "a_b" (the runs overwrote
# each other, and --skip-done and --from disagreed for ever); a 300-byte
# value made a name past NAME_MAX, a job that always failed.  (A report
# keeps 255 bytes of a value: longer ones are refused, below.)
long=$(printf 'v%.0s' $(seq 239))
names="msg=a/b,a_b,a?b,a-x,a%2dx,a$long,b$long"
begin "sweep report names: one file a run, each under NAME_MAX; --skip-done and --from agree"
rm -rf names
"$BIN" compare msgs.lua --modes mutex --sets "$names" --print-jobs --out names >names.txt 2>"$work/err" ||
	no "exit status $?"
[ "$(wc -l <names.txt)" = 7 ] || no "$(wc -l <names.txt) jobs, expected 7"
[ "$(sed 's/.*--out //' names.txt | sort -u | wc -l)" = 7 ] || no "two jobs write one file"
parallel --jobs 2 <names.txt >/dev/null 2>"$work/err" || no "a job failed: $(head -1 "$work/err")"
[ "$(ls names | grep -c '\.json$')" = 7 ] || no "$(ls names | grep -c '\.json$') reports, expected 7"
for f in names/*; do
	[ "$(basename "$f" | wc -c)" -le 256 ] || no "a name of $(basename "$f" | wc -c) bytes"
done
"$BIN" compare msgs.lua --modes mutex --sets "$names" --print-jobs --skip-done names >"$work/out" 2>"$work/err"
[ ! -s "$work/out" ] || no "--skip-done still lists $(wc -l <"$work/out") jobs"
"$BIN" compare msgs.lua --modes mutex --sets "$names" --from names --report csv >"$work/out" 2>"$work/err" ||
	no "--from: exit status $?: $(cat "$work/err")"
[ "$(grep -c '^mutex' "$work/out")" = 7 ] || no "--from merged $(grep -c '^mutex' "$work/out") rows, expected 7"
done_

begin "--print-jobs: a value longer than a report keeps is refused"
"$BIN" compare msgs.lua --modes mutex --sets "msg=a,$long$long" --print-jobs >"$work/out" 2>"$work/err"
[ $? = 2 ] || no "exit status $?, expected 2"
[ ! -s "$work/out" ] || no "printed jobs"
[ "$(wc -l <"$work/err")" = 1 ] || no "not one line on stderr"
done_

# ------------------------------------------------------------ refusals --
# r NAME: compare --from ARGS... must exit 2 with one line matching RE.
refuse() {
	begin "$1"
	local re=$2
	shift 2
	"$BIN" compare --from "$@" >"$work/out" 2>"$work/err"
	local rc=$?
	[ "$rc" = 2 ] || no "exit status $rc, expected 2"
	[ ! -s "$work/out" ] || no "printed something on stdout"
	[ "$(wc -l <"$work/err")" = 1 ] || no "$(wc -l <"$work/err") lines on stderr, expected 1"
	grep -Eq -e "$re" "$work/err" || no "stderr does not match /$re/: $(cat "$work/err")"
	done_
}

one=sweep/printk-mutex-2cpus-msgs=10-s1.json
mkdir -p bad
refuse "a missing file" "nothing\.json: No such file" sweep/nothing.json
echo '{"hello": "world"}' >bad/other.json
refuse "JSON that is not a report" "bad/other\.json: not a lockmuseum report \(no \"scenario\"" "$one" bad/other.json
printf 'mode,era\n' >bad/table.json
refuse "a file that is not JSON" "bad/table\.json:1: not a lockmuseum report: not JSON" bad/table.json
mkdir -p empty
refuse "an empty folder" "empty: no \.json reports" empty
"$BIN" run scripts/inode.lua --set loops=4 --report json --out bad/inode.json 2>/dev/null
refuse "reports of two scenarios, both named" \
	"$one and bad/inode\.json are reports of different scenarios \('printk' and 'inode'\)" "$one" bad/inode.json
# the same scenario name, from a file with other contents
mkdir -p edited
{ cat scripts/printk.lua; echo '-- edited'; } >edited/printk.lua
"$BIN" run edited/printk.lua --mode mutex --cpus 2 --set msgs=10 --seed 1 --report json \
	--out bad/edited.json 2>/dev/null
refuse "one scenario from two file contents, both named" \
	"$one and bad/edited\.json: scenario 'printk' from different file contents \(scenario_hash [0-9a-f]{16} and [0-9a-f]{16}\)" \
	"$one" bad/edited.json
refuse "reports not of the scenario file given" \
	"scripts/printk\.lua and bad/edited\.json: scenario 'printk' from different file contents" \
	scripts/printk.lua bad/edited.json
sed 's/"trace_hash": "[0-9a-f]*"/"trace_hash": "0123456789abcdef"/' "$one" >bad/other-build.json
refuse "one run with two trace hashes, both named" \
	"$one and bad/other-build\.json: the same run \(mode mutex, era 2006, 2 CPUs, .*msgs=10.*, seed 1\) with different trace_hash" \
	"$one" bad/other-build.json
refuse "a mode no report has" "4 of the sweep's 8 combinations have no report" sweep --modes cli,mutex

# A report's text reaches the terminal escaped (issue 28): its "file",
# "reason", parameters... are somebody else's, and an ESC in them would
# steer the terminal the table is printed on.
mkdir -p escaped
python3 - "$one" escaped/r.json <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["file"] = "scripts/printk.lua\u001b]0;owned\u0007"
r["outcome"] = "error"
r["reason"] = "boom \u001b[2J\u009b cleared"
r.pop("sim_time_ns", None)
json.dump(r, open(sys.argv[2], "w"), indent=2)
EOF
for fmt in text csv; do
	begin "compare --from --report $fmt escapes a report's control characters"
	"$BIN" compare --from escaped --report $fmt >"$work/out" 2>"$work/err"
	grep -q "$(printf '\033')" "$work/out" && no "a raw ESC on stdout"
	grep -q "$(printf '\302\233')" "$work/out" && no "a raw CSI on stdout"
	grep -qF 'boom \x1b[2J\u009b cleared' "$work/out" || no "the reason is not spelled out: $(tail -1 "$work/out")"
	done_
done
begin "compare --from escapes the report's file name in the table's header"
"$BIN" compare --from escaped >"$work/out" 2>"$work/err"
grep -qF 'scripts/printk.lua\x1b]0;owned\x07' "$work/out" || no "the file is not spelled out: $(head -1 "$work/out")"
done_

begin "two copies of one run count once"
cp -r sweep copy
cp "$one" copy/copy-of-one.json
"$BIN" compare --from copy >"$work/out" 2>"$work/err"
status_is $? $worst
cmp -s local.txt "$work/out" || no "the table changed"
done_

# ------------------------------------------------------------ run --out --
begin "run --out writes what stdout would, whole"
"$BIN" run scripts/printk.lua --mode mutex --cpus 2 --set msgs=10 --seed 1 --report json >"$work/out" 2>/dev/null
rc=$?
"$BIN" run scripts/printk.lua --mode mutex --cpus 2 --set msgs=10 --seed 1 --report json --out newdir/r.json \
	>"$work/stdout" 2>/dev/null
[ $? = "$rc" ] || no "exit status differs from the run without --out"
cmp -s "$work/out" newdir/r.json || no "the file differs from stdout"
cmp -s "$work/out" "$one" || no "the sweep's report differs from the same run here"
[ ! -s "$work/stdout" ] || no "the report also went to stdout"
[ -z "$(ls newdir | grep tmp)" ] || no "a temporary file is left"
done_

begin "run --out, interrupted: exit 130, no file and no temporary one"
"$BIN" run scripts/kmod.lua --cpus 512 --set storms=17 --report json --out intr/k.json \
	>/dev/null 2>"$work/err" &
pid=$!
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
if [ "$rc" = 130 ]; then
	[ -z "$(ls -A intr 2>/dev/null)" ] || no "left behind: $(ls -A intr)"
else
	# it may have finished first on a fast machine: then it is whole
	[ "$rc" -le 3 ] && [ -s intr/k.json ] || no "exit status $rc, expected 130 (or 0 to 3 and a report)"
fi
done_

begin "run --out into a folder that cannot be made: exit 2, no file"
"$BIN" run scripts/printk.lua --report json --out /proc/nowhere/r.json >"$work/out" 2>"$work/err"
[ $? = 2 ] || no "exit status $?, expected 2"
grep -q -e '--out /proc/nowhere/r.json: cannot write' "$work/err" || no "no one-line error"
done_

begin "--print-jobs refuses --from, --plot and --report"
"$BIN" compare $sweep --print-jobs --report json >"$work/out" 2>"$work/err"
[ $? = 2 ] || no "exit status $?, expected 2"
"$BIN" compare $sweep --skip-done sweep >"$work/out" 2>"$work/err"
[ $? = 2 ] || no "--skip-done without --print-jobs: exit status $?, expected 2"
done_

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
