-- expect-exit: 2
-- args: --max-instructions 1000000 --max-wall 2
-- expect-stderr: gc_finalizer_loop\.lua:[0-9]+: setmetatable: finalizers \(__gc\) are not available
-- FIXED: the engine bug described below no longer happens; this test keeps it so.
-- HANG (engine bug).  A table's __gc finalizer that never returns.  Lua
-- runs finalizers with hooks switched off (lgc.c, GCTM: allowhook = 0),
-- so the budget hook never fires: no instruction, wall-clock or Ctrl-C
-- check runs again, and SIGTERM/SIGINT only set a flag the hook would
-- read.  The process spins until SIGKILL.
-- Fix: refuse __gc in the sandbox (wrap setmetatable to reject a
-- metatable with a __gc field: Lua only marks a table for finalization if
-- __gc is present when setmetatable is called), and/or a watchdog outside
-- Lua that ends the run when the wall-clock budget is long past.
scenario{ name = "gc_finalizer_loop" }
setmetatable({}, { __gc = function() while true do end end })
collectgarbage()
