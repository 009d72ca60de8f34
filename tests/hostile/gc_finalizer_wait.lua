-- expect-exit: 2
-- args: --cpus 2 --era 2023
-- expect-stderr: gc_finalizer_wait\.lua:[0-9]+: setmetatable: finalizers \(__gc\) are not available
-- FIXED: the engine bug described below no longer happens; this test keeps it so.
-- WRONG EXIT (engine bug): exits 0.  A task's __gc finalizer calls down()
-- on a lock another task holds.  down() raises "cannot wait here" (a
-- finalizer cannot yield), but Lua turns errors in finalizers into
-- warnings, and the sandbox has no warning function: the error vanishes
-- and the run "completes".  Fix: refuse __gc (see gc_finalizer_loop.lua),
-- or make API misuse inside a finalizer fatal (km_sandbox_set_fatal).
scenario{ name = "gc_finalizer_wait" }
local l = lock{ name = "l" }
task{ name = "holder", run = function() down(l); compute(ms(1)); up(l) end }
task{ name = "t", run = function()
  compute(us(10))
  setmetatable({}, { __gc = function() down(l) end })
  collectgarbage()
  compute(us(1))
end }
