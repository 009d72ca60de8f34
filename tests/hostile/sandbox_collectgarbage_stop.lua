-- expect-exit: 2
-- expect-stderr: sandbox_collectgarbage_stop\.lua:6: collectgarbage\('stop'\) is not available in a scenario
-- Stopping the collector would let garbage pile up unseen; inside a task
-- it is refused like at the top level.
scenario{ name = "sandbox_collectgarbage_stop" }
task{ name = "t", run = function() collectgarbage("stop") end }
