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

strip() {	# FILE: its lines without comments, each prefixed by FILE TAB
	"$cc" -fpreprocessed -dD -E -P -x c "$1" 2>/dev/null | sed "s|^|$1	|"
}

{
	while IFS= read -r -d '' f; do
		strip "$f"
	done < <(find engine tests \( -name '*.c' -o -name '*.h' \) -print0 | sort -z)
} | awk -F'\t' '
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
{
	file = $1
	text = substr($0, length(file) + 2)
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
status=${PIPESTATUS[1]}
if [ "$status" -ne 0 ]; then
	echo "callers: functions above are defined and never called (remove them)" >&2
	exit 1
fi
echo "callers: every exported function of engine/ has a caller"
