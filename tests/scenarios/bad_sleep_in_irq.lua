-- expect-exit: 2
-- expect-stderr: bad_sleep_in_irq\.lua:7: .*interrupt handler
-- sleep() from an interrupt handler.
scenario{ name = "bad_sleep_in_irq" }
task{ name = "t", run = function() compute(ms(1)) end }
irq{ name = "timer", every = us(100), handler = function()
  sleep(us(10))
end }
