-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_format_task\.lua:8: memory budget of 16777216 bytes exceeded
-- string.format("%s%s") doubling a string.
scenario{ name = "memory_format_task" }
task{ name = "t", run = function()
  local v = ("z"):rep(1 << 16)
  for i = 1, 30 do v = string.format("%s%s", v, v) end
end }
