-- expect-exit: 2
-- expect-stderr: recursion_check\.lua:6: stack overflow
-- Runaway recursion inside a check().
scenario{ name = "recursion_check" }
check(function(report)
  local function f(n) return 1 + f(n + 1) end
  return f(1)
end)
