-- expect-exit: 2
-- expect-stderr: numbers_sleep_huge\.lua:6: sleep\(\): the duration must be a whole number of nanoseconds, got inf
-- sleep(math.huge).
scenario{ name = "numbers_sleep_huge" }
task{ name = "t", run = function()
  sleep(math.huge)
end }
