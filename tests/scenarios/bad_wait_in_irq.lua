-- expect-exit: 2
-- expect-stderr: bad_wait_in_irq\.lua:8: wait_event\(\) called from interrupt handler
-- wait_event() from an interrupt handler.
scenario{ name = "bad_wait_in_irq" }
local wq = waitqueue{ name = "wq" }
task{ name = "t", run = function() compute(ms(1)) end }
irq{ name = "timer", every = us(100), handler = function()
  wait_event(wq, function() return false end)
end }
