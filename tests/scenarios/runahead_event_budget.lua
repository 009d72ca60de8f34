-- expect-exit: 2
-- args: --era 2023 --cpus 1 --max-events 1000
-- expect-stderr: event budget of 1000 events exceeded
-- The event budget counts the events a task runs ahead through (an
-- uncontended down, compute, up: no yield), and stops the run at the same
-- event as when every operation waits for the event loop.
scenario{ name = "runahead_event_budget" }
local l = lock{ name = "l", kind = "mutex" }
task{ name = "t", run = function()
  for _ = 1, 100000 do down(l); compute(10); up(l) end
end }
