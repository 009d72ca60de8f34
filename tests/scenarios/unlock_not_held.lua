-- expect-exit: 1
-- args: --era 2008 --cpus 1
-- expect-stdout: unlock-not-held
-- spin_unlock() of a spinlock nobody holds.
scenario{ name = "unlock_not_held" }
local l = lock{ name = "sl", kind = "spinlock" }
task{ name = "t", run = function() compute(us(1)); up(l) end }
