-- expect-exit: 2
-- args: --set n=99999999999999999999
-- expect-stderr: --set n=99999999999999999999: 'n' is an integer
-- An integer --set beyond 64 bits is refused as bad usage, not clamped
-- to math.maxinteger.
scenario{ name = "param_set_integer_overflow" }
local n = param("n", 1)
task{ name = "t", run = function() compute(us(1)) end }
