-- expect-exit: 2
-- expect-stderr: numbers_add_nan\.lua:7: add\(\): the amount must be an integer, got -?nan
-- add(v, 0/0).
scenario{ name = "numbers_add_nan" }
local v = var{ name = "v" }
task{ name = "t", run = function()
  add(v, 0/0)
end }
