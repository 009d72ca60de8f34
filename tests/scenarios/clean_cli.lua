-- expect-exit: 0
-- args: --era 1991 --mode cli
-- expect-stdout: ok +ticks counted: 
-- On one CPU, cli() keeps the timer interrupt out of a read-modify-write.
scenario{ name = "clean_cli", era = "1991" }
local l = lock{ name = "cli", kind = "cli" }
local jiffies = var{ name = "jiffies" }
local fired = var{ name = "fired" }
irq{ name = "timer", every = us(100), jitter = us(30), handler = function()
  add(jiffies, 1)
  add(fired, 1)
end }
task{ name = "reader", run = function()
  for _ = 1, 200 do
    down(l)
    local j = read(jiffies)
    compute(us(20))
    write(jiffies, j)          -- a slow rewrite of the same value
    up(l)
    compute(us(10))
  end
end }
check(function(r)
  return r.vars.jiffies == r.vars.fired, "ticks counted: " .. r.vars.jiffies .. " of " .. r.vars.fired
end)
check(function(r) return #r.violations == 0, "no lost update" end)
check(function(r) return r.cpus_util[1].irqoff_ns > 0, "interrupts were off for a while" end)
