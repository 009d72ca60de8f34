-- expect-exit: 2
-- args: --set n=99999999999999999999
-- expect-stderr: --set n=99999999999999999999: 'n' is an integer
-- FIXED (was pending): -- SILENTLY CLAMPED (engine bug): an integer --set beyond 64 bits becomes
-- math.maxinteger (strtoll's ERANGE is not checked in l_param), and the
-- run goes on with a value nobody typed.
scenario{ name = "param_set_integer_overflow" }
local n = param("n", 1)
task{ name = "t", run = function() compute(us(1)) end }
