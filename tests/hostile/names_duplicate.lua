-- expect-exit: 2
-- expect-stderr: names_duplicate\.lua:6: irq\{\}: a irq named 'i' is already declared
-- Two interrupts with one name.
scenario{ name = "names_duplicate" }
irq{ name = "i", every = 100, handler = function() end }
irq{ name = "i", every = 100, handler = function() end }
