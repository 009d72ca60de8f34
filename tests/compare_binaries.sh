#!/usr/bin/env bash
# compare_binaries.sh OLD NEW - two builds of the program, one behaviour:
# every shipped, example, test and hostile scenario run by both, in its
# own settings, under every mode and (the shipped ones) in every era, and
# the JSON reports, error lines and exit statuses compared byte for byte.
#
# For a change that must not change what any run does (a speed-up, a
# restructuring of the core): build the commit before it, then
#
#   tests/compare_binaries.sh OLD/lockmuseum build/lockmuseum
#
# The report carries the trace hash, so equal reports mean equal traces.
# Not part of make test (it needs a second build); the last line is
# "N passed, M failed" and the status 1 if any run differed.
# CMP_JOBS=N runs N at a time (default: the number of CPUs).
set -u
[ $# -eq 2 ] || { echo "usage: $0 OLD_BIN NEW_BIN" >&2; exit 2; }
old=$1 new=$2
for b in "$old" "$new"; do
	[ -x "$b" ] || { echo "compare_binaries: $b is not an executable" >&2; exit 2; }
done
root=$(cd "$(dirname "$0")/.." && pwd)
export LOCKMUSEUM_DATA=$root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

header_args() { sed -n '/^--/!q; s/^-- args://p' "$1" | tr '\n' ' '; }
header_command() { sed -n '/^--/!q; s/^-- command:[[:space:]]*//p' "$1" | head -1; }

modes="cli bkl spinlock semaphore mutex"
eras=$(cd "$root/eras" && ls -- *.lua | sed 's/\.lua$//')
jobs=$tmp/jobs
: >"$jobs"
for f in "$root"/scripts/*.lua "$root"/scripts/challenges/*.lua "$root"/docs/examples/*.lua \
	 "$root"/tests/scenarios/*.lua "$root"/tests/view/*.lua "$root"/tests/explore/*.lua \
	 "$root"/tests/hostile/*.lua; do
	[ -e "$f" ] || continue
	grep -Eq '^[[:space:]]*scenario[[:space:]]*[{(]' "$f" || continue
	cmd=$(header_command "$f")
	[ -z "$cmd" ] || [ "$cmd" = run ] || continue
	# budgets measured in wall-clock time stop where the machine says
	sed -n '/^--/!q; p' "$f" | grep -qE 'expect-stderr:.*(wall|exceeded)' && continue
	a=$(header_args "$f")
	printf '%s\t%s\n' "$f" "$a" >>"$jobs"
	case $f in */hostile/*) continue ;; esac
	for m in $modes; do printf '%s\t%s --mode %s --anachronism\n' "$f" "$a" "$m" >>"$jobs"; done
	case $f in */scripts/*) ;; *) continue ;; esac
	for e in $eras; do printf '%s\t%s --era %s --anachronism\n' "$f" "$a" "$e" >>"$jobs"; done
done

# one LINE: run the job of LINE (FILE<TAB>ARGS) with both binaries
one() {
	local f=${1%%$'\t'*} argstr=${1#*$'\t'} args b i=0
	read -r -a args <<<"$argstr"
	for b in "$old" "$new"; do
		timeout -k 5 120 "$b" run "$f" "${args[@]}" --seed 7 --report json \
			>"$tmp/o$$.$i" 2>"$tmp/e$$.$i"
		echo "exit $?" >>"$tmp/e$$.$i"
		i=$((i + 1))
	done
	if cmp -s "$tmp/o$$.0" "$tmp/o$$.1" && cmp -s "$tmp/e$$.0" "$tmp/e$$.1"; then
		echo pass
	else
		echo "FAIL ${f#"$root"/} $argstr"
	fi
	rm -f "$tmp/o$$".* "$tmp/e$$".*
}
export -f one
export old new tmp root
tr '\n' '\0' <"$jobs" | xargs -0 -P "${CMP_JOBS:-$(nproc)}" -I{} bash -c 'one "$1"' _ {} >"$tmp/results"
grep '^FAIL' "$tmp/results" | head -50
p=$(grep -c '^pass' "$tmp/results")
f=$(grep -c '^FAIL' "$tmp/results")
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
