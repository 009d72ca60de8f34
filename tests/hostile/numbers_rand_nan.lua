-- expect-exit: 2
-- expect-stderr: numbers_rand_nan\.lua:6: rand\(\): the low bound must be an integer, got -?nan
-- rand(0/0, 1).
scenario{ name = "numbers_rand_nan" }
task{ name = "t", run = function()
  local r = rand(0/0, 1)
end }
