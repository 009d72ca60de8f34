-- expect-exit: 2
-- args: --max-instructions 1000000 --max-wall 2
-- expect-stderr: gc_finalizer_loop\.lua:[0-9]+: setmetatable: finalizers \(__gc\) are not available
-- A __gc finalizer that never returns would run with hooks off (Lua runs
-- finalizers so, lgc.c), out of reach of every budget: the sandbox refuses
-- metatables with __gc at setmetatable().
scenario{ name = "gc_finalizer_loop" }
setmetatable({}, { __gc = function() while true do end end })
collectgarbage()
