-- expect-exit: 2
-- expect-stderr: numbers_compute_2p63\.lua:6: compute\(\): the duration must be a whole number of nanoseconds, got 9\.2233720368548e\+18
-- compute(2^63).
scenario{ name = "numbers_compute_2p63" }
task{ name = "t", run = function()
  compute(2^63)
end }
