-- expect-exit: 3
-- args: --era 2009 --cpus 2 --duration 2s
-- expect-stderr: deadlock
scenario{ name = "deadlock_with_irq" }
local a = lock{ name = "A", kind = "mutex" }
local b = lock{ name = "B", kind = "mutex" }
irq{ name = "timer", every = ms(1), handler = function() compute(us(1)) end }
task{ name = "ab", run = function() down(a); compute(us(10)); down(b); up(b); up(a) end }
task{ name = "ba", run = function() down(b); compute(us(10)); down(a); up(a); up(b) end }
