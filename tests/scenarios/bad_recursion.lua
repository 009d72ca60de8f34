-- expect-exit: 2
-- expect-stderr: bad_recursion\.lua:5: stack overflow
-- Runaway recursion ends with a stack overflow, not a crash.
scenario{ name = "bad_recursion" }
local function f(n) return 1 + f(n + 1) end
f(1)
