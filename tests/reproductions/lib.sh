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

# json_int FILE KEY: the first integer value of "KEY"
json_int() { flat "$1" | grep -o "\"$2\":-\?[0-9]*" | head -n 1 | cut -d: -f2; }

# lock_obj FILE LOCK: the JSON text of the lock named LOCK, on one line
lock_obj() { flat "$1" | sed 's/{"name":/\n{"name":/g' | grep -F "{\"name\":\"$2\"," | head -n 1; }
# lock_int FILE LOCK KEY: integer KEY of the lock named LOCK
lock_int() { lock_obj "$1" "$2" | grep -o "\"$3\":-\?[0-9]*" | head -n 1 | cut -d: -f2; }

# json_sum FILE KEY: the sum of every integer value of "KEY"
json_sum() { flat "$1" | grep -o "\"$2\":[0-9]*" | cut -d: -f2 | awk '{s += $1} END {print s + 0}'; }

# counter FILE NAME: the final value of counter NAME
counter() { flat "$1" | grep -o "\"$2\":{\"value\":-\?[0-9]*" | head -n 1 | sed 's/.*://'; }

# op_p99 FILE NAME: the p99 of measure() series NAME
op_p99() { flat "$1" | grep -o "\"$2\":{\"count\":[0-9]*,\"min_ns\":[0-9]*,\"p50_ns\":[0-9]*,\"p99_ns\":[0-9]*" | head -n 1 | sed 's/.*://'; }

# ge A B [FACTOR]: A >= B * FACTOR (floating point, via awk)
ge() { awk -v a="$1" -v b="$2" -v f="${3:-1}" 'BEGIN { exit !(a >= b * f) }'; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f", a / b }'; }

# cpu_used FILE: CPU time used (ns): every CPU's time but its idle time
cpu_used() {
  local t n; t=$(json_int "$1" sim_time_ns); n=$(flat "$1" | grep -o '"idle_ns":' | wc -l)
  echo $(( n * t - $(json_sum "$1" idle_ns) ))
}
# share FILE: the CPU share used, in percent of all the run's CPUs
share() {
  local t n; t=$(json_int "$1" sim_time_ns); n=$(flat "$1" | grep -o '"idle_ns":' | wc -l)
  awk -v c="$(cpu_used "$1")" -v n="$n" -v t="$t" 'BEGIN { printf "%.1f", 100 * c / (n * t) }'
}
# per_op FILE: CPU time (ns) per operation
per_op() { awk -v c="$(cpu_used "$1")" -v o="$(counter "$1" operations)" 'BEGIN { print c / o }'; }

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
