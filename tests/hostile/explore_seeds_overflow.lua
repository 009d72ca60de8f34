-- expect-exit: 2
-- command: explore
-- args: --seeds 0..18446744073709551615 --goal deadlock
-- expect-stderr: --seeds
-- explore --seeds over the whole 64-bit range: refused as more than
-- 1,000,000 seeds (hi - lo is compared before adding 1, so it cannot wrap
-- to 0 and loop forever).
scenario{ name = "explore_seeds_overflow" }
task{ name = "t", run = function() compute(us(1)) end }
