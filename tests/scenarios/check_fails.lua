-- expect-exit: 1
-- args: --era 2009
-- expect-stdout: FAIL +the counter is 3, not 4
-- A run that completes cleanly but whose check fails exits 1.
scenario{ name = "check_fails" }
local v = var{ name = "count" }
task{ name = "t", run = function() for _ = 1, 3 do add(v, 1) end end }
check(function(r) return r.vars.count == 4, "the counter is " .. r.vars.count .. ", not 4" end)
check(function(r) return true, "a passing check" end)
