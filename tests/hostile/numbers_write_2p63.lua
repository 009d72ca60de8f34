-- expect-exit: 2
-- expect-stderr: numbers_write_2p63\.lua:7: write\(\): the value must be an integer, got 9\.2233720368548e\+18
-- write(v, 2^63).
scenario{ name = "numbers_write_2p63" }
local v = var{ name = "v" }
task{ name = "t", run = function()
  write(v, 2^63)
end }
