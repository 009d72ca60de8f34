-- expect-exit: 2
-- expect-stderr: c_stack_overflow_gsub\.lua:[0-9]+: .*C stack overflow
-- FIXED (was pending): -- NO POSITION (engine bug): recursion through string.gsub callbacks ends
-- with "lockmuseum: C stack overflow" -- no file, no line: Lua raises it
-- from inside a C function (no Lua frame on top).  Fix as for
-- error_table_toplevel.lua (a message handler that walks up to the first
-- Lua frame).
scenario{ name = "c_stack_overflow_gsub" }
local function f(s) return (s:gsub(".", f)) end
f("abc")
