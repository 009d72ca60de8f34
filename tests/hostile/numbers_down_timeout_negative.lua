-- expect-exit: 2
-- expect-stderr: numbers_down_timeout_negative\.lua:7: down_timeout\(\): the timeout must not be negative, got -1
-- down_timeout(l, -1).
scenario{ name = "numbers_down_timeout_negative" }
local l = lock{ name = "l", count = 0 }
task{ name = "t", run = function()
  down_timeout(l, -1)
end }
