-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_concat_keep\.lua:8: memory budget of 16777216 bytes exceeded
-- Ten million concatenated strings kept in a table, at the top level.
scenario{ name = "memory_concat_keep" }
local t = {}
for i = 1, 1e7 do
  t[i] = "abcdefgh" .. i
end
