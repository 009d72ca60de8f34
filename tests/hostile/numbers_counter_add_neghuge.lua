-- expect-exit: 2
-- expect-stderr: numbers_counter_add_neghuge\.lua:7: counter_add\(\): the amount must be an integer, got -inf
-- counter_add(c, -math.huge).
scenario{ name = "numbers_counter_add_neghuge" }
local c = counter{ name = "c" }
task{ name = "t", run = function()
  counter_add(c, -math.huge)
end }
