-- expect-exit: 1
-- command: explore
-- args: --seeds 9223372036854775805..9223372036854775807 --goal deadlock
-- expect-stdout: no seed in 9223372036854775805\.\.9223372036854775807 reaches the goal
-- The last seeds of the range run and print as they are (issue 28).
scenario{ name = "explore_seeds_at_int64_max", duration = us(20) }
local l = lock{ name = "l" }
task{ name = "t", run = function() down(l); compute(us(1)); up(l) end }
