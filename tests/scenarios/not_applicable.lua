-- expect-exit: 2
-- args: --era 2009 --mode mutex
-- expect-stderr: not applicable.*counts to 4
-- A counting limiter (count 4) cannot become a mutex.
scenario{ name = "not_applicable" }
local slots = lock{ name = "slots", count = 4, kind = "semaphore" }
task{ name = "t", run = function() down(slots); compute(us(1)); up(slots) end }
