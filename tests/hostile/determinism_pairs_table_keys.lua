-- expect-exit: 2
-- expect-stderr: determinism_pairs_table_keys\.lua:10: next\(\): this table has a key that is a table
-- pairs() over a table keyed by tables: their order is their addresses'
-- and no order of them holds from one run to the next, so the walk is
-- refused, naming the line of the loop.  FIXED (the order changed).
scenario{ name = "pairs_table_keys" }
local seen = { [{}] = 1, [{}] = 2, [{}] = 3 }
task{ name = "t", run = function()
  local sum = 0
  for k, v in pairs(seen) do sum = sum * 2 + v; compute(sum) end
end }
