-- expect-exit: 2
-- expect-stderr: numbers_irq_start_neghuge\.lua:5: irq\{\}: 'start' must be a whole number of nanoseconds, got -inf
-- A start at minus infinity.
scenario{ name = "numbers_irq_start_neghuge" }
irq{ name = "i", every = us(100), start = -math.huge, handler = function() end }
