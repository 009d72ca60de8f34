-- expect-exit: 2
-- expect-stderr: recursion_task\.lua:7: stack overflow
-- Runaway recursion inside a task (a coroutine): Lua's own stack limit.
scenario{ name = "recursion_task" }
task{ name = "t", run = function()
  local function f(n)
    return 1 + f(n + 1)
  end
  f(1)
end }
