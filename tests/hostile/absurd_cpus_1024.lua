-- expect-exit: 0
-- args: --cpus 1024 --era 2023
-- expect-stdout: 1024 CPUs
-- Legitimately accepted: the most CPUs, 1024, with a task on the last one
-- and an interrupt on it too.
scenario{ name = "absurd_cpus_1024" }
task{ name = "t", cpu = 1023, run = function() compute(ms(1)) end }
irq{ name = "i", cpu = 1023, every = us(100), handler = function() end }
