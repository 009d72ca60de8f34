#!/usr/bin/env bash
# run_shown_outputs.sh BIN - what the documentation shows a command
# printing is what it prints.
#
# run_doctests.sh runs every command the documentation gives; this checks
# the outputs it shows.  In README.md and docs/, a ```text block whose
# line starts with "$ lockmuseum " shows that command and, below it until
# the next "$ " line, lines of its output; "..." stands for lines left out.
# Each shown line must be a line of the real output (standard output and
# error together), and those of standard output in the order shown.
# Commands with pipes, redirections or shell variables are left out, as in
# run_doctests.sh.  An example output that drifted from the program --
# a trace hash, a time, a reason -- is what a reader would notice first.
#
# The last line is "N passed, M failed"; the exit status is 1 if any failed.
set -u
. "$(dirname "$0")/lib_runner.sh"
runner_setup "$@"
export LOCKMUSEUM_DATA=$root
unset DISPLAY WAYLAND_DISPLAY

pass=0
fail=0
work="$tmp/work"
mkdir -p "$work/bin"
for d in scripts docs tests eras assets; do ln -s "$root/$d" "$work/$d"; done
ln -s "$BIN" "$work/bin/lockmuseum"

# Each shown command as a file: its first line the command, then the
# lines shown below it.
shown="$tmp/shown"
mkdir -p "$shown"
fileno=0
for f in "$root"/README.md "$root"/docs/*.md "$root"/docs/*/*.md; do
	fileno=$((fileno + 1))
	awk -v dir="$shown" -v src="${f#"$root"/}" -v fileno="$(printf %03d "$fileno")" '
	function flush() { if (out != "") close(out); out = "" }
	/^```text$/ { inblock = 1; next }
	/^```/ && inblock { inblock = 0; flush(); next }
	!inblock { next }
	/^\$ / {
		flush()
		cmd = substr($0, 3)
		if (cmd !~ /^lockmuseum / || cmd ~ /[|<>$]|&&/) next
		out = sprintf("%s/%s-%05d", dir, fileno, NR)
		printf "%s:%d\n%s\n", src, NR, cmd > out
		next
	}
	out != "" && $0 != "" && $0 != "..." { print > out }
	' "$f"
done

for case in "$shown"/*; do
	[ -e "$case" ] || continue
	where=$(sed -n 1p "$case")
	cmd=$(sed -n 2p "$case")
	[ "$(wc -l <"$case")" -gt 2 ] || continue
	(cd "$work" && PATH="$work/bin:$PATH" timeout 120 bash -c "$cmd" >"$tmp/out" 2>"$tmp/err")
	# every shown line in stdout in order, or anywhere in stderr
	missing=$(tail -n +3 "$case" | awk -v out="$tmp/out" -v err="$tmp/err" '
		BEGIN {
			while ((getline l < out) > 0) o[++no] = l
			while ((getline l < err) > 0) e[l] = 1
			pos = 1
		}
		{
			found = 0
			for (i = pos; i <= no; i++)
				if (o[i] == $0) { pos = i + 1; found = 1; break }
			if (!found && ($0 in e)) found = 1
			if (!found) { print; exit }
		}')
	if [ -z "$missing" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $where: \$ $cmd"
		echo "  shown, not printed: $missing"
	fi
done

echo "shown outputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
