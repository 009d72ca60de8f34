-- expect-exit: 2
-- expect-stderr: sandbox_debug_task\.lua:6: attempt to index a nil value \(global 'debug'\)
-- No debug library inside a task (debug.sethook would lift the budget).
scenario{ name = "sandbox_debug_task" }
task{ name = "t", run = function()
  debug.sethook()
end }
