-- expect-exit: 0
-- args: --era 2008 --cpus 4
-- expect-stdout: ok +counter is 800
-- A spinlock around a short read-modify-write on 4 CPUs.
scenario{ name = "clean_spinlock", era = "2008" }
local l = lock{ name = "list_lock", kind = "spinlock" }
local v = var{ name = "count" }
for i = 1, 4 do
  task{ name = "t" .. i, cpu = i - 1, run = function()
    for _ = 1, 200 do
      down(l)
      add(v, 1)
      compute(ns(100))
      up(l)
      compute(ns(300))
    end
  end }
end
check(function(r) return r.vars.count == 800, "counter is " .. r.vars.count end)
check(function(r)
  local spin = 0
  for _, c in ipairs(r.cpus_util) do spin = spin + c.spin_ns end
  return r.locks[1].kind == "spinlock" and spin > 0, "a contended spinlock spins (" .. spin .. " ns)"
end)
check(function(r) return #r.violations == 0, "no violations" end)
