-- expect-exit: 0
-- expect-stdout: ok +__pairs refused a string; string methods still work: xxx
-- The report's __pairs called with a string once removed the metatable of
-- every string, so ("x"):rep(3) failed for the rest of the checks.
scenario{ name = "report_metatable_pairs_string" }
task{ name = "t", run = function() compute(10) end }
check(function(r)
  local refused = not pcall(getmetatable(r).__pairs, "abc")
  local ok, s = pcall(function() return ("x"):rep(3) end)
  return refused and ok, "__pairs refused a string; string methods still work: " .. tostring(s)
end)
