-- expect-exit: 2
-- args: --max-instructions 1000000 --max-wall 2
-- expect-stderr: gc_finalizer_loop_implicit\.lua:[0-9]+: setmetatable: finalizers \(__gc\) are not available
-- As gc_finalizer_loop.lua, without calling collectgarbage(): the
-- collector would find the garbage on its own in the middle of a task.
scenario{ name = "gc_finalizer_loop_implicit" }
task{ name = "t", run = function()
  for i = 1, 100 do setmetatable({}, { __gc = function() while true do end end }) end
  local t = {}
  for i = 1, 1e6 do t[i % 100 + 1] = { i } end
  compute(1)
end }
