-- expect-exit: 2
-- expect-stderr: numbers_irq_jitter_nan\.lua:5: irq\{\}: 'jitter' must be a whole number of nanoseconds, got -?nan
-- A jitter of NaN.
scenario{ name = "numbers_irq_jitter_nan" }
irq{ name = "i", every = us(100), jitter = 0/0, handler = function() end }
