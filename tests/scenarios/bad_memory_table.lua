-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: bad_memory_table\.lua:.*memory budget
-- Growing a table inside a task until the memory budget stops it.
scenario{ name = "bad_memory_table" }
task{ name = "hog", run = function()
  local t = {}
  local i = 0
  while true do i = i + 1; t[i] = { i, i, i } end
end }
