-- expect-exit: 0
-- args: --duration 2ms --report json
-- expect-stdout: "outcome": "time-limit"
-- expect-stdout: "sim_time_ns": 2000000
-- --duration bounds simulated time from outside the file.
scenario{ name = "loop_duration_option", duration = sec(3600) }
task{ name = "t", run = function() while true do compute(us(10)) end end }
