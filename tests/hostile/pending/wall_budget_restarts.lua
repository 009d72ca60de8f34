-- expect-exit: 2
-- args: --max-wall 2 --max-events 100000000 --max-instructions 10000000000 --duration 10s
-- max-seconds: 2.8
-- expect-stderr: wall_budget_restarts\.lua(:[0-9]+)?: wall-clock budget of 2 s exceeded
-- BUDGET EXCEEDED (engine bug): this run takes about 3.4 s under a 2 s
-- wall-clock budget.  The budget is measured by two clocks: the sandbox's,
-- started when the file is loaded (checked by the Lua hook), and the
-- simulator's, started again when the run starts (checked every 4096
-- events).  The top level here burns ~1.4 s, then an interrupt storm whose
-- handler is too short to reach the hook runs for 2 s more on the second
-- clock.  With the default 120 s a run can last twice that, plus the
-- instantiation, which no clock watches.  Fix: one start time for the
-- whole session, shared by the sandbox and the simulator.
-- (Timing-dependent: on a much slower machine the first clock fires first.)
scenario{ name = "wall_budget_restarts" }
local n = 0
for i = 1, 2e8 do n = n + 1 end
task{ name = "t", run = function() while true do compute(ms(1)) end end }
irq{ name = "i", every = 100, handler = function() end }
