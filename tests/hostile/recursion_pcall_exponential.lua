-- expect-exit: 2
-- args: --max-wall 0.5
-- expect-stderr: recursion_pcall_exponential\.lua:[0-9]+: wall-clock budget of 0\.5 s exceeded
-- f calls pcall(f) and then f(): each stack overflow is caught and the
-- recursion starts again, exponentially.  Each overflow costs Lua a
-- reallocation of its whole stack in C, between two hook calls, so the
-- instruction budget (counted in Lua instructions) would take hours: the
-- wall-clock budget ends it.
scenario{ name = "recursion_pcall_exponential" }
local function f() pcall(f) f() end
f()
