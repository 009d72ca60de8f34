-- sleep_on_1991.lua: the 0.01 idiom for waiting on an interrupt,
--     cli(); while (!buffer_ready) sleep_on(&wait); sti();
-- The test and the sleep happen with interrupts off, so the interrupt that
-- sets the flag cannot slip in between them (a lost wake-up).  Sleeping
-- with interrupts off was legal: the flag belongs to the task, and the next
-- task runs with interrupts on.  Kernels with a might_sleep() check (2.6
-- on) report it as sleeping while atomic: try --era 2.6.0.
scenario{
  name = "sleep_on_1991",
  title = "cli(); while (!ready) sleep_on(&wq); sti();",
  era = "1991",
}

local wq    = waitqueue{ name = "buffer_wait" }
local ready = false                       -- set by the interrupt handler
local reads = atomic{ name = "blocks_read" }

task{ name = "bread", run = function()
  for k = 1, 5 do
    ready = false
    compute(us(100))                      -- start the disk controller
    local_irq_disable()                   -- cli()
    wait_event(wq, function() return ready end)   -- while (!ready) sleep_on()
    local_irq_enable()                    -- sti()
    atomic_inc(reads)
  end
end }

task{ name = "update", run = function()   -- something else to run meanwhile
  for k = 1, 20 do compute(us(200)) sleep(us(300)) end
end }

irq{ name = "hd", every = us(700), handler = function()
  ready = true
  wake_up(wq)
end }

check(function(r)
  return r.atomics.blocks_read == 5, r.atomics.blocks_read .. " blocks read"
end)
