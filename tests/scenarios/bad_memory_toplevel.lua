-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: bad_memory_toplevel\.lua(:[0-9]+)?: memory budget of 16777216 bytes exceeded
-- string.rep doubling at the top level.  (No line yet: see
-- pending/memory_toplevel_line.lua.)
scenario{ name = "bad_memory_toplevel" }
local s = "x"
while true do s = string.rep(s, 2) end
