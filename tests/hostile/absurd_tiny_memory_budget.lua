-- expect-exit: 2
-- args: --max-memory 64K
-- expect-stderr: absurd_tiny_memory_budget\.lua(:[0-9]+)?: memory budget of 65536 bytes exceeded
-- The smallest memory budget the option accepts (64 KiB) is less than Lua
-- needs to start: the sandbox starts with more, then holds the scenario
-- to 64 KiB, which the first declarations exceed.
scenario{ name = "absurd_tiny_memory_budget" }
local t = {}
for i = 1, 1000 do t[i] = { i } end
