-- expect-exit: 2
-- expect-stderr: gc_finalizer_error\.lua:[0-9]+: setmetatable: finalizers \(__gc\) are not available
-- An error raised in a __gc finalizer would be turned into a warning by
-- Lua and lost: the sandbox refuses __gc at setmetatable().
scenario{ name = "gc_finalizer_error" }
setmetatable({}, { __gc = function() error("from a finalizer") end })
collectgarbage()
