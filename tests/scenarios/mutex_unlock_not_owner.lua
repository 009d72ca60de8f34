-- expect-exit: 1
-- args: --era 2009 --cpus 2
-- expect-stdout: mutex-unlock-not-owner
-- One task locks a mutex, another unlocks it.
scenario{ name = "mutex_unlock_not_owner" }
local m = lock{ name = "m", kind = "mutex" }
task{ name = "locker", run = function() down(m); sleep(us(200)) end }
task{ name = "thief", start = us(50), run = function() up(m) end }
