#!/usr/bin/env bash
# Run every cmocka unit-test binary under BUILD/tests; fail if any fails.
set -u
build=${1:-build}
status=0
count=0
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	count=$((count + 1))
	if ! "$t"; then
		echo "FAILED: $t" >&2
		status=1
	fi
done
if [ "$count" -eq 0 ]; then
	echo "no unit tests found under $build/tests" >&2
	exit 1
fi
exit $status
