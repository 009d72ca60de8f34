-- expect-exit: 2
-- expect-stderr: sandbox_io_irq\.lua:7: attempt to index a nil value \(global 'io'\)
-- No io library from an interrupt handler either.
scenario{ name = "sandbox_io_irq" }
task{ name = "t", run = function() compute(ms(1)) end }
irq{ name = "timer", every = us(100), handler = function()
  io.write("hello")
end }
