-- expect-exit: 2
-- expect-stderr: memory_default_budget\.lua:7: memory budget of 268435456 bytes exceeded \(raise it with --max-memory\)
-- No --max-memory: the default budget is 256 MiB of Lua memory.
scenario{ name = "memory_default_budget" }
local t = {}
for i = 1, 1e9 do
  t[i] = i
end
