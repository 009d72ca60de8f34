-- expect-exit: 2
-- args: --max-memory 16M
-- expect-stderr: memory_check\.lua: check\(\): .*memory_check\.lua:8: memory budget of 16777216 bytes exceeded
-- A memory bomb inside a check().
scenario{ name = "memory_check" }
check(function(report)
  local t = {}
  for i = 1, 1e9 do t[i] = i end
end)
