-- expect-exit: 2
-- args: --era 2009 --mode mutex --report json
-- expect-stdout: "outcome": "not-applicable"
-- expect-stdout: "reason": ".*semaphore cannot become a mutex
-- The same refusal, as the JSON report.
scenario{ name = "not_applicable_json" }
local slots = lock{ name = "slots", count = 4, kind = "semaphore" }
task{ name = "t", run = function() down(slots); compute(us(1)); up(slots) end }
