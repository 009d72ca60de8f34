-- expect-exit: 0
-- expect-stdout: cpu0 +25\.0% +0\.0% +0\.0% +0\.0% +0\.0% +75\.0%
-- An interrupt whose start and period are 2^62 each: its first arrival,
-- start + every, was summed without saturation and landed at a negative
-- time, so the report showed "irq 47.4%, idle -31.6%" for an interrupt
-- that never comes.  Every later arrival was already saturated.
-- FIXED: the first arrival saturates too (issue 28, class 18).
scenario{ name = "numbers_irq_first_arrival_overflow", cpus = 1, duration = 1 << 62 }
task{ name = "t", run = function() compute(1000) end }
irq{ name = "late", every = 1 << 62, start = 1 << 62, handler = function() end }
