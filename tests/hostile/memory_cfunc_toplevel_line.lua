-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_cfunc_toplevel_line\.lua:8: memory budget of 16777216 bytes exceeded
-- The allocation that breaks the memory budget is made by a C function
-- (string.rep) at the top level: the message names the line of the Lua
-- code that called it, not only the file.
scenario{ name = "memory_cfunc_toplevel_line" }
local s = string.rep("x", 1 << 26)
