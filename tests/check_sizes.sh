#!/usr/bin/env bash
# check_sizes.sh - the core stays readable: no function of engine/*.c
# longer than 90 lines (from the line that names it to its closing
# brace), and sched.c, trace_export.c and cli/main.c under 800 lines.  Prints each offender and exits 1.
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
for f in engine/sched.c engine/report/trace_export.c engine/cli/main.c; do
	lines=$(wc -l <"$f")
	if [ "$lines" -ge 800 ]; then
		echo "sizes: $f is $lines lines (under 800)"
		status=1
	fi
done
[ $status -eq 0 ] && echo "sizes: no core function over 90 lines; sched.c, trace_export.c," \
	"cli/main.c under 800 lines"
exit $status
