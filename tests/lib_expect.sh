# Shared by tests/run_scenarios.sh and tests/run_hostile.sh: after a run
# whose output is in $tmp/out and $tmp/err, check the header's
# expect-stderr and expect-stdout patterns (arrays stderr_res and
# stdout_res) and, when the run asked for --report json (array args),
# that stdout is one JSON object.  Reports the first mismatch with the
# runner's bad(); returns 0 when everything matched.
check_outputs() {
	local name=$1 re
	for re in "${stderr_res[@]}"; do
		if ! grep -Eq -e "$re" "$tmp/err"; then
			bad "$name" "stderr does not match /$re/"
			return 1
		fi
	done
	for re in "${stdout_res[@]}"; do
		if ! grep -Eq -e "$re" "$tmp/out"; then
			bad "$name" "stdout does not match /$re/"
			return 1
		fi
	done
	if $have_python && [[ " ${args[*]} " == *" --report json "* ]]; then
		if ! python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out" 2>/dev/null; then
			bad "$name" "--report json output is not valid JSON"
			return 1
		fi
	fi
	return 0
}
