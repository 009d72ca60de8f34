-- expect-exit: 0
-- args: --era 2009 --cpus 4
-- expect-stdout: ok +counter is 400
-- A mutex around a read-modify-write: one owner at a time, no lost update.
scenario{ name = "clean_mutex", era = "2009", cpus = 4 }
local m = lock{ name = "i_mutex", kind = "mutex" }
local v = var{ name = "count" }
for i = 1, 4 do
  task{ name = "t" .. i, run = function()
    for _ = 1, 100 do
      down(m)
      local x = read(v)
      compute(us(1))
      write(v, x + 1)
      up(m)
      compute(us(1))
    end
  end }
end
check(function(r) return r.vars.count == 400, "counter is " .. r.vars.count end)
check(function(r) return r.locks[1].kind == "mutex", "the lock is a mutex" end)
check(function(r) return #r.violations == 0, "no violations" end)
