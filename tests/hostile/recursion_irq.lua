-- expect-exit: 2
-- expect-stderr: recursion_irq\.lua:7: stack overflow
-- Runaway recursion inside an interrupt handler.
scenario{ name = "recursion_irq" }
task{ name = "t", run = function() compute(ms(1)) end }
irq{ name = "timer", every = us(100), handler = function()
  local function f(n) return 1 + f(n + 1) end
  f(1)
end }
