-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_toplevel_line\.lua:6: .*memory budget
scenario{ name = "memory_toplevel_line" }
local s = "x"
while true do s = s .. s end
