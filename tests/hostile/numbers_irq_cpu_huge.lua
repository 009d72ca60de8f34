-- expect-exit: 2
-- expect-stderr: numbers_irq_cpu_huge\.lua:5: irq\{\}: 'cpu' must be an integer, got inf
-- An interrupt wired to CPU infinity.
scenario{ name = "numbers_irq_cpu_huge" }
irq{ name = "i", cpu = math.huge, every = us(100), handler = function() end }
