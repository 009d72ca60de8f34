#!/bin/sh
# seed_corpus.sh HARNESS DIR - copy the seed inputs of one fuzzing harness
# into DIR (run by `make fuzz-HARNESS`; the copies are not committed).
#   scenario  scripts/*.lua, tests/scenarios/*.lua, tests/hostile/*.lua
#   era       eras/*.lua, each with its machine's costs inline
#   cli       one command line per test scenario: "run", the file, and the
#             arguments of its "-- args:" header, one per line
#   report    the JSON reports of a few real runs (made with the binary
#             build/lockmuseum, or $KM_FUZZ_BIN), alone and in pairs of two
#             seeds split by a NUL byte, as fuzz_report reads them
#   schedule  scripts/challenges/solutions/*.schedule
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
h=$1
out=$2
mkdir -p "$out"
case $h in
scenario)
	for f in "$root"/scripts/*.lua "$root"/tests/scenarios/*.lua "$root"/tests/hostile/*.lua; do
		[ -e "$f" ] || continue
		# a case made to reach the process's wall-clock watchdog (one
		# library call that never returns) ends the fuzzer by design
		grep -q '^-- expect-stderr:.*inside one library call' "$f" && continue
		d=$(basename "$(dirname "$f")")
		cp "$f" "$out/seed-$d-$(basename "$f")"
	done
	;;
era)
	# A seed is one file, so the costs of the machine an era names go
	# inline, as an era of one's own may give them (eras/machines/).
	for f in "$root"/eras/*.lua; do
		[ -e "$f" ] || continue
		m=$(sed -n 's/^ *machine = "\([A-Za-z0-9_-]*\)".*/\1/p' "$f")
		if [ -n "$m" ] && [ -f "$root/eras/machines/$m.lua" ]; then
			sed -n '/^  costs = {/,/^  },/p' "$root/eras/machines/$m.lua" >"$out/costs.tmp"
			sed -e "/^ *machine = \"$m\"/{r $out/costs.tmp" -e 'd' -e '}' "$f" \
				>"$out/seed-$(basename "$f")"
			rm -f "$out/costs.tmp"
		else
			cp "$f" "$out/seed-$(basename "$f")"
		fi
	done
	;;
cli)
	for f in "$root"/scripts/*.lua "$root"/tests/scenarios/*.lua; do
		[ -e "$f" ] || continue
		rel=${f#"$root"/}
		{
			echo run
			echo "$rel"
			sed -n '/^--/!q; s/^-- args://p' "$f" | tr ' ' '\n' | sed '/^$/d'
		} >"$out/seed-$(echo "$rel" | tr / -)"
	done
	printf 'check\nscripts/inode.lua\n--era\n2.6.16\n--cpus\n8\n--mode\nmutex\n' >"$out/seed-check-mode"
	printf 'run\nscripts/bkl.lua\n--era\n1996\n--anachronism\n--cpus\n4\n--seed\n7\n' >"$out/seed-anachronism"
	printf 'run\nscripts/uniproc_cli.lua\n--set\nloops=3\n--duration\n1000000\n--max-events\n5000\n' >"$out/seed-set"
	;;
report)
	bin=${KM_FUZZ_BIN:-$root/build/lockmuseum}
	for s in uniproc_cli bkl inode; do
		for seed in 1 2; do
			"$bin" run "$root/scripts/$s.lua" --seed "$seed" --duration 2ms \
				--report json >"$out/seed-$s-$seed.json" 2>/dev/null || :
		done
		{ cat "$out/seed-$s-1.json"; printf '\0'; cat "$out/seed-$s-2.json"; } \
			>"$out/seed-$s-pair"
	done
	;;
schedule)
	for f in "$root"/scripts/challenges/solutions/*.schedule; do
		[ -e "$f" ] || continue
		cp "$f" "$out/seed-$(basename "$f")"
	done
	;;
*)
	echo "seed_corpus.sh: unknown harness '$h' (scenario, era, cli, report, schedule)" >&2
	exit 2
	;;
esac
