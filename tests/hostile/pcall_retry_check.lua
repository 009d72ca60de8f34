-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: pcall_retry_check\.lua: check\(\): .*instruction budget of 1000000 exceeded
-- A check() that swallows the budget error and reports success anyway:
-- the run ends with the budget error, not a passed check.
scenario{ name = "pcall_retry_check" }
check(function(report)
  local ok = pcall(function() while true do end end)
  return true, "swallowed: " .. tostring(not ok)
end)
