-- expect-exit: 2
-- expect-stderr: sandbox_collectgarbage_generational\.lua:5: collectgarbage\('generational'\) is not available in a scenario
-- Switching the collector's mode is refused.
scenario{ name = "sandbox_collectgarbage_generational" }
collectgarbage("generational")
