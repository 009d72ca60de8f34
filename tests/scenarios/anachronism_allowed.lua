-- expect-exit: 0
-- args: --mode mutex --era 1994 --anachronism
-- expect-stdout: ok +ran as a mutex in 1994
-- With --anachronism the same run goes ahead.
scenario{ name = "anachronism_allowed" }
local s = lock{ name = "i_sem", kind = "semaphore" }
task{ name = "t", run = function() down(s); compute(us(5)); up(s) end }
check(function(r)
  return r.locks[1].kind == "mutex" and r.era == "1994", "ran as a " .. r.locks[1].kind .. " in " .. r.era
end)
