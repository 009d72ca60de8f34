#!/usr/bin/env bash
# Run every historical reproduction test (tests/reproductions/*.sh but
# lib.sh) against the binary; fail if any fails.
set -u
bin=${1:?usage: run_reproductions.sh BIN}
here=$(cd "$(dirname "$0")" && pwd)
status=0
n=0
for t in "$here"/reproductions/*.sh; do
	[ "$(basename "$t")" = lib.sh ] && continue
	n=$((n + 1))
	echo "== $(basename "$t" .sh)"
	bash "$t" "$bin" || status=1
done
echo "reproductions: $n files, $([ $status = 0 ] && echo all passed || echo some FAILED)"
exit $status
