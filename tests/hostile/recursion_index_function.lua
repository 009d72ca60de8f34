-- expect-exit: 2
-- expect-stderr: recursion_index_function\.lua:6: C stack overflow
-- An __index function that indexes its own table: each level goes through
-- C (the metamethod call), so this is the C-stack limit, not Lua's.
scenario{ name = "recursion_index_function" }
local t = setmetatable({}, { __index = function(tt, k) return tt[k] end })
local v = t.x
