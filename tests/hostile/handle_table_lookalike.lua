-- expect-exit: 2
-- expect-stderr: handle_table_lookalike\.lua:9: bad argument #1 to 'up' \(lock expected, got (table|lock)\)
-- A table dressed as a handle (same fields, a __name in its metatable)
-- is not one.  (Lua names the type from __name, so the message may say
-- "got lock": the check is on the real metatable, not the name.)
scenario{ name = "handle_table_lookalike" }
local fake = setmetatable({ name = "l", id = 0 }, { __name = "lock" })
task{ name = "t", run = function()
  up(fake)
end }
