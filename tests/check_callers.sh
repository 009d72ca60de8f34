#!/usr/bin/env bash
# check_callers.sh [DIR...] - every function the engine exports has a caller.
#
# A non-static function defined in engine/ that nothing calls is dead code:
# it is read, kept compiling and kept correct for nobody.  (The compiler
# already reports unused static functions.)  This lists each km_* function
# defined at the top level of a .c file under engine/ whose name appears
# nowhere else in engine/ and tests/ -- not counting its own definition,
# the prototypes of the headers, or comments (stripped by the
# preprocessor first, so "see km_foo()" in a comment is not a caller).
# A use as a value (a method table, a callback) counts as a call.
#
# Prints FILE: NAME for each; the exit status is 1 if there is any.
set -u
cd "$(dirname "$0")/.." || exit 2
cc=${CC:-cc}

# Every file's lines without comments, from one compiler driver for all
# (not a driver and a sed a file: some 240 files), the file each line
# comes from given by the line markers ("# 1 "engine/rq.c"").
find engine tests \( -name '*.c' -o -name '*.h' \) -print0 | sort -z |
	xargs -0 "$cc" -fpreprocessed -dD -E -x c 2>/dev/null | awk '
function names(text, kind, file,   t, id) {
	t = text
	while (match(t, /(^|[^A-Za-z0-9_])km_[A-Za-z0-9_]+/)) {
		id = substr(t, RSTART, RLENGTH)
		sub(/^[^k]*/, "", id)
		t = substr(t, RSTART + RLENGTH)
		if (kind == "use")
			use[id]++
	}
}
/^# [0-9]+ "/ { file = $0; sub(/^# [0-9]+ "/, "", file); sub(/".*$/, "", file); next }
{
	text = $0
	if (text ~ /^[A-Za-z_]/ && text !~ /^(static|typedef|extern|#)/ &&
	    match(text, /(^|[ *])km_[A-Za-z0-9_]+\(/)) {
		id = substr(text, RSTART, RLENGTH - 1); sub(/^[ *]/, "", id)
		if (file ~ /\.h$/ || text ~ /;[ \t]*$/) {
			# a prototype: the rest of the line may still use names
			rest = substr(text, RSTART + RLENGTH)
			names(rest, "use", file)
			next
		}
		if (file ~ /^engine\/.*\.c$/)
			def[id] = file
		rest = substr(text, RSTART + RLENGTH)
		names(rest, "use", file)
		next
	}
	names(text, "use", file)
}
END {
	for (id in def)
		if (!(id in use)) {
			printf "%s: %s has no caller\n", def[id], id
			bad = 1
		}
	exit bad
}' | sort
status=${PIPESTATUS[3]}
if [ "$status" -ne 0 ]; then
	echo "callers: functions above are defined and never called (remove them)" >&2
	exit 1
fi
echo "callers: every exported function of engine/ has a caller"
