-- expect-exit: 2
-- expect-stderr: handle_metatable_gc\.lua:8: attempt to index a string value
-- Adding __gc (or __close, __index) to a handle's metatable: the
-- metatable is not reachable, getmetatable() gives a string.
scenario{ name = "handle_metatable_gc" }
local l = lock{ name = "l" }
local mt = getmetatable(l)
mt.__gc = function() while true do end end
