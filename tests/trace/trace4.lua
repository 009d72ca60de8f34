-- trace4.lua: the trace exporters' test run.  Four tasks on two CPUs
-- (2009): a semaphore two of them contend for (a hand-off wake-up), two
-- spinlocks taken A, B and released A first (holds that overlap without
-- nesting), spinlock A wanted on both CPUs at once (one spins),
-- interrupts disabled for a while, a semaphore created taken that an
-- interrupt handler up()s (a wake-up from irq context, then a release
-- by a context that did not take it), a wait queue, a counter and a log
-- line.
scenario{ name = "trace4", title = "Trace export: waits, holds, wake-ups, an irq",
          era = "2009", cpus = 2, seed = 1 }

local sem  = lock{ name = "the_sem", kind = "semaphore" }
local a    = lock{ name = "lock_a", kind = "spinlock" }
local b    = lock{ name = "lock_b", kind = "spinlock" }
local done = lock{ name = "cmd_done", count = 0 }
local busy = counter{ name = "in_critical", unit = "tasks" }
local wq   = waitqueue{ name = "ready_wq" }
local ready = false

task{ name = "holder", cpu = 0, run = function()
  down(sem)
  counter_add(busy, 1)
  compute(us(40))
  counter_add(busy, -1)
  up(sem)
  down(a)
  compute(us(5))
  down(b)
  compute(us(5))
  up(a)
  compute(us(5))
  up(b)
  ready = true
  wake_up(wq)
end }

task{ name = "sleeper", cpu = 1, start = us(5), run = function()
  down(sem)
  counter_add(busy, 1)
  compute(us(10))
  counter_add(busy, -1)
  up(sem)
  wait_event(wq, function() return ready end)
  log("sleeper saw ready")
end }

task{ name = "spinner", cpu = 1, start = us(20), run = function()
  compute(us(22))
  down(a)                    -- wanted by the holder on CPU0 at the same time
  compute(us(2))
  up(a)
  local_irq_disable()
  compute(us(3))
  local_irq_enable()
end }

task{ name = "issuer", cpu = 1, start = us(2), run = function()
  down(done)                 -- sleeps until the interrupt's up()
  compute(us(5))
end }                        -- the interrupt's next up() retires its hold

irq{ name = "disk", cpu = 0, every = us(30), handler = function()
  compute(us(2))
  up(done)
end }
