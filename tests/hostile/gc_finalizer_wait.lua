-- expect-exit: 2
-- args: --cpus 2 --era 2023
-- expect-stderr: gc_finalizer_wait\.lua:[0-9]+: setmetatable: finalizers \(__gc\) are not available
-- A task's __gc finalizer that calls down() on a lock another task holds
-- would raise an error Lua turns into a lost warning: refused at
-- setmetatable(), exit 2.
scenario{ name = "gc_finalizer_wait" }
local l = lock{ name = "l" }
task{ name = "holder", run = function() down(l); compute(ms(1)); up(l) end }
task{ name = "t", run = function()
  compute(us(10))
  setmetatable({}, { __gc = function() down(l) end })
  collectgarbage()
  compute(us(1))
end }
