-- expect-exit: 2
-- args: --era 2009
-- expect-stderr: check_error\.lua:7: 
-- A check that raises an error is a bad scenario (exit 2), with its line.
scenario{ name = "check_error" }
task{ name = "t", run = function() compute(us(1)) end }
check(function(r) return r.vars.nonexistent.field == 1, "never" end)
