-- expect-exit: 0
-- expect-stdout: outcome: time-limit at 60\.00 s simulated
-- A task that sleeps forever is not an error: simulated time is a budget
-- too (60 s unless scenario{ duration } or --duration says otherwise), and
-- a run that reaches it ends with the outcome "time-limit", exit 0.
scenario{ name = "loop_sleep_forever" }
task{ name = "t", run = function() while true do sleep(sec(1)) end end }
