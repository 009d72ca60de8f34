-- expect-exit: 2
-- expect-stderr: gc_finalizer_error\.lua:[0-9]+: .*from a finalizer
-- WRONG EXIT (engine bug): exits 0.  An error raised in a __gc finalizer
-- is silently dropped (Lua makes it a warning; the sandbox shows none).
scenario{ name = "gc_finalizer_error" }
setmetatable({}, { __gc = function() error("from a finalizer") end })
collectgarbage()
