-- expect-exit: 2
-- expect-stderr: gc_finalizer_error\.lua:[0-9]+: setmetatable: finalizers \(__gc\) are not available
-- FIXED: the engine bug described below no longer happens; this test keeps it so.
-- WRONG EXIT (engine bug): exits 0.  An error raised in a __gc finalizer
-- is silently dropped (Lua makes it a warning; the sandbox shows none).
scenario{ name = "gc_finalizer_error" }
setmetatable({}, { __gc = function() error("from a finalizer") end })
collectgarbage()
