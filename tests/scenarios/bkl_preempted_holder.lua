-- expect-exit: 0
-- args: --era 2003 --cpus 1
-- expect-stdout: outcome: completed
scenario{ name = "bkl_preempted_holder" }
local k = lock{ name = "k", kind = "bkl" }
task{ name = "holder", run = function() down(k); compute(ms(20)); up(k) end }
task{ name = "other", run = function() down(k); compute(us(10)); up(k) end }
