-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: loop_string_metatable\.lua:7: instruction budget of 1000000 exceeded
-- The string metatable is the scenario's own to spoil (one Lua state per
-- run): an __index that loops only hurts the scenario, and is counted.
scenario{ name = "loop_string_metatable" }
getmetatable("").__index = function() while true do end end
local s = ("t"):rep(3)
