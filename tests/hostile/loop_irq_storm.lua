-- expect-exit: 2
-- args: --max-events 1000000
-- expect-stderr: loop_irq_storm\.lua: event budget of 1000000 events exceeded
-- An interrupt every 100 ns (the least irq{} accepts) for a minute of
-- simulated time would be 600 million events: the event budget stops it.
scenario{ name = "loop_irq_storm" }
task{ name = "t", run = function() while true do compute(ms(1)) end end }
irq{ name = "storm", every = 100, handler = function() end }
