-- expect-exit: 2
-- expect-stderr: error_table_irq\.lua:6: error raised with a table value instead of a message
-- A table raised from an interrupt handler.
scenario{ name = "error_table_irq" }
task{ name = "t", run = function() compute(ms(1)) end }
irq{ name = "i", every = us(100), handler = function() error({}) end }
