-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_rep_task\.lua:7: memory budget of 16777216 bytes exceeded
-- One string.rep of a gigabyte inside a task.
scenario{ name = "memory_rep_task" }
task{ name = "t", run = function()
  local s = ("x"):rep(1e9)
end }
