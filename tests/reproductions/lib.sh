# Helpers for the reproduction tests: read figures out of a JSON report
# with standard tools only (a fresh Debian machine may have no python).
# Sourced by tests/reproductions/*.sh.

pass=0
fail=0

# repro_setup BIN SCENARIO: the binary under test, the scenario (a file of
# scripts/), and a scratch directory removed on exit.  A missing BIN is a
# usage error (status 2), not a failed reproduction.
repro_setup() {
	if [ -z "${1:-}" ]; then
		echo "usage: $(basename "$0") BIN" >&2
		exit 2
	fi
	bin=$1
	script="$here/../../scripts/$2"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# era_data DIR: a data folder (LOCKMUSEUM_DATA) that sees the tree's
# scripts, assets and docs, with its own copy of eras/ for a variant era
era_data() {
	mkdir -p "$1"
	for d in scripts assets docs; do ln -s "$here/../../$d" "$1/$d"; done
	cp -r "$here/../../eras" "$1/eras"
}

# run OUT ARGS...: run the scenario with ARGS, its JSON report in $tmp/OUT
# and its stderr in $tmp/OUT.err; prints the exit status
run() { local out=$1; shift; "$bin" run "$script" --report json "$@" >"$tmp/$out" 2>"$tmp/$out.err"; echo $?; }

ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# flat JSON: one line, no spaces outside strings is close enough here
flat() { tr -d ' \n' <"$1"; }

# report_figs FILE QUERY...: the figures QUERY... of the report FILE, read
# in one awk pass (figs.awk lists the queries), printed on one line
# separated by "|":  IFS='|' read -r a b c < <(report_figs F int:x ...).
# Each process costs milliseconds (this machine's page faults): a figure
# read with grep, head, cut and sed cost a dozen of them, and a script
# reads thousands of figures (docs/performance.md, section 12).
report_figs() { awk -f "$here/figs.awk" "$@"; }

# json_int FILE KEY: the first integer value of "KEY"
json_int() { report_figs "$1" "int:$2"; }

# lock_obj FILE LOCK: the JSON text of the lock named LOCK, on one line
lock_obj() { flat "$1" | sed 's/{"name":/\n{"name":/g' | grep -F "{\"name\":\"$2\"," | head -n 1; }
# lock_int FILE LOCK KEY: integer KEY of the lock named LOCK
lock_int() { report_figs "$1" "lock:$3:$2"; }

# json_sum FILE KEY: the sum of every integer value of "KEY"
json_sum() { report_figs "$1" "sum:$2"; }

# counter FILE NAME: the final value of counter NAME
counter() { report_figs "$1" "counter:$2"; }

# op_p99 FILE NAME: the p99 of measure() series NAME
op_p99() { report_figs "$1" "op:p99_ns:$2"; }

# ge A B [FACTOR]: A >= B * FACTOR (floating point, via awk)
ge() { awk -v a="$1" -v b="$2" -v f="${3:-1}" 'BEGIN { exit !(a >= b * f) }'; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f", a / b }'; }

# cpu_used FILE: CPU time used (ns): every CPU's time but its idle time
cpu_used() { report_figs "$1" cpu_used; }
# share FILE: the CPU share used, in percent of all the run's CPUs
share() { report_figs "$1" share; }
# per_op FILE: CPU time (ns) per operation
per_op() { report_figs "$1" per_op; }

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
