-- expect-exit: 2
-- args: --max-instructions 1000000 --duration 100ms
-- expect-stderr: budget_short_threads\.lua:[0-9]+: instruction budget of 1000000 exceeded
-- A stream of short interrupt handlers, each well under the hook's
-- 1000-instruction period (here 100,000 invocations x 200 iterations),
-- must still be charged to the instruction budget.  It once was not:
-- every invocation ran on a fresh Lua thread whose hook count started
-- again, so it exited 0 after ~80 million instructions under a budget of
-- one million.  Finished threads are now reused, and their count runs on.
scenario{ name = "budget_short_threads" }
local n = 0
task{ name = "t", run = function() while true do compute(ms(1)) end end }
irq{ name = "i", every = us(1), handler = function()
  for i = 1, 200 do n = n + 1 end
end }
check(function() return true, "ran " .. n .. " loop iterations" end)
