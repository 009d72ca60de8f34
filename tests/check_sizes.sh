#!/usr/bin/env bash
# check_sizes.sh - the core stays readable: no function of engine/*.c
# longer than 90 lines (from the line that names it to its closing
# brace), and sched.c under 800 lines.  Prints each offender and exits 1.
set -u
cd "$(dirname "$0")/.." || exit 2
status=0
for f in engine/*.c; do
	awk -v f="$f" '
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ && !start { start = NR; name = $0 }
	/^}/ && start {
		if (NR - start + 1 > 90) {
			sub(/\(.*/, "", name)
			printf "sizes: %s: %s is %d lines (90 at most)\n", f, name, NR - start + 1
			bad = 1
		}
		start = 0
	}
	/^[^A-Za-z_\t }#\/ ]/ { }
	/;[ \t]*$/ && !/^\t/ && !/^ / { if (start && NR == start) start = 0 }
	END { exit bad }' "$f" || status=1
done
lines=$(wc -l <engine/sched.c)
if [ "$lines" -ge 800 ]; then
	echo "sizes: engine/sched.c is $lines lines (under 800)"
	status=1
fi
[ $status -eq 0 ] && echo "sizes: no core function over 90 lines, sched.c $lines lines"
exit $status
