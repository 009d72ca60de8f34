-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: pcall_retry_irq\.lua:[0-9]+: instruction budget of 1000000 exceeded
-- An interrupt handler that swallows the budget error and returns
-- normally, so that the next interrupt can try again.
scenario{ name = "pcall_retry_irq" }
task{ name = "t", run = function() compute(ms(10)) end }
irq{ name = "timer", every = us(100), handler = function()
  pcall(function() while true do end end)
end }
