-- expect-exit: 2
-- command: explore
-- args: --seeds 0..18446744073709551615 --goal deadlock
-- expect-stderr: --seeds
-- FIXED (was pending): -- HANG (engine bug).  explore's "at most 1,000,000 seeds" check computes
-- hi - lo + 1, which is 0 for 0..2^64-1: the check passes and explore
-- runs seed after seed (and `s <= seed_hi` never fails, s wraps around).
-- Seeds above 2^63-1 are also accepted here, though --seed refuses them.
-- Fix (compare.c): refuse hi - lo >= 1000000 before adding 1.
scenario{ name = "explore_seeds_overflow" }
task{ name = "t", run = function() compute(us(1)) end }
