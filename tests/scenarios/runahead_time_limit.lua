-- expect-exit: 0
-- args: --era 2023 --cpus 1 --duration 10us --report json
-- expect-stdout: "outcome": "time-limit"
-- A task that runs ahead through many short computes (nothing else is
-- pending on its CPU) must still stop at the duration bound exactly: every
-- step that ends by 10 us is done and counted, the next one is not.
scenario{ name = "runahead_time_limit" }
local steps = counter{ name = "steps" }
local start = counter{ name = "start" }
task{ name = "stepper", run = function()
  counter_add(start, now())
  while true do
    compute(3)
    counter_add(steps, 1)
  end
end }
check(function(r)
  local want = (10000 - r.counters.start.value) // 3
  return r.sim_time_ns == 10000 and r.counters.steps.value == want,
    "stopped at 10 us after " .. want .. " steps of 3 ns (" .. r.counters.steps.value .. ")"
end)
