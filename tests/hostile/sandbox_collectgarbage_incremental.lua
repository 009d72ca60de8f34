-- expect-exit: 2
-- expect-stderr: sandbox_collectgarbage_incremental\.lua:5: collectgarbage\('incremental'\) is not available in a scenario
-- ...in either direction (incremental takes pause and step multipliers).
scenario{ name = "sandbox_collectgarbage_incremental" }
collectgarbage("incremental", 1000, 0)
