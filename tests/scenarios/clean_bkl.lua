-- expect-exit: 0
-- args: --era 1999 --cpus 2
-- expect-stdout: kernel_flag
-- Two locks of kind bkl are one recursive lock, dropped across sleep.
scenario{ name = "clean_bkl", era = "1999", cpus = 2 }
local a = lock{ name = "a", kind = "bkl" }
local b = lock{ name = "b", kind = "bkl" }
local v = var{ name = "count" }
for i = 1, 3 do
  task{ name = "t" .. i, run = function()
    for k = 1, 20 do
      down(a)
      down(b)               -- recursive: the same BKL
      add(v, 1)
      if k % 5 == 0 then sleep(us(50)) end   -- the BKL is dropped meanwhile
      up(b)
      up(a)
      compute(us(5))
    end
  end }
end
check(function(r) return r.vars.count == 60, "counter is " .. r.vars.count end)
check(function(r) return #r.violations == 0, "no violations: sleeping under the BKL is allowed" end)
check(function(r)
  local kf = r.kernel_locks and r.kernel_locks[1]
  return kf ~= nil and kf.name == "kernel_flag" and kf.acquisitions > 0,
    "kernel_flag was taken " .. (kf and kf.acquisitions or 0) .. " times"
end)
