-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_rep_absurd_count\.lua:7: resulting string too large
-- string.rep with a count that could never fit: Lua refuses before asking
-- the allocator for anything.
scenario{ name = "memory_rep_absurd_count" }
local s = string.rep("ab", 1 << 62, ",")
