-- expect-exit: 0
-- args: --cpus 2 --era 2023
-- expect-stdout: outcome: completed
-- Legitimately different: pcall is yieldable in Lua 5.4, so a task may
-- wait (down() under contention, sleep()) inside a pcall.
scenario{ name = "wait_in_pcall" }
local l = lock{ name = "l" }
task{ name = "a", run = function() down(l); compute(us(50)); up(l) end }
task{ name = "b", run = function()
  compute(us(1))
  assert(pcall(function() down(l); sleep(us(1)); up(l) end))
end }
