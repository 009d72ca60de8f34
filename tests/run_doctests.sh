#!/usr/bin/env bash
# run_doctests.sh BIN - every command the documentation shows, run as a
# reader would type it.
#
# Collected from: README.md's ```sh blocks, the man page's EXAMPLES
# (.EX/.EE), and the ```sh blocks of docs/ (placards, eras, reproductions,
# story, scenarios...).  A command is a line (with its "\" continuations)
# that starts with "lockmuseum " or "build/lockmuseum "; its trailing
# "# comment" is dropped.  Lines using shell variables or pipes belong to a
# recipe, not to a reader's one command, and are left to the tests of that
# recipe.  FILE.lua, the placeholder of the README, is a scenario of the
# test suite.
#
# Each command runs from a scratch folder that sees the source tree's
# scripts/, docs/, tests/ and eras/, so its output files land there.  It
# must exit 0, or 1 (a check failed or a violation was found: the lesson of
# several examples), never 2 (a usage error: the documentation is wrong) or
# a signal; and its output must have the shape its options promise: JSON
# that parses, the lock_stat header, a CSV header, a text report, a PNG.
# Where the man page shows a command that is meant to fail, a roff comment
# line in its example block, `.\" exit: N`, gives the status it promises
# for the next command.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.

set -u

. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"

pass=0
fail=0
export LOCKMUSEUM_DATA=$root
unset DISPLAY WAYLAND_DISPLAY

work="$tmp/work"
mkdir -p "$work"
for d in scripts docs tests eras assets; do ln -s "$root/$d" "$work/$d"; done
mkdir -p "$work/build"
ln -s "$BIN" "$work/build/lockmuseum"
ln -s "$BIN" "$tmp/lockmuseum"

# commands FILE KIND: the commands of one file (KIND md or man), one a line
commands() {
	case $2 in
	md) awk '/^```(sh|bash|console)[ \t]*$/ { inb = 1; next }
		 /^```/ { inb = 0; next }
		 inb { print }' "$1" ;;
	man) awk '/^\.SH EXAMPLES/ { ex = 1; next }
		  /^\.SH / { ex = 0 }
		  ex && /^\.EX/ { inb = 1; next }
		  ex && /^\.EE/ { inb = 0; next }
		  inb && /^\.\\" exit: [0-9]+/ { print "lockmuseum-expect " $3; next }
		  inb { gsub(/\\-/, "-"); gsub(/\\\(aq/, "'"'"'"); print }' "$1" ;;
	esac | awk '
		{ line = (cont ? cont " " : "") $0; cont = "" }
		/\\[ \t]*$/ { sub(/\\[ \t]*$/, "", line); cont = line; next }
		{ print line }' |
	sed -e 's/^[ \t]*\$[ \t]*//' -e 's/^[ \t]*//' |
	grep -E '^(build/)?lockmuseum(-expect)?( |$)' |
	sed -e 's/[ \t]\+#.*$//' -e 's/[ \t]*$//' |
	grep -v -e '\$' -e '|' -e '>' -e '<' |
	sed -e 's#FILE\.lua#tests/explore/flaky_abba.lua#g'
}

no() {
	if ! $failed; then
		fail=$((fail + 1))
		echo "FAIL $where: $cmd: $1"
		sed -n '1,3s/^/  stderr: /p' "$tmp/err"
	fi
	failed=true
}

check_shape() {
	local args=" $cmd "
	case $args in
	*" --report json "*)
		if command -v python3 >/dev/null 2>&1; then
			python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>/dev/null ||
				no "stdout is not one JSON object"
		else
			grep -q '"outcome"' "$tmp/out" || no "no outcome in the JSON"
		fi ;;
	*" --report lockstat "*)
		head -1 "$tmp/out" | grep -q '^lock_stat version' || no "no lock_stat header" ;;
	*" --report csv "*)
		head -1 "$tmp/out" | grep -q ',' || no "no CSV header" ;;
	*" --report interleaving "*"--out "*)
		local sheet=${args#* --out }
		sheet=${sheet%% *}
		head -1 "$work/$sheet" 2>/dev/null | grep -q '^interleaving: ' ||
			no "no interleaving sheet in $sheet" ;;
	*" --report interleaving "*)
		head -1 "$tmp/out" | grep -q '^interleaving: ' || no "no interleaving heading" ;;
	*" run "*)
		grep -q 'outcome:' "$tmp/out" || no "no text report (outcome:) on stdout" ;;
	*)
		[ -s "$tmp/out" ] || no "nothing on stdout" ;;
	esac
	local prev="" a
	for a in $cmd; do
		case $prev in
		--png | --plot)
			[ "$(head -c 4 "$work/$a" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] ||
				no "$prev $a: no PNG written" ;;
		--trace)
			[ -s "$work/$a" ] || no "--trace $a: nothing written" ;;
		esac
		prev=$a
	done
}

# run_one: run $cmd; $expect, when set, is the exit status the text gives
run_one() {
	failed=false
	(cd "$work" && PATH="$tmp:$PATH" timeout -k 5 300 bash -c "$cmd" \
		>"$tmp/out" 2>"$tmp/err" </dev/null)
	rc=$?
	if [ -n "$expect" ]; then
		[ "$rc" = "$expect" ] || no "exit status $rc, the text says $expect"
		[ "$rc" = 0 ] || [ "$rc" = 1 ] || [ -s "$tmp/err" ] || no "exit $rc with nothing on stderr"
	else
		case $rc in
		0 | 1) check_shape ;;
		*) no "exit status $rc (0 or 1 expected)" ;;
		esac
	fi
	$failed || pass=$((pass + 1))
}

seen="$tmp/seen"
: >"$seen"
for f in "$root/README.md" "$root/docs/lockmuseum.1" "$root"/docs/*.md "$root"/docs/*/*.md; do
	[ -f "$f" ] || continue
	kind=md
	case $f in *.1) kind=man ;; esac
	where=${f#"$root"/}
	expect=
	while IFS= read -r cmd; do
		[ -n "$cmd" ] || continue
		case $cmd in
		lockmuseum-expect\ *) expect=${cmd#lockmuseum-expect }; continue ;;
		esac
		if grep -qxF -- "$cmd" "$seen"; then	# once is enough
			expect=
			continue
		fi
		printf '%s\n' "$cmd" >>"$seen"
		run_one
		expect=
	done < <(commands "$f" "$kind")
done

[ "$pass" -gt 20 ] || { echo "FAIL only $pass commands found in the documentation"; fail=$((fail + 1)); }
echo "doc tests: $pass passed, $fail failed"
[ "$fail" = 0 ]
