-- expect-exit: 2
-- expect-stderr: numbers_atomic_set_2p63\.lua:7: atomic_set\(\): the value must be an integer, got 9\.2233720368548e\+18
-- atomic_set(a, 2^63).
scenario{ name = "numbers_atomic_set_2p63" }
local a = atomic{ name = "a" }
task{ name = "t", run = function()
  atomic_set(a, 2^63)
end }
