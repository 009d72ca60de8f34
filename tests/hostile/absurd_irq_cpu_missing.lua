-- expect-exit: 2
-- args: --cpus 2 --era 2023
-- expect-stderr: absurd_irq_cpu_missing\.lua(:[0-9]+)?: irq 'i' is wired to CPU 1023, but the run has 2 CPUs
-- An interrupt wired to a CPU the run does not have (known only once the
-- CPU count is, so the message has the file but no line).
scenario{ name = "absurd_irq_cpu_missing" }
task{ name = "t", run = function() compute(ms(1)) end }
irq{ name = "i", cpu = 1023, every = us(100), handler = function() end }
