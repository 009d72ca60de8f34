-- expect-exit: 2
-- expect-stderr: report_metatable_index_number\.lua:9: bad argument #1 to '__index' \(table expected, got number\)
-- A check reaches the report's metatable and calls its __index with a
-- number: once a segmentation fault (lua_rawset on a number), now a
-- plain argument error at the line.
scenario{ name = "report_metatable_index_number" }
task{ name = "t", run = function() compute(10) end }
check(function(r)
  local v = getmetatable(r).__index(12345, "tasks")
  return true, "got " .. tostring(v)
end)
