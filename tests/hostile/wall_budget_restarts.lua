-- expect-exit: 2
-- args: --max-wall 2 --max-events 100000000 --max-instructions 10000000000 --duration 10s
-- max-seconds: 2.8
-- expect-stderr: wall_budget_restarts\.lua(:[0-9]+)?: wall-clock budget of 2 s exceeded
-- The wall-clock budget covers the whole session.  It once had two
-- clocks, the sandbox's (from loading the file) and the simulator's
-- (started again at the run), so this file ran ~3.4 s under a 2 s budget:
-- the top level burns ~1.4 s, then an interrupt storm runs on the second
-- clock.  (Timing-dependent: on a much slower machine the top level alone
-- exceeds the budget, with the same message.)  max-seconds bounds the
-- run's CPU time, which a run of one thread cannot make more than its wall
-- time: the two clocks cost ~3.4 s of it, and a loaded machine, which
-- stretches the wall time, cannot fail the test.
scenario{ name = "wall_budget_restarts" }
local n = 0
for i = 1, 2e8 do n = n + 1 end
task{ name = "t", run = function() while true do compute(ms(1)) end end }
irq{ name = "i", every = 100, handler = function() end }
