-- expect-exit: 2
-- args: --mode mutex --era 1994
-- expect-stderr: 2\.6\.16
-- A mutex in 1994 is refused, naming the release that brought mutexes.
scenario{ name = "anachronism_refused" }
local s = lock{ name = "i_sem", kind = "semaphore" }
task{ name = "t", run = function() down(s); compute(us(5)); up(s) end }
