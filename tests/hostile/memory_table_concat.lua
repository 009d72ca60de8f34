-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_table_concat\.lua:[0-9]+: memory budget of 16777216 bytes exceeded
-- table.concat of a table with itself, doubling, inside a task.
scenario{ name = "memory_table_concat" }
task{ name = "t", run = function()
  local s = ("y"):rep(1 << 16)
  for i = 1, 40 do s = table.concat({ s, s }) end
end }
