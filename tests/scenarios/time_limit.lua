-- expect-exit: 0
-- args: --era 2009 --duration 5ms
-- expect-stdout: outcome: time-limit
-- A run that reaches its duration bound with a task alive is judged like a
-- completed one.
scenario{ name = "time_limit" }
task{ name = "long", run = function() sleep(sec(1)) end }
task{ name = "short", run = function() compute(us(10)) end }
check(function(r)
  local long, short
  for _, t in ipairs(r.tasks) do if t.name == "long" then long = t else short = t end end
  return r.outcome == "time-limit" and r.sim_time_ns == ms(5) and not long.finished and short.finished,
    "time-limit at 5 ms, 'long' unfinished"
end)
