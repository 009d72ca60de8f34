-- expect-exit: 2
-- expect-stderr: recursion_index_chain\.lua:7: '__index' chain too long; possible loop
-- A table that is its own __index: Lua bounds the chain.
scenario{ name = "recursion_index_chain" }
local t = {}
setmetatable(t, { __index = t })
local v = t.x
