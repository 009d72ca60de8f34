-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: loop_irq_handler\.lua:8: instruction budget of 1000000 exceeded
-- An interrupt handler that never returns: simulated time stands still,
-- only the instruction budget can end it, at the handler's line.
scenario{ name = "loop_irq_handler" }
task{ name = "t", run = function() compute(ms(1)) end }
irq{ name = "timer", every = us(100), handler = function() while true do end end }
