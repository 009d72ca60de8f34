# The set-up every test runner shares, sourced before anything else:
#
#   . "$(dirname "$0")/lib_runner.sh"
#   runner_bin "$1"      # BIN = the binary under test, made absolute
#   runner_dirs          # here, root, and a scratch tmp removed on exit
#   runner_guard 30      # guard=(timeout 30): put "${guard[@]}" before a command
#   runner_cases FILE    # begin/no/done_ and the pass and fail counts
#
# The binary is made absolute because the runners change directory and
# pass it on to helpers; a path that is not an executable stops the
# runner with status 2, the status of a usage error, not of a failed test.

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

# runner_guard SECONDS [timeout options]: guard=(timeout ... SECONDS), a
# wall-clock bound to put before each command, or () where timeout(1) is
# missing.
runner_guard() {
	local secs=$1
	shift
	guard=()
	if command -v timeout >/dev/null 2>&1; then
		guard=(timeout "$@" "$secs")
	fi
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
