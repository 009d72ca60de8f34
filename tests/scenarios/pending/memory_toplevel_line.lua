-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_toplevel_line\.lua:7: .*memory budget
-- PENDING (engine): as budget_toplevel_line.lua, for the memory budget.
scenario{ name = "memory_toplevel_line" }
local s = "x"
while true do s = s .. s end
