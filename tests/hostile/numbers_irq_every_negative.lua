-- expect-exit: 2
-- expect-stderr: numbers_irq_every_negative\.lua:5: irq\{\}: 'every' must not be negative, got -1
-- A negative period.
scenario{ name = "numbers_irq_every_negative" }
irq{ name = "i", every = -1, handler = function() end }
