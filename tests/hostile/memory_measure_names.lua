-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_measure_names\.lua:11: measure\(\): more than 1024 names
-- One measure() name per call: each name kept a histogram outside the Lua
-- memory budget (474 MB under --max-memory 16M), and looking a name up
-- scanned them all.  FIXED: at most 1024 names a run (4 MiB), documented
-- in docs/hardening.md.
scenario{ name = "memory_measure_names" }
task{ name = "t", run = function()
  for i = 1, 5000 do
    measure("call " .. i, function() end)
  end
end }
