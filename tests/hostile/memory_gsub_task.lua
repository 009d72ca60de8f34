-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_gsub_task\.lua:8: memory budget of 16777216 bytes exceeded
-- gsub that doubles every character, over and over.
scenario{ name = "memory_gsub_task" }
task{ name = "t", run = function()
  local s = ("x"):rep(1000)
  for i = 1, 30 do s = s:gsub("x", "xx") end
end }
