-- expect-exit: 2
-- expect-stderr: numbers_irq_every_zero\.lua:5: irq\{\}: 'every' must be at least 100 ns, got 0
-- A period of zero: an interrupt storm with no time between.
scenario{ name = "numbers_irq_every_zero" }
irq{ name = "i", every = 0, handler = function() end }
