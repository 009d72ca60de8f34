-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_cfunc_toplevel_line\.lua:10: memory budget of 16777216 bytes exceeded
-- FIXED (was pending): -- NO LINE (engine bug): when the allocation that breaks the budget is made
-- by a C function (string.rep, gsub, format, table.concat) at the top
-- level, the message has the file but no line.  sb_alloc looks only at
-- stack level 0, which is the C function.  Fix: walk up to the first level
-- with currentline > 0.  (Inside a task the host adds the line.)
scenario{ name = "memory_cfunc_toplevel_line" }
local s = string.rep("x", 1 << 26)
