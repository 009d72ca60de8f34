-- expect-exit: 2
-- expect-stderr: numbers_rand_empty\.lua:6: rand\(9223372036854775807, -9223372036854775808\): the interval is empty
-- rand(maxinteger, mininteger): an empty interval.
scenario{ name = "numbers_rand_empty" }
task{ name = "t", run = function()
  local r = rand(math.maxinteger, math.mininteger)
end }
