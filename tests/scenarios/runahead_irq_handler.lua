-- expect-exit: 1
-- args: --era 2023 --cpus 2 --report json
-- expect-stdout: "lost-update"
-- Two tasks in lockstep on two CPUs (every segment end ties with the other
-- CPU's: no run-ahead) race on a variable with add(), whose write happens
-- at the end of its segment; an interrupt handler runs ahead through its
-- own computes and adds.  Lost updates are found, the same ones with or
-- without run-ahead (tests/run_runahead.sh compares the reports).
scenario{ name = "runahead_irq_handler" }
local v = var{ name = "v" }
local irqs = counter{ name = "irqs" }
irq{ name = "dev", cpu = 0, every = us(3), jitter = 500, handler = function()
  compute(100)
  add(v, 1000)
  compute(50)
  counter_add(irqs, 1)
end }
for i = 0, 1 do
  task{ name = "t" .. i, cpu = i, run = function()
    for _ = 1, 300 do compute(100); add(v, 1) end
  end }
end
check(function(r)
  return r.counters.irqs.value > 0, r.counters.irqs.value .. " interrupts handled"
end)
