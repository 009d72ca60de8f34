-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: pcall_memory_toplevel\.lua(:[0-9]+)?: memory budget of 16777216 bytes exceeded
-- Catch the out-of-memory error at the top level and keep allocating: the
-- memory budget is as final as the instruction budget.  (The line is
-- missing when the failed allocation is inside a C function at the top
-- level: see pending/memory_cfunc_toplevel_line.lua.)
scenario{ name = "pcall_memory_toplevel" }
local keep = {}
for i = 1, 1e6 do
  local ok, s = pcall(string.rep, "x", 1 << 22)
  keep[i] = s
end
