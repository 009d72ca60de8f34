-- expect-exit: 2
-- expect-stderr: numbers_atomic_add_return_huge\.lua:7: atomic_add_return\(\): the amount must be an integer, got inf
-- atomic_add_return(a, math.huge).
scenario{ name = "numbers_atomic_add_return_huge" }
local a = atomic{ name = "a" }
task{ name = "t", run = function()
  atomic_add_return(a, math.huge)
end }
