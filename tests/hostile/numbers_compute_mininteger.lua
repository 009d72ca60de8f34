-- expect-exit: 2
-- expect-stderr: numbers_compute_mininteger\.lua:6: compute\(\): the duration must not be negative, got -9223372036854775808
-- compute(math.mininteger).
scenario{ name = "numbers_compute_mininteger" }
task{ name = "t", run = function()
  compute(math.mininteger)
end }
