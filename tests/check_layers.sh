#!/usr/bin/env bash
# check_layers.sh [ENGINE_DIR] - the layers of engine/ point one way.
#
#   engine/ (the core)  includes nothing from lua/, report/, view/, cli/,
#                       and no Lua, jansson or SDL header
#   engine/lua/         nothing from view/ or cli/; from report/ only
#                       records.h, the check and parameter records it fills
#   engine/report/      nothing from lua/, view/ or cli/, and no SDL
#   engine/view/        nothing from lua/ or cli/
#   engine/cli/         anything
#
# and no file above the core includes ctx.h, where struct km_ctx is
# defined (the core's own: the layers above use sim.h's accessors), nor a
# core header that includes it, however deep (core.h, lock.h, ...).
#
# Every #include "..." of every .c and .h is resolved against the file's
# own folder, so "../lua/eras.h" and "lua/eras.h" count alike.  Each
# violation is printed as FILE:LINE: LAYER includes PATH; the exit status
# is 1 if there is any.
set -u
engine=${1:-engine}
[ -d "$engine" ] || { echo "usage: $0 [ENGINE_DIR]" >&2; exit 2; }
root=$(cd "$engine" && pwd -P)

# The core's internal headers: ctx.h, and every core header that includes
# one of them, to a fixed point.
internal=" ctx.h "
grown=1
while [ $grown -eq 1 ]; do
	grown=0
	for h in "$root"/*.h; do
		b=${h##*/}
		case $internal in *" $b "*) continue ;; esac
		for i in $(sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$h"); do
			case $internal in *" $i "*) internal="$internal$b "; grown=1; break ;; esac
		done
	done
done

find "$root" \( -name '*.c' -o -name '*.h' \) -print0 | sort -z |
xargs -0 grep -nH -E '^#[[:space:]]*include' | awk -v root="$root" -v internal="$internal" '
# The layer of a path under the engine: core, lua, report, view, cli.
function layer(p,   r) {
	if (index(p, root "/") != 1)
		return "outside"
	r = substr(p, length(root) + 2)
	if (r !~ /\//)
		return "core"
	sub(/\/.*/, "", r)
	return r
}
# @p with "." and ".." segments resolved.
function normalize(p,   n, seg, out, k, i) {
	n = split(p, seg, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (seg[i] == "" || seg[i] == ".")
			continue
		if (seg[i] == "..") {
			if (k > 0)
				k--
			continue
		}
		out[++k] = seg[i]
	}
	p = ""
	for (i = 1; i <= k; i++)
		p = p "/" out[i]
	return p
}
# Is @target an internal header of the core (ctx.h or one that includes it)?
function is_internal(target,   b) {
	b = target; sub(/.*\//, "", b)
	return layer(target) == "core" && index(internal, " " b " ") > 0
}
function allowed(from, to, target) {
	if (from != "core" && is_internal(target))
		return 0
	if (from == "cli" || to == "outside" || from == to)
		return 1
	if (to == "core")
		return from == "lua" || from == "report" || from == "view"
	if (from == "lua" && to == "report")
		return target == root "/report/records.h"
	if (from == "view" && to == "report")
		return 1
	return 0
}
# System headers a layer may not use (the core builds without their flags).
function forbidden(from, hdr) {
	if (from == "core")
		return hdr ~ /^(lua\.h|lauxlib\.h|lualib\.h|jansson\.h)$/ || hdr ~ /SDL/
	if (from == "lua" || from == "report")
		return hdr ~ /SDL/
	return 0
}
{
	# FILE:LINE:#include ...
	file = $0; sub(/:.*/, "", file)
	rest = substr($0, length(file) + 2)
	line = rest; sub(/:.*/, "", line)
	text = substr(rest, length(line) + 2)
	from = layer(file)
	rel = substr(file, length(root) + 2)
	if (match(text, /"[^"]+"/)) {
		inc = substr(text, RSTART + 1, RLENGTH - 2)
		dir = file; sub(/\/[^\/]*$/, "", dir)
		target = normalize(dir "/" inc)
		to = layer(target)
		if (!allowed(from, to, target)) {
			if (from != "core" && is_internal(target))
				printf "%s:%s: %s includes %s, the core'"'"'s own (struct km_ctx: use sim.h'"'"'s accessors)\n", rel, line, from, inc
			else
				printf "%s:%s: %s includes %s (%s)\n", rel, line, from, to, inc
			bad = 1
		}
	} else if (match(text, /<[^>]+>/)) {
		hdr = substr(text, RSTART + 1, RLENGTH - 2)
		if (forbidden(from, hdr)) {
			printf "%s:%s: %s includes <%s>\n", rel, line, from, hdr
			bad = 1
		}
	}
}
END { exit bad }
'
if [ $? -ne 0 ]; then
	echo "layers: an include points up (core < lua, report < view < cli), or into the core's own ctx.h" >&2
	exit 1
fi
echo "layers: every include points down"
