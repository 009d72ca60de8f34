-- expect-exit: 0
-- expect-stdout: outcome: completed
-- Legitimately different: an __index metamethod called from Lua code is
-- yieldable in Lua 5.4, so an operation inside it may wait.
scenario{ name = "wait_in_index_metamethod" }
local l = lock{ name = "l" }
local lazy = setmetatable({}, { __index = function(t, k) down(l); up(l); return 1 end })
task{ name = "t", run = function()
  local v = lazy.x
  compute(us(1))
end }
