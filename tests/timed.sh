#!/usr/bin/env bash
# timed.sh CMD [ARGS...] - run a test command, then print the wall time
# it took, "(run_cli.sh build/lockmuseum: 12.3 s)", and exit with its
# status.  Every suite of `make test` runs its scripts through it, so
# that a slow one shows in the log (docs/performance.md, section 12).
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" -v what="$(basename "$1")${2:+ $2}" \
	'BEGIN { printf "(%s: %.1f s)\n", what, b - a }'
exit $rc
