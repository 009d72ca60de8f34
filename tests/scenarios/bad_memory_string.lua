-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: bad_memory_string\.lua:8: memory budget of 16777216 bytes exceeded
-- Doubling a string until the memory budget stops it.
scenario{ name = "bad_memory_string" }
task{ name = "hog", run = function()
  local s = "x"
  while true do s = s .. s end
end }
