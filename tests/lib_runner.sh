# The set-up every test runner shares, sourced before anything else:
#
#   . "$(dirname "$0")/lib_runner.sh"
#   runner_bin "$1"      # BIN = the binary under test, made absolute
#   runner_dirs          # here, root, and a scratch tmp removed on exit
#   runner_guard 30      # guard: 30 s of CPU time, 300 s of wall time; put
#                        # "${guard[@]}" before a command (guard_wall: the
#                        # wall-clock bound alone)
#   runner_cpu VAR       # VAR = CPU seconds used so far by this shell's children
#   runner_cases FILE    # begin/no/done_ and the pass and fail counts
#
# The binary is made absolute because the runners change directory and
# pass it on to helpers; a path that is not an executable stops the
# runner with status 2, the status of a usage error, not of a failed test.

# python3, where there is one: the interpreter itself, found once
# (KM_PYTHON3, which the Makefile sets for every runner; found here when
# a runner is started by hand).  A version manager's shim (pyenv's) runs a
# bash and half a dozen programs before Python: 0.54 s of CPU time a call
# on the machine measured, against 0.12 s for the interpreter it starts, and
# make test's runners call it well over a hundred times (docs/performance.md,
# section 12).  Where there is no python3 the function is not defined, and
# `command -v python3` fails as before.
if [ -z "${KM_PYTHON3:-}" ] && command -v python3 >/dev/null 2>&1; then
	KM_PYTHON3=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
	[ -x "$KM_PYTHON3" ] || KM_PYTHON3=$(type -P python3)
fi
if [ -n "${KM_PYTHON3:-}" ] && [ -x "$KM_PYTHON3" ]; then
	export KM_PYTHON3
	python3() { "$KM_PYTHON3" "$@"; }
fi

runner_bin() {
	BIN=$1
	case $BIN in
	/*) ;;
	*) BIN=$PWD/$BIN ;;
	esac
	if [ ! -x "$BIN" ]; then
		echo "$0: $BIN is not an executable" >&2
		exit 2
	fi
}

runner_dirs() {
	here=$(cd "$(dirname "$0")" && pwd)
	root=$(dirname "$here")
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# runner_setup "$@": a runner's one argument, BIN, checked (a usage error
# is status 2), then runner_bin and runner_dirs.
runner_setup() {
	if [ $# -ne 1 ]; then
		echo "usage: $0 BIN" >&2
		exit 2
	fi
	runner_bin "$1"
	runner_dirs
}

# runner_guard SECONDS [timeout options]: guard, the bounds to put before
# each command: SECONDS of CPU time (ulimit -t: killed, exit status 137),
# what a run spinning in a loop uses up; and ten times SECONDS of wall
# time (timeout(1) with its options, exit status 124), for a run blocked
# without using the CPU.  CPU time, not wall time, bounds the work: a
# loaded machine (make test's suites side by side, some under ASan)
# stretches a run's wall time, not its CPU time.  Where timeout(1) is
# missing, the CPU bound alone.  The CPU bound is set in a subshell of the
# runner (runner_bounded), not in a new bash: make test guards thousands
# of commands, and starting a bash for each cost some 5 ms of CPU time
# (docs/performance.md, section 12).  guard_wall is the wall-clock bound
# alone, for a runner that sets the CPU bound once in its own shell.
runner_guard() {
	local secs=$1
	shift
	guard_wall=()
	if command -v timeout >/dev/null 2>&1; then
		guard_wall=(timeout "$@" "$((secs * 10))")
	fi
	guard=(runner_bounded "$secs" "${guard_wall[@]}")
}

# runner_bounded SECONDS CMD [ARGS...]: CMD run with SECONDS of CPU time
# (ulimit -t) in a subshell, which the command then replaces.
runner_bounded() {
	(ulimit -t "$1" && shift && exec "$@")
}

# runner_cpu VAR: VAR = the CPU seconds (user + system) this shell's
# children have used so far, the runs it waited for; the difference of
# two readings is what a run between them cost.  (`times` must run in
# this shell: a subshell's children are its own.)
runner_cpu() {
	local f
	f=$(mktemp) || return 1
	times >"$f"
	printf -v "$1" '%s' "$(awk 'NR == 2 {
		n = 0
		for (i = 1; i <= 2; i++) { t = $i; m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); n += m * 60 + t }
		printf "%.3f", n }' "$f")"
	rm -f "$f"
}

# runner_cases ERRFILE: the counters of a runner made of named cases.
#   begin NAME     a case starts
#   no WHY         it fails (counted once; the first three lines of
#                  ERRFILE, the last command's stderr, are shown)
#   done_          it ends: passed unless something said no (case_done;
#                  a runner may redefine done_ to check more, then call it)
# The runner prints "$pass passed, $fail failed" at the end.
runner_cases() {
	case_err=$1
	pass=0
	fail=0
	failed=false
	current=""
}

begin() {
	current=$1
	failed=false
}

no() {
	if ! $failed; then
		fail=$((fail + 1))
		echo "FAIL $current: $1"
		[ -s "$case_err" ] && sed -n '1,3s/^/  stderr: /p' "$case_err"
	fi
	failed=true
}

case_done() {
	if ! $failed; then
		pass=$((pass + 1))
	fi
}

done_() {
	case_done
}

# After a command whose output is in $tmp/out and $tmp/err: a check that
# fails the case (no) when the pattern, an extended regex, is not there
# (out_has, err_has) or is (out_lacks).
out_has() { grep -Eq -e "$1" "$tmp/out" || no "stdout does not match /$1/"; }
out_lacks() { ! grep -Eq -e "$1" "$tmp/out" || no "stdout matches /$1/: $(grep -Em1 -e "$1" "$tmp/out")"; }
err_has() { grep -Eq -e "$1" "$tmp/err" || no "stderr does not match /$1/"; }
