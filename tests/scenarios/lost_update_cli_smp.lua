-- expect-exit: 1
-- args: --era 2003 --cpus 2 --mode cli
-- expect-stdout: lost-update
-- After 2.5.28 cli() masks only the local CPU: two CPUs race.
scenario{ name = "lost_update_cli_smp" }
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
check(function(r) return r.vars.count < 100, "updates were lost: count is " .. r.vars.count end)
