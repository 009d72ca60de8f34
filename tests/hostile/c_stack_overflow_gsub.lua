-- expect-exit: 2
-- expect-stderr: c_stack_overflow_gsub\.lua:[0-9]+: .*C stack overflow
-- Recursion through string.gsub callbacks ends in a C stack overflow
-- raised inside a C function: the message names the file and line of
-- the first Lua frame.
scenario{ name = "c_stack_overflow_gsub" }
local function f(s) return (s:gsub(".", f)) end
f("abc")
