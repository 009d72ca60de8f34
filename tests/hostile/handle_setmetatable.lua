-- expect-exit: 2
-- expect-stderr: handle_setmetatable\.lua:6: bad argument #1 to 'setmetatable' \(table expected, got lock\)
-- setmetatable on a handle (userdata) is refused.
scenario{ name = "handle_setmetatable" }
local l = lock{ name = "l" }
setmetatable(l, { __gc = function() end })
