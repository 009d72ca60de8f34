-- expect-exit: 2
-- expect-stderr: coroutine_library_absent\.lua:8: attempt to index a nil value \(global 'coroutine'\)
-- The coroutine library is not opened: tasks are the only coroutines, and
-- a scenario can neither create its own, nor yield across the API, nor
-- resume a task's thread (it never sees one).
scenario{ name = "coroutine_library_absent" }
task{ name = "t", run = function()
  local co = coroutine.running()
end }
