#!/usr/bin/env bash
# check_floors.sh [BUILD] - the core's floors call one way.
#
# The core (engine/*.c) is built in floors, each calling only itself and
# the floors below it; what a lower floor must hand up goes through the
# hooks that set-up registers (engine/hooks.h), never by a call.  This
# reads the defined and undefined symbols of the core's object files
# (nm) under BUILD (default: build), draws which file calls which, and
# fails on
#   - a call from a file of a lower floor into a file of a higher one;
#   - a cycle among the core's files, even within one floor;
#   - a core file that no floor lists (a new file must be placed).
# The floors are listed here, and only here (docs/architecture.md draws
# them).  Within a floor, files may call each other one way.
#
#   tests/check_floors.sh build
#   KM_FLOORS_NM=LISTING tests/check_floors.sh   # an `nm -A` listing
#                                                # instead of the objects
# The second form is for tests/run_floors_check.sh, which puts a call
# back where it must not be and expects this check to fail.
#
# Prints the offending calls (FILE -> FILE: symbols) and exits 1, or
# prints one line and exits 0.
set -u
cd "$(dirname "$0")/.." || exit 2
build=${1:-build}

# Lowest first.  One line a floor: its name, its files, what it is for.
floors='
ground   core check evq rng stats trace trace_kinds time_unit cpu_time era text_escape input | records every floor writes (events, trace and its kinds, violations, vectors) and leaf helpers (text escaping, opening inputs); knows no CPU state and no lock
machine  machine wake cache | the era machine: its costs, its caches (cache lines, topology), the run queues'"'"' loads, try_to_wake_up()'"'"'s cost, placement and arrival
sched    rq sched_fair sched_o1 balance sched irq loop | the run queues, the CFS and O(1) choices, balancing, switching, blocking and waking, interrupt delivery, the event loop
locks    lock lock_raw lock_spin lock_cli lock_bkl lock_bkl_sem lock_sem lock_mutex lock_ops | generic lock helpers, the raw spinning lock, one file per primitive, the table dispatcher
ops      objects ops | what a scenario declares and does: objects, compute, variables, wait queues, completions
observers lockdep deadlock choice | what watches the run: lockdep, the deadlock'"'"'s reason, the explorer'"'"'s choice points
run      sim ctx | creating, starting and freeing a run; registers the hooks (hooks.h); a context read from above the core (ctx.c)
'

listing=$(mktemp)
trap 'rm -f "$listing"' EXIT
if [ -n "${KM_FLOORS_NM:-}" ]; then
	cp "$KM_FLOORS_NM" "$listing" || exit 2
else
	shopt -s nullglob
	objs=("$build"/engine/*.o)
	[ ${#objs[@]} -gt 0 ] || { echo "check_floors: no objects under $build/engine (build first)" >&2; exit 2; }
	nm -A "${objs[@]}" >"$listing" || exit 2
	# every core source has an object: a file not built is not checked
	for c in engine/*.c; do
		b=$(basename "$c" .c)
		[ -e "$build/engine/$b.o" ] || { echo "check_floors: $build/engine/$b.o missing" >&2; exit 2; }
	done
fi

printf '%s\n' "$floors" | awk -v listing="$listing" '
function floorof(f) { return (f in floor) ? floor[f] : -1 }
# depth-first search for a cycle; state 1: on the path, 2: done
function visit(f,   k, n, i, t) {
	state[f] = 1
	path[++depth] = f
	n = split(out[f], t, " ")
	for (i = 1; i <= n; i++) {
		if (t[i] == "")
			continue
		if (state[t[i]] == 1) {
			cyc = t[i]
			for (k = depth; k >= 1 && path[k] != t[i]; k--)
				cyc = path[k] " -> " cyc
			cyc = t[i] " -> " cyc
			print "floors: cycle: " cyc
			bad = 1
		} else if (state[t[i]] == 0) {
			visit(t[i])
		}
	}
	depth--
	state[f] = 2
}
BEGIN { nf = 0 }
NF > 0 {
	split($0, half, "|")
	n = split(half[1], w, " ")
	name[nf] = w[1]
	for (i = 2; i <= n; i++) {
		if (w[i] in floor) {
			print "floors: " w[i] " is listed twice"
			bad = 1
		}
		floor[w[i]] = nf
		fl[w[i]] = w[1]
	}
	nf++
}
END {
	while ((getline line < listing) > 0) {
		# path/to/file.o:[address] TYPE symbol
		c = index(line, ":")
		if (!c)
			continue
		obj = substr(line, 1, c - 1)
		sub(/.*\//, "", obj)
		sub(/\.o$/, "", obj)
		m = split(substr(line, c + 1), f, " ")
		if (m < 2)
			continue
		type = f[m - 1]
		sym = f[m]
		files[obj] = 1
		if (type == "U")
			use[obj, sym] = 1
		else if (type ~ /^[TDBRCG]$/)
			def[sym] = obj
	}
	for (o in files)
		if (floorof(o) < 0) {
			print "floors: engine/" o ".c is on no floor (list it in tests/check_floors.sh)"
			bad = 1
		}
	for (k in use) {
		split(k, p, SUBSEP)
		from = p[1]; sym = p[2]
		if (!(sym in def) || def[sym] == from)
			continue
		to = def[sym]
		edge[from, to] = edge[from, to] " " sym
	}
	for (k in edge) {
		split(k, p, SUBSEP)
		from = p[1]; to = p[2]
		out[from] = out[from] " " to
		if (floorof(from) >= 0 && floorof(to) > floorof(from)) {
			print "floors: " from " (" fl[from] ") calls up into " to " (" fl[to] "):" edge[k]
			bad = 1
		}
	}
	for (o in files)
		state[o] = 0
	for (o in files)
		if (state[o] == 0)
			visit(o)
	if (bad)
		exit 1
	n = 0
	for (o in files)
		n++
	printf "floors: %d core files on %d floors, every call down or level, no cycle\n", n, nf
}'
