-- expect-exit: 0
-- args: --era 1999 --cpus 2 --mode cli
-- expect-stdout: global_irq_lock
-- Before 2.5.28, cli() on SMP took the global irq lock: the same code that
-- loses updates in 2003 (lost_update_cli_smp.lua) is still correct here.
scenario{ name = "cli_global_1999" }
local l = lock{ name = "guard", kind = "spinlock" }
local v = var{ name = "count" }
for i = 1, 2 do
  task{ name = "t" .. i, cpu = i - 1, run = function()
    for _ = 1, 50 do
      down(l)
      local x = read(v)
      compute(us(1))
      write(v, x + 1)
      up(l)
    end
  end }
end
check(function(r) return r.vars.count == 100, "count is " .. r.vars.count end)
check(function(r) return #r.violations == 0, "no lost update" end)
